#!/usr/bin/env bash
# On the GPU host (issue 18): two builds of Ejecta that differ by one code change, A and B alternating
# (each twice), one moment: `ejecta --benchmark` (CUDA) at the defaults with the batched force pass's
# local and shared queues (fluid.neighbour_batch = row32, row32_shared) at 1e6 and 4e6 in float, then in
# double at 1e6 and at the peer's settings at 1.116e6. For a change that a run-time option would distort
# (code generation: registers, spills), e.g. CellGrid::wrap's fast path (docs/benchmarks.md, 2026-12-05).
# usage: scripts/binary-ab.sh DIR_A DIR_B [OUTDIR]   (each DIR holds an ejecta binary; OUTDIR defaults to $OUT)
# Writes OUTDIR/binary-ab.txt (forces ms and particle-steps/s a run) and OUTDIR/bin-*.jsonl.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 DIR_A DIR_B [OUTDIR]" >&2; exit 2; }
dir_a=$1 dir_b=$2
source "$(dirname "$0")/ab-bench.sh"
ab_init binary bin "$dir_a" "${3:-}"
"${runner[@]}" "$dir_b/ejecta" --version | head -1 >> "$sum"
bench() {  # A|B TAG, then the ejecta arguments after --json
  if [ "$1" = A ]; then bin=$dir_a; else bin=$dir_b; fi
  ab_bench_numbered "$1-$2" "${@:3}"
}
echo "## defaults, float, A = $dir_a, B = $dir_b" >> "$sum"
for side in A B A B; do
  for v in row32 row32_shared; do bench $side "$v" --benchmark-sizes 1e6,4e6 --set fluid.neighbour_batch="$v"; done
done
echo "## double, defaults" >> "$sum"
for side in A B; do bench $side double --precision double --benchmark-sizes 1e6; done
echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float" >> "$sum"
for side in A B; do
  bench $side peer --benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer"
done
cat "$sum"
