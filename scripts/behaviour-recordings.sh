#!/usr/bin/env bash
# Behaviour kept? Records a fixed set of short CPU runs of every model (liquid with its options, gas,
# solids, porous, self-gravity, mixed, grains, restarts) with one binary, then compares two such sets
# with h5diff and no tolerance: every dataset (fields, diagnostics) and every frame's attributes (time,
# step, dt) bit for bit; the root's provenance attributes (start date, command line, commit) are
# excluded.
#
#   scripts/behaviour-recordings.sh record BINARY DIR     # ~30 runs, 1 thread each, a few minutes
#   scripts/behaviour-recordings.sh compare DIR_A DIR_B   # exit 0 when every recording is identical
set -u
mode=${1:?record|compare}
case "$mode" in
record)
  bin=${2:?binary}; out=${3:?directory}
  mkdir -p "$out"
  fail=0
  # name | steps | record every | scene | --set overrides...
  run() {
    local name=$1 steps=$2 every=$3 scene=$4; shift 4
    local sets=()
    for s in "$@"; do sets+=(--set "$s"); done
    if ! OMP_NUM_THREADS=1 nice -n 5 "$bin" --headless --threads 1 "$scene" --steps "$steps" \
         --record "$out/$name.h5" --record-every-steps "$every" "${sets[@]}" > "$out/$name.log" 2>&1; then
      echo "FAILED: $name (see $out/$name.log)"; fail=1
    fi
  }
  restart() {  # name | from | steps | every
    local name=$1 from=$2 steps=$3 every=$4
    if ! OMP_NUM_THREADS=1 nice -n 5 "$bin" --headless --threads 1 --restart "$out/$from.h5" --steps "$steps" \
         --record "$out/$name.h5" --record-every-steps "$every" > "$out/$name.log" 2>&1; then
      echo "FAILED: $name (see $out/$name.log)"; fail=1
    fi
  }
  # The liquid (wcsph), 2D with its options, 3D coarse, double.
  run dam2d 150 50 scenes/dambreak2d.ini particles.dp=0.004
  run dam2d_xsph 150 50 scenes/dambreak2d.ini particles.dp=0.004 fluid.xsph=0.5
  run dam2d_shift 150 50 scenes/dambreak2d.ini particles.dp=0.004 fluid.shifting=0.5
  run dam2d_summ 150 50 scenes/dambreak2d.ini particles.dp=0.004 fluid.density=summation
  run dam2d_dbc 150 50 scenes/dambreak2d.ini particles.dp=0.004 boundary.model=dbc_crespo2007
  run dam2d_support 150 50 scenes/dambreak2d.ini particles.dp=0.004 fluid.neighbour_cells=support
  run dam2d_packed 150 50 scenes/dambreak2d.ini particles.dp=0.004 fluid.neighbour_record=packed_eos
  run dam2d_zhang 150 50 scenes/dambreak2d.ini particles.dp=0.004 fluid.pressure_term=zhang2017 boundary.slip=no_slip
  run dam2d_double 150 50 scenes/dambreak2d.ini particles.dp=0.004 scene.precision=double
  run dam3d 40 20 scenes/dambreak3d.ini particles.dp=0.06
  run hydro2d 100 50 scenes/hydrostatic2d.ini particles.dp=0.02
  # Gas: Sod, Sedov, cold collapse (self-gravity), wide h, the other integrators.
  run sod1d 100 50 scenes/sod1d.ini
  run sod2d 30 15 scenes/sod2d.ini
  run sedov2d 40 20 scenes/sedov2d.ini
  run sedov2d_rk23 30 15 scenes/sedov2d.ini time.integrator=rk23
  run sedov2d_pc 30 15 scenes/sedov2d.ini time.integrator=predictor_corrector
  run sedov3d 15 5 scenes/sedov3d.ini
  run cold3d 10 5 scenes/cold_collapse3d.ini
  run widegas3d 8 4 scenes/gas_wide_h3d.ini
  # Solids: elastic, plastic, damage, porous, self-gravity, 3D impact.
  run bar2d 100 50 scenes/bar2d.ini
  run tension2d 60 30 scenes/tension_bar2d.ini
  run crater2d 40 20 scenes/crater2d.ini
  run rings2d 40 20 scenes/rings2d.ini
  run porous1d 60 30 scenes/porous_planar1d.ini
  run impact3d 15 5 scenes/impact3d.ini
  run porous3d 15 5 scenes/porous_impact3d.ini
  run rubble3d 6 3 scenes/rubble_pile_disruption3d.ini
  # Mixed: liquid and solids, ocean impact, grains alone and with a liquid.
  run ocean2d 40 20 scenes/ocean_impact2d.ini
  run rock3d 10 5 scenes/rock_into_tank3d.ini
  run grains2d 100 50 scenes/grains_column2d.ini
  run grains3d 40 20 scenes/grains3d.ini
  run boulders3d 10 5 scenes/boulders_dambreak3d.ini
  # Restarts (N + N steps from the recorded frame).
  restart dam2d_restart dam2d 60 30
  restart sedov2d_restart sedov2d 20 10
  restart bar2d_restart bar2d 40 20
  restart ocean2d_restart ocean2d 20 10
  exit $fail
  ;;
compare)
  a=${2:?dir A}; b=${3:?dir B}
  fail=0; n=0
  for f in "$a"/*.h5; do
    name=$(basename "$f"); n=$((n + 1))
    if [ ! -f "$b/$name" ]; then echo "MISSING in $b: $name"; fail=1; continue; fi
    if h5diff -q --exclude-attribute / "$f" "$b/$name" > /dev/null 2>&1; then echo "same: $name"
    else echo "DIFFERENT: $name"; h5diff --exclude-attribute / "$f" "$b/$name" 2>&1 | head -5; fail=1; fi
  done
  echo "$n recordings compared; $( [ $fail = 0 ] && echo all identical || echo SOME DIFFER)"
  exit $fail
  ;;
*) echo "usage: $0 record BINARY DIR | compare DIR_A DIR_B"; exit 2 ;;
esac
