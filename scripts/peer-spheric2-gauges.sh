#!/usr/bin/env bash
# On the GPU host: DualSPHysics 5.0 on its own SPHERIC 2 case (Spheric2Dam_01M.xml, dp = 0.01) with its
# gauge system (JGaugeSystem, `<special><gauges>` of the case XML; format: DualSPHysics's
# doc/xml_format/_FmtXML_Gauges.xml, v5.0): the water heights H1-H4 (`<swl>`: the first point up a
# vertical line where the kernel-interpolated fluid mass falls below half a particle's mass), the
# velocity just in front of P1 (`<velocity>`), and the fluid force on the box (`<force>` on mkbound 1).
# The peer is never part of Ejecta: pass its folder (../shared/peers/dualsphysics copied into an ignored
# folder and carried). Its frame is Ejecta's (checked below): x along the tank, z up, the water against
# x = 3.22 (its fillbox starts at x = 1.992), the box's front face at x = 0.82 (Ejecta 0.8245).
#
# usage: scripts/peer-spheric2-gauges.sh PEERDIR OUTDIR TMAX
#   TMAX: simulated seconds (0.6 s costs about 45 s on an H200: 71 wall s per physical s).
# Writes OUTDIR/GaugesSWL_H{1..4}.csv, GaugesSWL_Hf.csv (2 cm in front of the box face),
# GaugesVel_V1/V2/V4.csv (2 cm in front of the face at P1's, P2's and P4's heights), GaugesForce_Box.csv,
# the peer's log dsph-gauges.txt and the case XML it ran (Spheric2Dam_gauges.xml).
# Then: python3 scripts/peer-spheric2-compare.py OUTDIR [ejecta_probes.csv ...]
set -euo pipefail
die() { echo "peer-spheric2-gauges: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: $0 PEERDIR OUTDIR TMAX"
[ -d "$1" ] || die "PEERDIR '$1' is not a folder (copy ../shared/peers/dualsphysics into an ignored folder and carry it)"
peer=$(cd "$1" && pwd); tmax=$3
mkdir -p "$2"; out=$(cd "$2" && pwd)
tarball="$peer/dualsphysics-5.0.112-sm90.tar.xz"; xml="$peer/Spheric2Dam_01M.xml"
[ -f "$tarball" ] || die "missing $tarball"
[ -f "$xml" ] || die "missing $xml"
awk -v t="$tmax" 'BEGIN { exit !(t > 0 && t <= 2) }' || die "TMAX '$tmax' must be in (0, 2] s"

# The frame: the tank 3.22 x 1 x 1 from the origin, the water from x = 1.992 (1.4 m fill box clipped by
# the tank's far wall at 3.22: 1.228 m), 0.55 m deep, gravity along -z, the box at x 0.66-0.82, y 0.3-0.7.
# Any other frame would put the gauges elsewhere: refuse.
for pat in 'DefTanksx="3.220"' 'DefTanksy="1.0"' 'DefBoxpx="0.660"' 'DefBoxsx="0.160"' 'DefBoxpy="0.300"' \
  '<point x="1.992" y="0" z="0" />' '<size x="1.4" y="1" z="0.55" />' '<gravity x="0" y="0" z="-9.81"'; do
  grep -qF "$pat" "$xml" || die "$xml: expected '$pat' (the frame this script assumes); the case changed?"
done

work=${TMPDIR:-/tmp}/dsph-gauges; rm -rf "$work"; mkdir -p "$work"; cd "$work"
tar -xJf "$tarball"
[ -x ./GenCase_linux64 ] && [ -x ./DualSPHysics_linux64 ] || die "the tarball lacks GenCase_linux64 / DualSPHysics_linux64"

# The gauges, sampled and written every 1 ms (the experiment's rate). SWL lines every dp/4 from the
# floor (z = 0, the peer's first boundary layer) to 0.9 m; velocities 0.02 m in front of the peer's box
# face (0.0155 m in front of Ejecta's) at P1's, P2's and P4's heights; the force on the box (mkbound 1).
# $1 = "all" or "swl" (the fallback if this build's gauge system refuses the others).
gauges() {
  cat <<'EOF'
        <special>
            <gauges>
                <default>
                    <savevtkpart value="false" />
                    <computedt value="0.001" />
                    <output value="true" />
                    <outputdt value="0.001" />
                </default>
EOF
  local n=0
  for x in 0.496 0.992 1.488 2.638; do
    n=$((n + 1))
    cat <<EOF
                <swl name="H$n">
                    <pointdp coefdp="0.25" />
                    <point0 x="$x" y="0.5" z="0" />
                    <point2 x="$x" y="0.5" z="0.9" />
                </swl>
EOF
  done
  # Hf: the water depth 2 cm in front of the box face, on P1's line (no measurement; Ejecta's twin is
  # gauge Hf at x = 0.8445 in GPU-REQUEST.md).
  cat <<'EOF'
                <swl name="Hf">
                    <pointdp coefdp="0.25" />
                    <point0 x="0.84" y="0.471" z="0" />
                    <point2 x="0.84" y="0.471" z="0.9" />
                </swl>
EOF
  if [ "$1" = all ]; then
    cat <<'EOF'
                <velocity name="V1">
                    <point x="0.84" y="0.471" z="0.021" />
                </velocity>
                <velocity name="V2">
                    <point x="0.84" y="0.471" z="0.061" />
                </velocity>
                <velocity name="V4">
                    <point x="0.84" y="0.471" z="0.141" />
                </velocity>
                <force name="Box">
                    <target mkbound="1" />
                </force>
EOF
  fi
  cat <<'EOF'
            </gauges>
        </special>
EOF
}

make_case() {
  gauges "$1" > gauges.xmlpart
  # Insert the block right after <execution> (where DualSPHysics's own gauge examples put it).
  awk 'FNR == NR { block = block $0 "\n"; next } { print } /<execution>/ && !done { printf "%s", block; done = 1 }' \
    gauges.xmlpart "$xml" > Spheric2Dam_gauges.xml
  grep -q '<swl name="H4">' Spheric2Dam_gauges.xml || die "could not insert the gauges into the case XML"
  ./GenCase_linux64 Spheric2Dam_gauges case_gauges > gencase.txt 2>&1 || { tail -20 gencase.txt >&2; die "GenCase failed (log above)"; }
}

run_case() {
  rm -rf out_gauges
  ./DualSPHysics_linux64 -gpu:0 case_gauges out_gauges -sv:none -svres -symplectic -ddt:3 -cellmode:h \
    -tmax:"$tmax" > "$out/dsph-gauges.txt" 2>&1
}

make_case all
if ! run_case; then
  echo "peer-spheric2-gauges: DualSPHysics failed with all gauges (this build may lack the velocity or force gauge); retrying with the SWL gauges only" >&2
  tail -5 "$out/dsph-gauges.txt" >&2
  mv "$out/dsph-gauges.txt" "$out/dsph-gauges-failed.txt"
  make_case swl
  run_case || { tail -20 "$out/dsph-gauges.txt" >&2; die "DualSPHysics failed (log: $out/dsph-gauges.txt)"; }
fi
cp Spheric2Dam_gauges.xml "$out/"
found=0
for f in out_gauges/Gauges*.csv; do
  [ -f "$f" ] || continue
  cp "$f" "$out/"; found=$((found + 1))
done
[ "$found" -gt 0 ] || die "DualSPHysics wrote no Gauges*.csv in $work/out_gauges (log: $out/dsph-gauges.txt)"
echo "peer-spheric2-gauges: $found gauge files in $out"
grep -E "Steps per second|Time per second|Total Runtime|Particles" "$out/dsph-gauges.txt" | head -6 || true
