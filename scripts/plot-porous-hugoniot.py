#!/usr/bin/env python3
"""Hugoniot of 75%-porous iron (epsilon-alpha, Collins, Melosh & Wuennemann 2011) with and without the
thermal correction: the analytic curves (Rankine-Hugoniot with the model and M89's Tillotson iron, as
tests/test_porous.cpp solves them) and the SPH points of 1D symmetric impacts. Plain Python (no
matplotlib): writes an SVG, docs/figures/porous-iron-hugoniot.svg by default.

usage: EJECTA_POROUS_HUGONIOT_CSV=docs/figures/porous-iron-hugoniot.csv \
           build/tests/ejecta_tests --gtest_filter='PorousHugoniot.*'
       python3 scripts/plot-porous-hugoniot.py [docs/figures/porous-iron-hugoniot.csv [OUT.svg]]
"""
import csv
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..")
csv_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs", "figures", "porous-iron-hugoniot.csv")
out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "docs", "figures", "porous-iron-hugoniot.svg")

# assets/materials.ini [porous_iron]: M89 Tillotson iron matrix, alpha0 = 4, kappa = 0.98, eps_e = 0,
# eps_X = -1.2.
RHO0, A, B, E0, EIV, ECV, TA, TB, TAL, TBE = 7800, 128e9, 105e9, 9.5e6, 2.4e6, 8.67e6, 0.5, 1.5, 5, 5
ALPHA0, KAPPA, EPS_E, EPS_X = 4.0, 0.98, 0.0, -1.2
ALPHA_X = ALPHA0 * math.exp(KAPPA * (EPS_X - EPS_E))
EPS_C = 2 * (1 - ALPHA_X) / (KAPPA * ALPHA_X) + EPS_X
THERMAL = (TA + TB) * RHO0 / A  # Gamma_s0 / c_s0^2


def tillotson(rho, u):  # engine/physics/eos_tillotson.h
    eta = rho / RHO0
    mu = eta - 1
    w = 1 + u / (E0 * eta * eta)
    pc = (TA + TB / w) * rho * u + A * mu + B * mu * mu
    if rho >= RHO0 or u <= EIV:
        return pc
    z = RHO0 / rho - 1
    pe = TA * rho * u + (TB * rho * u / w + A * mu * math.exp(-TBE * z)) * math.exp(-TAL * z * z)
    if u >= ECV:
        return pe
    s = (u - EIV) / (ECV - EIV)
    return (1 - s) * pc + s * pe


def crush(eps):  # (E1)
    if eps >= EPS_E:
        return ALPHA0
    if eps >= EPS_X:
        return ALPHA0 * math.exp(KAPPA * (eps - EPS_E))
    if eps <= EPS_C:
        return 1.0
    x = (EPS_C - eps) / (EPS_C - EPS_X)
    return 1 + (ALPHA_X - 1) * x * x


def hugoniot(u_p, thermal):
    v0 = ALPHA0 / RHO0
    e = 0.5 * u_p * u_p

    def g(v):
        a = crush(math.log(v / v0) - (THERMAL * e if thermal else 0))
        return tillotson(a / v, e) / a - u_p * u_p / (v0 - v)

    hi = v0 * (1 - 1e-12)
    lo = hi
    for k in range(1, 2001):
        if g(lo) > 0:
            break
        hi, lo = lo, v0 * (1 - k / 2000 * 0.95)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    v = 0.5 * (lo + hi)
    return u_p * u_p / (v0 - v), 1 / v


curves = {}
for thermal in (True, False):
    curves[thermal] = [hugoniot(u, thermal) for u in [250 + 50 * k for k in range(150)]]
points = []
if os.path.exists(csv_path):
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            points.append((row["thermal"] == "1", float(row["P_sph"]), float(row["rho_sph"])))

# The plot: density (x) against pressure (y, log), as Collins et al. 2011 draw Hugoniots.
W, H, L, R, T, Bm = 640, 440, 70, 20, 30, 55
xmin, xmax, ymin, ymax = 2000.0, 8000.0, 0.5, 300.0


def sx(rho):
    return L + (rho - xmin) / (xmax - xmin) * (W - L - R)


def sy(p_gpa):
    return T + (math.log10(ymax) - math.log10(p_gpa)) / (math.log10(ymax) - math.log10(ymin)) * (H - T - Bm)


svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - Bm}" fill="none" stroke="black"/>']
for rho in range(2000, 8001, 1000):
    svg.append(f'<line x1="{sx(rho):.1f}" y1="{H - Bm}" x2="{sx(rho):.1f}" y2="{H - Bm + 5}" stroke="black"/>')
    svg.append(f'<text x="{sx(rho):.1f}" y="{H - Bm + 18}" text-anchor="middle">{rho}</text>')
for p in (1, 3, 10, 30, 100, 300):
    svg.append(f'<line x1="{L - 5}" y1="{sy(p):.1f}" x2="{L}" y2="{sy(p):.1f}" stroke="black"/>')
    svg.append(f'<line x1="{L}" y1="{sy(p):.1f}" x2="{W - R}" y2="{sy(p):.1f}" stroke="#ddd"/>')
    svg.append(f'<text x="{L - 8}" y="{sy(p) + 4:.1f}" text-anchor="end">{p}</text>')
svg.append(f'<text x="{(L + W - R) / 2}" y="{H - 15}" text-anchor="middle">bulk density (kg/m^3)</text>')
svg.append(f'<text x="18" y="{(T + H - Bm) / 2}" text-anchor="middle" transform="rotate(-90 18 {(T + H - Bm) / 2})">'
           'pressure (GPa)</text>')
svg.append(f'<text x="{L}" y="20">75%-porous iron (alpha0 = 4, kappa = 0.98), epsilon-alpha on Tillotson iron</text>')
colours = {True: "#c0392b", False: "#2471a3"}
for thermal, pts in curves.items():
    path = " ".join(f"{sx(r):.1f},{sy(p * 1e-9):.1f}" for p, r in pts if ymin <= p * 1e-9 <= ymax and xmin <= r <= xmax)
    svg.append(f'<polyline points="{path}" fill="none" stroke="{colours[thermal]}" stroke-width="2"/>')
for thermal, p, r in points:
    svg.append(f'<circle cx="{sx(r):.1f}" cy="{sy(p * 1e-9):.1f}" r="5" fill="none" stroke="{colours[thermal]}" '
               'stroke-width="2"/>')
ly = T + 20
for thermal, label in ((True, "with the thermal correction (Collins et al. 2011)"), (False, "without it")):
    svg.append(f'<line x1="{L + 15}" y1="{ly}" x2="{L + 40}" y2="{ly}" stroke="{colours[thermal]}" stroke-width="2"/>')
    svg.append(f'<text x="{L + 48}" y="{ly + 4}">{label}</text>')
    ly += 18
svg.append(f'<circle cx="{L + 27}" cy="{ly}" r="5" fill="none" stroke="black" stroke-width="2"/>')
svg.append(f'<text x="{L + 48}" y="{ly + 4}">SPH, 1D symmetric impacts (scenes/porous_planar1d.ini)</text>')
svg.append("</svg>")
with open(out_path, "w") as f:
    f.write("\n".join(svg) + "\n")
print("wrote", out_path, "with", len(points), "SPH points")
