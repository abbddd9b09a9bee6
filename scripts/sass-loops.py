#!/usr/bin/env python3
"""Where a kernel's local-memory instructions sit, from nvdisasm's listing (issue 18, scripts/ptxas-usage.sh).

Static spill bytes (ptxas -v) do not say how often a spill runs. This reads `nvdisasm -gi` of a cubin and,
for each force kernel, counts the local loads and stores (LDL / STL; nvdisasm marks register spills and
refills "SpillRefill"), the shared ones (LDS / STS) and all instructions, by loop depth: the natural loops
of the control-flow graph (basic blocks, dominators, back edges), an instruction's depth the number of
loops that hold its block. In the batched force pass, depth 3 and more is the work per candidate (the row's scan) and per
neighbour (the flush through the pair terms): the instructions that run ~100 times a particle.
  KEEP=/tmp/probe scripts/ptxas-usage.sh        # keeps the probe's source (probe.cu, probe_list.h)
  cd /tmp/probe && nvcc -O3 -DNDEBUG -I$REPO/engine -I. -arch=sm_90 --extended-lambda --expt-relaxed-constexpr \
      -lineinfo -std=c++17 -cubin probe.cu -o probe.cubin && nvdisasm -gi probe.cubin > probe.sass
  scripts/sass-loops.py /tmp/probe/probe.sass
nvdisasm: the CUDA toolkit's, or `pip install nvidia-cuda-nvdisasm` (its bin/nvdisasm) where the toolkit
has none.
"""
import re
import subprocess
import sys

text = open(sys.argv[1]).read()
funcs = re.split(r"\n\s*\.section\s+\.text\.(\S+),", text)
rows = []
for k in range(1, len(funcs), 2):
    name, body = funcs[k].rstrip('",'), funcs[k + 1]
    if "Forces" not in name:
        continue
    labels, instrs = {}, []
    pending = []
    for line in body.split("\n"):
        m = re.match(r"\s*(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*)", line)
        if m:
            addr = int(m.group(1), 16)
            for lab in pending:
                labels[lab] = addr
            pending = []
            instrs.append((addr, m.group(2)))
    # Basic blocks: a label or the instruction after a branch or exit starts one.
    starts = {instrs[0][0]} | set(labels.values())
    for n_, (addr, ins) in enumerate(instrs[:-1]):
        if re.search(r"\b(BRA|BRX|JMP|EXIT|RET)\b", ins):
            starts.add(instrs[n_ + 1][0])
    order = sorted(starts)
    block_of, blocks = {}, {b_: [] for b_ in order}
    cur = None
    for addr, ins in instrs:
        if addr in starts:
            cur = addr
        block_of[addr] = cur
        blocks[cur].append((addr, ins))
    succ = {b_: set() for b_ in order}
    for k_, b_ in enumerate(order):
        last = blocks[b_][-1][1]
        pred_ = last.startswith("@")
        m = re.search(r"\bBRA\b.*?(\.L_x_\d+)", last)
        if m and m.group(1) in labels:
            succ[b_].add(labels[m.group(1)])
        ends = re.search(r"\b(BRA|BRX|JMP|EXIT|RET)\b", last) and not pred_
        if not ends and k_ + 1 < len(order):
            succ[b_].add(order[k_ + 1])
    # Dominators (iterative), back edges u -> h with h dominating u, natural loops.
    preds = {b_: set() for b_ in order}
    for b_ in order:
        for t in succ[b_]:
            preds[t].add(b_)
    everything = set(order)
    dom = {b_: set(everything) for b_ in order}
    dom[order[0]] = {order[0]}
    changed = True
    while changed:
        changed = False
        for b_ in order[1:]:
            ps = [dom[p_] for p_ in preds[b_]]
            new = (set.intersection(*ps) if ps else set()) | {b_}
            if new != dom[b_]:
                dom[b_], changed = new, True
    loops = {}
    for u in order:
        for h in succ[u]:
            if h in dom[u]:
                members, stack = {h, u}, [u]
                while stack:
                    x = stack.pop()
                    if x == h:
                        continue
                    for p_ in preds[x]:
                        if p_ not in members:
                            members.add(p_)
                            stack.append(p_)
                loops.setdefault(h, set()).update(members)
    stats = {}
    for addr, ins in instrs:
        b_ = block_of[addr]
        d = min(sum(1 for members in loops.values() if b_ in members), 4)
        s = stats.setdefault(d, {"all": 0, "spill": 0, "ldl_stl": 0, "lds_sts": 0})
        op = ins.split()[1] if ins.startswith("@") else ins.split()[0]
        s["all"] += 1
        if op.startswith(("LDL", "STL")):
            s["ldl_stl"] += 1
            if "SpillRefill" in ins:
                s["spill"] += 1
        if op.startswith(("LDS", "STS")):
            s["lds_sts"] += 1
    rows.append((name, stats))

names = [r[0] for r in rows]
dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
for (name, stats), d in zip(rows, dem):
    d = d.replace("ejecta::", "").replace("ejecta_for_each_balanced_kernel<", "").replace("ForcesOverList<", "OverList<")
    d = re.sub(r"Forces_WCSPH_Monaghan1992<(float|double), 3, (true|false), WcsphArrays<\1, 3> >",
               lambda m: "WCSPH<%s%s>" % (m.group(1), ", shifting" if m.group(2) == "true" else ""), d)
    d = re.sub(r">\(unsigned long, .*$", "", d).replace("> >", ">>")
    print(d)
    print("  depth  instructions  LDL/STL (of them spills)  LDS/STS")
    for depth in sorted(stats):
        s = stats[depth]
        print("  %s%-4s %12d  %7d (%d)  %16d" % ("", str(depth) + ("+" if depth == 4 else ""), s["all"], s["ldl_stl"],
                                                s["spill"], s["lds_sts"]))
