#!/usr/bin/env bash
# The paper figures of docs/figures/ (docs/viewer.md, "Figures"): one of each kind, rendered headless
# with the light theme, the legend, the scene name, time stamp and scale bar, at the final state of
# each run (--until renders it whatever --render-every says):
#   dambreak2d.png  liquid: the 2D dam break (scenes/dambreak2d.ini) at t = 0.2 s, coloured by speed;
#   sod1d.png       gas: Sod's shock tube (scenes/sod1d.ini) at t = 0.2 s, profiles of density,
#                   velocity, pressure and energy against the exact Riemann solution;
#   crater2d.png    solid: the 2D crater (scenes/crater2d.ini, view preset crater) at its end, by damage.
# usage: scripts/make-figures.sh [--quick] [BUILD_DIR]   (default build; EJECTA_BACKEND=cuda for a GPU)
# --quick: the dam break at twice the particle spacing (a quarter of the particles, minutes rather than
# most of an hour on two busy CPU cores); its name line then says so.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=()
if [ "${1:-}" = "--quick" ]; then
  quick=(--set particles.dp=0.0028575 --set "scene.name=dambreak2d (dp = 2.86 mm)")
  shift
fi
build=${1:-${EJECTA_BUILD_DIR:-build}}
ejecta="$build/ejecta"
[ -x "$ejecta" ] || { echo "make-figures: no $ejecta; build first (scripts/run.sh or cmake --build $build)" >&2; exit 1; }
out=docs/figures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
backend=${EJECTA_BACKEND:-cpu}

# SCENE NAME [extra ejecta arguments]: renders the first and the final frame, keeps the final one.
figure() {
  local scene=$1 name=$2
  shift 2
  "$ejecta" "$scene" --headless --backend "$backend" --render-every 100000000 --render-dir "$tmp/$name" \
    --width 1600 --height 1000 --theme light "$@" > "$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log" >&2; exit 1; }
  local last
  last=$(ls "$tmp/$name"/frame_*.png | sort | tail -n 1)
  cp "$last" "$out/$name.png"
  echo "make-figures: $out/$name.png ($(grep -c . "$tmp/$name.log") log lines)"
}

figure scenes/dambreak2d.ini dambreak2d --sprites discs "${quick[@]}"
figure scenes/sod1d.ini sod1d
figure scenes/crater2d.ini crater2d
