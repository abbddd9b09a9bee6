#pragma once
// Neighbour search for smoothing lengths that vary widely between particles (10x, 100x and more):
// a hierarchy of uniform grids, one per level of h. Level l holds the particles whose h at sort
// time lies in (h_top[l-1], h_top[l]], h_top[l] = h_top[0] 2^l, in cells of 2 h_top[l]; each level is
// a wrapped grid like CellGrid (cell (cx, cy, cz) in bucket (cx mod Mx, ...), bounded tables) and
// all levels share one sort: key = base[l] + bucket, so each level's buckets are contiguous runs of
// one offset table. A search around x_i with reach R visits, in every non-empty level, the cells
// that the box [x_i - R, x_i + R] overlaps (wrapped; an axis whose range is longer than the table
// is scanned once in full) and tests the distance. Small-h particles thus look at a few small cells
// of their own level and a few large, sparsely populated cells of the coarse levels; a large-h
// particle looks at many small cells of the fine levels, which is what its neighbour count is.
// Cost per particle ~ sum over levels of the particles in its search box, not (largest h)^D.
//  - gather (density: r < 2 h_i): reach 2 h_i in every level;
//  - symmetric (forces: r < 2 max(h_i, h_j)): reach max(2 h_i, 2 hmax[l]) in level l, hmax[l] the
//    largest h found in level l after the density pass (set_level_hmax): h may have grown past its
//    level's bound since the sort, so the true maxima, not the bounds, make the search exact.
// Within a level the buckets are keyed by their Morton rank (bucket_order.h): rank[base[l] + bucket] =
// base[l] + the bucket's place in Z-order, so neighbouring cells sit close in memory; a row's cells
// whose ranges are adjacent are scanned as one range. Without a rank table the buckets are row-major
// within a level, or banded (band > 0, bucket_order.h: rows along x in bands of B rows in y, each row
// still one range), the band height the same in every level.
#include "core/hd.h"
#include "core/vec.h"
#include "exec/device_ptr.h"
#include "neighbors/bucket_order.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ejecta {

template <class T, int D>
struct LevelGrid {
  static constexpr int kMaxLevels = 16;
  int levels;
  T h_top[kMaxLevels];     // level l holds h <= h_top[l] (the last level everything larger)
  T hmax[kMaxLevels];      // largest h in level l at the last set_level_hmax (symmetric reach)
  T inv_cell[kMaxLevels];  // 1 / (2 h_top[l]) (times the split of make_level_grid)
  T origin[kMaxLevels][3];
  int dims[kMaxLevels][3];
  uint32_t base[kMaxLevels + 1];     // first key of level l; base[levels] = all keys
  // base[l] + bucket -> its sort key (base[levels] entries); null for the row-major order, where the
  // key is base[l] + bucket itself and a row's cells are one range (two where it wraps).
  const uint32_t* rank = nullptr;
  int band = 0;  // rows per band of the banded order (bucket_order.h, neighbours.band_rows); 0 = row-major
  const uint32_t* offset = nullptr;  // base[levels] + 1 entries by key, valid after build

  EJ_INLINE static int wrap(long long c, int m) {
    long long r = c % m;
    return static_cast<int>(r < 0 ? r + m : r);
  }
  EJ_INLINE int level_of(T h) const {
    int l = 0;
    while (l < levels - 1 && h > h_top[l]) ++l;
    return l;
  }
  EJ_INLINE int level_of_key(uint32_t key) const {
    int l = 0;
    while (l < levels - 1 && key >= base[l + 1]) ++l;
    return l;
  }
  // The first key of the row (by, bz) of level l (row-major or banded; not with a rank table).
  EJ_INLINE uint32_t row_of(int l, uint32_t by, uint32_t bz) const {
    return base[l] + static_cast<uint32_t>(dims[l][0]) * banded_row(by, bz, dims[l][1], dims[l][2], band);
  }
  EJ_INLINE long long cell_coord(T x, int l, int d) const {
    T c = floor((x - origin[l][d]) * inv_cell[l]);
    if (!(c > T(-1e15))) c = T(-1e15);  // non-finite: the blow-up check reports it
    if (c > T(1e15)) c = T(1e15);
    return static_cast<long long>(c);
  }
  EJ_INLINE uint32_t key_of(const Vec<T, D>& x, T h) const {
    const int l = level_of(h);
    uint32_t c[3] = {0, 0, 0};
    for (int d = 0; d < D; ++d) c[d] = static_cast<uint32_t>(wrap(cell_coord(x[d], l, d), dims[l][d]));
    const uint32_t mx = static_cast<uint32_t>(dims[l][0]);
    if (rank) return rank[base[l] + c[0] + mx * (c[1] + static_cast<uint32_t>(dims[l][1]) * c[2])];
    return row_of(l, c[1], c[2]) + c[0];
  }

  // f(j, x_i - x_j, r^2) for every sorted particle j with r < reach (gather) or r < max(reach,
  // 2 hmax[level of j]) (symmetric); xi itself included when it is a particle.
  // The positions as a functor's view holds them (device memory, exec/device_ptr.h).
  template <class F>
  EJ_INLINE void for_each_neighbor(const Vec<T, D>& xi, DevicePtr<const Vec<T, D>> x, T reach, bool symmetric,
                                   F&& f) const {
    for_each_neighbor(xi, x.get(), reach, symmetric, static_cast<F&&>(f));
  }
  template <class F>
  EJ_INLINE void for_each_neighbor(const Vec<T, D>& xi, const Vec<T, D>* x, T reach, bool symmetric, F&& f) const {
    for_each_range(xi, reach, symmetric,
                   [&](uint32_t begin, uint32_t end, T R2) { scan(begin, end, xi, x, R2, f); });
  }

  // g(begin, end, R2) for every range of sorted particles that the search around xi scans, in the
  // search's order, with the squared reach of the range's level (for_each_neighbor tests each j in it;
  // the census of level_census.h counts them).
  template <class G>
  EJ_INLINE void for_each_range(const Vec<T, D>& xi, T reach, bool symmetric, G&& g) const {
    for (int l = 0; l < levels; ++l) {
      if (offset[base[l]] == offset[base[l + 1]]) continue;  // empty level
      T R = reach;
      if (symmetric && T(2) * hmax[l] > R) R = T(2) * hmax[l];
      const T R2 = R * R;
      long long lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
      bool full[3] = {true, true, true};
      for (int d = 0; d < D; ++d) {
        lo[d] = cell_coord(xi[d] - R, l, d);
        hi[d] = cell_coord(xi[d] + R, l, d);
        full[d] = hi[d] - lo[d] + 1 >= dims[l][d];
        if (full[d]) {
          lo[d] = 0;
          hi[d] = dims[l][d] - 1;
        }
      }
      const uint32_t b0 = base[l];
      const int mx = dims[l][0], my = dims[l][1];
      for (long long cz = lo[2]; cz <= hi[2]; ++cz) {
        const uint32_t bz = D >= 3 ? static_cast<uint32_t>(wrap(cz, dims[l][2])) : 0u;
        for (long long cy = lo[1]; cy <= hi[1]; ++cy) {
          const uint32_t by = D >= 2 ? static_cast<uint32_t>(wrap(cy, my)) : 0u;
          if (!rank) {  // row-major or banded: the row's cells are adjacent buckets
            const uint32_t row = row_of(l, by, bz);
            const int x0 = wrap(lo[0], mx), x1 = wrap(hi[0], mx);
            if (full[0] || x0 <= x1) {
              g(offset[row + (full[0] ? 0 : x0)], offset[row + (full[0] ? mx - 1 : x1) + 1], R2);
            } else {  // the row wraps around the table edge
              g(offset[row + x0], offset[row + mx], R2);
              g(offset[row], offset[row + x1 + 1], R2);
            }
            continue;
          }
          const uint32_t row = b0 + static_cast<uint32_t>(mx) * (by + static_cast<uint32_t>(my) * bz);
          uint32_t begin = 0, end = 0;  // the pending range; a cell that starts where it ends joins it
          for (long long cx = lo[0]; cx <= hi[0]; ++cx) {
            const uint32_t key = rank[row + static_cast<uint32_t>(wrap(cx, mx))];
            const uint32_t b = offset[key], e = offset[key + 1];
            if (b != end) {
              g(begin, end, R2);
              begin = b;
            }
            end = e;
          }
          g(begin, end, R2);
        }
      }
    }
  }

 private:
  template <class F>
  EJ_INLINE static void scan(uint32_t begin, uint32_t end, const Vec<T, D>& xi, const Vec<T, D>* x, T R2, F& f) {
    for (uint32_t j = begin; j < end; ++j) {
      const Vec<T, D> xij = xi - x[j];
      const T r2 = norm2(xij);
      if (r2 < R2) f(j, xij, r2);
    }
  }
};

// Levels from h_min (the smallest first h) up to h_max (the cap), doubling; each level's table covers
// the box [lo, hi] plus two cells, at least 3 buckets per axis, at most about 2 n + 64 buckets
// (beyond that a table only costs memory; far particles fold into it). Host code, in double.
// An h up to kLevelSlack above a level's top stays in that level (the last level's top is h_max): a
// level of its own would give those particles cells twice as large (8 times the volume, 2.4 times the
// candidates of the 27 cells of 2 h), where cells 0.1% larger cost 0.3%. Round-off alone made two
// levels of the benchmark's impact at 4M particles (the projectile's dp scaled as 0.05 dp / 0.05, one
// ulp below the target's: its 3.9M target particles in cells of 4 h, the force pass 1.8 times as
// costly per particle; issue 18, docs/benchmarks.md "2026-12-04: the impact's 4M jump").
// `split` > 1 divides each level's cells (of the support 2 h_top) into split^D smaller ones: the search
// then scans the cells the box [x - R, x + R] overlaps at that finer size (the liquid's half cells,
// cell_grid.h; for the level grid measured by the census only, level_census.h).
constexpr double kLevelSlack = 1e-3;
template <class T, int D>
LevelGrid<T, D> make_level_grid(const double* lo, const double* hi, double h_min, double h_max, std::size_t n,
                                int split = 1) {
  LevelGrid<T, D> g{};
  g.levels = 1;
  while (g.levels < LevelGrid<T, D>::kMaxLevels && h_min * std::pow(2.0, g.levels - 1) * (1 + kLevelSlack) < h_max)
    ++g.levels;
  uint32_t key = 0;
  for (int l = 0; l < g.levels; ++l) {
    const double top = l == g.levels - 1 ? std::max(h_max, h_min * std::pow(2.0, l)) : h_min * std::pow(2.0, l);
    const double cell = 2 * top / split;
    g.h_top[l] = T(top);
    g.hmax[l] = T(top);
    g.inv_cell[l] = T(1.0 / cell);
    double ext[3] = {1, 1, 1};
    for (int d = 0; d < 3; ++d) g.origin[l][d] = T(0);
    for (int d = 0; d < D; ++d) {
      g.origin[l][d] = T(lo[d] - 2 * cell);
      ext[d] = std::ceil((hi[d] - lo[d]) / cell) + 4;
    }
    const double cap = 2.0 * static_cast<double>(n) + 64;
    double total = 1;
    for (int d = 0; d < D; ++d) total *= ext[d];
    if (total > cap) {
      const double s = std::pow(cap / total, 1.0 / D);
      for (int d = 0; d < D; ++d) ext[d] = std::floor(ext[d] * s);
    }
    uint32_t count = 1;
    for (int d = 0; d < 3; ++d) {
      g.dims[l][d] = d < D ? static_cast<int>(std::max(3.0, std::min(ext[d], 1e6))) : 1;
      count *= static_cast<uint32_t>(g.dims[l][d]);
    }
    g.base[l] = key;
    key += count;
  }
  g.base[g.levels] = key;
  return g;
}

template <class T, int D>
struct ComputeLevelKeys {
  LevelGrid<T, D> grid;
  const Vec<T, D>* pos;
  const T* h;
  uint32_t* keys;
  uint32_t* perm;
  EJ_INLINE void operator()(std::size_t i) const {
    keys[i] = grid.key_of(pos[i], h[i]);
    perm[i] = static_cast<uint32_t>(i);
  }
};

// Largest h per level (levels from the sorted keys), one reduction.
template <class T>
struct LevelMaxima {
  T m[16];
};
template <class T, int D>
struct MeasureLevelMaxima {
  LevelGrid<T, D> grid;
  const uint32_t* sorted_keys;
  const T* h;
  EJ_INLINE LevelMaxima<T> operator()(std::size_t i) const {
    LevelMaxima<T> r;
    for (int l = 0; l < 16; ++l) r.m[l] = T(0);
    r.m[grid.level_of_key(sorted_keys[i])] = h[i];
    return r;
  }
};
template <class T>
struct CombineLevelMaxima {
  EJ_INLINE LevelMaxima<T> operator()(const LevelMaxima<T>& a, const LevelMaxima<T>& b) const {
    LevelMaxima<T> r;
    for (int l = 0; l < 16; ++l) r.m[l] = a.m[l] > b.m[l] ? a.m[l] : b.m[l];
    return r;
  }
};

}  // namespace ejecta
