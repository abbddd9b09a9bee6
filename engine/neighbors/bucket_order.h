#pragma once
// The order of a bucket table's buckets in memory: particles are sorted by the rank of their bucket,
// rank[b] for the row-major bucket id b = bx + Mx (by + My bz). Morton (Z-order) keeps the particles of
// neighbouring cells close in memory in every direction; row-major keeps only the
// x-neighbours close (a z-neighbour is a whole plane of the table away), which costs cache misses
// once a plane's particles outgrow the caches (the GPU's L2 at millions of particles).
#include "core/hd.h"
#include "core/types.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace ejecta {

enum class CellOrder { Morton, RowMajor };

// The order each backend sorts by, chosen with the backend at run time: row-major on both today.
// - CPU: Morton measured 3% more instructions per step (the 3^D cells' rank lookups; the solid impact
//   at 33k particles, cachegrind) and no gain in time on 2 cores (docs/architecture.md).
// - CUDA: Morton made the force passes slower on the H200 (2026-12-02, docs/benchmarks.md): the
//   liquid's 1.93 -> 3.34 ms at 1M, the impact's 11.1 -> 15.1 ms at 1M and 81 -> 91 ms at 4M. A row's
//   three cells are two or three ranges apart in Morton order, and the neighbour loops (cell by cell,
//   through the rank table) pay for that more than they gain in locality. Row-major uses no rank
//   table and scans a row as one range (cell_grid.h, level_grid.h). Morton stays available
//   (CellOrder::Morton, tested) for the octree and domain keys to come.
constexpr CellOrder default_cell_order(Backend) { return CellOrder::RowMajor; }

// The banded order (issue 18; `neighbours.band_rows`): the row-major order's rows along x, each still
// one contiguous run of buckets, but the rows (by, bz) taken in bands of B rows in y: band k = by / B
// first, then bz, then by mod B. Row-major (z, y, x) walks whole y-z planes, so a sweep over the sorted
// particles keeps (2 reach + 2) planes of neighbour rows live (every particle reads the rows at
// z - reach .. z + reach); banded, it keeps (2 reach + 2) slabs of B + 2 reach rows, B / My of that,
// at the price of re-reading the 2 reach rows on either side of a band once more per band (2 reach /
// B). band <= 0 is row-major. The row's place in memory (the bucket key over Mx): a bijection of
// [0, My) x [0, Mz) onto [0, My Mz); the last band is shorter where B does not divide My. In 2D and 1D
// (Mz = 1) it is by itself.
EJ_INLINE uint32_t banded_row(uint32_t by, uint32_t bz, int my, int mz, int band) {
  if (band <= 0) return by + static_cast<uint32_t>(my) * bz;
  const uint32_t b = static_cast<uint32_t>(band), k = by / b, yl = by - k * b;
  const uint32_t rest = static_cast<uint32_t>(my) - k * b, height = rest < b ? rest : b;
  return k * b * static_cast<uint32_t>(mz) + bz * height + yl;
}

// The band height for a sweep's working set to fit a cache of `cache_bytes`: the (2 reach + 2) slabs of
// B + 2 reach rows of `row_bytes` each (the bytes a neighbour scan reads of one row of buckets: its
// particles times the bytes read per neighbour). At least 2 reach + 1 rows (fewer re-reads a band than
// rows), 0 (row-major) when whole planes fit already.
inline int band_rows_for_cache(double cache_bytes, double row_bytes, int reach, int my) {
  const double slabs = 2.0 * reach + 2;
  const double b = cache_bytes / (slabs * row_bytes) - 2.0 * reach;
  if (b >= my) return 0;
  return b < 2 * reach + 1 ? 2 * reach + 1 : static_cast<int>(b);
}

// neighbours.band_rows as a solver uses it: B > 0 itself, 0 row-major, -1 (auto) from the backend's cache
// (Exec::cache_bytes(); 0 on the CPU: row-major): half of it for the sweep's slabs (the rest for the
// other traffic), a row's bytes estimated as the mean particles per row of the table's interior (dims
// less the two margin cells on each side, make_cell_grid) times the bytes a neighbour read takes
// (`neighbour_bytes`, the solver's: about 37 in the float liquid, 186 in the double solid). 2D and 1D:
// row-major.
inline int band_rows_setting(long key, double cache_bytes, std::size_t n, const int dims[3], int D, int reach,
                             double neighbour_bytes) {
  if (key >= 0) return static_cast<int>(key);
  if (D < 3 || cache_bytes <= 0 || n == 0) return 0;
  const double rows = static_cast<double>(dims[1] > 5 ? dims[1] - 4 : 1) * static_cast<double>(dims[2] > 5 ? dims[2] - 4 : 1);
  return band_rows_for_cache(0.5 * cache_bytes, static_cast<double>(n) / rows * neighbour_bytes, reach, dims[1]);
}

// The backend's last-level cache for band_rows_setting: CudaExec::cache_bytes() (the device's L2); 0 for
// a backend without it (the CPU, where the banded order is not measured).
template <class Exec, class = void>
struct ExecCacheBytes {
  static double of(const Exec&) { return 0; }
};
template <class Exec>
struct ExecCacheBytes<Exec, std::void_t<decltype(std::declval<const Exec&>().cache_bytes())>> {
  static double of(const Exec& e) { return static_cast<double>(e.cache_bytes()); }
};
template <class Exec>
double exec_cache_bytes(const Exec& e) {
  return ExecCacheBytes<Exec>::of(e);
}

// rank[b] for every bucket of a table of dims[0] x dims[1] x dims[2] buckets (unused axes 1, each
// axis below 2^20): a permutation of [0, Mx My Mz). Host code, O(M) radix passes.
std::vector<uint32_t> bucket_ranks(const int dims[3], int D, CellOrder order);

}  // namespace ejecta
