#!/usr/bin/env bash
# Installs what is missing, builds Ejecta and runs the default scene (a 2D dam break). Extra arguments
# go to ejecta, e.g. scripts/run.sh scenes/dambreak3d.ini --until 0.5
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${EJECTA_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${EJECTA_CMAKE_ARGS:-}
cmake --build "$build" --parallel "$(nproc)" --target ejecta
# A window where there is a display (the viewer, when built), headless elsewhere.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/ejecta" "$@"
else
  exec "$build/ejecta" --headless "$@"
fi
