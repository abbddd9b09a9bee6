#!/usr/bin/env python3
"""Plots a recorded 2D dam break (scenes/dambreak2d.ini) against Martin & Moyce (1952), n^2 = 2:
surge front Z(T) and residual column height H(tau). Writes docs/figures/dambreak2d-martin-moyce.png.

usage: build/ejecta scenes/dambreak2d.ini --headless --until 0.17 --record db.h5 \
           --record-every 0.002 --record-fields position,kind
       /usr/bin/python3 scripts/plot-dambreak.py db.h5 [OUT.png]
"""
import csv
import math
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

A, G = 0.05715, 9.81
here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "..", "tests", "data")


def table(name):
    rows = []
    with open(os.path.join(data, name)) as f:
        for line in f:
            if line.strip() and not line.startswith("#") and not line[0].isalpha():
                rows.append([float(v) for v in line.split(",")])
    return np.array(rows)


def main():
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "docs", "figures", "dambreak2d-martin-moyce.png")
    with h5py.File(path, "r") as f:
        dp = None
        for line in f.attrs["scene"].splitlines():
            if line.strip().startswith("dp"):
                dp = float(line.split("=")[1])
        T, Z, tau, H = [], [], [], []
        for name in sorted(f["frames"].keys()):
            g = f["frames"][name]
            if int(g.attrs.get("complete", 0)) != 1:
                continue
            t = float(g.attrs["time"])
            x = g["position"][:]
            fluid = g["kind"][:] == 0
            T.append(t * math.sqrt(2 * G / A))
            Z.append((x[fluid, 0].max() + 0.5 * dp) / A)
            back = fluid & (x[:, 0] < 2 * dp)
            tau.append(t * math.sqrt(G / A))
            H.append((x[back, 1].max() + 0.5 * dp) / (2 * A))
    front, height = table("martin_moyce_1952_n2_2.csv"), table("martin_moyce_1952_n2_2_height.csv")
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    a.plot(T, Z, "-", label="Ejecta (a/dp = %d)" % round(A / dp))
    a.plot(front[:, 0], front[:, 1], "o", label="Martin & Moyce 1952")
    a.set_xlabel("T = t sqrt(2 g / a)"), a.set_ylabel("Z = x_front / a"), a.set_title("surge front"), a.legend()
    b.plot(tau, H, "-", label="Ejecta")
    b.plot(height[:, 0], height[:, 1], "o", label="Martin & Moyce 1952")
    b.set_xlabel("tau = t sqrt(g / a)"), b.set_ylabel("H = eta / (2 a)"), b.set_title("column height at the back wall"), b.legend()
    fig.tight_layout()
    os.makedirs(os.path.dirname(out), exist_ok=True)
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
