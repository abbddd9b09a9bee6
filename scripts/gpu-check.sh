#!/usr/bin/env bash
# Runs on a GPU host (see README, GPU notes): the GPU tests and the CUDA benchmark, results under $OUT.
# usage: scripts/gpu-check.sh BIN_DIR   (a folder with ejecta and ejecta_tests, next to .gpu/)
set -uo pipefail
bin=${1:-gpu-bin}
out=${OUT:-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
EJECTA_SOURCE_DIR=$PWD EJECTA_BINARY=$PWD/$bin/ejecta .gpu/run "$bin/ejecta_tests" --gtest_filter='BackendAgreement*:GasBackendAgreement*:GasSedov*:Faults*:Record*:IO*:H5*' > "$out/gpu-tests.txt" 2>&1
echo "gpu tests rc=$?" >> "$out/gpu-tests.txt"
.gpu/run "$bin/ejecta" --version > "$out/version.txt" 2>&1
# Rendering on the GPU through EGL (no display there): interop against the host-copy path, the
# offscreen frame tests, the render benchmark, and a few frames of the 3D dam break.
EJECTA_SOURCE_DIR=$PWD EJECTA_BINARY=$PWD/$bin/ejecta .gpu/run "$bin/ejecta_tests" \
  --gtest_filter='InteropGpu*:RenderFrames*:SpriteDepth*:RenderCli.Headless*' > "$out/gpu-render-tests.txt" 2>&1
echo "gpu render tests rc=$?" >> "$out/gpu-render-tests.txt"
.gpu/run "$bin/ejecta" --benchmark-render --backend cuda --benchmark-sizes 1e5,1e6 --width 1920 --height 1080 \
  > "$out/bench-render.jsonl" 2> "$out/bench-render.err"
.gpu/run "$bin/ejecta" --benchmark-render --backend cuda --no-interop --benchmark-sizes 1e6 --width 1920 --height 1080 \
  > "$out/bench-render-host.jsonl" 2> "$out/bench-render-host.err"
mkdir -p "$out/frames"
.gpu/run "$bin/ejecta" scenes/dambreak3d.ini --headless --backend cuda --steps 400 --render-every 100 \
  --render-dir "$out/frames" --width 1280 --height 720 --json > "$out/render-frames.txt" 2>&1
.gpu/run "$bin/ejecta" --benchmark --backend cuda --json ${EJECTA_BENCH_ARGS:-} > "$out/bench-cuda-float.jsonl" 2> "$out/bench-cuda-float.err"
# Record overhead at 10^6 particles, every 100 steps, all fields: to the host's disk and to memory
# (tmpfs), which separates the copy and HDF5 costs from the disk's bandwidth.
.gpu/run "$bin/ejecta" --benchmark --benchmark-record --benchmark-sizes 1e6 --backend cuda --json \
  > "$out/bench-record-disk.jsonl" 2> "$out/bench-record-disk.err"
TMPDIR=/dev/shm .gpu/run "$bin/ejecta" --benchmark --benchmark-record --benchmark-sizes 1e6 --backend cuda --json \
  > "$out/bench-record-shm.jsonl" 2> "$out/bench-record-shm.err"
.gpu/run "$bin/ejecta" --benchmark --backend cuda --precision double --benchmark-sizes 1e5,1e6 --json \
  > "$out/bench-cuda-double.jsonl" 2> "$out/bench-cuda-double.err"
# The CPU backend on the host's cores: the linear-scaling check of the engine issue (1e4 .. 1e6).
.gpu/run "$bin/ejecta" --benchmark --backend cpu --benchmark-sizes 1e4,1e5,1e6 --json \
  > "$out/bench-cpu-host.jsonl" 2> "$out/bench-cpu-host.err"
tail -n 5 "$out"/*.txt "$out"/*.jsonl
