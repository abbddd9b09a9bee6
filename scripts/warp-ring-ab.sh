#!/usr/bin/env bash
# On the GPU host (issue 18): the force pass's neighbour queue drained per lane after every row (row32)
# against the ring the lanes of a warp drain together (warp32, warp48, warp64; physics/forces_wcsph_batch.h),
# one binary, one moment, the variants alternating. Runs `ejecta --benchmark` (CUDA) at Ejecta's defaults
# (1e6 and 4e6, float, twice), at the peer's settings (1.116e6: h/dp 2, 4 wall layers, c0 45.6393, twice)
# and in double (1e6). About 3 minutes.
# usage: scripts/warp-ring-ab.sh [BIN_DIR] [OUTDIR]   (defaults build-gpu and $OUT)
# Writes OUTDIR/ring-*.jsonl and OUTDIR/warp-ring-ab.txt (forces ms and particle-steps/s a run).
set -uo pipefail
source "$(dirname "$0")/ab-bench.sh"
ab_init warp-ring ring "$@"
variants="row32 warp32 warp48 warp64"
peer=(--benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer")
for round in 1 2; do
  echo "## Ejecta's defaults, float, round $round" >> "$sum"
  for v in $variants; do ab_bench_numbered "defaults-$v" --benchmark-sizes 1e6,4e6 --set fluid.neighbour_batch="$v"; done
  echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float, round $round" >> "$sum"
  for v in $variants; do ab_bench_numbered "peer-$v" "${peer[@]}" --set fluid.neighbour_batch="$v"; done
  variants="warp64 warp48 warp32 row32"  # the second round in the other order
done
echo "## double, Ejecta's defaults" >> "$sum"
for v in row32 warp32 warp48 warp64; do ab_bench_numbered "double-$v" --precision double --benchmark-sizes 1e6 --set fluid.neighbour_batch="$v"; done
cat "$sum"
