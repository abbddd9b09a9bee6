#pragma once
// Owns the sort buffers, the bucket ranks and the bucket table of a CellGrid on one backend. build()
// keys each particle by the rank of its bucket (the backend's order, bucket_order.h),
// sorts stably and fills the table (bucket_offsets.h); the caller reorders its particle data by permutation()
// (new[i] = old[perm[i]]) before using the grid.
#include "exec/device_array.h"
#include "neighbors/bucket_marks.h"
#include "neighbors/bucket_offsets.h"
#include "neighbors/bucket_order.h"
#include "neighbors/cell_grid.h"

#include <stdexcept>
#include <utility>
#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
class CellIndex {
 public:
  CellIndex(Exec& exec, const CellGrid<T, D>& grid, std::size_t n, std::size_t* tally,
            CellOrder order = default_cell_order(Exec::kBackend))
      : exec_(exec), grid_(grid), n_(n) {
    // A row of 2 reach + 1 cells is one range in row-major order only (cell_grid.h).
    if (grid.reach > 1 && order != CellOrder::RowMajor)
      throw std::invalid_argument("cells of half the support (fluid.neighbour_cells = half) need the row-major bucket order");
    if (grid.band > 0 && order != CellOrder::RowMajor)
      throw std::invalid_argument("the banded bucket order (neighbours.band_rows > 0) bands the row-major order's rows, not Morton's");
    // Row-major needs no table (the rank is the bucket id; cell_grid.h).
    if (order != CellOrder::RowMajor) {
      const std::vector<uint32_t> rank = bucket_ranks(grid.dims, D, order);
      rank_.resize(exec, rank.size(), tally);
      exec.upload(rank_.data(), rank.data(), sizeof(uint32_t) * rank.size());
      grid_.rank = rank_.data();
    }
    tally_ = tally;
    sort_.resize(exec, 4 * n, tally);
    lay_out_sort_buffers();
    offsets_.resize(exec, std::size_t(grid.num_buckets) + 1, tally);
    grid_.offset = offsets_.data();
  }

  void build(const Vec<T, D>* pos) {
    lay_out_sort_buffers();  // the sort swaps the pointers, and scratch() may have moved the block
    exec_.for_each(n_, ComputeBucketKeys<T, D>{grid_, pos, keys_, perm_});
    exec_.sort_pairs(keys_, perm_, keys_alt_, perm_alt_, n_, grid_.num_buckets);
    build_bucket_offsets(exec_, keys_, offsets_.data(), uint32_t(n_), grid_.num_buckets);
  }

  // The sort's four buffers (keys, permutation, their twins) are one block, dead from the caller's
  // reorder by permutation() until the next build(): the caller may use it in between, as at least
  // `bytes` (the block grows to that; its contents are lost at the next build). The liquid's packed
  // neighbour record lives there (solver/uniform_liquid.h).
  void* scratch(std::size_t bytes) {
    if (bytes > sizeof(uint32_t) * sort_.size()) sort_.resize(exec_, (bytes + 3) / 4, tally_);
    return sort_.data();
  }

  // After build(), until the caller's reorder is done: the sort block's words other than the
  // permutation's, 3 n contiguous words (the layout puts the two permutation buffers at the block's
  // ends, and the sort leaves its result in one of them), dead until the next build(). Null when
  // `bytes` do not fit. The liquid reorders its fields through it (solver/uniform_liquid.h) instead of a
  // scratch buffer of its own (12 bytes a particle in float 3D; issue 18's memory goal).
  void* spare_after_build(std::size_t bytes) {
    if (bytes > sizeof(uint32_t) * 3 * n_) return nullptr;
    return perm_ == sort_.data() ? static_cast<void*>(sort_.data() + n_) : static_cast<void*>(sort_.data());
  }

  // Flags the buckets holding particles of kind `wanted` (call after reordering by permutation()).
  void mark(const uint8_t* kind, uint8_t wanted, std::size_t* tally) {
    if (marked_.size() == 0) {
      marked_.resize(exec_, grid_.num_buckets, tally);
      grid_.marked = marked_.data();
    }
    if (grid_.reach == 1) {
      exec_.for_each(grid_.num_buckets, MarkBucketsAlongX<T, D>{grid_, kind, wanted, marked_.data(), 0});
      return;
    }
    // Dilated by the reach, axis by axis (neighbors/bucket_marks.h: the flags with the window along x in
    // one pass, then y, then z), ping-pong between the flag array and a temporary: the sort block (dead
    // after the reorder) where the flags fit in it, else an array of its own. The first pass writes the
    // flag array when D is odd, so that the result ends there.
    uint8_t* temp = reinterpret_cast<uint8_t*>(sort_.data());
    if (grid_.num_buckets > sizeof(uint32_t) * sort_.size()) {
      if (dilated_.size() == 0) dilated_.resize(exec_, grid_.num_buckets, tally);
      temp = dilated_.data();
    }
    uint8_t* to = D % 2 ? marked_.data() : temp;
    uint8_t* other = D % 2 ? temp : marked_.data();
    exec_.for_each(grid_.num_buckets, MarkBucketsAlongX<T, D>{grid_, kind, wanted, to, grid_.reach});
    uint32_t stride = 1;
    for (int axis = 1; axis < D; ++axis) {
      stride *= static_cast<uint32_t>(grid_.dims[axis - 1]);
      exec_.for_each(grid_.num_buckets, DilateMarksAlong{to, other, stride, static_cast<uint32_t>(grid_.dims[axis]), grid_.reach});
      std::swap(to, other);
    }
    grid_.marked = marked_.data();  // == to
    grid_.marks_dilated = true;
  }

  const uint32_t* permutation() const { return perm_; }
  // The grid view, valid for particle data in sorted order.
  const CellGrid<T, D>& grid() const { return grid_; }

 private:
  Exec& exec_;
  CellGrid<T, D> grid_;
  std::size_t n_;
  // The permutation and its twin at the block's ends (spare_after_build).
  void lay_out_sort_buffers() {
    perm_ = sort_.data();
    keys_ = perm_ + n_;
    keys_alt_ = perm_ + 2 * n_;
    perm_alt_ = perm_ + 3 * n_;
  }

  std::size_t* tally_ = nullptr;
  DeviceArray<uint32_t, Exec> rank_, sort_, offsets_;
  uint32_t *keys_ = nullptr, *keys_alt_ = nullptr, *perm_ = nullptr, *perm_alt_ = nullptr;
  DeviceArray<uint8_t, Exec> marked_, dilated_;
};

}  // namespace ejecta
