#pragma once
// The bits a radix sort of 64-bit keys needs to look at: those where some keys differ, from the OR
// and the AND of all keys (a Morton key of a small grid leaves the high bits zero). Shared by both
// backends' sort_pairs64.
#include <cstdint>

namespace ejecta {

struct KeyBitSpan {
  int lo = 0, hi = 0;  // bits [lo, hi) differ somewhere; lo == hi when every key is equal
};

inline KeyBitSpan differing_key_bits(uint64_t any, uint64_t all) {
  const uint64_t differ = any ^ all;
  if (differ == 0) return {};
  KeyBitSpan s{0, 64};
  while (!((differ >> s.lo) & 1u)) ++s.lo;
  while (!((differ >> (s.hi - 1)) & 1u)) --s.hi;
  return s;
}

}  // namespace ejecta
