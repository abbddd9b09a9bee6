#!/usr/bin/env python3
"""Reads a trace of scripts/gpu-trace/trace.cpp (CSV: kind, start ns, end ns, correlation, stream, what).

  steps.py TRACE [STEP]       one step's timeline: each GPU activity with its start, the gap before it and
                              its duration, then the step's runtime calls. A step ends with the small
                              device-to-host copy of its extremes (the one wait of a liquid step); STEP
                              counts those copies (default: the middle one).
  steps.py TRACE --kernels N  the N costliest kernels: mean and median duration over the last 300 launches.
  steps.py TRACE --around TEXT [BEFORE AFTER]
                              the activities around the fifth-last launch of a kernel whose name holds
                              TEXT (BEFORE and AFTER activities, default 12 and 30; e.g. splat_small for a
                              viewer frame of --benchmark-render), each with the gap before it, then the
                              runtime calls in that window, each with its start and duration (the host
                              waiting in a call shows as a long one: a GL interop map, a download).
"""
import collections
import re
import subprocess
import sys


def load(path):
    gpu, api = [], []
    for line in open(path):
        kind, start, end, corr, _stream, what = line.rstrip('\n').split(',', 5)
        rec = (int(start), int(end), kind, int(corr), what)
        (gpu if kind in 'KCM' else api).append(rec)
    gpu.sort()
    api.sort()
    return gpu, api


_names = {}


def name(rec):
    kind, what = rec[2], rec[4]
    if kind != 'K':
        return {'C': 'copy ', 'M': 'memset '}[kind] + what
    if what not in _names:
        text = subprocess.run(['c++filt'], input=what, capture_output=True, text=True).stdout.strip() or what
        # The launcher and its functor, two levels deep: "ejecta_for_each_balanced_kernel<ejecta::ForcesOverList<
        # ejecta::WallPressure_Adami2012<float, 3>, 3>>" -> "ejecta_for_each_balanced_kernel<ForcesOverList<WallPressure_Adami2012>>"
        m = re.match(r'(?:void )?(?:[\w:]*::)?(\w+)<(?:[\w:]*::)?(\w+)(?:<(?:[\w:]*::)?(\w+))?', text)
        if m:
            inner = '<' + m.group(3) + '>' if m.group(3) and not m.group(3)[0].isdigit() else ''
            _names[what] = m.group(1) + '<' + m.group(2) + inner + '>'
        else:  # a plain function: its name without namespaces and parameters
            _names[what] = text.replace('(anonymous namespace)::', '').split('(')[0].split('::')[-1][:80]
    return _names[what]


def step_ends(gpu):
    return [x for x in gpu if x[2] == 'C' and 'kind2 ' in x[4] and int(x[4].split('bytes')[1]) <= 64]


def timeline(path, step):
    gpu, api = load(path)
    ends = step_ends(gpu)
    if len(ends) < 2:
        sys.exit('no steps found (no small device-to-host copies)')
    step = len(ends) // 2 if step is None else step
    t0, t1 = ends[step][1], ends[step + 1][1]
    acts = [x for x in gpu if x[0] >= t0 and x[1] <= t1]
    busy = sum(x[1] - x[0] for x in acts)
    print('step %d of %d: %.1f us, the GPU busy %.1f us (%.0f%%), %d activities'
          % (step, len(ends) - 1, (t1 - t0) / 1e3, busy / 1e3, 100 * busy / (t1 - t0), len(acts)))
    prev = t0
    for x in acts:
        print('%8.1f  gap %6.1f  %7.1f us  %s' % ((x[0] - t0) / 1e3, (x[0] - prev) / 1e3, (x[1] - x[0]) / 1e3, name(x)))
        prev = x[1]
    calls, spent = collections.Counter(), collections.Counter()
    for y in api:
        if t0 <= y[0] <= t1:
            calls[y[4]] += 1
            spent[y[4]] += y[1] - y[0]
    for k, v in calls.most_common():
        print('  %-50s %4d calls %9.1f us' % (k, v, spent[k] / 1e3))


def kernels(path, count):
    gpu, _ = load(path)
    d = collections.defaultdict(list)
    for x in gpu:
        if x[2] == 'K':
            d[x[4]].append((x[1] - x[0]) / 1e3)
    rows = sorted(d.items(), key=lambda kv: -sum(kv[1][-300:]))
    for what, v in rows[:count]:
        v = v[-300:]
        print('%9.1f us mean, %9.1f median, %5d launches  %s' % (sum(v) / len(v), sorted(v)[len(v) // 2], len(v), name((0, 0, 'K', 0, what))))


def around(path, text, before, after):
    gpu, api = load(path)
    hits = [k for k, x in enumerate(gpu) if x[2] == 'K' and text in x[4]]
    if not hits:
        sys.exit('no kernel whose name holds ' + text)
    k = hits[-5] if len(hits) >= 5 else hits[-1]
    acts = gpu[max(0, k - before):k + after]
    t0, prev = acts[0][0], acts[0][0]
    for x in acts:
        print('%8.1f  gap %6.1f  %7.1f us  %s' % ((x[0] - t0) / 1e3, (x[0] - prev) / 1e3, (x[1] - x[0]) / 1e3, name(x)[:100]))
        prev = x[1]
    quiet = ('GetLastError', 'PeekAtLastError', 'GetDevice', 'Attribute', 'Occupancy')
    for y in api:
        if t0 <= y[0] <= acts[-1][1] and not any(q in y[4] for q in quiet):
            print('  host %8.1f  %7.1f us  %s' % ((y[0] - t0) / 1e3, (y[1] - y[0]) / 1e3, y[4]))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if len(sys.argv) > 3 and sys.argv[2] == '--around':
        around(sys.argv[1], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 12,
               int(sys.argv[5]) if len(sys.argv) > 5 else 30)
    elif len(sys.argv) > 2 and sys.argv[2] == '--kernels':
        kernels(sys.argv[1], int(sys.argv[3]) if len(sys.argv) > 3 else 12)
    else:
        timeline(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
