#pragma once
// The liquid's fused force pass (forces_wcsph.h) by blocks of sorted particles, with the candidates
// staged in shared memory (fluid.force_kernel = cell_blocks; issue 18's lead "a block per cell or cell
// pair, with the neighbour cells' particles staged in shared memory", after the cell-list kernels of
// DualSPHysics, Dominguez et al. 2013, Comput. Phys. Commun. 184, 1848, and Green's CUDA particles).
//
// A block of kBlockThreads threads takes kBlockThreads consecutive sorted particles (row-major bucket
// order: x fastest). Its fluid particles lie in at most kSets rows of buckets (q = by + dims_y bz) and,
// in each such row s, in the buckets bx_lo(s) .. bx_hi(s). Every particle of row s scans the rows
// r = 0 .. rows() - 1 around s, buckets bx - reach .. bx + reach of each (clipped to the support as the
// particle pass clips them, CellGrid::row_span): a sub-range of the block's range of that row, buckets
// bx_lo(s) - reach .. bx_hi(s) + reach, one contiguous range of sorted particles. The block's ranges (kSets x rows(), at most 100) are concatenated into one virtual list,
// staged into shared memory tile by tile (kTile candidates: position, velocity, density, pressure,
// mass, kind, each read once from global memory by the block instead of once by each particle that
// scans it), and each thread walks its own ranges through the tiles with a cursor. Each thread meets
// its candidates in the same order as the particle pass (rows in order, each row's range in memory
// order), and runs the same pair terms (Forces_WCSPH_Monaghan1992::pair), so the sums are the same,
// bit for bit on the CPU.
//
// A block falls back to the particle pass (global reads) where its fluid spans more than kSets rows
// or a range would wrap around the bucket table's edge in x; a block of walls only does nothing (walls
// have no force pass). Needs the row-major order (the solver picks the particle pass otherwise).
#include "exec/block_exec.h"
#include "physics/forces_wcsph.h"

#include <cstdint>

namespace ejecta {

template <class T, int D, bool Shifting = false>
struct Forces_WCSPH_CellBlocks {
  using Pass = Forces_WCSPH_Monaghan1992<T, D, Shifting, WcsphArrays<T, D>>;
  using Sums = typename Pass::Sums;
  static constexpr int kCudaMinBlocks = sizeof(T) == 4 && !Shifting ? 6 : 3;
  static constexpr int kSets = 4;
  static constexpr int kTile = sizeof(T) == 4 ? 512 : 256;
  static constexpr int kMaxRanges = kSets * CellGrid<T, D>::kMaxRows;
  static_assert(kMaxRanges <= kBlockThreads, "one thread per staged range");

  // The shared buffer, in 32-bit words: the header (sets), each thread's row and x bucket, the ranges'
  // first particles and prefix sums, then the tile (8-byte aligned).
  enum : uint32_t {
    kNSets = 0,
    kFallback = 1,
    kSetRow = 2,
    kSetLo = kSetRow + kSets,
    kSetHi = kSetLo + kSets,
    kThreadRow = 16,
    kThreadX = kThreadRow + kBlockThreads,
    kRangeBegin = kThreadX + kBlockThreads,
    kPrefix = kRangeBegin + kMaxRanges,
    kTileStart = (kPrefix + kMaxRanges + 1 + 3) / 4 * 4,
    kTileX = kTileStart,
    kTileV = kTileX + kTile * D * sizeof(T) / 4,
    kTileRho = kTileV + kTile * D * sizeof(T) / 4,
    kTileP = kTileRho + kTile * sizeof(T) / 4,
    kTileM = kTileP + kTile * sizeof(T) / 4,
    kTileKind = kTileM + kTile * sizeof(T) / 4,
    kWords = kTileKind + kTile / 4,
  };
  static constexpr std::size_t words() { return kWords; }
  static std::size_t blocks(std::size_t n) { return (n + kBlockThreads - 1) / kBlockThreads; }

  Pass pass;
  std::size_t n;
  uint8_t* modes = nullptr;  // optional, per block: 0 walls only, 1 staged, 2 the particle pass (tests)

  struct Cursor {
    uint32_t pos, end;  // the current row's candidates, in the virtual list
    uint32_t self;      // the particle's own place in the virtual list
    uint32_t cand;      // candidates visited
    int row;            // the current row (0 .. rows() - 1)
    bool ready;         // pos and end set for `row`
  };

  template <class B>
  EJ_INLINE void operator()(const B& b, std::size_t block) const {
    const CellGrid<T, D>& grid = pass.grid;
    const ParticleView<T, D>& pv = pass.pv;
    uint32_t* sh = b.shared();
    const std::size_t i0 = block * std::size_t(kBlockThreads);
    const uint32_t count = n - i0 < std::size_t(kBlockThreads) ? uint32_t(n - i0) : uint32_t(kBlockThreads);
    const uint32_t nx = static_cast<uint32_t>(grid.dims[0]);
    const uint32_t reach = static_cast<uint32_t>(grid.reach);
    const int rows = grid.rows();
    constexpr uint32_t kNone = 0xffffffffu;

    // 1. Each thread's bucket row and x (kNone for a wall or past the end).
    b.each([&](int t) {
      const std::size_t i = i0 + std::size_t(t);
      uint32_t q = kNone, x = 0;
      if (uint32_t(t) < count && pv.kind[i] == kFluid) {
        const uint32_t bucket = grid.bucket_of(pv.x[i]);
        q = bucket / nx, x = bucket % nx;
      }
      sh[kThreadRow + t] = q;
      sh[kThreadX + t] = x;
    });
    b.sync();
    // 2. The sets: the distinct rows of the fluid particles (non-decreasing in thread order).
    b.single([&] {
      uint32_t nsets = 0, fallback = 0;
      for (int t = 0; t < kBlockThreads; ++t) {
        const uint32_t q = sh[kThreadRow + t], x = sh[kThreadX + t];
        if (q == kNone) continue;
        if (nsets == 0 || sh[kSetRow + nsets - 1] != q) {
          if (nsets == uint32_t(kSets)) {
            fallback = 1;
            break;
          }
          sh[kSetRow + nsets] = q, sh[kSetLo + nsets] = x, sh[kSetHi + nsets] = x;
          ++nsets;
        } else {
          if (x < sh[kSetLo + nsets - 1]) sh[kSetLo + nsets - 1] = x;
          if (x > sh[kSetHi + nsets - 1]) sh[kSetHi + nsets - 1] = x;
        }
      }
      for (uint32_t s = 0; s < nsets && !fallback; ++s)
        if (sh[kSetLo + s] < reach || sh[kSetHi + s] + reach >= nx) fallback = 1;  // would wrap in x
      sh[kNSets] = nsets;
      sh[kFallback] = fallback;
      if (modes) modes[block] = uint8_t(nsets == 0 ? 0 : fallback ? 2 : 1);
    });
    b.sync();
    const uint32_t nsets = sh[kNSets];
    if (nsets == 0) return;  // walls only
    if (sh[kFallback]) {
      b.each([&](int t) {
        if (uint32_t(t) < count) pass(i0 + std::size_t(t));
      });
      return;
    }
    // 3. The block's ranges: set s, row r -> the sorted particles of buckets lo(s) - reach .. hi(s) + reach.
    const uint32_t nranges = nsets * uint32_t(rows);
    b.each([&](int t) {
      if (uint32_t(t) >= nranges) return;
      const uint32_t s = uint32_t(t) / uint32_t(rows);
      const uint32_t base = grid.neighbour_row_base(sh[kSetRow + s], t % rows);
      const uint32_t begin = grid.offset[base + sh[kSetLo + s] - reach];
      const uint32_t end = grid.offset[base + sh[kSetHi + s] + reach + 1];
      sh[kRangeBegin + t] = begin;
      sh[kPrefix + t + 1] = end - begin;
    });
    b.sync();
    b.single([&] {
      sh[kPrefix] = 0;
      for (uint32_t g = 0; g < nranges; ++g) sh[kPrefix + g + 1] += sh[kPrefix + g];
    });
    b.sync();
    const uint32_t total = sh[kPrefix + nranges];

    // 4. Each fluid thread's set, own values and cursor.
    typename B::template Lane<int> set;
    typename B::template Lane<Sums> sums;
    typename B::template Lane<Cursor> cur;
    b.each([&](int t) {
      const uint32_t q = sh[kThreadRow + t];
      set[t] = -1;
      if (q == kNone) return;
      int s = 0;
      while (sh[kSetRow + s] != q) ++s;
      set[t] = s;
      const std::size_t i = i0 + std::size_t(t);
      sums[t] = pass.begin(i);
      const uint32_t g = uint32_t(s * rows + rows / 2);  // the middle row is the particle's own
      cur[t] = Cursor{0, 0, sh[kPrefix + g] + (uint32_t(i) - sh[kRangeBegin + g]), 0, 0, false};
    });

    // 5. Tile by tile: stage, then each thread takes its candidates in the tile.
    const Vec<T, D>* tx = reinterpret_cast<const Vec<T, D>*>(sh + kTileX);
    const Vec<T, D>* tv = reinterpret_cast<const Vec<T, D>*>(sh + kTileV);
    const T* trho = reinterpret_cast<const T*>(sh + kTileRho);
    const T* tp = reinterpret_cast<const T*>(sh + kTileP);
    const T* tm = reinterpret_cast<const T*>(sh + kTileM);
    const uint8_t* tkind = reinterpret_cast<const uint8_t*>(sh + kTileKind);
    for (uint32_t t0 = 0; t0 < total; t0 += uint32_t(kTile)) {
      const uint32_t len = total - t0 < uint32_t(kTile) ? total - t0 : uint32_t(kTile);
      b.sync();  // the previous tile is consumed
      b.each([&](int t) {
        for (uint32_t k = uint32_t(t); k < len; k += uint32_t(kBlockThreads)) {
          const uint32_t v = t0 + k;
          uint32_t lo = 0, hi = nranges;  // the range g with prefix[g] <= v < prefix[g + 1]
          while (hi - lo > 1) {
            const uint32_t mid = (lo + hi) / 2;
            if (sh[kPrefix + mid] <= v) lo = mid; else hi = mid;
          }
          const uint32_t j = sh[kRangeBegin + lo] + (v - sh[kPrefix + lo]);
          reinterpret_cast<Vec<T, D>*>(sh + kTileX)[k] = pv.x[j];
          reinterpret_cast<Vec<T, D>*>(sh + kTileV)[k] = pv.vp[j];
          reinterpret_cast<T*>(sh + kTileRho)[k] = pv.rhop[j];
          reinterpret_cast<T*>(sh + kTileP)[k] = pv.p[j];
          reinterpret_cast<T*>(sh + kTileM)[k] = pv.m[j];
          reinterpret_cast<uint8_t*>(sh + kTileKind)[k] = pv.kind[j];
        }
      });
      b.sync();
      const uint32_t t1 = t0 + len;
      b.each([&](int t) {
        const int s = set[t];
        if (s < 0) return;
        Cursor& c = cur[t];
        Sums& sm = sums[t];
        const uint32_t q = sh[kThreadRow + t], x = sh[kThreadX + t];
        while (c.row < rows) {
          if (!c.ready) {  // the row's cells clipped to the support, as the particle pass takes them
            const uint32_t g = uint32_t(s * rows + c.row);
            const uint32_t base = grid.neighbour_row_base(q, c.row);
            int lo, hi;
            grid.row_span(grid.clip_of(sm.xi), c.row, lo, hi);
            const uint32_t a = grid.offset[base + x + uint32_t(lo)];
            const uint32_t e = lo > hi ? a : grid.offset[base + x + uint32_t(hi) + 1];
            c.pos = sh[kPrefix + g] + (a - sh[kRangeBegin + g]);
            c.end = c.pos + (e - a);
            c.cand += e - a;
            c.ready = true;
          }
          if (c.pos == c.end) {  // an empty row
            ++c.row;
            c.ready = false;
            continue;
          }
          if (c.pos >= t1) break;  // this row starts in a later tile
          const uint32_t stop = c.end < t1 ? c.end : t1;
          for (uint32_t v = c.pos; v < stop; ++v) {
            const uint32_t k = v - t0;
            pass.pair(sm, v == c.self, tx[k], [&] {
              return WcsphNeighbour<T, D>{tv[k], trho[k], tp[k], tm[k], tkind[k] == kFluid};
            });
          }
          c.pos = stop;
          if (c.pos < c.end) break;  // the row goes on in the next tile
          ++c.row;
          c.ready = false;
        }
      });
    }
    // 6. The results, as the particle pass writes them.
    b.each([&](int t) {
      if (set[t] >= 0) pass.finish(i0 + std::size_t(t), sums[t], cur[t].cand);
    });
  }
};

}  // namespace ejecta
