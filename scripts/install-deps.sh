#!/usr/bin/env bash
# Installs Ejecta's build and test dependencies from Debian's packages. Idempotent: packages that are
# already present are skipped, so a second run does nothing and needs no network.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build pkg-config git
  libglfw3-dev libglew-dev libimgui-dev libglm-dev libinih-dev
  libhdf5-dev hdf5-tools libcli11-dev libstb-dev libgtest-dev
  libegl-dev libgl-dev libegl-mesa0 libglx-mesa0 libgl1-mesa-dri xvfb xauth
  python3 python3-h5py
  libopenmpi-dev openmpi-bin  # EJECTA_MPI=ON builds and the mpi tests (mpirun)
  ffmpeg  # --render-video and the viewer's "Record video" pipe frames to it; the video tests use ffprobe
)
# Only to regenerate assets/colormaps/ (scripts/make-colormaps.py); the build does not need it.
if [ "${EJECTA_WITH_MATPLOTLIB:-0}" = 1 ]; then pkgs+=(python3-matplotlib); fi
# ParaView (pvpython) checks that recordings open in ParaView's XDMF reader (tests/test_paraview.cpp);
# it is large, so it is installed only on request: EJECTA_WITH_PARAVIEW=1 (CI sets it).
if [ "${EJECTA_WITH_PARAVIEW:-0}" = 1 ]; then pkgs+=(python3-paraview); fi
# clang with libFuzzer, the sanitizers' runtimes and LLVM's OpenMP, for scripts/fuzz.sh: EJECTA_WITH_FUZZ=1
# (CI sets it).
if [ "${EJECTA_WITH_FUZZ:-0}" = 1 ]; then pkgs+=(clang-14 libclang-rt-14-dev libomp-14-dev); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
