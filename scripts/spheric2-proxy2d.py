#!/usr/bin/env python3
"""The P1 impact figures of SPHERIC 2 runs, 2D proxy (scenes/spheric2_slice2d.ini) or 3D
(scenes/dambreak3d.ini), from probe CSVs sampled every 1 ms (docs/physics.md, "twelfth session: a 2D
proxy of the impact").

Per run: P1 arrival (first sample > 500 Pa), the 5 ms running-mean peak and the minimum over 0.43-0.50 s
(scripts/spheric2-figures.py's definitions, imported from it), the raw maximum, and the ringing after
the impact: P1 over 25-125 ms after arrival (to the series' end, if at least 60 ms) less its quadratic trend, on a 1 ms grid, its
dominant frequency (the largest peak of its Hann-windowed spectrum between 20 and 400 Hz; 10 Hz
resolution) and its RMS; P1's mean over 15-40 ms after arrival (the experiment's plateau); and the
front's shape at the gauges H3 (x = 1.488) and H2 (x = 0.992): when the water height first passes 0.5 and
4 cm (linear between samples), the rise time between the two (the experiment: 41 and 38 ms; a blunt
bore rises in a few ms) and the front's speed from H3 to H2 at each level (the experiment: 3.03 and 3.09
m/s; docs/physics.md, sixth and thirteenth sessions); H2 at 0.5 s and the clock offset that best fits H4
(spheric2-figures.py's), and P1's minimum in the 75 ms after the run's own arrival (the fixed 0.43-0.50 s
window is 5-75 ms after the defaults' arrival), for runs whose flow a gate delays (fourteenth session).
The experiment's row is
computed the same way.

usage: python3 scripts/spheric2-proxy2d.py [LABEL=]run.csv[@PROBE] [...]   (@PROBE: that probe as P1)
"""
import importlib.util
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("spheric2_figures", os.path.join(here, "spheric2-figures.py"))
sf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sf)


def crossing(t, h, level):
    """The first time h passes level, linear between the samples around it (nan if never, or if the
    series starts above it: a run restarted after the front passed)."""
    k = np.nonzero(h > level)[0]
    if not len(k) or k[0] == 0:
        return np.nan
    k = k[0]
    return t[k - 1] + (level - h[k - 1]) / (h[k] - h[k - 1]) * (t[k] - t[k - 1])


def front(s, out):
    """The front's arrival at 0.5 and 4 cm and its rise time at the gauges H3 and H2."""
    for g in ("H3", "H2"):
        if g not in s:
            continue
        lo, hi = crossing(s["t"], s[g], 0.005), crossing(s["t"], s[g], 0.04)
        out[g + " lo"], out[g + " hi"], out[g + " rise"] = lo, hi, hi - lo
    # The front's speed between the gauges (0.496 m apart), at each level: clock-free, like the rise.
    for lev in ("lo", "hi"):
        if "H3 " + lev in out and "H2 " + lev in out:
            out["speed " + lev] = (1.488 - 0.992) / (out["H2 " + lev] - out["H3 " + lev])


def impact(s, exp=None):
    t, p1 = s["t"], s["P1"]
    f = sf.figures(s)
    out = {"arrival": f["P1 arrival"], "peak5": f["P1 peak 5ms"], "min": f["P1 min .43-.50"], "H2 0.5": f["H2 0.5"]}
    # The clock's offset that best fits H4 (spheric2-figures.py; a gate delays the flow: fourteenth session).
    if exp is not None:
        out["h4fit"] = sf.h4_offset(s, exp)
    front(s, out)
    ta = f["P1 arrival"]
    if not np.isfinite(ta):
        return out
    w = (t >= ta) & (t <= ta + 0.1)
    out["max"] = p1[w].max()
    # The ringing: P1 over 25-125 ms after arrival (to the series' end, if at least 60 ms) less its
    # quadratic trend, on a 1 ms grid; the largest peak of its Hann-windowed spectrum between 20 and
    # 400 Hz, and its RMS.
    n = min(100, int((t[-1] - ta - 0.025) * 1000 + 1e-6))
    tw = ta + 0.025 + 0.001 * np.arange(max(n, 0))
    if n >= 60:
        r = np.interp(tw, t, p1)
        r = r - np.polyval(np.polyfit(tw, r, 2), tw)
        out["ring rms"] = np.sqrt(np.mean(r ** 2))
        spec = np.abs(np.fft.rfft(r * np.hanning(len(r)), 16 * len(r)))
        freq = np.fft.rfftfreq(16 * len(r), 0.001)
        band = (freq >= 20) & (freq <= 400)
        out["ring f"] = freq[band][np.argmax(spec[band])]
    out["mean15-40"] = p1[(t >= ta + 0.015) & (t < ta + 0.04)].mean()
    # The minimum in the 75 ms after the run's own arrival (the defaults' 0.43-0.50 s window is 5-75 ms
    # after theirs): a run whose front a gate delays reaches P1 inside the fixed window.
    if t[-1] >= ta + 0.075:
        out["min-own"] = p1[(t >= ta) & (t <= ta + 0.075)].min()
    return out


KEYS = [("arrival", "P1 arrival (s)", 1, "%.4f"), ("peak5", "P1 5 ms peak (kPa)", 1e-3, "%.1f"),
        ("max", "P1 raw max, 100 ms (kPa)", 1e-3, "%.1f"), ("min", "P1 min 0.43-0.50 s (kPa)", 1e-3, "%.1f"),
        ("min-own", "P1 min 0-75 ms after arrival (kPa)", 1e-3, "%.1f"),
        ("mean15-40", "P1 mean 15-40 ms after arrival (kPa)", 1e-3, "%.1f"),
        ("ring f", "ringing frequency, 25-125 ms after arrival (Hz)", 1, "%.0f"),
        ("ring rms", "ringing RMS, 25-125 ms after arrival (kPa)", 1e-3, "%.1f"),
        ("H3 lo", "H3 (x = 1.488) > 0.5 cm (s)", 1, "%.4f"), ("H3 hi", "H3 > 4 cm (s)", 1, "%.4f"),
        ("H3 rise", "H3 rise 0.5 -> 4 cm (ms)", 1e3, "%.1f"),
        ("H2 lo", "H2 (x = 0.992) > 0.5 cm (s)", 1, "%.4f"), ("H2 hi", "H2 > 4 cm (s)", 1, "%.4f"),
        ("H2 rise", "H2 rise 0.5 -> 4 cm (ms)", 1e3, "%.1f"),
        ("speed lo", "front speed H3 -> H2 at 0.5 cm (m/s)", 1, "%.2f"),
        ("speed hi", "front speed H3 -> H2 at 4 cm (m/s)", 1, "%.2f"),
        ("H2 0.5", "H2 at 0.5 s (cm)", 100, "%.1f"), ("h4fit", "H4 clock fit (ms)", 1e3, "%.1f")]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exp = sf.read(os.path.join(here, "..", "tests", "data", "spheric2_kleefsman2005.csv"))
    runs = [("experiment", impact(exp))]
    for spec in sys.argv[1:]:
        label, path = spec.rsplit("=", 1) if "=" in spec else (os.path.basename(spec), spec)
        # FILE.csv@NAME reads probe NAME as P1 (e.g. P1m, the sensor read by its load), as spheric2-figures.py does.
        path, p1 = path.rsplit("@", 1) if "@" in path else (path, "P1")
        try:
            runs.append((label, impact(sf.read(path, p1), exp)))
        except (OSError, KeyError, ValueError, IndexError) as e:
            runs.append((label + " (unread: %s)" % e, {}))
    print("| figure | " + " | ".join(l for l, _ in runs) + " |")
    print("|---" * (len(runs) + 1) + "|")
    for k, name, scale, fmt in KEYS:
        cells = [(fmt % (f[k] * scale)) if np.isfinite(f.get(k, np.nan)) else "-" for _, f in runs]
        print("| %s | %s |" % (name, " | ".join(cells)))


if __name__ == "__main__":
    main()
