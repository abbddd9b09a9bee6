#!/usr/bin/env bash
# SPHERIC 2 (scenes/dambreak3d.ini) at dp = 0.01 on the GPU to 0.6 s with, beside the scene's P1-P8 and
# H1-H4, the face probes that scripts/peer-spheric2-compare.py sets against DualSPHysics's gauges
# (scripts/peer-spheric2-gauges.sh): wall probes P1w-P4w on the box face (source = walls: what the face
# feels), velocities V1, V2, V4 and a water-depth gauge Hf 2 cm in front of the face at P1's, P2's and
# P4's heights (DualSPHysics's twins sit 2 cm in front of its own face, x = 0.84).
# usage: scripts/spheric2-face-run.sh EJECTA_BIN OUT.csv [EXTRA ejecta ARGS, e.g. --set KEY=VALUE ...]
#   Runs EJECTA_BIN through .gpu/run when that exists; the summary goes to OUT.txt. EJECTA_BACKEND (cuda),
#   EJECTA_DP (0.01) and EJECTA_UNTIL (0.6 s) change the backend, spacing and end (the CPU smoke test).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 EJECTA_BIN OUT.csv [--set KEY=VALUE ...]" >&2; exit 2; }
bin=$1; csv=$2; shift 2
[ -x "$bin" ] || { echo "spheric2-face-run: $bin is not an executable" >&2; exit 2; }
run() { if [ -x .gpu/run ]; then .gpu/run "$@"; else "$@"; fi; }
backend=${EJECTA_BACKEND:-cuda}
dp=${EJECTA_DP:-0.01}; until=${EJECTA_UNTIL:-0.6}
args=(scenes/dambreak3d.ini --headless --backend "$backend" --set particles.dp="$dp" --until "$until")
k=9
for z in 0.021 0.061 0.101 0.141; do
  args+=(--set "probe.$k.position=0.8245, 0.471, $z" --set "probe.$k.source=walls" --set "probe.$k.name=P$((k - 8))w")
  k=$((k + 1))
done
for v in "V1 0.021" "V2 0.061" "V4 0.141"; do
  name=${v% *}; z=${v#* }
  args+=(--set "probe.$k.position=0.8445, 0.471, $z" --set "probe.$k.fields=velocity" --set "probe.$k.name=$name")
  k=$((k + 1))
done
args+=(--set "gauge.5.position=0.8445, 0.471, 0" --set gauge.5.name=Hf)
run "$bin" "${args[@]}" "$@" --probes "$csv" > "${csv%.csv}.txt" 2>&1 || {
  tail -20 "${csv%.csv}.txt" >&2; echo "spheric2-face-run: ejecta failed (log ${csv%.csv}.txt)" >&2; exit 1; }
tail -3 "${csv%.csv}.txt"
