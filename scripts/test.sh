#!/usr/bin/env bash
# Installs what is missing, builds Ejecta (the CUDA backend too when nvcc is found) and runs the whole
# test suite on the CPU backend. GPU tests skip, saying why, where no CUDA device is present.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash scripts/install-deps.sh
build=${EJECTA_BUILD_DIR:-build}
# With the MPI build (OpenMPI, from install-deps.sh) the suite includes the distributed runs (label mpi);
# EJECTA_CMAKE_ARGS=-DEJECTA_MPI=OFF leaves them out.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEJECTA_MPI=ON ${EJECTA_CMAKE_ARGS:-}
cmake --build "$build" --parallel "$(nproc)"
# One OpenMP thread per test and one test per core: no oversubscribed OpenMP barriers.
cd "$build"
# The viewer's window test needs a display: without one, the suite runs inside a virtual X server
# (Xvfb, Mesa's llvmpipe). The offscreen rendering tests need none (EGL), but run there as well.
# EJECTA_REQUIRE_GL=1 (CI) makes "no GL context / no display" a failure rather than a skip.
xvfb=()
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run > /dev/null; then xvfb=(xvfb-run -a -s "-screen 0 1280x1024x24"); fi
# A fresh build has no ctest cost data, so ctest would start the tests in file order and a long
# validation run started late would leave one core idle at the end: seed it with the last measured
# costs (tests/ctest-cost-seed.txt, seconds of one core; ctest then starts the longest first and keeps
# its own figures from then on). Only the order changes.
mkdir -p Testing/Temporary
[ -s Testing/Temporary/CTestCostData.txt ] || cp "$root/tests/ctest-cost-seed.txt" Testing/Temporary/CTestCostData.txt
OMP_NUM_THREADS=1 "${xvfb[@]}" ctest --output-on-failure --parallel "$(nproc)" --timeout 900
