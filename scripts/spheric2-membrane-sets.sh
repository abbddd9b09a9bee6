#!/usr/bin/env bash
# SPHERIC 2's pressure sensors P1-P4 read as membranes (docs/probes.md, "Load as a pressure sensor";
# docs/physics.md, sixteenth session): for each sensor k, a load [force.(10+k)] named Pkm on the box's wall
# particles behind a 4 cm (2D) or 4 x 4 cm (3D) patch of its front face (x = 0.8245) centred on the sensor,
# 10 cm deep into the box (beyond a kernel's reach at dp <= 0.03; the back face out), read as the mean
# normal stress on the patch (area, normal +x). P1's patch meets the floor: its box also takes the floor's
# wall particles under the face (down to 5 cm below the floor, x up to the face), which in SPH carry the
# corner's share of the face's load (docs/physics.md, seventeenth session: without them P1's membrane read
# the late mean 8% low, 2409 against the probe's 2615 Pa in the 2D proxy; with them 2603). Prints the --set
# arguments, one per line, for scenes/dambreak3d.ini (DIM 3) or scenes/spheric2_slice2d.ini (DIM 2).
# A membrane needs about four dp across: use dp <= 0.01. INTERVAL (optional, s): the loads' sample
# interval (0: every step).
# usage: mapfile -t m < <(scripts/spheric2-membrane-sets.sh 3); ejecta scene.ini ... "${m[@]}"
set -euo pipefail
dim=${1:?usage: spheric2-membrane-sets.sh DIM (2 or 3) [INTERVAL]}
interval=${2:-0}
k=1
for z in 0.021 0.061 0.101 0.141; do
  lo=$(python3 -c "print(round($z - 0.02, 4))"); hi=$(python3 -c "print(round($z + 0.02, 4))")
  [ "$k" = 1 ] && lo=-0.05  # the floor's wall particles under the face
  s="force.$((10 + k))"
  if [ "$dim" = 3 ]; then
    printf '%s\n' --set "$s.name=P${k}m" --set "$s.min=0.72, 0.451, $lo" --set "$s.max=0.8245, 0.491, $hi" \
      --set "$s.area=0.0016" --set "$s.normal=1, 0, 0"
  else
    printf '%s\n' --set "$s.name=P${k}m" --set "$s.min=0.72, $lo" --set "$s.max=0.8245, $hi" \
      --set "$s.area=0.04" --set "$s.normal=1, 0"
  fi
  [ "$interval" != 0 ] && printf '%s\n' --set "$s.interval=$interval"
  k=$((k + 1))
done
