#!/usr/bin/env python3
"""DualSPHysics's SPHERIC 2 gauges (scripts/peer-spheric2-gauges.sh) next to the experiment and Ejecta.

Reads the peer's gauge CSVs from OUTDIR (DualSPHysics 5.0's JGaugeSystem format: `;`- or `,`-separated,
header `time [s];swlx [m];swly [m];swlz [m];...` for <swl>, `time [s];velx [m/s];...` for <velocity>,
`time [s];force [N];forcex [N];...` for <force>), the experiment (tests/data/spheric2_kleefsman2005.csv,
Kleefsman et al. 2005 via Issa & Violeau) and optionally Ejecta probe CSVs (`--probes FILE.csv` of
scenes/dambreak3d.ini), and prints side by side:
- the arrival at H3 (x = 1.488) and H2 (x = 0.992): first time the height exceeds 5 mm, 2 cm and 4 cm
  (the goal table's front is H3 > 2 cm; the two gauges' definitions differ for layers thinner than a
  kernel: the peer's needs half a particle's mass of fluid, Ejecta's colour counts walls too);
- H2 at 0.40 and 0.5 s, H3 at 0.24 and 0.26 s, H4 at 0.10, 0.20 and 0.5 s (means over +-5 ms);
- the clock shift s that best fits each run's H4(t + s) to the measured H4(t) over 0.1-0.5 s (as
  scripts/spheric2-figures.py: absolute levels);
- the peer's velocity just in front of P1 and the x force on its box (5 ms running-mean peak, impulse
  over 40 ms after it first exceeds 50 N), and, with --pressure-ref pressure_IV.dat (the experiment's
  P1..P8), a face force estimated from P1-P4 (each over a 0.04 m strip of the 0.403 m wide face:
  one column of sensors, so a rough figure).

usage: python3 scripts/peer-spheric2-compare.py OUTDIR [--pressure-ref pressure_IV.dat] [LABEL=]ejecta.csv ...
"""
import csv
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
EXPERIMENT = os.path.join(here, "..", "tests", "data", "spheric2_kleefsman2005.csv")
GAUGE_X = {"H1": 0.496, "H2": 0.992, "H3": 1.488, "H4": 2.638}


# numpy 2 renamed trapz to trapezoid.
_trapz = getattr(np, "trapezoid", None) or getattr(np, "trapz")


def read_peer_csv(path):
    """A DualSPHysics gauge CSV: {column name without unit: array}."""
    with open(path) as f:
        lines = [ln.strip() for ln in f if ln.strip()]
    if not lines:
        raise ValueError(f"{path}: empty")
    sep = ";" if lines[0].count(";") >= lines[0].count(",") else ","
    head = [h.strip().split(" ")[0] for h in lines[0].split(sep)]
    if head[0] != "time":
        raise ValueError(f"{path}:1: expected a header starting with 'time [s]', got '{lines[0][:60]}'")
    rows = []
    for n, ln in enumerate(lines[1:], start=2):
        vals = [v for v in ln.split(sep)]
        if len(vals) < len(head):
            raise ValueError(f"{path}:{n}: {len(vals)} fields, the header has {len(head)}")
        rows.append([float(v) for v in vals[:len(head)]])
    data = np.array(rows)
    return {h: data[:, k] for k, h in enumerate(head)}


def read_probe_csv(path):
    """An Ejecta probe CSV or the experiment's CSV: {'t', 'P1', 'H1'..'H4': array}."""
    with open(path) as f:
        rows = [r for r in csv.reader(ln for ln in f if not ln.startswith("#"))]
    head = rows[0]
    data = np.array([[float(v) if v.strip() else np.nan for v in r] for r in rows[1:] if r])
    cols = {}
    for k, name in enumerate(head):
        key = "t" if k == 0 else name.strip().split("_")[0].split(" ")[0].split(".")[0]
        cols.setdefault(key, data[:, k])
        cols.setdefault(name.strip().split(" ")[0], data[:, k])  # full name, e.g. V1.velocity.x
    return cols


def mean_at(t, y, at, half=0.005):
    m = np.abs(t - at) <= half
    return float(np.nanmean(y[m])) if m.any() else float("nan")


def first_above(t, y, level):
    i = np.nonzero(y > level)[0]
    return float(t[i[0]]) if len(i) else float("nan")


def clock_fit(t, h4, te, h4e):
    """s minimising the rms of run H4(t + s) - measured H4(t), 0.1 <= t <= 0.5 s (as spheric2-figures.py)."""
    m = (te >= 0.1) & (te <= 0.5)
    best = (float("inf"), float("nan"))
    for s in np.arange(-0.02, 0.08, 0.0005):
        r = np.interp(te[m] + s, t, h4) - h4e[m]
        best = min(best, (float(np.sqrt(np.mean(r * r))), float(s)))
    return best[1], best[0]


def height_figures(t, h):
    """The gauge figures of one run: {name: value} (NaN where a gauge is missing)."""
    f = {}
    for g, lv in (("H3", 0.005), ("H3", 0.02), ("H3", 0.04), ("H2", 0.005), ("H2", 0.02), ("H2", 0.04)):
        f[f"{g} arrival > {lv * 100:g} cm"] = first_above(t, h[g], lv) if g in h else float("nan")
    for g, ats in (("H2", (0.40, 0.5)), ("H3", (0.24, 0.26)), ("H4", (0.10, 0.20, 0.5))):
        for a in ats:
            f[f"{g} at {a:.2f} s"] = mean_at(t, h[g], a) if g in h else float("nan")
    return f


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    outdir, rest = argv[1], argv[2:]
    pref = None
    if "--pressure-ref" in rest:
        k = rest.index("--pressure-ref")
        if k + 1 >= len(rest):
            print("peer-spheric2-compare: --pressure-ref needs a file (pressure_IV.dat)", file=sys.stderr)
            return 2
        pref = rest[k + 1]
        rest = rest[:k] + rest[k + 2:]
    if not os.path.isdir(outdir):
        print(f"peer-spheric2-compare: {outdir} is not a folder (the OUTDIR of peer-spheric2-gauges.sh)",
              file=sys.stderr)
        return 2

    exp = read_probe_csv(EXPERIMENT)
    runs = [("experiment", exp["t"], {g: exp[g] for g in GAUGE_X})]
    peer = {}
    for g in GAUGE_X:
        p = os.path.join(outdir, f"GaugesSWL_{g}.csv")
        if os.path.exists(p):
            c = read_peer_csv(p)
            peer[g] = (c["time"], c["swlz"])
    if not peer and not rest:
        print(f"peer-spheric2-compare: no GaugesSWL_H*.csv in {outdir} and no Ejecta CSV", file=sys.stderr)
        return 1
    if peer:
        tp = next(iter(peer.values()))[0]
        runs.append(("DualSPHysics", tp, {g: np.interp(tp, *peer[g]) for g in peer}))
    else:  # Ejecta's runs against the experiment alone
        print(f"peer-spheric2-compare: no GaugesSWL_H*.csv in {outdir}: no DualSPHysics column", file=sys.stderr)
    ejecta = []
    for arg in rest:
        label, path = arg.split("=", 1) if "=" in arg and not os.path.exists(arg) else (os.path.basename(arg), arg)
        c = read_probe_csv(path)
        runs.append((label, c["t"], {g: c[g] for g in GAUGE_X if g in c}))
        ejecta.append((label, c))

    figs = [(name, height_figures(t, h)) for name, t, h in runs]
    width = max(18, max(len(r[0]) for r in runs) + 2)
    print(f"{'figure':<24}" + "".join(f"{n:>{width}}" for n, _ in figs))
    for key in figs[0][1]:
        print(f"{key:<24}" + "".join(f"{f[key]:>{width}.4f}" for _, f in figs))
    te, h4e = exp["t"], exp["H4"]
    row = f"{'H4 clock fit (s, rms)':<24}" + f"{'':>{width}}"
    for name, t, h in runs[1:]:
        if "H4" in h:
            s, rms = clock_fit(t, h["H4"], te, h4e)
            row += f"{f'{s * 1e3:.1f} ms, {rms * 1e3:.1f} mm':>{width}}"
        else:
            row += f"{'-':>{width}}"
    print(row)

    ts = (0.38, 0.40, 0.42, 0.44, 0.46, 0.48, 0.50)
    hf = []
    p = os.path.join(outdir, "GaugesSWL_Hf.csv")
    if os.path.exists(p):
        c = read_peer_csv(p)
        hf.append(("DualSPHysics", c["time"], c["swlz"]))
    hf += [(label, c["t"], c["Hf"]) for label, c in ejecta if "Hf" in c]
    if hf:
        print("\nwater depth 2 cm in front of the box face (Hf), m")
        print(f"{'t [s]':<24}" + "".join(f"{a:>8.2f}" for a in ts))
        for label, t, h in hf:
            print(f"{label:<24}" + "".join(f"{mean_at(t, h, a):>8.3f}" for a in ts))

    for name in ("V1", "V2", "V4"):
        p = os.path.join(outdir, f"GaugesVel_{name}.csv")
        if os.path.exists(p):
            c = read_peer_csv(p)
            t, vx, vz = c["time"], c["velx"], c["velz"]
            wet = first_above(t, np.hypot(vx, vz), 0.05)
            pos = f"({c['posx'][0]:g}, {c['posy'][0]:g}, {c['posz'][0]:g})" if "posx" in c else ""
            print(f"\nDualSPHysics velocity {name} {pos}: first |v| > 0.05 m/s at {wet:.4f} s")
            print("  t [s]     " + " ".join(f"{a:7.3f}" for a in np.arange(0.38, 0.505, 0.01)))
            print("  vx [m/s]  " + " ".join(f"{mean_at(t, vx, a, 0.0025):7.2f}" for a in np.arange(0.38, 0.505, 0.01)))
            print("  vz [m/s]  " + " ".join(f"{mean_at(t, vz, a, 0.0025):7.2f}" for a in np.arange(0.38, 0.505, 0.01)))

    for label, c in ejecta:
        for name in ("V1", "V2", "V4"):
            if f"{name}.velocity.x" in c:
                t, vx, vz = c["t"], c[f"{name}.velocity.x"], c[f"{name}.velocity.z"]
                ts = np.arange(0.38, 0.505, 0.01)
                print(f"\n{label} velocity {name}: first |v| > 0.05 m/s at {first_above(t, np.hypot(vx, vz), 0.05):.4f} s")
                print("  t [s]     " + " ".join(f"{a:7.3f}" for a in ts))
                print("  vx [m/s]  " + " ".join(f"{mean_at(t, vx, a, 0.0025):7.2f}" for a in ts))
                print("  vz [m/s]  " + " ".join(f"{mean_at(t, vz, a, 0.0025):7.2f}" for a in ts))

    # P1-P4 at z = 0.021, 0.061, 0.101, 0.141 on strips 0-0.041, 0.041-0.081, 0.081-0.121, 0.121-0.161 of
    # the 0.403 m wide face: the same rough face-force estimate for the experiment and for Ejecta's wall
    # probes P1w-P4w (source = walls; see GPU-REQUEST / docs/physics.md).
    strips = np.array([0.041, 0.04, 0.04, 0.04])
    series = []
    for label, c in ejecta:
        if all(f"P{k}w" in c for k in range(1, 5)):
            pw = np.column_stack([np.nan_to_num(c[f"P{k}w"]) for k in range(1, 5)])
            series.append((f"{label}, 0.403 m x P1w-P4w strips", c["t"], 0.403 * (pw @ strips)))
        if "box.force.x" in c:
            # The scene's load [force.1] (docs/probes.md): the fluid's force on the box's wall particles, the
            # measurement DualSPHysics's box force makes.
            series.append((f"{label}, box load (fluid force on the box, -x)", c["t"], -c["box.force.x"]))
    p = os.path.join(outdir, "GaugesForce_Box.csv")
    if os.path.exists(p):
        c = read_peer_csv(p)
        series.append(("DualSPHysics box, fluid force -x", c["time"], -c["forcex"]))
    if pref:
        d = np.loadtxt(pref)
        series.append(("experiment, 0.403 m x P1-P4 strips", d[:, 0], 0.403 * (d[:, 1:5] @ strips)))
    for label, t, fx in series:
        on = first_above(t, fx, 50.0)
        run5 = np.array([mean_at(t, fx, a, 0.0025) for a in t[(t >= 0.3) & (t <= 0.6)]])
        w = (t >= on) & (t <= on + 0.040)
        imp = float(_trapz(fx[w], t[w])) if w.any() else float("nan")
        print(f"\n{label}: first > 50 N at {on:.4f} s, 5 ms peak {np.nanmax(run5):.0f} N, "
              f"raw max {np.nanmax(fx[(t >= 0.3) & (t <= 0.6)]):.0f} N, impulse over 40 ms {imp:.1f} N s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
