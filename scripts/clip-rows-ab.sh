#!/usr/bin/env bash
# On the GPU host (issue 18, helper speed10): the liquid's neighbour rows clipped to the support
# (CellGrid::clip, neighbors/cell_grid.h) against a binary without the clipping, one moment. Runs
# `ejecta --benchmark` (CUDA) with the new and the old binary, alternating: Ejecta's defaults at 1e6
# and 4e6 in float and in double, the peer's settings (1.116e6 and 4.4e6: h/dp 2, 4 wall layers,
# c0 45.6393, as scripts/side-by-side-dualsphysics.sh sets them), and cells of the support (reach 1,
# fluid.neighbour_cells = support) at 1e6; the float defaults twice (the spread between runs). About
# 3 minutes.
# usage: scripts/clip-rows-ab.sh BUILD_DIR OLD_BIN OUT   (e.g. build-gpu /tmp/ejecta-main $OUT)
# Writes OUT/clip-*.jsonl (one JSON line a size) and OUT/clip-rows-ab.txt (the summary: forces ms,
# particle-steps/s and candidate pairs/s a run).
set -uo pipefail
new=${1:?BUILD_DIR}/ejecta; old=${2:?OLD_BIN}; out=${3:?OUT}
mkdir -p "$out"
runner=(); [ -x .gpu/run ] && runner=(.gpu/run)
c0_peer=45.6393  # the peer's settings of the side-by-side runs (docs/benchmarks.md)
sum="$out/clip-rows-ab.txt"
# One benchmark: file TAG, binary, then the ejecta arguments after --json.
bench() {
  local tag=$1 bin=$2; shift 2
  timeout 75 "${runner[@]}" "$bin" --benchmark --backend cuda --json "$@" > "$out/clip-$tag.jsonl" 2>> "$out/stderr.txt"
  echo "rc $? $tag" >> "$out/stderr.txt"
  awk -v t="$tag" '
    function field(k,   r) { r = ""; if (match($0, "\"" k "\": *[0-9.e+-]+")) { r = substr($0, RSTART, RLENGTH); sub(/^[^:]*: */, "", r) } return r }
    { printf "%-22s %9s particles  forces %8s ms  %11s particle-steps/s  %11s candidate pairs/s  %11s real pairs/s\n",
        t, field("particles"), field("ms_forces"), field("particle_steps_per_s"), field("candidate_pairs_per_s"), field("real_pairs_per_s") }' \
    "$out/clip-$tag.jsonl" >> "$sum"
}
# Both binaries on the same arguments, new first then old: TAG, then the ejecta arguments.
ab() {
  local tag=$1; shift
  bench "$tag-new" "$new" "$@"
  bench "$tag-old" "$old" "$@"
}
{
  echo "# clip-rows A/B, $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  echo "new: $("${runner[@]}" "$new" --version | head -1)"
  echo "old: $("${runner[@]}" "$old" --version | head -1)"
} > "$sum"
echo "## Ejecta's defaults, float" >> "$sum"
ab defaults --benchmark-sizes 1e6,4e6
echo "## Ejecta's defaults, double" >> "$sum"
ab double --precision double --benchmark-sizes 1e6,4e6
echo "## the peer's settings (h/dp 2, 4 layers, c0 $c0_peer), float" >> "$sum"
ab peer --benchmark-sizes 1.116e6,4.4e6 --set particles.h_over_dp=2 --set boundary.wall_layers=4 --set fluid.c0="$c0_peer"
echo "## cells of the support (reach 1), float" >> "$sum"
ab support --benchmark-sizes 1e6 --set fluid.neighbour_cells=support
echo "## Ejecta's defaults, float, again (the spread)" >> "$sum"
ab defaults-again --benchmark-sizes 1e6
cat "$sum"
