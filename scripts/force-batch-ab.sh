#!/usr/bin/env bash
# On the GPU host (issue 18): the liquid force pass with and without its two-phase neighbour loop
# (fluid.neighbour_batch, physics/forces_wcsph_batch.h), one binary, one moment. Runs `ejecta --benchmark`
# (CUDA) at Ejecta's defaults (1e6, 4e6, float), at the peer's settings (1.116e6: h/dp 2, 4 wall layers,
# c0 45.6393) and in double (1e6), each with fluid.neighbour_batch = off, row16, row32, rows2, auto (the
# default: row32 with the bounded scan where a row's candidates fit the queue), and row32 with
# fluid.force_registers = 72 (the 64-register bound off). About 3 minutes.
# usage: scripts/force-batch-ab.sh [BIN_DIR] [OUTDIR]   (defaults build-gpu and $OUT)
# Writes OUTDIR/batch-*.jsonl (one JSON line a size) and OUTDIR/force-batch-ab.txt (the summary: forces
# ms and particle-steps/s a run).
set -uo pipefail
source "$(dirname "$0")/ab-bench.sh"
ab_init force-batch batch "$@"
bench() { ab_bench "$@"; }
variants="off row16 row32 rows2 auto"
echo "## Ejecta's defaults, float" >> "$sum"
for v in $variants; do bench "defaults-$v" --benchmark-sizes 1e6,4e6 --set fluid.neighbour_batch="$v"; done
bench "defaults-row32-reg72" --benchmark-sizes 1e6 --set fluid.neighbour_batch=row32 --set fluid.force_registers=72
echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float" >> "$sum"
peer=(--benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer")
for v in $variants; do bench "peer-$v" "${peer[@]}" --set fluid.neighbour_batch="$v"; done
bench "peer-row32-reg72" "${peer[@]}" --set fluid.neighbour_batch=row32 --set fluid.force_registers=72
bench "peer-off-again" "${peer[@]}" --set fluid.neighbour_batch=off  # the spread between runs
echo "## double, Ejecta's defaults" >> "$sum"
for v in off row32 auto; do bench "double-$v" --precision double --benchmark-sizes 1e6 --set fluid.neighbour_batch="$v"; done
cat "$sum"
