# Sourced by the GPU A/B scripts of issue 18 (force-batch-ab.sh, shared-queue-ab.sh): one binary, one
# moment, `ejecta --benchmark` (CUDA) runs summed up one line each by benchmark-line.awk.
# ab_init TITLE PREFIX [BIN_DIR] [OUTDIR]: sets bin (default build-gpu), out (default $OUT), runner
# (.gpu/run where there is one), c0_peer, prefix and sum (OUTDIR/TITLE-ab.txt, with its header).
# ab_bench TAG ARGS...: one benchmark, ARGS after --json, into OUTDIR/PREFIX-TAG.jsonl and a line of sum.
# ab_bench_numbered TAG ARGS...: the same with the tag NN-TAG, NN counting the calls (for tags that repeat).
ab_init() {
  local title=$1; prefix=$2
  bin=${3:-build-gpu}; out=${4:-${OUT:?set OUT or pass OUTDIR}}
  mkdir -p "$out"
  runner=(); [ -x .gpu/run ] && runner=(.gpu/run)
  c0_peer=45.6393  # the peer's settings of the side-by-side runs and of the ncu profile (docs/benchmarks.md)
  sum="$out/$title-ab.txt"
  ab_runs=0
  {
    echo "# $title A/B, $(date -u +%Y-%m-%dT%H:%MZ)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
    "${runner[@]}" "$bin/ejecta" --version | head -1
  } > "$sum"
}
ab_bench() {
  local tag=$1; shift
  timeout 90 "${runner[@]}" "$bin/ejecta" --benchmark --backend cuda --json "$@" > "$out/$prefix-$tag.jsonl" 2>> "$out/stderr.txt"
  echo "rc $? $tag" >> "$out/stderr.txt"
  awk -v t="$tag" -f "$(dirname "${BASH_SOURCE[0]}")/benchmark-line.awk" "$out/$prefix-$tag.jsonl" >> "$sum"
}
ab_bench_numbered() {
  ab_runs=$((ab_runs + 1))
  ab_bench "$(printf '%02d' "$ab_runs")-$1" "${@:2}"
}
