#!/usr/bin/env bash
# ptxas's resource usage (registers, spill stores and loads, stack frame, shared memory) of the liquid's
# fused force kernels, as the CUDA build compiles them (issue 18; docs/benchmarks.md, "ptxas resource
# usage of the force kernels"). No GPU needed: it compiles a small translation unit that instantiates the
# same kernels the store solver launches (ejecta_for_each_balanced_kernel of ForcesOverList of the pass,
# exec/exec_cuda.cuh), with the CUDA build's flags, for sm_90 by default, and prints one line a kernel;
# then it checks that the queue's place (fluid.neighbour_batch = row32_shared, rows2_shared) leaves the
# PTX's floating-point instructions as they are. About 2 minutes on 2 cores.
#   scripts/ptxas-usage.sh [ARCH]          e.g. scripts/ptxas-usage.sh 90
# Where the local and shared loads and stores sit in the loops: scripts/sass-loops.py (needs nvdisasm).
# Or from the log of a CUDA build configured with -DCMAKE_CUDA_FLAGS=--resource-usage (every force kernel
# the store solver compiles; the same figures for the same kernels):  scripts/ptxas-usage.sh --log LOG
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

# One line a kernel from ptxas's -v lines (its log in $1): registers, stack frame, spill stores and
# loads, shared memory (static), for the force kernels.
report() {
  python3 - "$1" <<'PY'
import re, subprocess, sys
kernels, cur = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"Compiling entry function '(\S+)'", line)
    if m: cur = m.group(1); kernels[cur] = {}; continue
    if not cur or "Forces" not in cur: continue
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m: kernels[cur].update(stack=int(m.group(1)), st=int(m.group(2)), ld=int(m.group(3)))
    m = re.search(r"Used (\d+) registers", line)
    if m: kernels[cur]["reg"] = int(m.group(1))
    m = re.search(r"(\d+) bytes smem", line)
    if m: kernels[cur]["smem"] = int(m.group(1))
names = [k for k in kernels if "Forces" in k]
dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
def short(d):
    d = d.replace("ejecta::", "").replace("ejecta_for_each_balanced_kernel<", "").replace("ForcesOverList<", "OverList<")
    d = re.sub(r"Forces_WCSPH_Monaghan1992<(float|double), 3, (true|false), WcsphArrays<\1, 3> >",
               lambda m: "WCSPH<%s%s>" % (m.group(1), ", shifting" if m.group(2) == "true" else ""), d)
    d = re.sub(r">\(unsigned long, .*$", "", d)
    return d.replace("> >", ">>")
print("%4s %6s %8s %8s %6s  %s" % ("REG", "STACK", "SPILL_ST", "SPILL_LD", "SMEM", "kernel (OverList<pass, blocks a SM>)"))
for name, d in sorted(zip(names, dem), key=lambda x: short(x[1])):
    k = kernels[name]
    print("%4d %6d %8d %8d %6d  %s" % (k.get("reg", -1), k.get("stack", -1), k.get("st", -1), k.get("ld", -1),
                                      k.get("smem", 0), short(d)))
PY
}

if [ "${1:-}" = "--log" ]; then
  report "$2"
  exit 0
fi
arch=${1:-90}
# KEEP=dir keeps the probe, its object and ptxas's log there.
if [ -n "${KEEP:-}" ]; then tmp=$KEEP; mkdir -p "$tmp"; else tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fi
cat > "$tmp/probe.cu" <<'CU'
// The liquid's fused force kernels as Term_Forces_Monaghan1992_UniformH::variant launches them
// (solver/terms/liquid_uniform_terms.h): the default pass (fluid.neighbour_batch = off), the batched
// ones (the queue in local or shared memory), float with its two launch bounds, double, with and
// without shifting.
#include "exec/exec_cuda.cuh"
#include "physics/forces_wcsph_batch.h"
#include "probe_list.h"
CU
# The instances (probe_list.h): each pass G the variant launches, with its launch bound: the float pass
# without shifting under fluid.force_registers = 64 (ForcesOverList<G, 8>) and 72 (ForcesOverList<G>),
# the others with their own (ForcesOverList<G>). BATCHES: the ForcesBatched template arguments to list
# ("|" between them); TYPES (float double) and SHIFTING (false true) narrow the list.
batches=${BATCHES:-"32, 1|48, 2|32, 1, true|48, 2, true"}
{
  echo "namespace ejecta {"
  i=0
  for T in ${TYPES:-float double}; do
    for S in ${SHIFTING:-false true}; do
      F="Forces_WCSPH_Monaghan1992<$T, 3, $S, WcsphArrays<$T, 3>>"
      passes=()
      [ "$S" = false ] && passes+=("$F")
      IFS='|' read -ra bs <<< "$batches"
      for b in "${bs[@]}"; do passes+=("ForcesBatched<$F, $b>"); done
      for G in "${passes[@]}"; do
        echo "auto k$((i++)) = &ejecta_for_each_balanced_kernel<ForcesOverList<$G>>;"
        [ "$T" = float ] && [ "$S" = false ] && echo "auto k$((i++)) = &ejecta_for_each_balanced_kernel<ForcesOverList<$G, 8>>;"
      done
    done
  done
  echo "}"
} > "$tmp/probe_list.h"
"$nvcc" -O3 -DNDEBUG -DEJECTA_WITH_CUDA=1 -I"$root/engine" -I"$tmp" -isystem=/usr/include/hdf5/serial \
  --generate-code=arch=compute_$arch,code=sm_$arch --extended-lambda --expt-relaxed-constexpr -lineinfo \
  -std=c++17 -Xptxas -v -c "$tmp/probe.cu" -o "$tmp/probe.o" 2> "$tmp/ptxas.log" || { cat "$tmp/ptxas.log"; exit 1; }
report "$tmp/ptxas.log"
# The queue's place must not change the arithmetic: the floating-point instructions of the PTX (fma, mul,
# add, sub, div, sqrt, rcp, neg, abs, min, max, cvt, setp, selp on f32 / f64), in order, of each
# ForcesBatched<..., true> (the queue in shared memory) against its ForcesBatched<..., false>.
"$nvcc" -O3 -DNDEBUG -DEJECTA_WITH_CUDA=1 -I"$root/engine" -I"$tmp" -isystem=/usr/include/hdf5/serial \
  --generate-code=arch=compute_$arch,code=compute_$arch --extended-lambda --expt-relaxed-constexpr \
  -std=c++17 -ptx "$tmp/probe.cu" -o "$tmp/probe.ptx"
python3 - "$tmp/probe.ptx" <<'PY'
import re, sys
ops = {}
for e in re.split(r"\n\.visible \.entry ", open(sys.argv[1]).read())[1:]:
    name = e.split("(")[0]
    ops[name] = re.findall(r"^\s+((?:fma|mul|add|sub|div|sqrt|rcp|neg|abs|min|max|cvt|setp|selp)\.[a-z0-9.]*f(?:32|64)[a-z0-9.]*)", e, re.M)
import subprocess
def short(n):
    d = subprocess.run(["c++filt"], input=n, capture_output=True, text=True).stdout.strip()
    d = re.sub(r"^.*ForcesBatched<ejecta::Forces_WCSPH_Monaghan1992<(\w+), 3, (\w+), [^>]*> >, (\d+), (\d+), true>, (\d+)>.*$",
               lambda m: "%s%s, Cap %s, Rows %s, %s blocks a SM" % (m.group(1), ", shifting" if m.group(2) == "true" else "",
                                                                   m.group(3), m.group(4), m.group(5)), d)
    return d
for name in ops:
    if "ForcesBatched" in name and "ELb1EEE" in name:
        local = name.replace("ELb1EEE", "ELb0EEE")
        if local in ops:
            same = ops[name] == ops[local]
            print("PTX arithmetic, shared queue against local: %s (%d instructions)  %s" %
                  ("same" if same else "DIFFERENT", len(ops[name]), short(name)))
PY
