#pragma once
// The functors of the packed halo (dist/halo_rows.h), written once for both execution layers: the
// rows found by id in the store's current order, gathered into a peer's message (each field's block of
// the message in turn) and scattered back from one, like the sort's reorder (particles/particle_store.h,
// GatherFunctor) but over an index list.
#include "core/hd.h"
#include "core/vec.h"
#include "exec/device_ptr.h"

#include <cstddef>
#include <cstdint>

namespace ejecta::dist {

constexpr int kMaxHaloFields = 32;

// The store's fields as raw bytes (passed by value into the kernels).
struct HaloFields {
  unsigned char* data[kMaxHaloFields];
  uint32_t elem[kMaxHaloFields];  // bytes of one row
  int count;
};

// A field's block in a message of `rows` rows: padded to 8 bytes, so every block starts aligned.
EJ_INLINE std::size_t halo_block(std::size_t rows, uint32_t elem) { return (rows * elem + 7) / 8 * 8; }

// One row of one field (elem bytes; both addresses aligned to the word chosen).
EJ_INLINE void copy_row(unsigned char* dst, const unsigned char* src, uint32_t elem) {
  if (elem % 8 == 0) {
    for (uint32_t w = 0; w < elem / 8; ++w)
      reinterpret_cast<uint64_t*>(dst)[w] = reinterpret_cast<const uint64_t*>(src)[w];
  } else if (elem % 4 == 0) {
    for (uint32_t w = 0; w < elem / 4; ++w)
      reinterpret_cast<uint32_t*>(dst)[w] = reinterpret_cast<const uint32_t*>(src)[w];
  } else {
    for (uint32_t w = 0; w < elem; ++w) dst[w] = src[w];
  }
}

// The rows by id: keys[i] = id of store row i, values[i] = i, to be sorted by key (the execution
// layer's radix sort, linear in the rows); sorted, position j holds the j-th smallest id, which is
// the plan's position j (the plan lists exactly the store's ids, sorted).
struct KeyHaloRows {
  DevicePtr<const uint32_t> id;
  DevicePtr<uint64_t> keys;
  DevicePtr<uint32_t> values;
  EJ_INLINE void operator()(std::size_t i) const {
    keys[i] = id[i];
    values[i] = uint32_t(i);
  }
};
// slot[j] = the store row of plan position j, pos[i] = the plan position of store row i.
struct SlotHaloRows {
  DevicePtr<const uint32_t> sorted_rows;
  DevicePtr<uint32_t> slot, pos;
  EJ_INLINE void operator()(std::size_t j) const {
    const uint32_t i = sorted_rows[j];
    slot[j] = i;
    pos[i] = uint32_t(j);
  }
};

// Message row k (of `rows`) from the store row of plan position at[k].
struct PackHaloRows {
  HaloFields f;
  DevicePtr<const uint32_t> slot, at;
  std::size_t rows;
  unsigned char* out;
  EJ_INLINE void operator()(std::size_t k) const {
    const std::size_t i = slot[at[k]];
    std::size_t block = 0;
    for (int q = 0; q < f.count; ++q) {
      const uint32_t e = f.elem[q];
      copy_row(out + block + k * e, f.data[q] + i * e, e);
      block += halo_block(rows, e);
    }
  }
};

// The reverse: message row k into the store row of plan position at[k].
struct UnpackHaloRows {
  HaloFields f;
  DevicePtr<const uint32_t> slot, at;
  std::size_t rows;
  const unsigned char* in;
  EJ_INLINE void operator()(std::size_t k) const {
    const std::size_t i = slot[at[k]];
    std::size_t block = 0;
    for (int q = 0; q < f.count; ++q) {
      const uint32_t e = f.elem[q];
      copy_row(f.data[q] + i * e, in + block + k * e, e);
      block += halo_block(rows, e);
    }
  }
};

// The anchors of the Verlet skin: each row's position at the rebuild, by plan position.
template <class T, int D>
struct AnchorHaloRows {
  DevicePtr<const Vec<T, D>> x;
  DevicePtr<const uint32_t> pos;
  DevicePtr<Vec<T, D>> anchor;
  EJ_INLINE void operator()(std::size_t i) const { anchor[pos[i]] = x[i]; }
};

// The squared distance from the anchor, in double (as the host check of the frame path computed it).
template <class T, int D>
struct MovedHaloRows {
  DevicePtr<const Vec<T, D>> x;
  DevicePtr<const uint32_t> pos;
  DevicePtr<const Vec<T, D>> anchor;
  EJ_INLINE double operator()(std::size_t i) const {
    double r2 = 0;
    for (int d = 0; d < D; ++d) {
      const double dx = double(x[i][d]) - double(anchor[pos[i]][d]);
      r2 += dx * dx;
    }
    return r2;
  }
};
// A measure over the rows this rank owns only (plan positions flagged in `owned`; the others give
// `none`): with dist.overlap the step limit and the skin check run before the ghosts arrive. Each
// ghost row is, after the exchange, a copy of a row its owner measures, so the extremes over the ranks
// are the same as over every row after the exchange, bit for bit.
template <class Measure, class R>
struct OwnedHaloRows {
  Measure m;
  R none;
  DevicePtr<const uint32_t> pos;
  DevicePtr<const uint8_t> owned;
  EJ_INLINE R operator()(std::size_t i) const { return owned[pos[i]] ? m(i) : none; }
};

// Which rows a measure covers: every row (owned null), or those whose plan position is flagged.
struct HaloMask {
  DevicePtr<const uint32_t> pos;
  DevicePtr<const uint8_t> owned;
};

// The pair pass split (dist.overlap = interior): each store row's class by plan position (0 a ghost, 1
// an owned row some peer holds as a ghost, 2 another owned row) as one counter of an exclusive scan
// (boundary rows in the low 32 bits, interior rows in the high), then each row to its list by the scan:
// the lists come out in store order.
struct ClassHaloRows {
  DevicePtr<const uint32_t> pos;
  DevicePtr<const uint8_t> cls;
  DevicePtr<uint64_t> flag;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint8_t c = cls[pos[i]];
    flag[i] = c == 1 ? 1ull : c == 2 ? (1ull << 32) : 0ull;
  }
};
struct CompactHaloRows {
  DevicePtr<const uint32_t> pos;
  DevicePtr<const uint8_t> cls;
  DevicePtr<const uint64_t> scan;
  DevicePtr<uint32_t> boundary, interior;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint8_t c = cls[pos[i]];
    if (c == 1) boundary[uint32_t(scan[i] & 0xffffffffull)] = uint32_t(i);
    else if (c == 2) interior[uint32_t(scan[i] >> 32)] = uint32_t(i);
  }
};

struct MaxDouble {
  EJ_INLINE double operator()(double a, double b) const { return a > b ? a : b; }
};

}  // namespace ejecta::dist
