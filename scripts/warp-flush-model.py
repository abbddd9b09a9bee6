#!/usr/bin/env python3
"""How often the force pass's lanes idle in their pair terms, on a model of the benchmark's lattice (issue 18).

The liquid's force pass queues each particle's candidates within the support and runs the pair terms over
the queue (physics/forces_wcsph_batch.h: a flush per row of cells; forces_wcsph_ring.h: a ring flushed when
every lane of the warp holds pairs). A warp runs a flush as many times as its busiest lane. This script
builds a cubic lattice at rest (spacing 1, as the benchmark's column), sorts it by cell in row-major order
(x fastest, the lattice's own order within a cell), takes warps of 32 consecutive particles away from the
lattice's faces, clips each particle's rows as engine/neighbors/cell_grid.h does (row_span, margin 1e-3
cell), and counts the pair-term iterations a warp runs per pair a lane holds under each schedule:
  rows  - a flush at the end of each row (ForcesBatched<F, 32, 1>, the default before the ring);
  ringN - the ring of N entries, 32 candidates a round, flushed when the fewest pairs queued by a
          scanning lane reach 8 or every scanning lane's ring is full (ForcesWarpRing).
1.00 means no lane ever idles in the pair terms. A model: the lattice at rest, no walls, no surface.
usage: scripts/warp-flush-model.py [H_OVER_DP] [REACH] [N]   (defaults 1.5 2 30: Ejecta's defaults)
"""
import sys

import numpy as np


def main():
    hdp = float(sys.argv[1]) if len(sys.argv) > 1 else 1.5
    reach = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    n_side = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    support = 2 * hdp
    cell = support / reach
    w = 2 * reach + 1
    g = np.arange(n_side, dtype=float)
    x, y, z = np.meshgrid(g, g, g, indexing="ij")
    pts = np.stack([x.ravel(order="F"), y.ravel(order="F"), z.ravel(order="F")], 1)  # x fastest
    cells = np.floor(pts / cell).astype(int)
    dims = cells.max(0) + 1
    key = cells[:, 0] + dims[0] * (cells[:, 1] + dims[1] * cells[:, 2])
    order = np.argsort(key, kind="stable")
    pts, cells, key = pts[order], cells[order], key[order]
    offset = np.searchsorted(key, np.arange(dims.prod() + 1))
    rm2 = (reach + 1e-3) ** 2

    def gap(k, f):
        return k - f if k > 0 else (-k - 1 + f if k < 0 else 0.0)

    def rows_of(i):
        """Per row: a list of flags, one per candidate, True where it is a neighbour (not i)."""
        p, c = pts[i], cells[i]
        f = p / cell - c
        out = []
        for r in range(w * w):
            dy, dz = r % w - reach, r // w - reach
            g2 = gap(dy, f[1]) ** 2 + gap(dz, f[2]) ** 2
            row = []
            if g2 < rm2:
                lo, hi = -reach, reach
                while hi > 0 and gap(hi, f[0]) ** 2 + g2 >= rm2:
                    hi -= 1
                while lo < 0 and gap(lo, f[0]) ** 2 + g2 >= rm2:
                    lo += 1
                base = dims[0] * ((c[1] + dy) + dims[1] * (c[2] + dz))
                for j in range(offset[base + c[0] + lo], offset[base + c[0] + hi + 1]):
                    d2 = ((pts[j] - p) ** 2).sum()
                    row.append(bool(d2 < support * support and j != i))
            out.append(row)
        return out

    def per_row(lanes):
        return sum(max(sum(l[r]) for l in lanes) for r in range(w * w))

    def ring(lanes, cap, chunk=32, min_flush=8):
        flat = [[f for row in l for f in row] for l in lanes]
        n, pos, runs = [0] * len(lanes), [0] * len(lanes), 0
        while True:
            for i, s in enumerate(flat):
                c = 0
                while c < chunk and pos[i] < len(s) and n[i] < cap:
                    n[i] += s[pos[i]]
                    pos[i] += 1
                    c += 1
            scanning = [i for i in range(len(flat)) if pos[i] < len(flat[i])]
            if not scanning:
                return runs + max(n)
            fewest = min(n[i] for i in scanning)
            if fewest >= min_flush or all(n[i] >= cap for i in scanning):
                runs += fewest
                n = [v - min(fewest, v) for v in n]

    inner = np.where(np.all((cells >= reach + 1) & (cells < dims - reach - 1), 1))[0]
    rng = np.random.default_rng(1)
    pairs = totals = None
    for s in rng.choice(len(inner) // 32 - 2, 12, replace=False):
        i0 = inner[s * 32]
        lanes = [rows_of(i) for i in range(i0, i0 + 32)]
        p = np.mean([sum(map(sum, l)) for l in lanes])
        t = np.array([per_row(lanes), ring(lanes, 32), ring(lanes, 64)], dtype=float)
        pairs = p if pairs is None else pairs + p
        totals = t if totals is None else totals + t
    print(f"h/dp {hdp}, reach {reach}: {pairs / 12:.0f} pairs a particle; pair-term runs per pair a lane holds:")
    for name, v in zip(("rows", "ring32", "ring64"), totals / pairs):
        print(f"  {name:7s} {v:.2f}")


if __name__ == "__main__":
    main()
