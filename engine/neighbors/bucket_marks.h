#pragma once
// The dilated "holds fluid" flags of a grid with cells of half the support (CellIndex::mark; read by
// CellGrid::any_marked_around, which lets a dry wall skip its neighbour scan): bucket b is flagged when
// a bucket within `reach` of it along every axis holds a particle of the wanted kind. D passes: the
// flags of the buckets along x with the OR over the window (the particles of its 2 reach + 1 buckets,
// one pass), then one OR over the window along y, then along z. The same flags as the former mark pass
// followed by a dilation along x, y and z, in one launch fewer and with 32-bit index arithmetic:
// on the H200 (ncu, 1M particles, the lead's inventory of 2026-12-04) that dilation's size_t divisions
// made each of its passes over ~2M one-byte flags take 22 us (79 us at 4M), compute, not memory.
#include "neighbors/cell_grid.h"

#include <cstdint>

namespace ejecta {

// out[b] = 1 when one of the buckets (x - window .. x + window, y, z) around b = (x, y, z), wrapped as
// in the grid's search, holds a particle of kind `wanted` (data in sorted order). Window 0: the bucket
// alone (the flags of cells of the support, not dilated).
template <class T, int D>
struct MarkBucketsAlongX {
  CellGrid<T, D> grid;  // its key order and offset table
  const uint8_t* kind;
  uint8_t wanted;
  uint8_t* out;
  int window;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint32_t b = static_cast<uint32_t>(i), m = static_cast<uint32_t>(grid.dims[0]);
    const uint32_t x = b % m, row = b - x;
    const int reach = window;
    uint8_t any = 0;
    for (int o = -reach; o <= reach && !any; ++o) {
      int k = int(x) + o;
      k = k < 0 ? k + int(m) : k >= int(m) ? k - int(m) : k;  // m >= 2 reach + 1: one wrap suffices
      const uint32_t r = grid.key_of_bucket(row + static_cast<uint32_t>(k));
      for (uint32_t j = grid.offset[r]; j < grid.offset[r + 1] && !any; ++j) any = kind[j] == wanted;
    }
    out[i] = any;
  }
};

// out[b] = OR of in[] over the buckets within `reach` of b along one axis (stride: the bucket-id step of
// that axis, 1, dims[0] or dims[0] dims[1]; m: its bucket count), wrapped.
struct DilateMarksAlong {
  const uint8_t* in;
  uint8_t* out;
  uint32_t stride, m;
  int reach;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint32_t b = static_cast<uint32_t>(i);
    const uint32_t c = (b / stride) % m, base = b - c * stride;
    uint8_t any = 0;
    for (int o = -reach; o <= reach && !any; ++o) {
      int k = int(c) + o;
      k = k < 0 ? k + int(m) : k >= int(m) ? k - int(m) : k;
      any = in[base + static_cast<uint32_t>(k) * stride];
    }
    out[i] = any;
  }
};

}  // namespace ejecta
