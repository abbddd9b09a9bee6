#!/usr/bin/env bash
# SPHERIC 2 (scenes/dambreak3d.ini) at dp = 0.01, float, on the GPU to 1.535 s (the goal table's 1.5 s on
# the experiment's clock, 30 ms later on the run's) for a few wall / pressure variants of issue 12 (docs/
# physics.md, "tenth session"), each with the scene's probes and gauges sampled every 1 ms as
# Spheric2.GoalTableGpu samples them. Per variant NAME: OUTDIR/NAME.csv (probe CSV), OUTDIR/NAME.txt (the
# run's log: its last lines say how it ended, a blow-up report included); then OUTDIR/summary.md, the
# goal table of every variant (scripts/spheric2-figures.py, where numpy is; a run that stopped early has
# "-" where its series ends).
#
# usage: scripts/spheric2-variants.sh EJECTA_BIN OUTDIR [NAME ...]
#   Runs EJECTA_BIN through .gpu/run when that exists. NAMEs pick variants from scripts/spheric2-variant-sets.sh
#   (one name list with the 2D proxy, scripts/spheric2-proxy2d.sh; '+' joins names, e.g. wl-cf0.008+cfl0.19; default:
#   wn-wall05 wn-wall03 wn-free wn-free-wd, in that order; no variant starts after EJECTA_BUDGET_S,
#   170 s, so that the whole stays near 4 minutes; wn-free stops near 1.24 s, its log says where). The
#   first GPU call of the tenth session had wn-wall01 wn-free-wd wn-free-r2 wn-wall003. EJECTA_BACKEND (cuda), EJECTA_DP (0.01) and
#   EJECTA_UNTIL (1.535) change the backend, spacing and end (a CPU check: EJECTA_BACKEND=cpu
#   EJECTA_DP=0.05 EJECTA_UNTIL=0.2). fluid.wall_diffusion (the *-wd variants) is this branch's key: a
#   binary without it stops those variants at once with an unknown-key error. wl-cfC (the eleventh
#   session's wall law, boundary.slip = wall_law with boundary.friction = C) needs this branch's binary too.
#   On the H200 (lead): scripts/spheric2-variants.sh build-gpu/ejecta "$OUT"
#   Each dp = 0.01 variant runs about 50-60 s on the H200 (the ninth session's 21 s per 0.55 s), the
#   h/dp = 2 one about 2.5 times that.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 EJECTA_BIN OUTDIR [NAME ...]" >&2; exit 2; }
bin=$1; out=$2; shift 2
[ -x "$bin" ] || { echo "spheric2-variants: $bin is not an executable" >&2; exit 2; }
mkdir -p "$out"
backend=${EJECTA_BACKEND:-cuda}
dp=${EJECTA_DP:-0.01}; until=${EJECTA_UNTIL:-1.535}; budget=${EJECTA_BUDGET_S:-170}

# The variants: NAME and its --set KEY=VALUE list, on top of the scene's defaults (one list for 3D and the
# 2D proxy: scripts/spheric2-variant-sets.sh; names join with '+').
source "$(dirname "$0")/spheric2-variant-sets.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(wn-wall05 wn-wall03 wn-free wn-free-wd)

specs=(); t0=$(date +%s)
for name in "${names[@]}"; do
  if [ $(( $(date +%s) - t0 )) -gt "$budget" ]; then
    echo "== $name: not started (past EJECTA_BUDGET_S = $budget s)" | tee "$out/$name.txt"; continue
  fi
  variant "$name" > /dev/null || { echo "spheric2-variants: unknown variant $name" >&2; exit 2; }
  args=("$bin" scenes/dambreak3d.ini --headless --backend "$backend" --precision float --set particles.dp="$dp"
        --until "$until")
  for k in 1 2 3 4 5 6 7 8; do args+=(--set "probe.$k.interval=0.001"); done
  for k in 1 2 3 4; do args+=(--set "gauge.$k.interval=0.001"); done
  run_variant "$name" "$out" "${args[@]}"
  tail -n 3 "$out/$name.txt" | head -n 2
  [ -s "$out/$name.csv" ] && specs+=("$name=$out/$name.csv")
done

{
  echo "# SPHERIC 2 variants, dp = $dp, $backend, float, to $until s"
  for name in "${names[@]}"; do echo "- $name: $(variant "$name"); $(tail -1 "$out/$name.txt")"; done
  echo
  # (needs numpy; without it, run the same command where numpy is, on the CSVs that came back)
  [ ${#specs[@]} -gt 0 ] && { python3 scripts/spheric2-figures.py "${specs[@]}" ||
    echo "figures: python3 scripts/spheric2-figures.py ${specs[*]}"; }
} > "$out/summary.md" 2>&1
cat "$out/summary.md"
