#pragma once
// The reorder of a particle store (particles/particle_store.h) in groups of fields: each group's
// elements are gathered by the sort permutation into the reorder's scratch in one launch (the
// permutation read once for the group), then copied back into the fields in one launch. The groups are
// packed first-fit, largest field first, into the scratch's bytes a particle: with the liquid's 12 B a
// particle in float 3D (the sort's dead words, neighbors/cell_index.h) its eight persistent fields go in
// five groups (position | velocity | predicted velocity | density, predicted density, mass | id, kind):
// 10 launches a step instead of 16, and the permutation read 5 times instead of 8 (issue 18;
// docs/benchmarks.md, "the step outside the force pass"). A pure copy of bits, so every field is the
// same as after a gather per field.
#include "core/hd.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ejecta {

// One field of a group: its element bytes, moved as words of `word` bytes (8, 4 or 1: the largest that
// divides the element and both addresses; the liquid's scratch in the sort block is 4-byte aligned).
struct FieldMove {
  unsigned char* dst = nullptr;
  const unsigned char* src = nullptr;
  uint32_t bytes = 0, word = 1;
};

inline FieldMove field_move(void* dst, const void* src, std::size_t bytes) {
  const std::size_t a = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | bytes;
  return {static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), uint32_t(bytes),
          a % 8 == 0 ? 8u : a % 4 == 0 ? 4u : 1u};
}

template <class W>
EJ_INLINE void move_words(unsigned char* dst, std::size_t di, const unsigned char* src, std::size_t si, uint32_t words) {
  W* d = reinterpret_cast<W*>(dst) + di * words;
  const W* s = reinterpret_cast<const W*>(src) + si * words;
  for (uint32_t w = 0; w < words; ++w) d[w] = s[w];
}

EJ_INLINE void move_element(const FieldMove& f, std::size_t di, std::size_t si) {
  if (f.word == 8)
    move_words<uint64_t>(f.dst, di, f.src, si, f.bytes / 8);
  else if (f.word == 4)
    move_words<uint32_t>(f.dst, di, f.src, si, f.bytes / 4);
  else
    move_words<unsigned char>(f.dst, di, f.src, si, f.bytes);
}

constexpr int kMoveFields = 4;  // fields a group's launch carries at most

// dst_k[i] = src_k[perm[i]] for the group's fields (new[i] = old[perm[i]]).
struct GatherFields {
  FieldMove f[kMoveFields];
  int count = 0;
  const uint32_t* perm = nullptr;
  EJ_INLINE void operator()(std::size_t i) const {
    const std::size_t p = perm[i];
    for (int k = 0; k < count; ++k) move_element(f[k], i, p);
  }
};

// dst_k[i] = src_k[i] for the group's fields.
struct CopyFields {
  FieldMove f[kMoveFields];
  int count = 0;
  EJ_INLINE void operator()(std::size_t i) const {
    for (int k = 0; k < count; ++k) move_element(f[k], i, i);
  }
};

// A group: up to kMoveFields fields (indices into the caller's list) and their byte offsets in the scratch.
struct FieldGroup {
  int field[kMoveFields];
  std::size_t offset[kMoveFields];
  int count = 0;
  std::size_t used = 0;
};

// First-fit, largest element first, of fields of the given element bytes (n elements each) into groups
// of at most `capacity` scratch bytes; a field's slice starts on a 16-byte boundary. Every field fits
// alone (the scratch holds the largest field).
inline std::vector<FieldGroup> pack_field_groups(const std::vector<std::size_t>& elem_bytes, std::size_t n,
                                                 std::size_t capacity) {
  std::vector<int> order(elem_bytes.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = int(k);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return elem_bytes[a] > elem_bytes[b]; });
  std::vector<FieldGroup> groups;
  for (int k : order) {
    const std::size_t bytes = elem_bytes[k] * n;
    FieldGroup* home = nullptr;
    std::size_t at = 0;
    for (FieldGroup& g : groups) {
      at = (g.used + 15) / 16 * 16;
      if (g.count < kMoveFields && at + bytes <= capacity) {
        home = &g;
        break;
      }
    }
    if (!home) {
      groups.emplace_back();
      home = &groups.back();
      at = 0;
    }
    home->field[home->count] = k;
    home->offset[home->count] = at;
    ++home->count;
    home->used = at + bytes;
  }
  return groups;
}

}  // namespace ejecta
