#!/usr/bin/env python3
"""The 2D SPHERIC 2 proxy's sensors from particle frames instead of probes (docs/physics.md, "Thirteenth
session"): for runs whose model has no probes (physics.model = mixed, as scenes/spheric2_slice2d_gate.ini
with its lifted gate), the same figures as scripts/spheric2-proxy2d.py's from the frames of a recording.

- H3 (x = 1.488) and H2 (x = 0.992): the water height as the engine's gauges read it (docs/probes.md: the
  first height above the floor, in dp/4 steps, where the colour sum V_j W over fluid and walls falls below
  0.5; Wendland C2, h = 1.5 dp, V_j = dp^2), its first passage of 0.5 and 4 cm (linear between frames) and
  the rise between them.
- H4 (x = 2.638, in the reservoir) the same way, and the clock fit of scripts/spheric2-figures.py: the s
  that best fits the run's H4(t + s) to the measured H4(t) over 0.1-0.5 s.
- P1 (0.8245, 0.021): the Shepard average of the fluid's pressure within the support, its arrival
  (> 500 Pa), the largest centred 5 ms mean over 0.3-0.6 s and the minimum over 0.43-0.50 s.
Checked against the probes of a wcsph run: the frames of the defaults every 10 ms read H3 and H2 within a
gauge step (dp/4) of the probe CSV at the same times, and the mixed model's run without a gate gives the
wcsph defaults' rises and P1 peak (thirteenth session).

usage: python3 scripts/spheric2-frames2d.py --dt DT [--dp 0.01] [LABEL=]DIR ...
  DIR holds one run's frames as `ejecta export RUN.h5 --particles --all --output DIR/f.csv` writes them
  (f_frameNNNNNN.csv, frame k at t = k DT: DT is the recording's --record-every).
"""
import argparse
import importlib.util
import glob
import os
import re

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))


def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sf = _load("spheric2_figures", "spheric2-figures.py")  # P1's figures and the clock fit
pp = _load("spheric2_proxy2d", "spheric2-proxy2d.py")  # the front's passages and rise at H3 and H2
fr = _load("spheric2_front2d", "spheric2-front2d.py")  # the frames' reader and the table's head


def wendland2d(r, h):
    q = r / h
    return np.where(q < 2, 7 / (4 * np.pi * h * h) * (1 - q / 2) ** 4 * (2 * q + 1), 0.0)


def gauge(c, xg, dp, h):
    x, y = c["position_x"], c["position_y"]
    m = np.abs(x - xg) < 2 * h
    for yy in np.arange(0, 1.0, dp / 4):
        if (dp * dp * wendland2d(np.hypot(x[m] - xg, y[m] - yy), h)).sum() < 0.5:
            return yy
    return 1.0


def probe_p1(c, h):
    fl = c["kind"] == 0
    w = wendland2d(np.hypot(c["position_x"][fl] - 0.8245, c["position_y"][fl] - 0.021), h)
    return (w * c["pressure"][fl]).sum() / w.sum() if w.sum() > 0 else 0.0


def figures(d, dt, dp):
    h = 1.5 * dp
    t, h3, h2, h4, p1 = [], [], [], [], []
    for f in sorted(glob.glob(os.path.join(d, "*_frame*.csv"))):
        c = fr.read(f)
        t.append(int(re.search(r"frame(\d+)", f).group(1)) * dt)
        h3.append(gauge(c, 1.488, dp, h))
        h2.append(gauge(c, 0.992, dp, h))
        h4.append(gauge(c, 2.638, dp, h))
        p1.append(probe_p1(c, h))
    # The sensors as a probe CSV would hold them, read by the probe scripts' own figures.
    run = {k: np.array(v) for k, v in (("t", t), ("H3", h3), ("H2", h2), ("H4", h4), ("P1", p1))}
    f = sf.figures(run)
    exp = sf.read(os.path.join(here, "..", "tests", "data", "spheric2_kleefsman2005.csv"))
    out = {"clock": sf.h4_offset(run, exp), "arrival": f["P1 arrival"], "peak5": f["P1 peak 5ms"],
           "min": f["P1 min .43-.50"],
           "end": t[-1] if t else np.nan}
    pp.front(run, out)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dt", type=float, required=True)
    ap.add_argument("--dp", type=float, default=0.01)
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    fr.table_head(["run", "H3 > 0.5 / 4 cm (s), rise (ms)", "H2 > 0.5 / 4 cm (s), rise (ms)", "P1 arrival (s)",
                   "P1 5 ms peak (kPa)", "P1 min 0.43-0.50 s (kPa)", "H4 clock fit (ms)", "frames to (s)"])
    for spec in a.runs:
        label, d = fr.labelled(spec)
        f = figures(d, a.dt, a.dp)
        g = ["%.4f / %.4f, %.1f" % (f[n + " lo"], f[n + " hi"], 1e3 * f[n + " rise"]) for n in ("H3", "H2")]
        print("| %s | %s | %s | %.4f | %.1f | %.1f | %.1f | %.3f |" % (
            label, g[0], g[1], f["arrival"], f["peak5"] / 1e3, f["min"] / 1e3, 1e3 * f["clock"], f["end"]))


if __name__ == "__main__":
    main()
