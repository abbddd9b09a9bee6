#!/usr/bin/env bash
# Builds every fuzz target (tests/fuzz/fuzz_*.cpp) with clang, libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/, then runs each for a fixed time on its checked-in seed
# corpus tests/fuzz/corpus/<target>/ (read only; new inputs go to build-fuzz/corpus/<target>/).
# Any crash, sanitizer report, uncaught exception, leak, timeout (10 s per input) or out-of-memory fails
# the script; libFuzzer writes the input to build-fuzz/artifacts/<target>/ (replay it with
# build-fuzz/tests/fuzz/<target> FILE).
#   EJECTA_FUZZ_SECONDS   seconds per target (default 60)
#   EJECTA_FUZZ_BUILD_DIR build directory (default build-fuzz)
#   EJECTA_FUZZ_TARGETS   targets to run (default: every tests/fuzz/fuzz_*.cpp)
set -euo pipefail
cd "$(dirname "$0")/.."
EJECTA_WITH_FUZZ=1 bash scripts/install-deps.sh
seconds=${EJECTA_FUZZ_SECONDS:-60}
build=${EJECTA_FUZZ_BUILD_DIR:-build-fuzz}
if [ -n "${EJECTA_FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<< "$EJECTA_FUZZ_TARGETS"
else
  targets=()
  for f in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
cxx=$(command -v clang++-14 || command -v clang++ || true)
cc=$(command -v clang-14 || command -v clang || true)
[ -n "$cxx" ] || { echo "fuzz: clang++ not found" >&2; exit 1; }
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" -DEJECTA_FUZZ=ON -DEJECTA_CUDA=OFF -DEJECTA_VIEWER=OFF \
  -DEJECTA_BUILD_TESTS=OFF > /dev/null
start=$(date +%s)
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"
echo "fuzz: built ${targets[*]} in $(( $(date +%s) - start )) s"
for t in "${targets[@]}"; do
  seeds=tests/fuzz/corpus/$t
  [ -d "$seeds" ] || { echo "fuzz: $t has no seed corpus $seeds" >&2; exit 1; }
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "fuzz: $t for $seconds s on $(ls "$seeds" | wc -l) seeds"
  log=$build/fuzz-$t.log
  if ! OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t/" "${dict[@]}" "$build/corpus/$t" "$seeds" > "$log" 2>&1; then
    tail -n 80 "$log" >&2
    echo "fuzz: $t failed; the input is in $build/artifacts/$t/ (log: $log)" >&2
    exit 1
  fi
  grep -E "^stat::number_of_executed_units|^Done [0-9]+ runs" "$log" || tail -n 5 "$log"
done
echo "fuzz: every target ran $seconds s without a failure"
