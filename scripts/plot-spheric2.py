#!/usr/bin/env python3
"""Plots SPHERIC benchmark 2 sensors (scenes/dambreak3d.ini) against the experiment (Kleefsman et al.
2005; tests/data/spheric2_kleefsman2005.csv): P1 pressure, and the water heights H2 and H4 (H3 too).

The run's series is a CSV with a time column and columns named P1, H2, H3, H4 (any name that starts
with them, e.g. "P1_Pa", "H2_m", "P1.pressure [Pa]"): the probe CSV of `ejecta --headless` or of
`EJECTA_SPHERIC2_CSV=run.csv build/tests/ejecta_tests --gtest_filter=Spheric2.*`. Several runs may be given as
LABEL=FILE.

usage: /usr/bin/python3 scripts/plot-spheric2.py [LABEL=]run.csv [...] [-o OUT.png]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))


def read(path):
    with open(path) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    # Empty cells (a probe CSV's instruments not due at that time) read as NaN.
    head, data = rows[0], np.array([[float(v) if v.strip() else np.nan for v in r] for r in rows[1:] if r])
    cols = {}
    for k, name in enumerate(head):
        key = name.strip().split("_")[0].split(" ")[0].split(".")[0]
        cols[key if k else "t"] = data[:, k]
    return cols


def main():
    args, out = [], os.path.join(here, "..", "docs", "figures", "spheric2-p1-h2.png")
    it = iter(sys.argv[1:])
    for a in it:
        if a == "-o":
            out = next(it)
        else:
            args.append(a)
    if not args:
        sys.exit(__doc__)
    exp = read(os.path.join(here, "..", "tests", "data", "spheric2_kleefsman2005.csv"))
    fig, ax = plt.subplots(2, 2, figsize=(11, 7))
    panels = [("P1", ax[0][0], "pressure (Pa)", (0, 1.5)), ("P1", ax[0][1], "pressure (Pa)", (0.35, 0.55)),
              ("H2", ax[1][0], "water height (m)", (0, 1.5)), ("H4", ax[1][1], "water height (m)", (0, 1.5))]
    for key, a, ylabel, xr in panels:
        m = (exp["t"] >= xr[0]) & (exp["t"] <= xr[1])
        a.plot(exp["t"][m], exp[key][m], "k-", lw=1, label="experiment (Kleefsman et al. 2005)")
        for spec in args:
            label, path = spec.rsplit("=", 1) if "=" in spec else (os.path.basename(spec), spec)
            run = read(path)
            if key not in run:
                continue
            m = (run["t"] >= xr[0]) & (run["t"] <= xr[1]) & np.isfinite(run[key])
            a.plot(run["t"][m], run[key][m], "-", lw=1, label=label)
        a.set_xlabel("t (s)"), a.set_ylabel(ylabel), a.set_title(key + (" (impact)" if xr[0] > 0 else ""))
        a.set_xlim(*xr)
    ax[0][0].legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=100)
    print("wrote", out)


if __name__ == "__main__":
    main()
