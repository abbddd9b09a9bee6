#!/usr/bin/env python3
"""Issue 12's SPHERIC 2 goal table (Kleefsman et al. 2005) from probe CSVs of scenes/dambreak3d.ini.

The figures are those of tests/spheric2_util.h (docs/physics.md, "SPHERIC benchmark 2"), computed the
same way for the experiment (tests/data/spheric2_kleefsman2005.csv) and for each run. Each run is
reported twice: as run, and on the experiment's clock, its times less the fixed offset of
tests/spheric2_util.h (kSpheric2ClockOffset, 30 ms; docs/physics.md, "The release and the experiment's
clock"), as Spheric2.GoalTableGpu checks it. For the record the script also prints the s that best fits
the run's H4(t + s) to the measured H4(t) over 0.1-0.5 s (absolute levels: a coarse gauge's reading at
rest moves it by about 4 ms per mm).

The probe CSV is that of `ejecta --headless ... --probes FILE.csv` (sample P1..H4 every 1 ms:
`--set probe.1.interval=0.001` etc., or every step) or of EJECTA_SPHERIC2_CSV with the Spheric2 tests.

FILE.csv@NAME takes probe NAME's pressure as P1 (for instance a second P1 probe with source = walls,
added with --set probe.9.position=0.8245, 0.471, 0.021 --set probe.9.source=walls --set probe.9.name=P1w).

usage: python3 scripts/spheric2-figures.py [LABEL=]run.csv[@NAME] [...]
"""
import csv
import os
import sys

import numpy as np

CLOCK_OFFSET = 0.030  # tests/spheric2_util.h, kSpheric2ClockOffset
here = os.path.dirname(os.path.abspath(__file__))


def read(path, p1="P1"):
    with open(path) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    head = rows[0]
    data = np.array([[float(v) if v.strip() else np.nan for v in r] for r in rows[1:] if r])
    cols = {}
    for k, name in enumerate(head):
        key = name.strip().split("_")[0].split(" ")[0].split(".")[0]
        if k == 0:
            key = "t"
        if key not in cols:
            cols[key] = data[:, k]
        cols.setdefault(name.strip().split(" ")[0], data[:, k])  # the full name too, e.g. P1m.pressure
    cols["P1"] = cols[p1]  # another probe as P1 (FILE.csv@NAME), e.g. a wall probe beside the fluid one
    m = np.isfinite(cols["P1"])
    return {k: v[m] for k, v in cols.items()}


def figures(s, shift=0.0):
    t = s["t"] - shift
    p1, h2, h3, h4 = s["P1"], s["H2"], s["H3"], s["H4"]
    f = {}
    a = np.nonzero(p1 > 500)[0]
    f["P1 arrival"] = t[a[0]] if len(a) else np.nan
    a = np.nonzero(h3 > 0.02)[0]
    f["front x=1.488"] = t[a[0]] if len(a) else np.nan
    w = (t >= 0.43) & (t <= 0.50)
    f["P1 min .43-.50"] = p1[w].min() if w.any() else np.nan
    peak = 0.0
    for i in np.nonzero((t >= 0.3) & (t <= 0.6))[0]:
        m = np.abs(t - t[i]) <= 0.0025
        peak = max(peak, p1[m].mean())
    f["P1 peak 5ms"] = peak
    w = (t >= 1.0) & (t <= 1.5)
    f["P1 mean 1-1.5"] = p1[w].mean() if w.any() else np.nan
    for k, at in enumerate((0.5, 1.0, 1.5)):
        w = np.abs(t - at) <= 0.005
        f["H2 %.1f" % at] = h2[w].mean() if w.any() else np.nan
        f["H4 %.1f" % at] = h4[w].mean() if w.any() else np.nan
    return f


def h4_offset(run, exp):
    """Least-squares s of run H4(t + s) against the measured H4(t), t in 0.1-0.5 s."""
    te = exp["t"][(exp["t"] >= 0.1) & (exp["t"] <= 0.5)]
    he = np.interp(te, exp["t"], exp["H4"])
    smax = min(0.100, run["t"].max() - 0.5)  # up to 100 ms: a door delays the release by 45-80 ms (2026-12-05)
    if smax < 0.02:
        return np.nan
    best = (np.inf, np.nan)
    for s in np.arange(0.0, smax + 1e-9, 0.0005):
        hr = np.interp(te + s, run["t"], run["H4"])
        e = np.mean((hr - he) ** 2)
        best = min(best, (e, s))
    return best[1]


GOAL = [("P1 arrival", 0.393, "abs", 0.010), ("P1 peak 5ms", 10600, "rel", 0.30),
        ("P1 min .43-.50", -2000, "gt", None), ("P1 mean 1-1.5", 2826, "rel", 0.05),
        ("H2 0.5", 0.099, "rel", 0.05), ("H2 1.0", 0.179, "rel", 0.05), ("H2 1.5", 0.237, "rel", 0.05),
        ("H4 0.5", 0.427, "rel", 0.05), ("H4 1.0", 0.279, "rel", 0.05), ("H4 1.5", 0.182, "rel", 0.05),
        ("front x=1.488", 0.218, "abs", 0.010)]


def ok(key, v, exp):
    for k, goal, kind, tol in GOAL:
        if k != key or not np.isfinite(v):
            continue
        ref = exp.get(key, goal)
        if kind == "abs":
            return abs(v - goal) <= tol
        if kind == "rel":
            return abs(v - ref) <= tol * abs(ref)
        return v > goal
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exp = read(os.path.join(here, "..", "tests", "data", "spheric2_kleefsman2005.csv"))
    fe = figures(exp)
    runs = []
    for spec in sys.argv[1:]:
        label, path = spec.rsplit("=", 1) if "=" in spec else (os.path.basename(spec), spec)
        path, p1 = path.rsplit("@", 1) if "@" in path else (path, "P1")
        r = read(path, p1)
        print("%s: H4 fit of the clock offset %.1f ms (for the record)" % (label, 1000 * h4_offset(r, exp)))
        runs.append((label, figures(r)))
        runs.append(("%s, -30 ms" % label, figures(r, CLOCK_OFFSET)))
    keys = [k for k, *_ in GOAL]
    print("| figure | experiment | " + " | ".join(l for l, _ in runs) + " |")
    print("|---" * (len(runs) + 2) + "|")
    for k in keys:
        cells = []
        for _, f in runs:
            v = f[k]
            good = ok(k, v, fe)
            mark = "" if good is None else (" ok" if good else " X")
            cells.append(("%.4g" % v) + mark if np.isfinite(v) else "-")
        print("| %s | %.4g | %s |" % (k, fe[k], " | ".join(cells)))


if __name__ == "__main__":
    main()
