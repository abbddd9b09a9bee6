#!/usr/bin/env bash
# Installs what is missing, builds Ejecta and runs the default scene (a 2D dam break). Extra arguments
# go to ejecta, e.g. scripts/run.sh scenes/dambreak3d.ini --until 0.5
#
# With a display it opens the viewer. Without one it runs headless and, for the default scene, renders
# the run to something to look at: an MP4 when ffmpeg is installed, else PNG frames (EJECTA_OUT sets
# the folder, default ejecta-out/), and prints where it is and what to try next.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${EJECTA_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${EJECTA_CMAKE_ARGS:-}
cmake --build "$build" --parallel "$(nproc)" --target ejecta
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/ejecta" "$@"
fi

echo "run.sh: no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless"
if [ $# -gt 0 ]; then
  exec "$build/ejecta" --headless "$@"
fi

# The default scene to t = 0.4 s: the surge crosses the tank, hits the far wall (between t = 0.25 and
# 0.3 s) and runs 0.17 m up it. About 15000 steps: 3 minutes on 2 busy shared cores (measured), less on
# an idle machine. One frame every 150 steps (about 100 frames, 3 s of video at 30 fps).
out=${EJECTA_OUT:-ejecta-out}
args=(--headless --until 0.4)
video="" frames=""
if [ -f "$build/app/libejecta_viewer.a" ]; then
  mkdir -p "$out"
  if command -v ffmpeg >/dev/null 2>&1; then
    video="$out/dambreak2d.mp4"
    args+=(--render-every 150 --render-video "$video" --width 960 --height 540)
  else
    frames="$out/frames"
    args+=(--render-every 150 --render-dir "$frames" --width 960 --height 540)
  fi
else
  echo "run.sh: this build has no rendering (the GL packages are missing): numbers only"
fi
"$build/ejecta" "${args[@]}"
if [ -n "$video" ]; then
  echo "run.sh: the run as a video: $video"
elif [ -n "$frames" ]; then
  echo "run.sh: the run as PNG frames (no ffmpeg for a video): $frames/"
fi
echo "run.sh: next, try: $build/ejecta scenes/dambreak3d.ini --headless --record run.h5 (then open run.xdmf in ParaView), or $build/ejecta --help"
