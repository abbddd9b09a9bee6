#!/usr/bin/env bash
# On the GPU host (issue 18, helper speed11): the liquid's step outside the force pass, a new binary against
# an old one, one moment. `ejecta --benchmark --backend cuda --benchmark-sizes 1e6,4e6` at the defaults, float
# and double, with each binary, and the new one again with boundary.wall_threads = wet (the walls' pressure
# pass over the wet walls' list). About 3 minutes.
# usage: scripts/step-phases-ab.sh BUILD_DIR OLD_BIN OUT
#   BUILD_DIR: the new build (its ejecta), e.g. build-gpu; OLD_BIN: the old ejecta binary; OUT: results.
# Writes OUT/phases-*.jsonl (one JSON line a size) and OUT/step-phases-ab.txt (the summary: particle-steps/s
# and the phases' ms a step, sort, density, forces, integrate).
set -uo pipefail
new=${1:?BUILD_DIR}/ejecta; old=${2:?OLD_BIN}; out=${3:?OUT}
mkdir -p "$out"
runner=(); [ -x .gpu/run ] && runner=(.gpu/run)
sum="$out/step-phases-ab.txt"
# One benchmark: file TAG, the binary, then the ejecta arguments after --json.
bench() {
  local tag=$1 bin=$2; shift 2
  timeout 100 "${runner[@]}" "$bin" --benchmark --backend cuda --json --benchmark-sizes 1e6,4e6 "$@" \
    > "$out/phases-$tag.jsonl" 2>> "$out/stderr.txt"
  echo "rc $? $tag" >> "$out/stderr.txt"
  awk -v t="$tag" 'function num(k,   v) { if (!match($0, "\"" k "\": *[0-9.e+-]+")) return "-";
        v = substr($0, RSTART, RLENGTH); sub(/.*: */, "", v); return v }
      { printf "%-14s %9s particles %10s particle-steps/s  sort %7s  density %7s  forces %7s  integrate %7s ms\n",
          t, num("particles"), num("particle_steps_per_s"), num("ms_sort"), num("ms_density"), num("ms_forces"),
          num("ms_integrate") }' "$out/phases-$tag.jsonl" >> "$sum"
}
{
  echo "# step phases A/B, $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
  echo "new: $("${runner[@]}" "$new" --version | head -1)   old: $("${runner[@]}" "$old" --version | head -1)"
} > "$sum"
echo "## float" >> "$sum"
bench old-float "$old"
bench new-float "$new"
bench new-float-wet "$new" --set boundary.wall_threads=wet
echo "## double" >> "$sum"
bench old-double "$old" --precision double
bench new-double "$new" --precision double
bench new-double-wet "$new" --precision double --set boundary.wall_threads=wet
cat "$sum"
