#!/usr/bin/env bash
# On the GPU host (issue 18): fluid.force_specialised = fast (the specialised force pass with the GPU's
# approximate reciprocal and square root, core/pair_math.h; in double refined by FMA steps) against defaults (the same pass,
# correctly rounded), one binary, one moment, A (defaults) and B (fast) alternating, each twice, with the
# general pass (off) once for reference: `ejecta --benchmark` (CUDA) at Ejecta's defaults (1e6 and 4e6,
# float; 1e6 double) and at the peer's settings (1.116e6: h/dp 2, 4 wall layers, c0 45.6393). About 3 minutes.
# usage: scripts/fast-math-ab.sh [BIN_DIR] [OUTDIR]   (defaults build-gpu and $OUT)
# Writes OUTDIR/fast-*.jsonl (one JSON line a size) and OUTDIR/fast-math-ab.txt (forces ms and
# particle-steps/s a run).
set -uo pipefail
source "$(dirname "$0")/ab-bench.sh"
ab_init fast-math fast "$@"
bench() { ab_bench_numbered "$@"; }  # each run numbered: tags repeat
echo "## Ejecta's defaults, float; off once, then A = defaults, B = fast" >> "$sum"
for v in off defaults fast defaults fast; do bench "float-$v" --benchmark-sizes 1e6,4e6 --set fluid.force_specialised="$v"; done
echo "## Ejecta's defaults, double; off once, then A = defaults, B = fast" >> "$sum"
for v in off defaults fast defaults fast; do bench "double-$v" --benchmark-sizes 1e6 --precision double --set fluid.force_specialised="$v"; done
echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float" >> "$sum"
peer=(--benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer")
for v in off defaults fast defaults fast; do bench "peer-$v" "${peer[@]}" --set fluid.force_specialised="$v"; done
cat "$sum"
