#pragma once
// Owns the sort buffers and the offset table of a LevelGrid on one backend (the LevelGrid
// counterpart of CellIndex). build() keys each particle by level and the rank of its bucket (the
// backend's order, bucket_order.h), sorts stably and fills the table; the caller reorders its
// particle data by permutation() before using the grid.
// set_level_hmax() measures the largest h per level for symmetric searches.
#include "exec/device_array.h"
#include "neighbors/bucket_offsets.h"
#include "neighbors/cell_grid.h"
#include "neighbors/level_grid.h"

#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
class LevelIndex {
 public:
  LevelIndex(Exec& exec, const LevelGrid<T, D>& grid, std::size_t n, std::size_t* tally,
             CellOrder order = default_cell_order(Exec::kBackend))
      : exec_(exec), grid_(grid), n_(n) {
    // Each level's buckets in the chosen order, within the level's key range.
    // Row-major needs no table (the key is base[l] + bucket; level_grid.h).
    if (grid.band > 0 && order != CellOrder::RowMajor)
      throw std::invalid_argument("the banded bucket order (neighbours.band_rows > 0) bands the row-major order's rows, not Morton's");
    if (order != CellOrder::RowMajor) {
      std::vector<uint32_t> rank;
      rank.reserve(grid.base[grid.levels]);
      for (int l = 0; l < grid.levels; ++l)
        for (uint32_t r : bucket_ranks(grid.dims[l], D, order)) rank.push_back(grid.base[l] + r);
      rank_.resize(exec, rank.size(), tally);
      exec.upload(rank_.data(), rank.data(), sizeof(uint32_t) * rank.size());
      grid_.rank = rank_.data();
    }
    keys_.resize(exec, n, tally);
    keys_alt_.resize(exec, n, tally);
    perm_.resize(exec, n, tally);
    perm_alt_.resize(exec, n, tally);
    offsets_.resize(exec, std::size_t(grid.base[grid.levels]) + 1, tally);
    grid_.offset = offsets_.data();
  }

  void build(const Vec<T, D>* pos, const T* h) {
    const uint32_t total = grid_.base[grid_.levels];
    exec_.for_each(n_, ComputeLevelKeys<T, D>{grid_, pos, h, keys_.data(), perm_.data()});
    exec_.sort_pairs(keys_.ptr(), perm_.ptr(), keys_alt_.ptr(), perm_alt_.ptr(), n_, total);
    build_bucket_offsets(exec_, keys_.data(), offsets_.data(), uint32_t(n_), total);  // bucket_offsets.h
  }

  // h in sorted order (after the caller's reorder and any update of h).
  void set_level_hmax(const T* h) {
    LevelMaxima<T> zero;
    for (int l = 0; l < 16; ++l) zero.m[l] = T(0);
    const LevelMaxima<T> m = exec_.transform_reduce(n_, zero, MeasureLevelMaxima<T, D>{grid_, keys_.data(), h},
                                                    CombineLevelMaxima<T>{});
    for (int l = 0; l < grid_.levels; ++l) grid_.hmax[l] = m.m[l];
  }

  const uint32_t* permutation() const { return perm_.data(); }
  const LevelGrid<T, D>& grid() const { return grid_; }

 private:
  Exec& exec_;
  LevelGrid<T, D> grid_;
  std::size_t n_;
  DeviceArray<uint32_t, Exec> rank_, keys_, keys_alt_, perm_, perm_alt_, offsets_;
};

}  // namespace ejecta
