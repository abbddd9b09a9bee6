#!/usr/bin/env bash
# On the GPU host (issue 18): the batched force pass's queue in local memory (fluid.neighbour_batch = row32,
# rows2) against the queue in shared memory (row32_shared, rows2_shared; physics/forces_wcsph_batch.h,
# exec/thread_slots.h), one binary, one moment, A and B alternating (the second pass of each pair gives the
# spread). `ejecta --benchmark` (CUDA) at Ejecta's defaults (1e6 and 4e6, float), with
# fluid.force_registers = 72 (1e6), at the peer's settings (1.116e6: h/dp 2, 4 wall layers, c0 45.6393)
# and in double (1e6). About 3 minutes. ptxas's figures for the same kernels: scripts/ptxas-usage.sh.
# usage: scripts/shared-queue-ab.sh [BIN_DIR] [OUTDIR]   (defaults build-gpu and $OUT)
# NCU=1 adds one Nsight Compute launch of each float kernel at 1e6 (local and shared instructions executed,
# registers, occupancy, active threads a warp): about 1 minute more.
# Writes OUTDIR/queue-*.jsonl (one JSON line a size), OUTDIR/shared-queue-ab.txt (forces ms and
# particle-steps/s a run) and with NCU=1 OUTDIR/ncu-*.csv.
set -uo pipefail
source "$(dirname "$0")/ab-bench.sh"
ab_init shared-queue queue "$@"
bench() { ab_bench_numbered "$@"; }  # each run numbered: tags repeat
echo "## Ejecta's defaults, float (fluid.force_registers = 64)" >> "$sum"
for v in row32 row32_shared rows2_shared row32 row32_shared; do
  bench "defaults-$v" --benchmark-sizes 1e6,4e6 --set fluid.neighbour_batch="$v"
done
echo "## Ejecta's defaults, float, fluid.force_registers = 72" >> "$sum"
for v in row32 row32_shared; do
  bench "defaults-reg72-$v" --benchmark-sizes 1e6 --set fluid.neighbour_batch="$v" --set fluid.force_registers=72
done
echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float" >> "$sum"
peer=(--benchmark-sizes 1.116e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer")
for v in row32 row32_shared row32 row32_shared; do bench "peer-$v" "${peer[@]}" --set fluid.neighbour_batch="$v"; done
echo "## double, Ejecta's defaults" >> "$sum"
for v in row32 row32_shared rows2_shared row32; do
  bench "double-$v" --precision double --benchmark-sizes 1e6 --set fluid.neighbour_batch="$v"
done
if [ "${NCU:-0}" = 1 ] && command -v ncu > /dev/null; then
  echo "## ncu, 1e6 float, one launch of the force kernel each (ncu locks the clocks)" >> "$sum"
  metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__shared_mem_per_block_static
  metrics+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active
  metrics+=,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum
  metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
  metrics+=,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum
  for v in row32 row32_shared; do
    timeout 120 "${runner[@]}" ncu --kernel-name-base demangled --kernel-name regex:ForcesBatched --launch-skip 10 --launch-count 1 --csv \
      --metrics "$metrics" "$bin/ejecta" --benchmark --backend cuda --benchmark-sizes 1e6 \
      --set fluid.neighbour_batch="$v" > "$out/ncu-$v.csv" 2>> "$out/stderr.txt"
    echo "rc $? ncu $v" >> "$out/stderr.txt"
    grep -E '"(gpu__time|launch__|sm__|smsp__)' "$out/ncu-$v.csv" | awk -F'","' -v v="$v" '{ printf "%-14s %-60s %s\n", v, $(NF-2), $NF }' | tr -d '"' >> "$sum"
  done
fi
cat "$sum"
