#!/usr/bin/env bash
# Builds the CUPTI tracer (trace.cpp) into OUTDIR/libtrace.so with libcupti beside it (found through
# $ORIGIN), for the GPU host. Usage: scripts/gpu-trace/build.sh OUTDIR
# Then, there: CUDA_INJECTION64_PATH=$PWD/OUTDIR/libtrace.so TRACE_OUT=/tmp/t.csv .gpu/run build/ejecta ...
# and here: python3 scripts/gpu-trace/steps.py /tmp/t.csv [STEP | --kernels N | --around KERNEL]
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$out"
cupti=$(ls "$cuda"/lib64/libcupti.so.* "$cuda"/lib/libcupti.so.* "$cuda"/extras/CUPTI/lib64/libcupti.so.* 2>/dev/null | head -1 || true)
[ -n "$cupti" ] || { echo "build.sh: no libcupti under $cuda" >&2; exit 1; }
g++ -O2 -shared -fPIC -o "$out/libtrace.so" "$(dirname "$0")/trace.cpp" -I"$cuda/include" \
  -L"$(dirname "$cupti")" -lcupti -Wl,-rpath,'$ORIGIN'
cp -L "$cupti" "$out/"
echo "$out/libtrace.so"
