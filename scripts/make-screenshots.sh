#!/usr/bin/env bash
# The viewer screenshots of docs/viewer.md, regenerated from the binary so that they stay true: the
# window (panels included) after a scripted number of frames (--frames N --screenshot FILE), under a
# virtual X server (xvfb-run, Mesa) where there is no display, with a fresh ImGui layout.
#   viewer-dambreak2d.png  the default scene (2D dam break) running;
#   viewer-sod1d.png       a 1D scene: the profile plots with the exact Riemann solution;
#   viewer-crater2d.png    a solid scene with the crater preset (colour by damage).
# usage: scripts/make-screenshots.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-${EJECTA_BUILD_DIR:-build}}
ejecta="$(pwd)/$build/ejecta"
[ -x "$ejecta" ] || { echo "make-screenshots: no $ejecta; build first" >&2; exit 1; }
out="$(pwd)/docs/figures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xvfb=()
if [ -z "${DISPLAY:-}" ]; then
  command -v xvfb-run > /dev/null || { echo "make-screenshots: no display and no xvfb-run (apt install xvfb)" >&2; exit 1; }
  xvfb=(xvfb-run -a -s "-screen 0 1400x900x24")
fi

# NAME FRAMES [ejecta arguments]
shot() {
  local name=$1 frames=$2
  shift 2
  rm -rf "$tmp/config"
  XDG_CONFIG_HOME="$tmp/config" "${xvfb[@]}" "$ejecta" --backend cpu --width 1280 --height 800 --run \
    --frames "$frames" --screenshot "$out/viewer-$name.png" "$@" > "$tmp/$name.log" 2>&1 ||
    { cat "$tmp/$name.log" >&2; exit 1; }
  echo "make-screenshots: $out/viewer-$name.png"
}

shot dambreak2d 40 --steps-per-frame 10
shot sod1d 60 scenes/sod1d.ini --steps-per-frame 20
shot crater2d 40 scenes/crater2d.ini --steps-per-frame 4
