#!/usr/bin/env bash
# `ejecta --restart` of per-rank files and the distributed run's one JSON summary (issue 19), through
# the binary: a 2D dam break (double, 40 steps) on 4 ranks records 4 files at steps 0, 20, 40; it is
# continued from step 20 on 2 ranks (mpirun) and on 1 (a plain run of the same files) to step 40, and
# ejecta_mpi_tests DistRestartCli.* compares the continuations with the uninterrupted run's last frame.
# Each run prints exactly one JSON line (rank 0's), with every rank's particles.
# Usage: restart_cli.sh MPIEXEC EJECTA EJECTA_MPI_TESTS SCENES_DIR WORKDIR
set -u
mpiexec=$1 ejecta=$2 tests=$3 scenes=$4 dir=$5
fail() { echo "restart_cli: $*" >&2; for f in "$dir"/*.json "$dir"/*.err; do echo "== $f" >&2; cat "$f" >&2; done; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
scene=(--headless "$scenes/dambreak2d.ini" --set particles.dp=0.0028575 --precision double)
"$ejecta" "${scene[@]}" --steps 1 --json > "$dir/single.json" 2> "$dir/single.err" || fail "the single-process run failed"
n=$(grep -o '"particles": [0-9]*' "$dir/single.json" | cut -d' ' -f2)
[ -n "$n" ] || fail "no particle count in the single-process summary"
# One JSON line per run, from rank 0, with the ranks' particles summed.
check_json() {  # FILE RANKS
  [ "$(wc -l < "$1")" -eq 1 ] || fail "$1: $(wc -l < "$1") lines on stdout, not one JSON line"
  grep -q "\"particles\": $n," "$1" || fail "$1: not the whole scene's $n particles"
  grep -q "\"ranks\": $2," "$1" || fail "$1: not $2 ranks"
}
"$mpiexec" --oversubscribe -n 4 "$ejecta" "${scene[@]}" --steps 40 --record "$dir/run.h5" --record-every-steps 20 \
  --json > "$dir/run.json" 2> "$dir/run.err" || fail "the 4-rank run failed"
check_json "$dir/run.json" 4
# The ranks' XDMF sidecars joined by rank 0 into run.xdmf (dist/dist_xdmf.h): 3 frames, each a spatial
# collection of the 4 ranks' grids whose particle counts add up to the scene's, every HDF5 dataset it
# names present in its rank's file (checked with h5py when Python has it, else by file name).
[ -f "$dir/run.xdmf" ] || fail "no joined run.xdmf"
grep -q "\"record_xdmf_joined\": \"$dir/run.xdmf\"" "$dir/run.json" || fail "the summary does not name run.xdmf"
if command -v python3 > /dev/null; then
  python3 - "$dir/run.xdmf" "$n" <<'PY' || fail "run.xdmf does not join the ranks' frames"
import os, sys, xml.etree.ElementTree as ET
path, n = sys.argv[1], int(sys.argv[2])
top = ET.parse(path).getroot().find("Domain/Grid")
assert top.get("CollectionType") == "Temporal", "not a temporal collection"
frames = top.findall("Grid")
assert len(frames) == 3, f"{len(frames)} frames, not 3"
for f in frames:
    assert f.get("CollectionType") == "Spatial" and f.find("Time") is not None, f.get("Name")
    ranks = f.findall("Grid")
    assert len(ranks) == 4, f"{f.get('Name')}: {len(ranks)} rank grids"
    total = sum(int(g.find("Topology").get("NumberOfElements")) for g in ranks)
    assert total == n, f"{f.get('Name')}: {total} particles, not {n}"
    for item in f.iter("DataItem"):
        if item.get("Format") == "HDF":
            h5 = item.text.split(":")[0]
            assert os.path.exists(os.path.join(os.path.dirname(path), h5)), h5
print(f"run.xdmf: {len(frames)} frames of 4 ranks, {n} particles each")
PY
fi
"$mpiexec" --oversubscribe -n 2 "$ejecta" --headless --restart "$dir/run.h5:1" --steps 20 --record "$dir/cont.h5" \
  --record-every-steps 20 --json > "$dir/cont.json" 2> "$dir/cont.err" || fail "the restart on 2 ranks failed"
check_json "$dir/cont.json" 2
grep -q "restarting from frame 1 of $dir/run.h5 (4 files, $n particles" "$dir/cont.err" || fail "no restart message"
# One process: the 4 files joined (a distributed run on one rank).
"$ejecta" --headless --restart "$dir/run.rank2of4.h5:1" --steps 20 --record "$dir/one.h5" --record-every-steps 20 \
  --json > "$dir/one.json" 2> "$dir/one.err" || fail "the restart on 1 process failed"
check_json "$dir/one.json" 1
# A frame that the files do not all hold is refused, on every rank, with exit status 2.
"$mpiexec" --oversubscribe -n 2 "$ejecta" --headless --restart "$dir/run.h5:3" --steps 1 > /dev/null 2> "$dir/bad.err"
grep -q "has complete frames 0..2 in every per-rank file, not frame 3" "$dir/bad.err" || fail "frame 3 was not refused"
EJECTA_RESTART_CLI_DIR=$dir "$tests" --gtest_filter=DistRestartCli.* || fail "the continuations differ from the run"
echo "restart_cli: 4 ranks -> 2 ranks and -> 1 process from the command line match; one JSON line per run"
