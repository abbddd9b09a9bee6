#!/usr/bin/env bash
# On the GPU host (issue 18): the liquid force pass of two Ejecta binaries side by side in one call, the
# second one with each neighbour record of the force pass (fluid.neighbour_record: arrays, packed,
# packed_eos), and optionally DualSPHysics at 1.1M in the same call (scripts/side-by-side-dualsphysics.sh).
# usage: scripts/side-by-side-records.sh BASE_BIN NEW_BIN OUTDIR [PEERDIR]
#   BASE_BIN: a folder with the reference ejecta (e.g. main's build, which has no such key);
#   NEW_BIN: a folder with the ejecta under test. Three configurations, each binary in turn:
#   the default 3D dam break at 1M and 4M (float), the peer's settings at 1.1M (h/dp 2, 4 wall layers,
#   c0 = 20 sqrt(g H)), and double at 1M.
# Writes OUTDIR/*.jsonl and OUTDIR/records.txt (one line per run: forces ms, particle-steps/s, bytes
# per particle).
set -uo pipefail
base=$1; new=$2; out=$3; peer=${4:-}
mkdir -p "$out"
run() { if [ -x .gpu/run ]; then .gpu/run "$@"; else "$@"; fi; }
c0_peer=$(awk 'BEGIN { printf "%.4f", 20 * sqrt(9.81 * 0.55) }')
declare -A cfg=(
  [dam]="--benchmark-sizes 1e6,4e6"
  [peer]="--benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0=$c0_peer"
  [double]="--benchmark-sizes 1e6 --precision double"
)
summary() {  # label file
  awk -v l="$1" '{
    f = $0; ms = f; ps = f; bp = f; n = f
    sub(/.*"ms_forces": */, "", ms); sub(/,.*/, "", ms)
    sub(/.*"particle_steps_per_s": */, "", ps); sub(/,.*/, "", ps)
    sub(/.*"bytes_per_particle": */, "", bp); sub(/[,}].*/, "", bp)
    sub(/.*"particles": */, "", n); sub(/,.*/, "", n)
    printf "%-28s particles %9d  forces %7.3f ms  %.3e particle-steps/s  %.1f B/particle\n", l, n, ms, ps, bp
  }' "$2"
}
{
  echo "# records side by side, $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  echo "base: $(run "$base/ejecta" --version | head -1)"
  echo "new:  $(run "$new/ejecta" --version | head -1)"
} > "$out/records.txt"
for c in dam peer double; do
  # shellcheck disable=SC2086
  run "$base/ejecta" --benchmark --backend cuda --json ${cfg[$c]} > "$out/base-$c.jsonl" 2> "$out/base-$c.err"
  summary "base $c" "$out/base-$c.jsonl" >> "$out/records.txt"
  for r in arrays packed packed_eos; do
    # shellcheck disable=SC2086
    run "$new/ejecta" --benchmark --backend cuda --json ${cfg[$c]} --set fluid.neighbour_record=$r \
      > "$out/new-$c-$r.jsonl" 2> "$out/new-$c-$r.err"
    summary "new $c $r" "$out/new-$c-$r.jsonl" >> "$out/records.txt"
  done
done
if [ -n "$peer" ]; then
  scripts/side-by-side-dualsphysics.sh "$peer" "$new" "$out/dualsphysics" 01M > /dev/null 2>&1
  grep -E "DualSPHysics|CF-Forces|peer's settings" "$out/dualsphysics/side-by-side.txt" >> "$out/records.txt"
fi
cat "$out/records.txt"
