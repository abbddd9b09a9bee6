#pragma once
// The order of a bucket table's buckets in memory: particles are sorted by the rank of their bucket,
// rank[b] for the row-major bucket id b = bx + Mx (by + My bz). Morton (Z-order) keeps the particles of
// neighbouring cells close in memory in every direction; row-major keeps only the
// x-neighbours close (a z-neighbour is a whole plane of the table away), which costs cache misses
// once a plane's particles outgrow the caches (the GPU's L2 at millions of particles).
#include "core/types.h"

#include <cstdint>
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

// rank[b] for every bucket of a table of dims[0] x dims[1] x dims[2] buckets (unused axes 1, each
// axis below 2^20): a permutation of [0, Mx My Mz). Host code, O(M) radix passes.
std::vector<uint32_t> bucket_ranks(const int dims[3], int D, CellOrder order);

}  // namespace ejecta
