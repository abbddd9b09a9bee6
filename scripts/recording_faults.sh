#!/usr/bin/env bash
# The recording's fault record (docs/file-format.md, "Measured"): KILLS runs of the 2D dam break
# killed with SIGKILL at a random moment, and FULL runs on a small tmpfs that fills up. Every file
# left behind must open in `ejecta info` and in h5py (tests/io_check.py) with no partial frame (a
# frame is linked only when complete, so a partial frame would be a dangling link); a full disk must
# exit 5 with the frame count that the file really holds.
#
# OPEN_ENDED=1 runs with --steps 100000 instead (no end in sight: /frames sized for 65535 links, a
# 1.4 MB header rewritten per frame, the write a kill can tear; design point 8), killed within 2 s,
# and counts the files whose frames were found through /frame_addresses ("recovered"; their
# `ejecta repair` copy must then pass the h5py check).
#
# usage: scripts/recording_faults.sh [KILLS [FULL]]     (default 1000 200; needs root for the tmpfs)
# Runs at the lowest priority; prints one line per failure and the totals at the end. Several
# instances may run at once (each has its own directory and tmpfs).
set -u
KILLS=${1:-1000}
FULL=${2:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${EJECTA_BINARY:-$ROOT/build/ejecta}
SCENE=$ROOT/scenes/dambreak2d.ini
PY=/usr/bin/python3
WORK=$(mktemp -d /tmp/ejecta_faults.XXXXXX)
trap 'umount "$WORK/mnt" 2>/dev/null; rm -rf "$WORK"' EXIT
export OMP_NUM_THREADS=1
# The 2D dam break, coarse (329 particles), 40 steps recorded every 1 to 4 steps: 11 to 41 frames,
# past the 9th (where HDF5 used to switch /frames to dense link storage).
CONFIG="--headless $SCENE --backend cpu --set particles.dp=0.0114 --steps 40"
[ "${OPEN_ENDED:-0}" = 1 ] && CONFIG="--headless $SCENE --backend cpu --set particles.dp=0.0114 --steps 100000"
RUN="nice -n 19 $BIN $CONFIG --record-compression 4"

# check FILE -> prints the complete frame count, or "LOST <why>" / "DANGLING <why>"
check() {
  local f=$1 info frames py
  if ! info=$("$BIN" info "$f" 2>&1); then echo "LOST info: $(echo "$info" | tail -1)"; return; fi
  frames=$(echo "$info" | awk '/^frames /{print $2}')
  if ! echo "$info" | grep -q "^partial frames     0 skipped"; then echo "DANGLING info: $(echo "$info" | grep -A1 '^partial')"; return; fi
  if echo "$info" | grep -q "found through /frame_addresses"; then
    "$BIN" repair "$f" --output "$f.rep.h5" >/dev/null 2>&1 || { echo "LOST repair failed"; return; }
    f=$f.rep.h5
  fi
  if ! py=$($PY "$ROOT/tests/io_check.py" "$f" 2>&1); then echo "LOST h5py: $(echo "$py" | tail -1)"; return; fi
  if ! echo "$py" | grep -q "complete_frames=$frames partial_frames=0"; then echo "DANGLING h5py: $py"; return; fi
  echo "$frames"
}

lost=0 dangling=0 crashes=0 stubs=0 none=0 ok=0 frames_total=0 recovered=0
# A run takes T seconds here; kills land uniformly in [0, 1.2 T].
t0=$(date +%s.%N)
[ "${OPEN_ENDED:-0}" = 1 ] || $RUN --record-every-steps 2 --record "$WORK/probe.h5" >/dev/null 2>&1
T=$(echo "$(date +%s.%N) - $t0" | bc)
[ "${OPEN_ENDED:-0}" = 1 ] && T=1.667
echo "a full run takes ${T}s; $KILLS kills"
for i in $(seq 1 "$KILLS"); do
  f="$WORK/k.h5"
  rm -f "$f" "$f.part" "$WORK/k.xdmf" "$f.rep.h5" "$WORK/k.h5.rep.xdmf"
  every=$(( (RANDOM % 4) + 1 ))
  delay=$(echo "scale=3; $T * 1.2 * $RANDOM / 32767" | bc)
  $RUN --record-every-steps $every --record "$f" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 137 ]; then crashes=$((crashes + 1)); echo "kill $i: exit $rc"; fi
  if [ ! -e "$f" ]; then
    if [ -e "$f.part" ]; then stubs=$((stubs + 1)); else none=$((none + 1)); fi
    continue
  fi
  r=$(check "$f")
  grep -q "found through /frame_addresses" <("$BIN" info "$f" 2>/dev/null) && recovered=$((recovered + 1))
  case "$r" in
    LOST*) lost=$((lost + 1)); cp "$f" "$ROOT/lost_kill_$i.h5"; echo "kill $i (every $every, after ${delay}s): $r" ;;
    DANGLING*) dangling=$((dangling + 1)); echo "kill $i: $r" ;;
    *) ok=$((ok + 1)); frames_total=$((frames_total + r)) ;;
  esac
done
echo "KILLS: $KILLS runs: $ok files valid ($frames_total frames; $recovered of them recovered through /frame_addresses and repaired), $stubs killed before the first frame (only FILE.part), $none without any file, $lost lost, $dangling with dangling links, $crashes crashes"

mkdir -p "$WORK/mnt"
full_ok=0 full_bad=0 full_lost=0 full_count_wrong=0 full_exit=0
for i in $(seq 1 "$FULL"); do
  kib=$(( 64 + (RANDOM % (${FULL_MAX_KIB:-640} - 63)) ))  # 64 KiB to 640 KiB: the run writes 0.15 to 0.5 MB
  every=$(( (RANDOM % 4) + 1 ))
  gzip=$(( RANDOM % 2 * 4 ))
  umount "$WORK/mnt" 2>/dev/null
  mount -t tmpfs -o size=${kib}k tmpfs "$WORK/mnt" || { echo "cannot mount a tmpfs (needs root)"; break; }
  f="$WORK/mnt/d.h5"
  out=$(nice -n 19 "$BIN" $CONFIG --record-compression $gzip --record-every-steps $every --record "$f" 2>&1)
  rc=$?
  if [ $rc -eq 0 ]; then full_ok=$((full_ok + 1)); continue; fi
  if [ $rc -ne 5 ]; then full_exit=$((full_exit + 1)); echo "full $i (${kib} KiB): exit $rc: $(echo "$out" | tail -1)"; continue; fi
  said=$(echo "$out" | sed -n "s/.*holds \([0-9]*\) complete frame.*/\1/p")
  # No count in the message: it failed before the first frame (then no file may exist).
  [ -z "$said" ] && said=0
  if [ -e "$f.part" ]; then full_lost=$((full_lost + 1)); echo "full $i: a FILE.part stub was left"; fi
  if [ ! -e "$f" ]; then r=0; else r=$(check "$f"); fi
  case "$r" in
    LOST*|DANGLING*) full_lost=$((full_lost + 1)); cp "$f" "$ROOT/lost_full_$i.h5"; echo "full $i (${kib} KiB, every $every, gzip $gzip): $r" ;;
    *) if [ "$r" != "$said" ]; then full_count_wrong=$((full_count_wrong + 1)); echo "full $i: said $said frames, file holds $r"; else full_bad=$((full_bad + 1)); fi ;;
  esac
done
umount "$WORK/mnt" 2>/dev/null
echo "FULL: $FULL runs: $full_bad filled the disk (exit 5, file valid, count right), $full_ok fitted, $full_lost lost or dangling, $full_count_wrong with a wrong count, $full_exit with another exit code"
