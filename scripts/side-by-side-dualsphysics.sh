#!/usr/bin/env bash
# On the GPU host: DualSPHysics and Ejecta on SPHERIC benchmark 2, side by side in one run, so that every
# speed ratio of issue 18 comes from the same machine, driver and moment. The peer is never part of
# Ejecta: pass its folder (../shared/peers/dualsphysics copied into an ignored folder and carried).
# usage: scripts/side-by-side-dualsphysics.sh PEERDIR BIN_DIR OUTDIR [SIZES]
#   SIZES: 01M, 04M or "01M 04M" (default both). Runs DualSPHysics over 0.2 s (01M) / 0.1 s (04M),
#   then `ejecta --benchmark` at the peer's settings (h/dp 2, Wendland, 4 wall layers, c0 = 20 sqrt(g H))
#   and at Ejecta's defaults, and the default scene over 0.2 physical seconds at dp = 0.01.
# Writes OUTDIR/dsph-SIZE.txt (the peer's log), OUTDIR/ejecta-*.jsonl and OUTDIR/side-by-side.txt.
# EJECTA_SETS: extra `--set key=value` words for every Ejecta run (e.g. "--set fluid.force_kernel=cell_blocks");
# EJECTA_KERNELS: a list of fluid.force_kernel values, each benchmarked at the peer's settings in turn
# (default: the binary's default only).
# EJECTA_VARIANTS: a list of comma-separated key=value sets (e.g. "default fluid.force_threads=fluid
# fluid.force_registers=64,fluid.force_threads=fluid"), each benchmarked at the peer's settings in turn,
# after the kernels (issue 18's A/B switches).
set -uo pipefail
read -r -a extra <<< "${EJECTA_SETS:-}"
peer=$(cd "$1" && pwd); bin=$2; out=$3; sizes=${4:-"01M 04M"}
mkdir -p "$out"
run() { if [ -x .gpu/run ]; then .gpu/run "$@"; else "$@"; fi; }
declare -A tmax=([01M]=0.2 [04M]=0.1) target=([01M]=1.116e6 [04M]=4.36e6)
# c0 = 20 sqrt(g H), H = 0.55 m: the peer's coefficient (Spheric2Dam_*.xml, coefsound 20).
c0_peer=$(awk 'BEGIN { printf "%.4f", 20 * sqrt(9.81 * 0.55) }')
# One Ejecta benchmark at the peer's settings: SIZE, file TAG, LABEL for the summary, extra --set words.
peer_settings() {
  local s=$1 tag=$2 label=$3; shift 3
  run "$bin/ejecta" --benchmark --backend cuda --benchmark-sizes "${target[$s]}" --json \
    --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer" "${extra[@]}" "$@" \
    > "$out/ejecta-peer-settings-$s-$tag.jsonl" 2>> "$out/side-by-side.txt"
  echo "Ejecta $s at the peer's settings, $label: $(tail -1 "$out/ejecta-peer-settings-$s-$tag.jsonl")" \
    >> "$out/side-by-side.txt"
}
{
  echo "# side by side, $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  run "$bin/ejecta" --version | head -1
} > "$out/side-by-side.txt"
for s in $sizes; do
  bash "$peer/run-spheric2.sh" "$peer" "$s" "${tmax[$s]}" "$out/dsph-$s.txt" > /dev/null 2>&1
  # CF-Forces is the peer's force timer over the run; symplectic = 2 force passes per step.
  steps=$(grep -m1 -oE "Steps per second[^0-9]*[0-9.e+]+" "$out/dsph-$s.txt" | grep -oE "[0-9.e+]+$")
  wall=$(grep -m1 -oE "Time per second of simulation[^0-9]*[0-9.e+]+" "$out/dsph-$s.txt" | grep -oE "[0-9.e+]+$")
  echo "DualSPHysics $s: steps/s $steps, wall s per physical s $wall" >> "$out/side-by-side.txt"
  grep -E "CF-Forces|Particles" "$out/dsph-$s.txt" | head -4 >> "$out/side-by-side.txt"
  for k in ${EJECTA_KERNELS:-default}; do
    kset=(); [ "$k" = default ] || kset=(--set fluid.force_kernel="$k")
    peer_settings "$s" "$k" "force kernel $k" "${kset[@]}"
  done
  for v in ${EJECTA_VARIANTS:-}; do
    vset=(); [ "$v" = default ] || for kv in ${v//,/ }; do vset+=(--set "$kv"); done
    peer_settings "$s" "${v//[^A-Za-z0-9=._-]/_}" "$v" "${vset[@]}"
  done
  run "$bin/ejecta" --benchmark --backend cuda --benchmark-sizes "${target[$s]}" --json "${extra[@]}" \
    > "$out/ejecta-defaults-$s.jsonl" 2>> "$out/side-by-side.txt"
  echo "Ejecta $s at its defaults: $(tail -1 "$out/ejecta-defaults-$s.jsonl")" >> "$out/side-by-side.txt"
done
# Wall time per physical second at Ejecta's defaults, dp = 0.01, over the peer's 0.2 s window.
run "$bin/ejecta" scenes/dambreak3d.ini --headless --backend cuda --set particles.dp=0.01 --until 0.2 --no-probes \
  "${extra[@]}" --json > "$out/ejecta-spheric2-0.2s.json" 2>&1
# wall_s of the summary: the stepping alone (setup excluded, as the peer's figure excludes GenCase).
wall=$(grep -oE '"wall_s": *[0-9.e+-]+' "$out/ejecta-spheric2-0.2s.json" | tail -1 | grep -oE '[0-9.e+-]+$')
awk -v w="$wall" 'BEGIN { printf "Ejecta defaults dp 0.01, 0.2 s: %.1f wall s per physical s\n", w / 0.2 }' \
  >> "$out/side-by-side.txt"
cat "$out/side-by-side.txt"
