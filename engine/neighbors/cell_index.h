#pragma once
// Owns the sort buffers, the bucket ranks and the bucket table of a CellGrid on one backend. build()
// keys each particle by the rank of its bucket (the backend's order, bucket_order.h),
// sorts stably and fills the table; the caller reorders its particle data by permutation()
// (new[i] = old[perm[i]]) before using the grid.
#include "exec/device_array.h"
#include "neighbors/bucket_order.h"
#include "neighbors/cell_grid.h"

#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
class CellIndex {
 public:
  CellIndex(Exec& exec, const CellGrid<T, D>& grid, std::size_t n, std::size_t* tally,
            CellOrder order = default_cell_order(Exec::kBackend))
      : exec_(exec), grid_(grid), n_(n) {
    // Row-major needs no table (the rank is the bucket id; cell_grid.h).
    if (order != CellOrder::RowMajor) {
      const std::vector<uint32_t> rank = bucket_ranks(grid.dims, D, order);
      rank_.resize(exec, rank.size(), tally);
      exec.upload(rank_.data(), rank.data(), sizeof(uint32_t) * rank.size());
      grid_.rank = rank_.data();
    }
    keys_.resize(exec, n, tally);
    keys_alt_.resize(exec, n, tally);
    perm_.resize(exec, n, tally);
    perm_alt_.resize(exec, n, tally);
    offsets_.resize(exec, std::size_t(grid.num_buckets) + 1, tally);
    grid_.offset = offsets_.data();
  }

  void build(const Vec<T, D>* pos) {
    exec_.for_each(n_, ComputeBucketKeys<T, D>{grid_, pos, keys_.data(), perm_.data()});
    exec_.sort_pairs(keys_.ptr(), perm_.ptr(), keys_alt_.ptr(), perm_alt_.ptr(), n_, grid_.num_buckets);
    exec_.for_each(std::size_t(grid_.num_buckets) + 1,
                   BuildBucketOffsets{keys_.data(), offsets_.data(), uint32_t(n_)});
  }

  // Flags the buckets holding particles of kind `wanted` (call after reordering by permutation()).
  void mark(const uint8_t* kind, uint8_t wanted, std::size_t* tally) {
    if (marked_.size() == 0) {
      marked_.resize(exec_, grid_.num_buckets, tally);
      grid_.marked = marked_.data();
    }
    exec_.for_each(grid_.num_buckets, MarkBuckets{grid_.rank, offsets_.data(), kind, wanted, marked_.data()});
  }

  const uint32_t* permutation() const { return perm_.data(); }
  // The grid view, valid for particle data in sorted order.
  const CellGrid<T, D>& grid() const { return grid_; }

 private:
  Exec& exec_;
  CellGrid<T, D> grid_;
  std::size_t n_;
  DeviceArray<uint32_t, Exec> rank_, keys_, keys_alt_, perm_, perm_alt_, offsets_;
  DeviceArray<uint8_t, Exec> marked_;
};

}  // namespace ejecta
