#!/usr/bin/env python3
"""What P1's impact on the SPHERIC 2 box is made of (issue 12, docs/physics.md "What the P1 impact is").

Reads particle frames of scenes/dambreak3d.ini exported with
`ejecta export run.h5 --particles --frame N --output fN.csv` and prints, per frame:
  - P1 as the probe computes it (Shepard kernel average of the fluid pressure, sum p V W / sum V W),
    the same over fluid and wall particles, and the mean extrapolated pressure of the box's first
    wall layer near P1 (Adami et al. 2012): does the probe read what the wall feels?
  - the Shepard average of the walls' pressure alone (probe.N.source = walls);
  - the fluid kernel sum at P1 (the probe's Shepard denominator);
  - the x force per unit width on the box's front face (sum of the first wall layer's p dp^2 over
    the face width) against the momentum flux rho u^2 h of the layer arriving at x = 0.90-1.00.
With --particles it also lists the fluid near P1's plane (y within dp/2 of 0.465): position, velocity,
continuity density, pressure and kernel sum rho = sum m W over fluid and walls.

usage: python3 scripts/spheric2-impact.py --dp 0.03 [--particles] f1.csv [f2.csv ...]
The kernel is Wendland C2 with h = 1.5 dp (the defaults); a wall particle has volume dp^3.
"""
import argparse

import numpy as np

P1 = np.array([0.8245, 0.471, 0.021])
FACE_X0, BOX_Y = 0.8245, (0.2985, 0.7015)  # the box's front face and its span across the tank


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dp", type=float, required=True)
    ap.add_argument("--particles", action="store_true")
    ap.add_argument("frames", nargs="+")
    a = ap.parse_args()
    dp, h = a.dp, 1.5 * a.dp

    def W(r):
        q = r / h
        return np.where(q < 2, 21 / (16 * np.pi * h**3) * (1 - q / 2) ** 4 * (2 * q + 1), 0.0)

    for f in a.frames:
        d = np.genfromtxt(f, delimiter=",", skip_header=1)
        x, v, rho, p, m, kind = d[:, 0:3], d[:, 3:6], d[:, 10], d[:, 11], d[:, 16], d[:, 17]
        fl, wl = kind == 0, kind == 1
        V = np.where(fl, m / rho, dp**3)
        w = W(np.linalg.norm(x - P1, axis=1)) * V
        sf, sw = w[fl].sum(), w[wl].sum()
        probe = (w * p)[fl].sum() / sf if sf >= 0.1 else 0.0
        both = (w * p).sum() / (sf + sw) if sf >= 0.1 else 0.0
        walls = (w * p)[wl].sum() / sw if sw > 0 else 0.0  # probe.N.source = walls
        # the box's first wall layer behind the face (above the floor: the wall sites within dp of it)
        layer = (wl & (x[:, 0] < FACE_X0) & (x[:, 0] > FACE_X0 - dp) & (x[:, 1] > BOX_Y[0]) & (x[:, 1] < BOX_Y[1])
                 & (x[:, 2] > 0))
        near = layer & (np.abs(x[:, 1] - P1[1]) < 0.05) & (x[:, 2] < 0.07)
        force = (p[layer] * dp * dp).sum() / (BOX_Y[1] - BOX_Y[0])
        inflow = fl & (x[:, 0] > 0.90) & (x[:, 0] < 1.0) & (x[:, 1] > 0.3) & (x[:, 1] < 0.7)
        depth = inflow.sum() * dp**3 / (0.1 * 0.4)
        u = v[inflow, 0].mean() if inflow.any() else 0.0
        print(f"{f}: P1 probe {probe:8.0f} Pa, fluid+walls {both:8.0f} Pa, walls {walls:8.0f} Pa, wall layer {p[near].mean():8.0f} Pa; "
              f"fluid kernel sum {sf:.2f}; face force {force:6.0f} N/m against rho u^2 h = {1000 * u * u * depth:5.0f} N/m "
              f"(layer {depth:.3f} m at {u:.2f} m/s)")
        if a.particles:
            s = fl & (np.abs(x[:, 1] - 0.465) < dp / 2) & (x[:, 0] < FACE_X0 + 0.12) & (x[:, 2] < 0.2)
            mass = np.where(fl, m, rho * dp**3)
            for i in np.nonzero(s)[0][np.lexsort((x[s, 0], x[s, 2]))]:
                wi = W(np.linalg.norm(x - x[i], axis=1)) * mass
                print(f"   x {x[i, 0]:.3f} z {x[i, 2]:.3f}  u {v[i, 0]:5.2f} w {v[i, 2]:5.2f}  rho {rho[i]:7.1f} p {p[i]:7.0f}"
                      f"  sum m W: fluid {wi[fl].sum():6.1f} + walls {wi[wl].sum():6.1f}")


if __name__ == "__main__":
    main()
