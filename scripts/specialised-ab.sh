#!/usr/bin/env bash
# On the GPU host (issue 18): the force pass compiled for the default options (fluid.force_specialised =
# defaults, physics/forces_wcsph.h's Defaults) against the general pass (off), one binary, one moment, A
# (off) and B (defaults) alternating, each twice: `ejecta --benchmark` (CUDA) at Ejecta's defaults (1e6
# and 4e6, float), at the peer's settings (1.116e6: h/dp 2, 4 wall layers, c0 45.6393) and in double (1e6).
# About 2 minutes.
# usage: scripts/specialised-ab.sh [BIN_DIR] [OUTDIR]   (defaults build-gpu and $OUT)
# Writes OUTDIR/spec-*.jsonl (one JSON line a size) and OUTDIR/specialised-ab.txt (forces ms and
# particle-steps/s a run).
set -uo pipefail
source "$(dirname "$0")/ab-bench.sh"
ab_init specialised spec "$@"
bench() { ab_bench_numbered "$@"; }  # each run numbered: tags repeat
echo "## Ejecta's defaults, float; A = off, B = defaults" >> "$sum"
for v in off defaults off defaults; do bench "float-$v" --benchmark-sizes 1e6,4e6 --set fluid.force_specialised="$v"; done
echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float" >> "$sum"
peer=(--benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer")
for v in off defaults off defaults; do bench "peer-$v" "${peer[@]}" --set fluid.force_specialised="$v"; done
echo "## double, Ejecta's defaults" >> "$sum"
for v in off defaults off defaults; do bench "double-$v" --precision double --benchmark-sizes 1e6 --set fluid.force_specialised="$v"; done
cat "$sum"
