#!/usr/bin/env bash
# On the GPU host (issue 18, the impact's 4M jump; docs/benchmarks.md "2026-12-04: the impact's 4M
# jump"): the impact's ladder in double at 1M, 2M and 4M particles, then
#   census  the neighbour search's work on the GPU's state after 51 steps (the end of the 4M rung's
#           timed steps; `--benchmark-census 51`) with each step's force phase: the levels, cells,
#           candidates and neighbours per particle the force pass saw, and whether its time drifts
#           along the steps;
#   8M      the next rung (flat to 8M too?), while the time budget lasts;
#   float   the impact in float at 1M and 4M (half the bytes, the same pairs), while the budget lasts.
# With EJECTA_BASE_BIN (e.g. main's build-gpu/ejecta copied aside) its ladder runs first, for the same
# call's before and after.
# usage: scripts/impact-ladder.sh [OUTDIR] (default $OUT); the binary is build-gpu/ejecta (EJECTA_BIN to
# change it), run through .gpu/run where there is one. Writes OUTDIR/NAME.jsonl, NAME.err and the summary
# OUTDIR/impact-ladder.txt (one line per rung). Starts no run after EJECTA_BUDGET_S (150) s.
set -uo pipefail
out=${1:-${OUT:?give OUTDIR or set OUT}}
bin=${EJECTA_BIN:-build-gpu/ejecta}
budget=${EJECTA_BUDGET_S:-150}
mkdir -p "$out"
start=$(date +%s)
runner=()
[ -x .gpu/run ] && runner=(.gpu/run)
summary="$out/impact-ladder.txt"
{
  echo "# impact ladder, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
} > "$summary"

# name, binary, then the benchmark's options
bench() {
  local name=$1 exe=$2
  shift 2
  if [ $(($(date +%s) - start)) -gt "$budget" ]; then
    echo "$name: not run (over ${budget} s)" >> "$summary"
    return
  fi
  local t0
  t0=$(date +%s)
  timeout 120 "${runner[@]}" "$exe" --benchmark scenes/impact3d.ini --backend cuda --json "$@" \
    > "$out/$name.jsonl" 2> "$out/$name.err"
  local rc=$?
  awk -v l="$name" '
    function val(k,   s) { s = $0; if (!sub(".*\"" k "\": *", "", s)) return ""; sub(/[],}].*/, "", s); gsub(/"/, "", s); return s }
    /"census"/ {
      f = $0; sub(/.*"forces_ms": *\[/, "", f); sub(/\].*/, "", f)
      k = split(f, a, ", *"); s = 0; m = k > 20 ? 20 : k
      for (q = k - m + 1; q <= k; ++q) s += a[q]
      printf "%-8s particles %9d  levels %s  h spread %s  candidates %.1f  ranges %.2f  neighbours %.2f  warp trips %.1f, bodies %.1f (half cells: candidates %.1f, bodies %.1f)  forces ms: step 1 %.2f, mean of the last %d %.2f\n",
             l, val("particles"), val("levels"), val("h_spread"), val("candidates"), val("ranges"), val("neighbours"),
             val("warp_trips"), val("warp_bodies"), val("half_cells_candidates"), val("half_cells_warp_bodies"), a[1], m, s / m
      next }
    /particle_steps_per_s/ {
      printf "%-8s particles %9d  %s  forces %8.3f ms (%.2f ns a particle)  sort %.3f ms  %.3e particle-steps/s  %.1f B/particle\n",
             l, val("particles"), val("precision"), val("ms_forces"), 1e6 * val("ms_forces") / val("particles"),
             val("ms_sort"), val("particle_steps_per_s"), val("bytes_per_particle") }' "$out/$name.jsonl" >> "$summary"
  echo "$name: rc $rc, $(($(date +%s) - t0)) s" >> "$summary"
}

[ -n "${EJECTA_BASE_BIN:-}" ] && bench base "$EJECTA_BASE_BIN" --precision double --benchmark-sizes 1e6,2e6,4e6
bench ladder "$bin" --precision double --benchmark-sizes 1e6,2e6,4e6
bench census "$bin" --precision double --benchmark-sizes 2e6,4e6 --benchmark-census 51
bench 8M "$bin" --precision double --benchmark-sizes 8e6
bench float "$bin" --precision float --benchmark-sizes 1e6,4e6
echo "total $(($(date +%s) - start)) s" >> "$summary"
cat "$summary"
