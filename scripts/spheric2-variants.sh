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
#   Runs EJECTA_BIN through .gpu/run when that exists. NAMEs pick variants from the list below (default:
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
run() { if [ -x .gpu/run ]; then .gpu/run "$@"; else "$@"; fi; }
backend=${EJECTA_BACKEND:-cuda}
dp=${EJECTA_DP:-0.01}; until=${EJECTA_UNTIL:-1.535}; budget=${EJECTA_BUDGET_S:-170}

# The variants: NAME and its --set KEY=VALUE list (';'-separated), on top of the scene's defaults.
wn="boundary.model=mdbc_english2022;fluid.pressure_term=zhang2017_wall_normal"
variant() {
  case $1 in
    defaults) echo "" ;;
    # ninth session's best impact, blew up at 1.237 s at dp = 0.01: the reference for the fixes below
    wn-free) echo "$wn;boundary.slip=free" ;;
    # lead 2: the at-rest wall with its viscous term scaled down
    wn-wall01) echo "$wn;boundary.slip=at_rest;viscosity.wall_factor=0.1" ;;
    wn-wall003) echo "$wn;boundary.slip=at_rest;viscosity.wall_factor=0.03" ;;
    # the wall factors that Martin & Moyce's 2D front may still allow (0.1 and free slip fail its 0.3 a band)
    wn-wall03) echo "$wn;boundary.slip=at_rest;viscosity.wall_factor=0.3" ;;
    wn-wall05) echo "$wn;boundary.slip=at_rest;viscosity.wall_factor=0.5" ;;
    # lead 1: free slip with the delta-SPH term against the walls too (fluid.wall_diffusion)
    wn-free-wd) echo "$wn;boundary.slip=free;fluid.wall_diffusion=true" ;;
    wn-wall01-wd) echo "$wn;boundary.slip=at_rest;viscosity.wall_factor=0.1;fluid.wall_diffusion=true" ;;
    # diagnostic: free slip with the fault bound at 2 (density 500-2000 kg/m^3): does the run go on past
    # the particle that left 1.5 at 1.237 s, and with what late figures (not a candidate default)
    wn-free-r2) echo "$wn;boundary.slip=free;fault.max_density_ratio=2" ;;
    # lead 3: the peer's smoothing length and wall thickness with the wall factor 0.1
    wn-wall01-h2) echo "$wn;boundary.slip=at_rest;viscosity.wall_factor=0.1;particles.h_over_dp=2;boundary.wall_layers=4" ;;
    # eleventh session: free slip for the viscosity along the wall normal and the quadratic wall drag
    # tau_w = rho C_f |u_t| u_t along the wall (boundary.slip = wall_law, physics/wall_friction.h), C_f the
    # name's number: wl-cf0.01 is C_f = 0.01 (any value in [0, 1])
    wl-cf*) local cf=${1#wl-cf}; [[ $cf =~ ^[0-9]*\.?[0-9]+$ ]] || return 1
      echo "$wn;boundary.slip=wall_law;boundary.friction=$cf" ;;
    *) return 1 ;;
  esac
}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(wn-wall05 wn-wall03 wn-free wn-free-wd)

specs=(); t0=$(date +%s)
for name in "${names[@]}"; do
  if [ $(( $(date +%s) - t0 )) -gt "$budget" ]; then
    echo "== $name: not started (past EJECTA_BUDGET_S = $budget s)" | tee "$out/$name.txt"; continue
  fi
  sets=$(variant "$name") || { echo "spheric2-variants: unknown variant $name" >&2; exit 2; }
  args=(scenes/dambreak3d.ini --headless --backend "$backend" --precision float --set particles.dp="$dp"
        --until "$until")
  for k in 1 2 3 4 5 6 7 8; do args+=(--set "probe.$k.interval=0.001"); done
  for k in 1 2 3 4; do args+=(--set "gauge.$k.interval=0.001"); done
  IFS=';' read -r -a kv <<< "$sets"
  for s in "${kv[@]}"; do [ -n "$s" ] && args+=(--set "$s"); done
  echo "== $name: ${sets:-defaults}" | tee "$out/$name.txt"
  start=$(date +%s)
  if run "$bin" "${args[@]}" --probes "$out/$name.csv" >> "$out/$name.txt" 2>&1; then status=finished
  else status="stopped (rc $?)"; fi
  echo "== $name: $status after $(( $(date +%s) - start )) s" | tee -a "$out/$name.txt"
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
