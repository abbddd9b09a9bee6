#!/usr/bin/env python3
"""The surge front of the 2D SPHERIC 2 proxy (scenes/spheric2_slice2d.ini) from particle frames
(`ejecta export RUN.h5 --particles --frame N`; docs/physics.md, "Thirteenth session").

The water runs towards -x along the floor (y = 0). Per frame: the tip x_tip (the most advanced fluid
particle of the body: the first dp-wide column, counted from the water's side, after which every column
is wet; spray ahead of it is counted apart), the water height h(x) (top fluid particle of a column plus
dp/2) at distances d behind the tip, and, in the tip region (d < --tip m, default 0.1), the particles by
layer above the floor (layer k: k dp <= y < (k+1) dp): their mean velocity along the flow (-v_x), and
the mean and lowest pressure and density of the region. A front that is overrun by its upper layers (the
floor layer slower than those above) or held together by tension (negative pressure, density below
rho0) shows here.

usage: python3 scripts/spheric2-front2d.py [--dp 0.01] [--tip 0.1] [LABEL=]frame.csv [...]
"""
import argparse
import csv
import os

import numpy as np


def read(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head = [h.split(" ")[0] for h in rows[0]]
    a = np.array([[float(v) for v in r] for r in rows[1:] if r])
    return {h: a[:, k] for k, h in enumerate(head)}


def labelled(spec):
    """LABEL=PATH, or PATH labelled by its file name."""
    return spec.rsplit("=", 1) if "=" in spec else (os.path.basename(spec.rstrip("/")), spec)


def table_head(columns):
    """A markdown table's header row and rule."""
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")


def front(p, dp, tip_len):
    fl = p["kind"] == 0
    x, y = p["position_x"][fl], p["position_y"][fl]
    u = -p["velocity_x"][fl]
    pr, rho = p["pressure"][fl], p["density"][fl]
    col = np.floor(x / dp).astype(int)
    top = {}
    for c, yy in zip(col, y):
        top[c] = max(top.get(c, -1.0), yy)
    cols = sorted(top)
    # The body's tip: walking from the water's far end towards -x, the last column of an unbroken run.
    k = len(cols) - 1
    while k > 0 and cols[k - 1] == cols[k] - 1:
        k -= 1
    tip_col = cols[k]
    body = col >= tip_col
    x_tip = x[body].min()
    out = {"x_tip": x_tip, "spray": int((~body).sum())}
    for d in (0.02, 0.05, 0.1, 0.2, 0.3):
        c = int(np.floor((x_tip + d) / dp))
        out["h%.2f" % d] = top[c] + dp / 2 if c in top else np.nan
    reg = body & (x < x_tip + tip_len)
    lay = np.floor(y / dp).astype(int)
    for L in range(4):
        m = reg & (lay == L)
        out["u%d" % L] = u[m].mean() if m.any() else np.nan
        out["n%d" % L] = int(m.sum())
    out["p mean"], out["p min"] = pr[reg].mean(), pr[reg].min()
    out["neg"] = int((pr[reg] < 0).sum())
    out["n"] = int(reg.sum())
    out["rho mean"], out["rho min"] = rho[reg].mean(), rho[reg].min()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dp", type=float, default=0.01)
    ap.add_argument("--tip", type=float, default=0.1)
    ap.add_argument("frames", nargs="+")
    a = ap.parse_args()
    table_head(["frame", "x_tip (m)", "h at 0.02 / 0.05 / 0.1 / 0.2 / 0.3 m behind (cm)",
                "u along the flow, layers 0-3 (m/s)", "particles in layers 0-3", "p mean / min (kPa), p < 0 of n",
                "rho mean / min", "spray"])
    for spec in a.frames:
        label, path = labelled(spec)
        f = front(read(path), a.dp, a.tip)
        hs = " / ".join("%.1f" % (100 * f["h%.2f" % d]) for d in (0.02, 0.05, 0.1, 0.2, 0.3))
        us = " / ".join("%.2f" % f["u%d" % L] for L in range(4))
        ns = " / ".join("%d" % f["n%d" % L] for L in range(4))
        print("| %s | %.3f | %s | %s | %s | %.2f / %.2f, %d of %d | %.1f / %.1f | %d |" % (
            label, f["x_tip"], hs, us, ns, f["p mean"] / 1e3, f["p min"] / 1e3, f["neg"], f["n"],
            f["rho mean"], f["rho min"], f["spray"]))


if __name__ == "__main__":
    main()
