#!/usr/bin/env bash
# The 2D SPHERIC 2 slice released by a lifted gate (scenes/spheric2_slice2d_gate.ini; docs/physics.md,
# "Thirteenth session"): per run SPEC, the scene to EJECTA_UNTIL (0.56 s) recorded every 1 ms, its frames
# exported, and OUTDIR/summary.md: H3 and H2 (0.5 / 4 cm passages, rise), P1 (arrival, 5 ms peak,
# minimum) and the H4 clock fit of every run (scripts/spheric2-frames2d.py).
#
# usage: scripts/spheric2-gate2d.sh EJECTA_BIN OUTDIR [SPEC ...]
#   SPEC is the gate's lifting speed in m/s (100: gone in 7 ms, the instantaneous release), with
#   ":free" for free-slip walls (boundary.slip = free); default: 3 3:free 100. One run takes 4-5 min on
#   one core at dp = 0.01 and keeps about 200 MB of frames under OUTDIR/SPEC/ (deleted with
#   EJECTA_KEEP_FRAMES=0). EJECTA_THREADS (1) and EJECTA_DP (0.01; the gate and the box too) change the run.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 EJECTA_BIN OUTDIR [SPEC ...]" >&2; exit 2; }
bin=$1; out=$2; shift 2
[ -x "$bin" ] || { echo "spheric2-gate2d: $bin is not an executable" >&2; exit 2; }
here=$(dirname "$0")
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(3 3:free 100)
dp=${EJECTA_DP:-0.01}
mkdir -p "$out"
dirs=()
for spec in "${specs[@]}"; do
  speed=${spec%%:*}
  [[ $speed =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "spheric2-gate2d: bad SPEC $spec" >&2; exit 2; }
  args=(--set "solid_block.1.velocity=0, $speed" --set "particles.dp=$dp" --set "solid_block.1.dp=$dp"
        --set "solid_block.2.dp=$dp")
  [[ $spec == *:free ]] && args+=(--set boundary.slip=free)
  name=gate${spec/:/-}
  echo "== $name: ${args[*]}" | tee "$out/$name.txt"
  "$bin" "$here/../scenes/spheric2_slice2d_gate.ini" --headless --threads "${EJECTA_THREADS:-1}" --precision float \
    --until "${EJECTA_UNTIL:-0.56}" "${args[@]}" --record "$out/$name.h5" --record-every 0.001 \
    --record-fields position,velocity,pressure,density,kind >> "$out/$name.txt" 2>&1 ||
    { echo "== $name: stopped (rc $?)" | tee -a "$out/$name.txt"; continue; }
  mkdir -p "$out/$name"
  "$bin" export "$out/$name.h5" --particles --all --output "$out/$name/f.csv" >> "$out/$name.txt" 2>&1
  dirs+=("$name=$out/$name")
done
[ ${#dirs[@]} -gt 0 ] && python3 "$here/spheric2-frames2d.py" --dt 0.001 --dp "$dp" "${dirs[@]}" | tee "$out/summary.md"
if [ "${EJECTA_KEEP_FRAMES:-1}" = 0 ]; then
  for d in "${dirs[@]}"; do rm -rf "${d#*=}"; done
fi
