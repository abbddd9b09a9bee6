#!/usr/bin/env bash
# Runs on a GPU host (see README, GPU notes): the GPU tests and the CUDA benchmarks, results under $OUT.
# Needs the source tree (scenes, scripts/test-filter.sh, tests/test-labels.txt) in the working directory.
# usage: scripts/gpu-check.sh BIN_DIR   (a folder with ejecta and ejecta_tests, next to .gpu/)
set -uo pipefail
bin=${1:-gpu-bin}
out=${OUT:-out}
mkdir -p "$out"
export EJECTA_SOURCE_DIR=$PWD EJECTA_BINARY=$PWD/$bin/ejecta
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
.gpu/run "$bin/ejecta" --version > "$out/version.txt" 2>&1
# The `gpu` tier (tests/test-labels.txt, the same tests as `ctest -L gpu`): CPU/CUDA agreement, the
# CUDA faults, interop, the GPU validation runs. Here a GPU test that skips is a failure.
gpu_filter=$(scripts/test-filter.sh gpu)
.gpu/run "$bin/ejecta_tests" --gtest_filter="$gpu_filter" > "$out/gpu-tests.txt" 2>&1
rc=$?
skipped=$(grep -c '^\[  SKIPPED \] [A-Za-z0-9_/]*\.' "$out/gpu-tests.txt")
ran=$(grep -c '^\[       OK \]\|^\[  FAILED  \] [A-Za-z0-9_/]*\.' "$out/gpu-tests.txt")
if [ "$rc" -eq 0 ] && [ "$skipped" -gt 0 ]; then rc=1; echo "gpu-check: $skipped GPU test(s) skipped on a GPU host" >> "$out/gpu-tests.txt"; fi
if [ "$rc" -eq 0 ] && [ "$ran" -eq 0 ]; then rc=1; echo "gpu-check: no GPU test ran (filter $gpu_filter)" >> "$out/gpu-tests.txt"; fi
gpu_rc=$rc
echo "gpu tests rc=$rc" >> "$out/gpu-tests.txt"
# The `gl` tier through EGL (the `display` tier, window and video, runs on the build machine under Xvfb): interop vs host copy, the
# splat rasterizer vs GL sprites, the offscreen frames; EJECTA_TEST_IMAGES keeps the zoomed frames.
mkdir -p "$out/images"
EJECTA_TEST_IMAGES="$out/images" .gpu/run "$bin/ejecta_tests" --gtest_filter="$(scripts/test-filter.sh gl)" \
  > "$out/gpu-render-tests.txt" 2>&1
echo "gpu render tests rc=$?" >> "$out/gpu-render-tests.txt"
.gpu/run "$bin/ejecta" --benchmark-render --backend cuda --benchmark-sizes 1e5,1e6 --width 1920 --height 1080 \
  > "$out/bench-render.jsonl" 2> "$out/bench-render.err"
.gpu/run "$bin/ejecta" --benchmark-render --backend cuda --gl-draw --benchmark-sizes 1e6 --width 1920 --height 1080 \
  > "$out/bench-render-gl.jsonl" 2> "$out/bench-render-gl.err"
mkdir -p "$out/frames"
.gpu/run "$bin/ejecta" scenes/impact3d.ini --headless --backend cuda --steps 300 --render-every 100 \
  --render-dir "$out/frames" --width 1280 --height 720 --json > "$out/render-frames.txt" 2>&1
# The solid benchmark of issue 6 (3D impact, double) and the dam-break ladders.
.gpu/run "$bin/ejecta" --benchmark scenes/impact3d.ini --backend cuda --precision double \
  --benchmark-sizes 1e6 --json > "$out/bench-impact-double.jsonl" 2> "$out/bench-impact-double.err"
.gpu/run "$bin/ejecta" --benchmark --backend cuda --benchmark-sizes 1e6,4e6 --json \
  > "$out/bench-cuda-float.jsonl" 2> "$out/bench-cuda-float.err"
.gpu/run "$bin/ejecta" --benchmark --backend cuda --precision double --benchmark-sizes 1e6 --json \
  > "$out/bench-cuda-double.jsonl" 2> "$out/bench-cuda-double.err"
# Porosity (issue 15): the porous impact against the plain one, double, 1e6.
.gpu/run "$bin/ejecta" --benchmark scenes/porous_impact3d.ini --backend cuda --precision double \
  --benchmark-sizes 1e6 --json > "$out/bench-porous-double.jsonl" 2> "$out/bench-porous-double.err"
# Probes (issue 12): SPHERIC 2 at dp = 0.01 with its 12 instruments sampled every step, and without.
every_step=(); for i in 1 2 3 4 5 6 7 8; do every_step+=(--set probe.$i.interval=0); done
for i in 1 2 3 4; do every_step+=(--set gauge.$i.interval=0); done
.gpu/run "$bin/ejecta" scenes/dambreak3d.ini --headless --backend cuda --set particles.dp=0.01 --steps 2000 \
  --json "${every_step[@]}" --probes /tmp/p.csv > "$out/probe-cost-probes.json" 2>&1
.gpu/run "$bin/ejecta" scenes/dambreak3d.ini --headless --backend cuda --set particles.dp=0.01 --steps 2000 \
  --json --no-probes > "$out/probe-cost-no-probes.json" 2>&1
tail -n 5 "$out"/*.txt "$out"/*.jsonl
# Non-zero when a GPU test failed or skipped (the benchmarks above report in their own files).
exit "$gpu_rc"
