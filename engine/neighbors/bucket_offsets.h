#pragma once
// The bucket table of CellIndex::build (offset[b] = the first sorted particle whose key is >= b, for b in
// [0, M]) in two passes: the lower bound over all n sorted keys for every 64th key only, then each other
// key's lower bound between the two of its stretch of 64 (about 32 particles at the liquid's 2 buckets a
// particle: 5 or 6 steps instead of ~20). The same table as the former one-pass build (a binary
// search over all n for every key), whose 20 dependent loads a key took 27 us at 1M particles and 97 us at
// 4M on the H200 (ncu, the lead's inventory of 2026-12-04). Both passes stay fully parallel and
// deterministic (a scan over the particles would leave long runs of empty buckets to single threads).
#include "core/hd.h"

#include <cstddef>
#include <cstdint>

namespace ejecta {

constexpr uint32_t kOffsetStretch = 64;  // keys a coarse entry stands for

// The first index in [lo, hi) whose sorted key is >= b (hi when none).
EJ_INLINE uint32_t lower_bound_key(const uint32_t* sorted_keys, uint32_t lo, uint32_t hi, uint32_t b) {
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (sorted_keys[mid] < b) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// Pass 1, over k in [0, M / 64 + 1]: offset[min(64 k, M)] over all n keys.
struct BucketOffsetsCoarse {
  const uint32_t* sorted_keys;
  uint32_t* offset;
  uint32_t n, num_keys;  // n particles; M keys (offset has M + 1 entries)
  EJ_INLINE void operator()(std::size_t k) const {
    const uint32_t b = k * kOffsetStretch < num_keys ? uint32_t(k) * kOffsetStretch : num_keys;
    offset[b] = lower_bound_key(sorted_keys, 0, n, b);
  }
};

// Pass 2, over b in [0, M): the keys that are not multiples of 64, between their stretch's two coarse
// entries (read, never written here).
struct BucketOffsetsFine {
  const uint32_t* sorted_keys;
  uint32_t* offset;
  uint32_t num_keys;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint32_t b = static_cast<uint32_t>(i);
    if (b % kOffsetStretch == 0) return;
    const uint32_t b0 = b - b % kOffsetStretch, b1 = b0 + kOffsetStretch < num_keys ? b0 + kOffsetStretch : num_keys;
    offset[b] = lower_bound_key(sorted_keys, offset[b0], offset[b1], b);
  }
};

// offset[0 .. m] of n sorted keys below m (m + 1 entries), the two passes on the execution layer.
template <class Exec>
void build_bucket_offsets(Exec& exec, const uint32_t* sorted_keys, uint32_t* offset, uint32_t n, uint32_t m) {
  exec.for_each((std::size_t(m) + kOffsetStretch - 1) / kOffsetStretch + 1, BucketOffsetsCoarse{sorted_keys, offset, n, m});
  exec.for_each(m, BucketOffsetsFine{sorted_keys, offset, m});
}

}  // namespace ejecta
