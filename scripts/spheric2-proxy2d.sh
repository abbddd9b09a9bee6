#!/usr/bin/env bash
# The 2D proxy of SPHERIC 2's impact (scenes/spheric2_slice2d.ini, docs/physics.md, "twelfth session: a
# 2D proxy of the impact"): the x-z slice through the box at dp = 0.01 to 0.55 s for named variants, the
# probes and gauges every 1 ms. Per variant NAME: OUTDIR/NAME.csv (probe CSV), OUTDIR/NAME.txt (the run's
# log), then OUTDIR/summary.md: the impact figures of every variant (scripts/spheric2-proxy2d.py: P1
# arrival, 5 ms peak, raw maximum, minimum 0.43-0.50 s, the ringing's period and amplitude).
#
# usage: scripts/spheric2-proxy2d.sh EJECTA_BIN OUTDIR [NAME ...]
#   NAMEs are those of scripts/spheric2-variant-sets.sh (the 3D script's list; '+' joins them, e.g.
#   wn-free+c0-66); default: defaults wn-free wn-wall05 wl-cf0.01. Runs EJECTA_BIN through .gpu/run when
#   that exists. EJECTA_BACKEND (cpu), EJECTA_DP (0.01), EJECTA_UNTIL (0.55), EJECTA_THREADS (unset: the
#   backend's default) and EJECTA_PRECISION (float) change the run; no variant starts after EJECTA_BUDGET_S
#   (100000 s; 200 s keeps a GPU call near 4 minutes). On the CPU at dp = 0.01 a variant takes about
#   1-2 min on one core (h/dp = 2 about twice that); dp = 0.005 four to eight times that.
#   On the H200 (lead): EJECTA_BACKEND=cuda EJECTA_DP=0.0025 EJECTA_BUDGET_S=200 \
#     scripts/spheric2-proxy2d.sh build-gpu/ejecta "$OUT" defaults wn-free ...
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 EJECTA_BIN OUTDIR [NAME ...]" >&2; exit 2; }
bin=$1; out=$2; shift 2
[ -x "$bin" ] || { echo "spheric2-proxy2d: $bin is not an executable" >&2; exit 2; }
mkdir -p "$out"
here=$(dirname "$0")
spheric2_dim=2  # the variants' gate box in the slice's axes (spheric2-variant-sets.sh)
source "$here/spheric2-variant-sets.sh"
backend=${EJECTA_BACKEND:-cpu}; precision=${EJECTA_PRECISION:-float}
dp=${EJECTA_DP:-0.01}; until=${EJECTA_UNTIL:-0.55}; budget=${EJECTA_BUDGET_S:-100000}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(defaults wn-free wn-wall05 wl-cf0.01)
for name in "${names[@]}"; do variant "$name" > /dev/null || { echo "spheric2-proxy2d: unknown variant $name" >&2; exit 2; }; done

specs=(); t0=$(date +%s)
for name in "${names[@]}"; do
  if [ $(( $(date +%s) - t0 )) -gt "$budget" ]; then
    echo "== $name: not started (past EJECTA_BUDGET_S = $budget s)" | tee "$out/$name.txt"; continue
  fi
  args=("$bin" "$here/../scenes/spheric2_slice2d.ini" --headless --backend "$backend" --precision "$precision"
        --set particles.dp="$dp" --until "$until")
  [ -n "${EJECTA_THREADS:-}" ] && args+=(--threads "$EJECTA_THREADS")
  run_variant "$name" "$out" "${args[@]}"
  [ -s "$out/$name.csv" ] && specs+=("$name=$out/$name.csv")
done

{
  echo "# SPHERIC 2 2D proxy (scenes/spheric2_slice2d.ini), dp = $dp, $backend, $precision, to $until s"
  for name in "${names[@]}"; do echo "- $name: $(variant "$name"); $(tail -1 "$out/$name.txt")"; done
  echo
  [ ${#specs[@]} -gt 0 ] && { python3 "$here/spheric2-proxy2d.py" "${specs[@]}" ||
    echo "figures: python3 scripts/spheric2-proxy2d.py ${specs[*]}"; }
} > "$out/summary.md" 2>&1
cat "$out/summary.md"
