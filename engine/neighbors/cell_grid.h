#pragma once
// Uniform-grid neighbour search with a wrapped ("hashed") cell index.
//
// Cells have the size of the kernel support divided by `reach` (1 or 2): a search visits the (2 reach + 1)^D
// cells around a particle, 27 cells of the support (216 h^3 for a support of 2h) with reach 1, or 125
// cells of half of it (125 h^3; DualSPHysics's -cellmode:h) with reach 2, 42% fewer candidates for up to
// 8 times the buckets (fluid.neighbour_cells). A cell (cx, cy, cz) lives in bucket
// (cx mod Mx, cy mod My, cz mod Mz): a bucket table of bounded size covers the scene's initial extent,
// and a particle that flies far away (splash, ejecta) folds back into an existing bucket instead of
// growing a dense box over the whole extent. Buckets may then hold particles of several distant cells;
// they cost a distance test, never a wrong answer. With every M >= 2 reach + 1 the cells around a
// particle map to distinct buckets, so no pair is visited twice.
//
// Particles are sorted each step by the rank of their bucket (rank[b], bucket_order.h: row-major by
// default on both backends, Morton (Z-order) when asked) and the data reordered, so the particles of
// neighbouring cells sit close in memory. The table is a prefix array over ranks: offset[r] = first
// sorted particle of the bucket of rank r, offset[M] = n; no per-particle neighbour lists, no
// fixed-size arrays. A search visits the 3^D cells around a particle, merging the ranges of a row's
// cells that are adjacent in memory (two ranges per row in Morton order, one in row-major order).
// Reach 2 needs the row-major order (make_cell_grid's caller refuses Morton with it). The banded order
// (band > 0, bucket_order.h: the rows in bands of B rows in y) keeps every row one range, so it works
// with either reach; only the row's place in the table changes (row_of).
//
// Rows clipped to the support (issue 18, `clip`, on by default): most of the (2 reach + 1)^D cells cannot
// hold a neighbour. From the point's place in its cell (the fraction f of its coordinate in cells), the
// distance to the nearest point of the cell k cells away along an axis is k - f (k > 0), |k| - 1 + f
// (k < 0) or 0; a row whose (y, z) distance is at least R = reach cells (the support) is skipped, and
// in the others only the x cells the sphere's chord reaches are scanned (row_span): on average 84 of
// 125 cells with reach 2, 20.6 of 27 with reach 1 (a particle uniform in its cell). The test is
// conservative: a cell is left out only when it is at least R + margin away (1e-3 cell plus the
// rounding of the coordinates, place()), and nowhere for absurd or non-finite coordinates. A bucket
// that folds a farther cell onto the one left out holds only cells at least as far along each axis
// (|k + M| >= reach + 1 with M >= 2 reach + 1), so the fold adds nothing. Every pair within the support
// is still visited, in the same order: the cells kept are a sub-range of the whole row's range, the
// rows in the same order, so the sums are the same bit for bit. Every user searches within the
// support (covers()). The Morton (rank) order and the probes (whose lanes split a row's candidates
// by their place in it) take whole rows.
#include "core/hd.h"
#include "core/vec.h"
#include "exec/device_ptr.h"
#include "neighbors/bucket_order.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

// Keeps nvcc from unrolling a loop whose body inlines a large functor (one copy of the pair pass).
// EJ_UNROLL asks for the opposite on a loop of constant count: every index a constant after unrolling,
// so its arrays stay in registers (a variable index puts them in local memory) and its loads are issued
// together (a rolled loop waits for each before the next; probes/probe_sample.h).
#if defined(__CUDA_ARCH__)
#define EJ_NO_UNROLL _Pragma("unroll 1")
#define EJ_UNROLL _Pragma("unroll")
#else
#define EJ_NO_UNROLL
#define EJ_UNROLL
#endif

namespace ejecta {

template <class T, int D>
struct CellGrid {
  Vec<T, D> origin;
  T inv_cell;
  int dims[3];           // buckets per axis (>= 2 reach + 1 each, 1 for unused axes)
  int reach = 1;         // cells per support: the search visits 2 reach + 1 cells per axis
  uint32_t num_buckets;  // dims[0] * dims[1] * dims[2]
  // bucket id -> its place in the sort order (num_buckets entries); null for the row-major order,
  // where the place is the id itself and a row's three cells are one range (two where it wraps).
  const uint32_t* rank = nullptr;
  // Rows per band of the banded order (bucket_order.h, neighbours.band_rows); 0 = row-major. Only
  // without a rank table.
  int band = 0;
  const uint32_t* offset = nullptr;  // num_buckets + 1 entries by rank, valid after build
  const uint8_t* marked = nullptr;   // optional per-bucket flag (buckets holding fluid), see mark()
  // With reach 2 the flags are dilated by the reach (CellIndex::mark, neighbors/bucket_marks.h): a bucket's flag
  // then says whether any bucket around it holds fluid, one load instead of 125.
  bool marks_dilated = false;
  // Clip the rows to the support (row_span): on by default; off for the probes (whose lanes split a
  // row's candidates by their place in the whole row) and for the tests that count the whole rows.
  bool clip = true;

  EJ_INLINE static int wrap(long long c, int m) {
    // Float grids only (issue 18; docs/benchmarks.md, H200 2026-12-05 14:33): in the table, or one table below
    // it (every cell around a particle of the table), no 64-bit remainder. Float force pass -2.8% at 1M, -2.5%
    // at 4M, -2.7% at the peer's settings; in double it lost 2.6% when applied to every grid, so double keeps
    // the remainder alone.
    if constexpr (sizeof(T) == 4) {
      if (c >= 0 && c < m) return static_cast<int>(c);
      if (c < 0 && c >= -static_cast<long long>(m)) return static_cast<int>(c + m);
    }
    long long r = c % m;
    return static_cast<int>(r < 0 ? r + m : r);
  }
  // The coordinate along axis d in cells from the origin, and the cell (its floor).
  EJ_INLINE T cell_units(T x, int d) const { return (x - origin[d]) * inv_cell; }
  EJ_INLINE static long long clamp_cell(T c) {
    // Non-finite or absurd coordinates are clamped here; the blow-up check reports them separately.
    if (!(c > T(-1e15))) c = T(-1e15);
    if (c > T(1e15)) c = T(1e15);
    return static_cast<long long>(c);
  }
  EJ_INLINE long long cell_coord(T x, int d) const { return clamp_cell(floor(cell_units(x, d))); }
  EJ_INLINE uint32_t bucket_of(const Vec<T, D>& x) const {
    uint32_t b = 0, stride = 1;
    for (int d = 0; d < D; ++d) {
      b += stride * static_cast<uint32_t>(wrap(cell_coord(x[d], d), dims[d]));
      stride *= static_cast<uint32_t>(dims[d]);
    }
    return b;
  }

  // The first key of the row (by, bz) of buckets: its x buckets are this plus 0 .. dims[0] - 1 (row-major
  // or banded; the rank table's order does not keep rows, see scan_row).
  EJ_INLINE uint32_t row_of(uint32_t by, uint32_t bz) const {
    return static_cast<uint32_t>(dims[0]) * banded_row(by, bz, dims[1], dims[2], band);
  }
  // Bucket id -> its sort key (the place of its range in the offset table).
  EJ_INLINE uint32_t key_of_bucket(uint32_t b) const {
    if (rank) return rank[b];
    if (band <= 0 || D < 3) return b;
    const uint32_t mx = static_cast<uint32_t>(dims[0]), my = static_cast<uint32_t>(dims[1]);
    const uint32_t q = b / mx;
    return row_of(q % my, q / my) + (b - q * mx);
  }
  EJ_INLINE uint32_t key_of(const Vec<T, D>& x) const { return key_of_bucket(bucket_of(x)); }

  // The rows along x of the cells around a point: (2 reach + 1)^(D-1) of them, at most kMaxRows.
  static constexpr int kMaxReach = 2;
  static constexpr int kMaxRows = D == 3 ? 25 : D == 2 ? 5 : 1;
  EJ_INLINE int rows() const { return D == 3 ? (2 * reach + 1) * (2 * reach + 1) : D == 2 ? 2 * reach + 1 : 1; }

  // The rows clipped to the support (see the top of this file): where a point lies in its cell, and
  // the squared radius (in cells) beyond which a cell holds no neighbour within the support.
  struct Clip {
    T fx, fy, fz;  // the point's place in its cell along each axis, in [0, 1) (0 for unused axes)
    T rm2;         // (reach + margin)^2, in cells^2; 1e30 where the rows are not clipped
  };
  EJ_INLINE Clip clip_of(const Vec<T, D>& p) const {
    long long c[3];
    return place(p, c);
  }
  // The x offsets lo .. hi (within -reach .. reach) of the cells of row r (numbered as in
  // for_each_candidate_in_row) around a point that may hold a neighbour within the support: a cell is
  // left out only when its nearest point is at least reach + margin cells from the point. lo > hi: none.
  EJ_INLINE void row_span(const Clip& c, int r, int& lo, int& hi) const {
    const int w = 2 * reach + 1;
    const T gy = D >= 2 ? gap(r % w - reach, c.fy) : T(0);
    const T gz = D >= 3 ? gap(r / w - reach, c.fz) : T(0);
    const T g2 = gy * gy + gz * gz;
    lo = -reach, hi = reach;
    if (g2 >= c.rm2) {
      lo = 1, hi = 0;
      return;
    }
    T g = gap(hi, c.fx);
    while (hi > 0 && g * g + g2 >= c.rm2) g = gap(--hi, c.fx);
    g = gap(lo, c.fx);
    while (lo < 0 && g * g + g2 >= c.rm2) g = gap(++lo, c.fx);
  }
  // Whether a search radius fits the cells (every user of the grid searches within reach cells; host
  // code, checked where the grid and the radius meet).
  bool covers(double radius) const { return radius * double(inv_cell) <= double(reach) * (1 + 1e-6); }

  // Calls f(j) for every sorted particle j in the 2 reach + 1 cells of row r (0 <= r < rows(): y offset
  // r % w - reach, z offset r / w - reach, w = 2 reach + 1) around x, merging the cells whose ranges are adjacent in memory
  // (one range per row in row-major order, two in Morton order). Returns the candidates visited.
  template <class F>
  EJ_INLINE uint32_t for_each_candidate_in_row(const Vec<T, D>& x, int r, F&& f) const {
    return scan_row(around(x), r, f);
  }

  // Calls f(j) for every sorted particle j in the (2 reach + 1)^D cells around x (a superset of the
  // neighbours within the support; the caller tests the distance), row by row. Returns the candidates visited.
  template <class F>
  EJ_INLINE uint32_t for_each_candidate(const Vec<T, D>& x, F&& f) const {
    const Around a = around(x);
    const int nrows = rows();
    uint32_t visited = 0;
    EJ_NO_UNROLL
    for (int r = 0; r < nrows; ++r) visited += scan_row(a, r, f);
    return visited;
  }

  // The first bucket of row r around the row q of buckets (q = by + dims[1] bz, the bucket id over
  // dims[0]), r numbered as in for_each_candidate_in_row: the buckets of that row are this plus 0 ..
  // dims[0] - 1. For passes that walk the rows of many particles at once (physics/forces_wcsph_cells.h).
  EJ_INLINE uint32_t neighbour_row_base(uint32_t q, int r) const {
    const int w = 2 * reach + 1;
    const long long by = D >= 2 ? static_cast<long long>(q % static_cast<uint32_t>(dims[1])) : 0;
    const long long bz = D >= 3 ? static_cast<long long>(q / static_cast<uint32_t>(dims[1])) : 0;
    const uint32_t ny = D >= 2 ? static_cast<uint32_t>(wrap(by + r % w - reach, dims[1])) : 0u;
    const uint32_t nz = D >= 3 ? static_cast<uint32_t>(wrap(bz + r / w - reach, dims[2])) : 0u;
    return static_cast<uint32_t>(dims[0]) * (ny + static_cast<uint32_t>(dims[1]) * nz);
  }

  // True when any of the (2 reach + 1)^D buckets around x is marked: a wall particle with no fluid bucket around
  // it has no fluid neighbour, so it can skip its neighbour scan (most of a tank's walls are dry).
  EJ_INLINE bool any_marked_around(const Vec<T, D>& x) const {
    if (marks_dilated) return marked[bucket_of(x)] != 0;
    long long c[3] = {0, 0, 0};
    for (int d = 0; d < D; ++d) c[d] = cell_coord(x[d], d);
    const int w = 2 * reach + 1, nx = w, ny = D >= 2 ? w : 1, nz = D >= 3 ? w : 1;
    for (int iz = 0; iz < nz; ++iz)
      for (int iy = 0; iy < ny; ++iy)
        for (int ix = 0; ix < nx; ++ix) {
          const uint32_t bx = static_cast<uint32_t>(wrap(c[0] + ix - reach, dims[0]));
          const uint32_t by = D >= 2 ? static_cast<uint32_t>(wrap(c[1] + iy - reach, dims[1])) : 0u;
          const uint32_t bz = D >= 3 ? static_cast<uint32_t>(wrap(c[2] + iz - reach, dims[2])) : 0u;
          if (marked[bx + static_cast<uint32_t>(dims[0]) * (by + static_cast<uint32_t>(dims[1]) * bz)]) return true;
        }
    return false;
  }

  // Calls f(j, x_i - x_j, r^2) for every sorted particle j closer than sqrt(r2max) to xi (xi itself
  // included when it is one of the particles). Returns the number of candidates examined.
  // The positions as a functor's view holds them (device memory, exec/device_ptr.h).
  template <class F>
  EJ_INLINE uint32_t for_each_neighbor(const Vec<T, D>& xi, DevicePtr<const Vec<T, D>> x, T r2max, F&& f) const {
    return for_each_neighbor(xi, x.get(), r2max, static_cast<F&&>(f));
  }
  template <class F>
  EJ_INLINE uint32_t for_each_neighbor(const Vec<T, D>& xi, const Vec<T, D>* x, T r2max, F&& f) const {
    return for_each_candidate(xi, [&](uint32_t j) {
      const Vec<T, D> xij = xi - x[j];
      const T r2 = norm2(xij);
      if (r2 < r2max) f(j, xij, r2);
    });
  }

  // The wrapped first cell (offset -reach) of a point's rows along each axis, and its clip. Scalars,
  // not arrays indexed by the row number: on the GPU an array indexed at run time lives in local memory.
  struct Around {
    uint32_t x0, y0, z0;
    Clip clip;
  };
  EJ_INLINE Around around(const Vec<T, D>& p) const {
    long long c[3];
    const Clip k = place(p, c);
    Around a{static_cast<uint32_t>(wrap(c[0] - reach, dims[0])),
             D >= 2 ? static_cast<uint32_t>(wrap(c[1] - reach, dims[1])) : 0u,
             D >= 3 ? static_cast<uint32_t>(wrap(c[2] - reach, dims[2])) : 0u, k};
    return a;
  }

  // Row r of the cells around a (see for_each_candidate_in_row): its particles are up to three ranges
  // of sorted particles, [b0, e0), [b1, e1), [b2, e2) (empty ones with b == e), visited in that order.
  // In row-major or banded order the row's cells lo .. hi (row_span), one range (two where the row wraps
  // around the table's edge), a sub-range of the whole row's, so the candidates keep their order; by
  // rank (Morton, reach 1, not clipped) the three cells' ranges, merged where adjacent. Scalars, not
  // arrays (an array indexed at run time lives in local memory on the GPU).
  struct RowRanges {
    uint32_t b0, e0, b1, e1, b2, e2;
    EJ_INLINE uint32_t begin(int k) const { return k == 0 ? b0 : k == 1 ? b1 : b2; }
    EJ_INLINE uint32_t end(int k) const { return k == 0 ? e0 : k == 1 ? e1 : e2; }
    EJ_INLINE uint32_t count() const { return (e0 - b0) + (e1 - b1) + (e2 - b2); }
  };
  EJ_INLINE RowRanges row_ranges(const Around& a, int r) const {
    const int w = 2 * reach + 1;
    const uint32_t by = D >= 2 ? step(a.y0, r % w, dims[1]) : 0u;
    const uint32_t bz = D >= 3 ? step(a.z0, r / w, dims[2]) : 0u;
    RowRanges q{0, 0, 0, 0, 0, 0};
    if (!rank) {  // row-major or banded: the row's cells are adjacent buckets
      int lo, hi;
      row_span(a.clip, r, lo, hi);
      if (lo > hi) return q;
      const uint32_t row = row_of(by, bz);
      const uint32_t xl = step(a.x0, lo + reach, dims[0]), xh = step(a.x0, hi + reach, dims[0]);
      if (xl <= xh) {
        q.b0 = offset[row + xl], q.e0 = offset[row + xh + 1];
      } else {
        q.b0 = offset[row + xl], q.e0 = offset[row + dims[0]];
        q.b1 = offset[row], q.e1 = offset[row + xh + 1];
      }
    } else {  // by rank (reach 1 only): each cell's range, merged with the previous one where it starts at its end
      const uint32_t row = static_cast<uint32_t>(dims[0]) * (by + static_cast<uint32_t>(dims[1]) * bz);
      const uint32_t k0 = rank[row + a.x0], k1 = rank[row + step(a.x0, 1, dims[0])], k2 = rank[row + step(a.x0, 2, dims[0])];
      q.b0 = offset[k0], q.e0 = offset[k0 + 1];
      const uint32_t c1 = offset[k1], d1 = offset[k1 + 1], c2 = offset[k2], d2 = offset[k2 + 1];
      if (c1 == q.e0) {
        q.e0 = d1;
      } else {
        q.b1 = c1, q.e1 = d1;
      }
      if (q.b1 == q.e1 && c2 == q.e0) {
        q.e0 = d2;
      } else if (q.b1 != q.e1 && c2 == q.e1) {
        q.e1 = d2;
      } else {
        q.b2 = c2, q.e2 = d2;
      }
    }
    return q;
  }

 private:
  // The distance in cells from a point at f in its cell (0 <= f < 1) to the cell k cells away along an axis.
  EJ_INLINE static T gap(int k, T f) { return k > 0 ? T(k) - f : k < 0 ? T(-k - 1) + f : T(0); }
  // Bucket coordinate b0 + k along an axis of m buckets (b0 < m, 0 <= k < m): one wrap at most.
  EJ_INLINE static uint32_t step(uint32_t b0, int k, int m) {
    const uint32_t b = b0 + static_cast<uint32_t>(k);
    return b >= static_cast<uint32_t>(m) ? b - static_cast<uint32_t>(m) : b;
  }

  // The cells of p (c[0 .. D - 1]) and its place in them. The margin covers the rounding of the cell
  // coordinates (relative to their size, a few epsilon) and of the distance test against the support
  // (the grid's support in double against the kernel's in T): 1e-3 cell + 32 epsilon (|u| + 4) for a
  // coordinate of |u| cells. Past 1 / (256 epsilon) cells (32768 in float), or not finite (the clamped
  // coordinates), the rows are not clipped.
  EJ_INLINE Clip place(const Vec<T, D>& p, long long* c) const {
    T f[3] = {T(0), T(0), T(0)};
    T umax = T(0);
    for (int d = 0; d < D; ++d) {
      const T u = cell_units(p[d], d), fl = floor(u);
      c[d] = clamp_cell(fl);
      f[d] = u - fl;
      const T au = u < T(0) ? -u : u;
      if (!(au <= umax)) umax = au;  // a NaN stays
    }
    for (int d = D; d < 3; ++d) c[d] = 0;
    constexpr T eps = sizeof(T) == 4 ? T(1.1920929e-7) : T(2.220446049250313e-16);
    Clip k{f[0], f[1], f[2], T(1e30)};
    if (clip && umax < T(1) / (T(256) * eps)) {
      const T rm = T(reach) + T(1e-3) + T(32) * eps * (umax + T(4));
      k.rm2 = rm * rm;
    } else {
      k.fx = k.fy = k.fz = T(0);
    }
    return k;
  }

  // Row r of the cells around a, scanned by one loop over its ranges (row_ranges), so the caller's functor
  // is inlined once, not once per case (a fused force pass is large).
  template <class F>
  EJ_INLINE uint32_t scan_row(const Around& a, int r, F& f) const {
    const RowRanges q = row_ranges(a, r);
    uint32_t visited = 0;
    EJ_NO_UNROLL
    for (int k = 0; k < 3; ++k) visited += scan(q.begin(k), q.end(k), f);
    return visited;
  }

  template <class F>
  EJ_INLINE static uint32_t scan(uint32_t begin, uint32_t end, F& f) {
    for (uint32_t j = begin; j < end; ++j) f(j);
    return end - begin;
  }
};

// Chooses the bucket table for a scene: the particles' bounding box plus a margin of two cells, each
// axis at least 2 reach + 1 buckets, the total capped near 2 n buckets (beyond that the table only
// costs memory). `support` is the search radius; the cells are support / reach. Host code, in double.
template <class T, int D>
CellGrid<T, D> make_cell_grid(const double* lo, const double* hi, double support, std::size_t n, int reach = 1) {
  if (reach < 1 || reach > CellGrid<T, D>::kMaxReach) throw std::invalid_argument("make_cell_grid: reach must be 1 or 2");
  const double cell = support / reach;
  CellGrid<T, D> g{};
  g.reach = reach;
  double ext[3] = {1, 1, 1};
  for (int d = 0; d < D; ++d) {
    g.origin[d] = T(lo[d] - 2 * cell);
    ext[d] = std::ceil((hi[d] - lo[d]) / cell) + 4;
  }
  const double cap = 2.0 * static_cast<double>(n) + 64;
  double total = 1;
  for (int d = 0; d < D; ++d) total *= ext[d];
  if (total > cap) {  // shrink every axis by the same factor: folding costs a few more candidates
    const double s = std::pow(cap / total, 1.0 / D);
    for (int d = 0; d < D; ++d) ext[d] = std::floor(ext[d] * s);
  }
  g.inv_cell = T(1.0 / cell);
  g.num_buckets = 1;
  for (int d = 0; d < 3; ++d) {
    g.dims[d] = d < D ? static_cast<int>(std::max(2.0 * reach + 1, std::min(ext[d], 1e6))) : 1;
    g.num_buckets *= static_cast<uint32_t>(g.dims[d]);
  }
  return g;
}

// Functors of the grid build, written once for both backends.
template <class T, int D>
struct ComputeBucketKeys {
  CellGrid<T, D> grid;
  const Vec<T, D>* pos;
  uint32_t* keys;
  uint32_t* perm;
  EJ_INLINE void operator()(std::size_t i) const {
    keys[i] = grid.key_of(pos[i]);
    perm[i] = static_cast<uint32_t>(i);
  }
};

}  // namespace ejecta
