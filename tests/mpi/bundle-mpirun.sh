#!/usr/bin/env bash
# Bundles Debian's Open MPI launcher (mpirun, orted, the MCA components, PMIx, their libraries) for the
# bare GPU host, which has no MPI (docs/architecture.md, "Distributed runs"). Run in the project root on
# the build machine, after ../shared/gpu/bundle-libs (which bundles libmpi itself with the binaries):
#   tests/mpi/bundle-mpirun.sh
# result: .gpu/mpi/debs/*.deb and .gpu/mpirun; on the GPU host, through the library runner:
#   .gpu/run .gpu/mpirun -n 2 gpu-bin/ejecta_mpi_tests --gtest_filter=DistCuda*
# .gpu/mpirun unpacks the packages once under /tmp/gpu-mpi (nothing is written outside it) and points
# Open MPI and PMIx at their new place (the OPAL_* and PMIX_* install-directory variables).
set -euo pipefail
out=.gpu/mpi
mkdir -p "$out/debs"
top="openmpi-bin openmpi-common libopenmpi3 libpmix2"
# present on every glibc host (as in bundle-libs): bundling them would shadow the host's own
skip='^(libc6|libstdc\+\+6|libgcc-s1|libgomp1|libcrypt1|zlib1g|libzstd1|liblzma5|libbz2-1.0|libselinux1|libpcre2-8-0|libssl3|libcom-err2|libkeyutils1|libtinfo6|libcap2|libudev1|libsystemd0|liblz4-1|libgcrypt20|libgpg-error0)$'
# Every library that the launcher, the daemons and the dlopen'ed components load, as packages.
elves=$(dpkg -L $top | while read -r f; do
  [ -f "$f" ] && case "$f" in *.so|*.so.*|/usr/bin/*) file -L "$f" | grep -q ELF && echo "$f" ;; esac
done || true)
pkgs=$(for f in $elves; do ldd "$f" 2>/dev/null | awk '/=> \//{print $3}'; done | sort -u | while read -r lib; do
  real=$(readlink -f "$lib"); dpkg -S "$real" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || true
done | cut -d: -f1 | sed 's/:amd64$//' | sort -u | grep -Ev "$skip" || true)
pkgs=$(printf '%s\n' $pkgs $top | sort -u)
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64-lists'
mkdir -p /tmp/amd64-lists/partial
[ -n "$(ls /tmp/amd64-lists 2>/dev/null | grep -v partial)" ] || apt-get $o update -qq >/dev/null
(cd "$out/debs" && rm -f ./*.deb && apt-get $o download $pkgs 2>&1 | grep -v -e unsandboxed -e '^Get:' -e '^Fetched' || true)
cat > .gpu/mpirun <<'RUN'
#!/usr/bin/env bash
# mpirun from the bundled Debian Open MPI (tests/mpi/bundle-mpirun.sh), unpacked once under /tmp/gpu-mpi.
# Local ranks only (shared memory between them), as root, without binding (the host's cgroup decides).
here=$(cd "$(dirname "$0")" && pwd)
root=${EJECTA_MPI_ROOT:-/tmp/gpu-mpi}
if [ ! -e "$root/.done" ]; then
  mkdir -p "$root"
  for f in "$here"/mpi/debs/*.deb; do dpkg-deb -x "$f" "$root"; done
  touch "$root/.done"
fi
u=$root/usr
a=$u/lib/x86_64-linux-gnu
export OPAL_PREFIX=$u OPAL_EXEC_PREFIX=$u OPAL_BINDIR=$u/bin OPAL_LIBDIR=$a/openmpi/lib \
  OPAL_PKGLIBDIR=$a/openmpi/lib/openmpi3 OPAL_DATAROOTDIR=$u/share OPAL_DATADIR=$u/share \
  OPAL_PKGDATADIR=$u/share/openmpi OPAL_SYSCONFDIR=$root/etc/openmpi OPAL_INCLUDEDIR=$a/openmpi/include \
  PMIX_PREFIX=$a/pmix2 PMIX_EXEC_PREFIX=$a/pmix2 PMIX_LIBDIR=$a/pmix2/lib PMIX_PKGLIBDIR=$a/pmix2/lib/pmix \
  PMIX_DATAROOTDIR=$a/pmix2/share PMIX_DATADIR=$a/pmix2/share PMIX_PKGDATADIR=$a/pmix2/share/pmix
export LD_LIBRARY_PATH=$a/openmpi/lib:$a/pmix2/lib:$a:$root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$u/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Shared memory and self only (no network fabric on one host); no single-copy (ptrace) in containers;
# no ssh on the host: local launches do not use it, but the rsh launcher wants an agent to exist.
export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader} OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} \
  OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm_rsh_agent=${OMPI_MCA_plm_rsh_agent:-false}
exec "$u/bin/orterun" --bind-to none "$@"  # mpirun: a Debian alternative (postinst), not in the package
RUN
chmod +x .gpu/mpirun
echo "bundled $(ls "$out/debs" | wc -l) packages into $out/debs ($(du -sh "$out" | cut -f1)); on the GPU host: .gpu/run .gpu/mpirun -n 2 PROGRAM ARGS"
