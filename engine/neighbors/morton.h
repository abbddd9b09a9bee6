#pragma once
// Morton (Z-order) codes: the bits of D integer coordinates interleaved, x in the lowest bit. Cells
// close in space get close codes, so particles sorted by the code of their cell sit in compact blocks
// of memory (Morton 1966; the ordering of Warren & Salmon 1993's hashed octree). The same codes key
// an octree (self-gravity) and a domain decomposition (several GPUs).
#include "core/hd.h"

#include <cstdint>

namespace ejecta {

// The low 21 bits of v spread to every third bit (bit k to bit 3k).
EJ_INLINE uint64_t morton_spread3(uint64_t v) {
  v &= 0x1fffffull;
  v = (v | v << 32) & 0x1f00000000ffffull;
  v = (v | v << 16) & 0x1f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

// The low 32 bits of v spread to every second bit.
EJ_INLINE uint64_t morton_spread2(uint64_t v) {
  v &= 0xffffffffull;
  v = (v | v << 16) & 0x0000ffff0000ffffull;
  v = (v | v << 8) & 0x00ff00ff00ff00ffull;
  v = (v | v << 4) & 0x0f0f0f0f0f0f0f0full;
  v = (v | v << 2) & 0x3333333333333333ull;
  v = (v | v << 1) & 0x5555555555555555ull;
  return v;
}

// The code of cell c (coordinates >= 0; 21 bits each in 3D, 32 in 2D).
template <int D>
EJ_INLINE uint64_t morton_code(const uint32_t* c) {
  if (D == 1) return c[0];
  if (D == 2) return morton_spread2(c[0]) | morton_spread2(c[1]) << 1;
  return morton_spread3(c[0]) | morton_spread3(c[1]) << 1 | morton_spread3(c[2]) << 2;
}

}  // namespace ejecta
