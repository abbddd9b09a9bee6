# The SPHERIC 2 variants of issue 12 (docs/physics.md, tenth to twelfth sessions): `variant NAME` prints
# NAME's --set KEY=VALUE list (';'-separated) on top of the scene's defaults, or returns 1 for an unknown
# NAME. NAME may join several with '+' (wn-free+c0-66: both lists, in that order; a later key wins).
# Sourced by scripts/spheric2-variants.sh (3D, scenes/dambreak3d.ini) and scripts/spheric2-proxy2d.sh
# (the 2D slice, scenes/spheric2_slice2d.ini), so one name means one setting in both.
wn="boundary.model=mdbc_english2022;fluid.pressure_term=zhang2017_wall_normal"
variant() {
  if [[ $1 == *+* ]]; then
    local part sets="" one
    IFS='+' read -r -a parts <<< "$1"
    for part in "${parts[@]}"; do
      one=$(variant "$part") || return 1
      [ -n "$one" ] && sets="${sets:+$sets;}$one"
    done
    echo "$sets"; return 0
  fi
  case $1 in
    defaults) echo "" ;;
    # issue 18: the specialised force pass with the GPU's approximate reciprocal and square root (float),
    # and the exact specialised pass written out (for an A/B against it whichever is the default)
    fast) echo "fluid.force_specialised=fast" ;;
    exact) echo "fluid.force_specialised=defaults" ;;
    # thirteenth session: Adami's no-slip wall (the fluid's mirrored velocity in the wall's viscous term),
    # and DualSPHysics 5.0's own SPHERIC 2 case (/work/shared/peers/dualsphysics/Spheric2Dam_01M.xml: DBC
    # walls, hdp = 2 with 4 wall layers for its 2h = 4 dp support, c0 = 20 sqrt(g H) = 45.6, alpha 0.05,
    # ViscoBoundFactor 0.1; its symplectic integrator has no counterpart for the liquid, which runs the
    # leapfrog only); peer-wd adds its Fourtakas "full" diffusion against the walls (DensityDT = 3)
    noslip) echo "boundary.slip=no_slip" ;;
    # the defaults' wall and pressure keys written out, for a restart from a frame of another variant
    # (a restart keeps the recorded scene's settings unless --set changes them)
    adami-at-rest) echo "boundary.model=adami2012;fluid.pressure_term=monaghan1992;boundary.slip=at_rest;viscosity.wall_factor=1" ;;
    peer) echo "boundary.model=dbc_crespo2007;particles.h_over_dp=2;boundary.wall_layers=4;fluid.c0=45.6;viscosity.alpha=0.05;viscosity.wall_factor=0.1" ;;
    peer-wd) echo "$(variant peer);fluid.wall_diffusion=true" ;;
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
    # twelfth session's screen (one setting each, to join with '+'): the wall models and pressure terms
    wn) echo "$wn" ;;
    mdbc) echo "boundary.model=mdbc_english2022" ;;
    dbc) echo "boundary.model=dbc_crespo2007" ;;
    z17) echo "fluid.pressure_term=zhang2017" ;;
    # the sound speed (c0-45.6 is the peer's 20 sqrt(g H)), the viscosity, the density diffusion
    c0-*) local c=${1#c0-}; [[ $c =~ ^[0-9]*\.?[0-9]+$ ]] || return 1; echo "fluid.c0=$c" ;;
    a*) local a=${1#a}; [[ $a =~ ^[0-9]*\.?[0-9]+$ ]] || return 1; echo "viscosity.alpha=$a" ;;
    d*) local d=${1#d}; [[ $d =~ ^[0-9]*\.?[0-9]+$ ]] || return 1; echo "fluid.delta_sph=$d" ;;
    molteni) echo "fluid.density_diffusion=molteni2009" ;;
    wd) echo "fluid.wall_diffusion=true" ;;
    # the time step, the smoothing length (with the walls thick enough for its 2h = 4 dp support), shifting
    cfl*) local c=${1#cfl}; [[ $c =~ ^[0-9]*\.?[0-9]+$ ]] || return 1; echo "time.cfl=$c" ;;
    h2) echo "particles.h_over_dp=2;boundary.wall_layers=4" ;;
    shift*) local s=${1#shift}; [[ $s =~ ^[0-9]*\.?[0-9]+$ ]] || return 1; echo "fluid.shifting=$s" ;;
    # fourteenth session: the experiment's gate ([gate.N], a moving wall of the liquid's path), a plate 3 cm
    # thick against the water's face x = 1.992, 0.65 m high (the full width in 3D), lifted at the name's
    # speed in m/s from t = 0 (gate3: 3 m/s); the tank's top opened for it to leave through. The box's
    # axes are the scene's: spheric2_dim=2 (set by spheric2-proxy2d.sh) for the 2D slice, else 3D.
    open) echo "tank.1.open_top=true" ;;  # the gate variants' open top alone (their no-gate reference)
    # the water's face moved from x = 1.992 to 2.0: with a gate it starts 2 dp (dp = 0.01) from the gate's
    # last particle layer instead of 1, a 1 cm slot, as the mixed scene scenes/spheric2_slice2d_gate.ini
    # lays them (its lattices put the water 1.8 dp away; fourteenth session)
    gap) if [ "${spheric2_dim:-3}" = 2 ]; then echo "block.1.min=2.0,0"; else echo "block.1.min=2.0,0,0"; fi ;;
    gate*) local v=${1#gate}; [[ $v =~ ^[0-9]*\.?[0-9]+$ ]] || return 1
      if [ "${spheric2_dim:-3}" = 2 ]; then echo "tank.1.open_top=true;gate.1.min=1.962,0;gate.1.max=1.992,0.65;gate.1.velocity=0,$v"
      else echo "tank.1.open_top=true;gate.1.min=1.962,0,0;gate.1.max=1.992,1,0.65;gate.1.velocity=0,0,$v"; fi ;;
    # the same gate lifted by 0.3 m only and stopped there (gate.N.travel), the tank's top closed (the
    # raised door's top at 0.95 m stays under the roof at 1 m): lift3
    lift*) local v=${1#lift}; [[ $v =~ ^[0-9]*\.?[0-9]+$ ]] || return 1
      variant "gate$v" | sed 's/^tank.1.open_top=true;//; s/$/;gate.1.travel=0.3/' ;;
    # seventeenth session: P1-P4 also read as membranes, the load on the box's wall particles behind a patch
    # of the face (scripts/spheric2-membrane-sets.sh, P1's box with the floor's corner), sampled every 1 ms;
    # their goal-table figures: scripts/spheric2-figures.py RUN.csv@P1m
    mem) "$(dirname "${BASH_SOURCE[0]}")/spheric2-membrane-sets.sh" "${spheric2_dim:-3}" 0.001 | grep -vx -- --set |
      paste -sd';' ;;
    *) return 1 ;;
  esac
}

# run_variant NAME OUTDIR COMMAND...: runs COMMAND with NAME's --set list and --probes OUTDIR/NAME.csv
# added (through .gpu/run where that exists, as on the GPU host), its log in OUTDIR/NAME.txt between a
# "== NAME: settings" line and a "== NAME: finished|stopped (rc N) after S s" line.
run_variant() {
  local name=$1 out=$2 sets s start status; shift 2
  local args=("$@") kv=()
  sets=$(variant "$name") || { echo "unknown variant $name" >&2; return 2; }
  IFS=';' read -r -a kv <<< "$sets"
  for s in "${kv[@]}"; do [ -n "$s" ] && args+=(--set "$s"); done
  [ -x .gpu/run ] && args=(.gpu/run "${args[@]}")
  echo "== $name: ${sets:-defaults}" | tee "$out/$name.txt"
  start=$(date +%s)
  if "${args[@]}" --probes "$out/$name.csv" >> "$out/$name.txt" 2>&1; then status=finished
  else status="stopped (rc $?)"; fi
  echo "== $name: $status after $(( $(date +%s) - start )) s" | tee -a "$out/$name.txt"
}
