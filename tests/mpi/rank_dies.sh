#!/usr/bin/env bash
# A rank that dies ends the whole distributed run with an error, and the recording stays readable
# (issue 19): `mpirun -n 2 ejecta --record` (one file per rank), rank 1 killed with SIGKILL once both
# files hold a frame; mpirun must exit non-zero within a minute and `ejecta info` must read both
# files (each keeps its complete frames: the recorder's crash safety, docs/file-format.md).
# Usage: rank_dies.sh MPIEXEC EJECTA WORKDIR
set -u
mpiexec=$1 ejecta=$2 dir=$3
fail() { echo "rank_dies: $*" >&2; cat "$dir/log" >&2 2>/dev/null; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
"$mpiexec" --oversubscribe -n 2 "$ejecta" --headless --steps 1000000 --record "$dir/run.h5" \
  --record-every-steps 5 > "$dir/log" 2>&1 &
mpipid=$!
for _ in $(seq 600); do
  [ -f "$dir/run.rank0of2.h5" ] && [ -f "$dir/run.rank1of2.h5" ] && break
  sleep 0.2
done
[ -f "$dir/run.rank1of2.h5" ] || { kill "$mpipid"; fail "no per-rank recordings after 120 s"; }
victim=""
for p in $(pgrep -P "$mpipid"); do
  tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && victim=$p
done
[ -n "$victim" ] || { kill "$mpipid"; fail "rank 1 not found among mpirun's children"; }
kill -9 "$victim"
for _ in $(seq 300); do kill -0 "$mpipid" 2>/dev/null || break; sleep 0.2; done
kill -0 "$mpipid" 2>/dev/null && { kill -9 "$mpipid"; fail "the run did not end within 60 s of rank 1's death"; }
wait "$mpipid"
rc=$?
[ "$rc" -ne 0 ] || fail "mpirun exited 0 after rank 1 was killed"
for r in 0 1; do
  out=$("$ejecta" info "$dir/run.rank${r}of2.h5" 2>&1) || fail "rank $r's recording is unreadable: $out"
done
echo "rank_dies: mpirun exited $rc after rank 1 was killed; both recordings readable"
grep -h -i "frames" <("$ejecta" info "$dir/run.rank0of2.h5") <("$ejecta" info "$dir/run.rank1of2.h5") | head -2
