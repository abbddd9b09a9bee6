#!/usr/bin/env bash
# Runs on a GPU host (see README, GPU notes): the GPU tests and the CUDA benchmark, results under $OUT.
# usage: scripts/gpu-check.sh BIN_DIR   (a folder with ejecta and ejecta_tests, next to .gpu/)
set -uo pipefail
bin=${1:-gpu-bin}
out=${OUT:-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
EJECTA_SOURCE_DIR=$PWD EJECTA_BINARY=$PWD/$bin/ejecta .gpu/run "$bin/ejecta_tests" --gtest_filter='BackendAgreement*:Faults*:Record*:IO*:H5*' > "$out/gpu-tests.txt" 2>&1
echo "gpu tests rc=$?" >> "$out/gpu-tests.txt"
.gpu/run "$bin/ejecta" --version > "$out/version.txt" 2>&1
.gpu/run "$bin/ejecta" --benchmark --benchmark-record --backend cuda --json ${EJECTA_BENCH_ARGS:-} > "$out/bench-cuda-float.jsonl" 2> "$out/bench-cuda-float.err"
.gpu/run "$bin/ejecta" --benchmark --backend cuda --precision double --benchmark-sizes 1e5,1e6 --json \
  > "$out/bench-cuda-double.jsonl" 2> "$out/bench-cuda-double.err"
tail -n 5 "$out"/*.txt "$out"/*.jsonl
