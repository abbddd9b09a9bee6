#pragma once
// The lanes that run a per-item functor together, for the few warp-uniform decisions such a functor makes
// (the force pass's queue flushes, physics/forces_wcsph_batch.h): on CUDA the warp's lanes active at the
// call, on the CPU the calling thread alone (min and max of one value are the value). Lanes that diverged
// before the call form their own groups, each consistent: every lane of a group calls the same reductions
// in the same order with the same mask.
#include "core/hd.h"

#include <cstdint>

namespace ejecta {

struct LaneGroup {
  uint32_t mask;
  EJ_INLINE static LaneGroup active() {
#if defined(__CUDA_ARCH__)
    return {__activemask()};
#else
    return {1u};
#endif
  }
  EJ_INLINE int min(int v) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_min_sync(mask, v);
#elif defined(__CUDA_ARCH__)
    return fold(v, true);
#else
    return v;
#endif
  }
  EJ_INLINE int max(int v) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_max_sync(mask, v);
#elif defined(__CUDA_ARCH__)
    return fold(v, false);
#else
    return v;
#endif
  }

 private:
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  // Before sm_80 (no __reduce_*_sync): every lane of the mask read in turn.
  EJ_INLINE int fold(int v, bool lower) const {
    int r = v;
    for (int l = 0; l < 32; ++l)
      if (mask >> l & 1u) {
        const int o = __shfl_sync(mask, v, l);
        r = lower ? (o < r ? o : r) : (o > r ? o : r);
      }
    return r;
  }
#endif
};

}  // namespace ejecta
