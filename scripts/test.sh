#!/usr/bin/env bash
# Installs what is missing, builds Ejecta (the CUDA backend too when nvcc is found) and runs the whole
# test suite on the CPU backend. GPU tests skip, saying why, where no CUDA device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${EJECTA_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${EJECTA_CMAKE_ARGS:-}
cmake --build "$build" --parallel "$(nproc)"
# One OpenMP thread per test and one test per core: no oversubscribed OpenMP barriers.
cd "$build"
OMP_NUM_THREADS=1 ctest --output-on-failure --parallel "$(nproc)" --timeout 900
