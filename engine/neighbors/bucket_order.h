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

// The order each backend sorts by, chosen with the backend at run time. CUDA: Morton, for the L2 at
// millions of particles (docs/benchmarks.md, the 4M impact). CPU: row-major, where Morton measured
// 3% more instructions per step (the 3^D cells' rank lookups; the solid impact at 33k particles,
// cachegrind) and no gain in time on 2 cores (docs/architecture.md, "Neighbour search").
constexpr CellOrder default_cell_order(Backend backend) {
  return backend == Backend::Cuda ? CellOrder::Morton : CellOrder::RowMajor;
}

// rank[b] for every bucket of a table of dims[0] x dims[1] x dims[2] buckets (unused axes 1, each
// axis below 2^20): a permutation of [0, Mx My Mz). Host code, O(M) radix passes.
std::vector<uint32_t> bucket_ranks(const int dims[3], int D, CellOrder order);

}  // namespace ejecta
