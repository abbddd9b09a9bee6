# One summary line a size from `ejecta --benchmark --json` (one JSON object a line): the tag (-v t=TAG),
# the particles, the force pass in ms a step and the particle-steps a second. Used by the A/B scripts
# (force-batch-ab.sh, shared-queue-ab.sh): awk -v t=TAG -f scripts/benchmark-line.awk FILE.jsonl
{
  p = f = s = ""
  if (match($0, /"particles": *[0-9]+/)) p = substr($0, RSTART + 12, RLENGTH - 12)
  if (match($0, /"ms_forces": *[0-9.e+-]+/)) f = substr($0, RSTART + 12, RLENGTH - 12)
  if (match($0, /"particle_steps_per_s": *[0-9.e+-]+/)) s = substr($0, RSTART + 23, RLENGTH - 23)
  gsub(/ /, "", p); gsub(/ /, "", f); gsub(/ /, "", s)
  printf "%-30s %9s particles  forces %8s ms  %s particle-steps/s\n", t, p, f, s
}
