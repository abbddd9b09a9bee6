#!/usr/bin/env python3
"""The P1 impact figures of SPHERIC 2 runs, 2D proxy (scenes/spheric2_slice2d.ini) or 3D
(scenes/dambreak3d.ini), from probe CSVs sampled every 1 ms (docs/physics.md, "twelfth session: a 2D
proxy of the impact").

Per run: P1 arrival (first sample > 500 Pa), the 5 ms running-mean peak and the minimum over 0.43-0.50 s
(scripts/spheric2-figures.py's definitions, imported from it), the raw maximum, and the ringing after
the impact: P1 less its 25 ms centred running mean (two periods of a ~12 ms mode, which it removes to
within 10%), its dominant period (the largest peak of the residual's spectrum between 3 and 50 ms, over
the 100 ms after arrival + 10 ms) and its amplitude (sqrt(2) x the residual's RMS) over the first 20 ms
after arrival and over 40-100 ms after arrival. The experiment's row is computed the same way.

usage: python3 scripts/spheric2-proxy2d.py [LABEL=]run.csv [...]
"""
import importlib.util
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("spheric2_figures", os.path.join(here, "spheric2-figures.py"))
sf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sf)


def running_mean(t, p, half):
    return np.array([p[np.abs(t - ti) <= half].mean() for ti in t])


def impact(s):
    t, p1 = s["t"], s["P1"]
    f = sf.figures(s)
    out = {"arrival": f["P1 arrival"], "peak5": f["P1 peak 5ms"], "min": f["P1 min .43-.50"]}
    ta = f["P1 arrival"]
    if not np.isfinite(ta):
        return out
    w = (t >= ta) & (t <= ta + 0.1)
    out["max"] = p1[w].max()
    res = p1 - running_mean(t, p1, 0.0125)
    a = (t >= ta) & (t < ta + 0.02)
    b = (t >= ta + 0.04) & (t < ta + 0.1)
    out["amp0-20"] = np.sqrt(2) * np.sqrt(np.mean(res[a] ** 2)) if a.any() else np.nan
    out["amp40-100"] = np.sqrt(2) * np.sqrt(np.mean(res[b] ** 2)) if b.any() else np.nan
    w = (t >= ta + 0.01) & (t < ta + 0.11)
    if w.sum() >= 64:
        tw = np.linspace(ta + 0.01, ta + 0.11, 1000, endpoint=False)
        r = np.interp(tw, t, res)
        r = (r - r.mean()) * np.hanning(len(r))
        spec = np.abs(np.fft.rfft(r, 8 * len(r)))
        freq = np.fft.rfftfreq(8 * len(r), tw[1] - tw[0])
        band = (freq >= 20) & (freq <= 333)
        out["period"] = 1.0 / freq[band][np.argmax(spec[band])]
    out["mean15-40"] = p1[(t >= ta + 0.015) & (t < ta + 0.04)].mean()
    return out


KEYS = [("arrival", "P1 arrival (s)", 1, "%.4f"), ("peak5", "P1 5 ms peak (kPa)", 1e-3, "%.1f"),
        ("max", "P1 raw max, 100 ms (kPa)", 1e-3, "%.1f"), ("min", "P1 min 0.43-0.50 s (kPa)", 1e-3, "%.1f"),
        ("mean15-40", "P1 mean 15-40 ms after arrival (kPa)", 1e-3, "%.1f"),
        ("period", "ringing period (ms)", 1e3, "%.1f"), ("amp0-20", "ringing amplitude 0-20 ms (kPa)", 1e-3, "%.1f"),
        ("amp40-100", "ringing amplitude 40-100 ms (kPa)", 1e-3, "%.1f")]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = [("experiment", impact(sf.read(os.path.join(here, "..", "tests", "data", "spheric2_kleefsman2005.csv"))))]
    for spec in sys.argv[1:]:
        label, path = spec.rsplit("=", 1) if "=" in spec else (os.path.basename(spec), spec)
        try:
            runs.append((label, impact(sf.read(path))))
        except (OSError, KeyError, ValueError, IndexError) as e:
            runs.append((label + " (unread: %s)" % e, {}))
    print("| figure | " + " | ".join(l for l, _ in runs) + " |")
    print("|---" * (len(runs) + 1) + "|")
    for k, name, scale, fmt in KEYS:
        cells = [(fmt % (f[k] * scale)) if np.isfinite(f.get(k, np.nan)) else "-" for _, f in runs]
        print("| %s | %s |" % (name, " | ".join(cells)))


if __name__ == "__main__":
    main()
