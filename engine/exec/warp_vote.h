#pragma once
// A vote among the lanes of a warp that run a per-particle functor together (for_each and
// for_each_balanced, exec_cuda.cuh), one source for both backends. A functor takes the lanes that entered
// it together once (warp_lanes(), after its early returns) and then calls the vote with them from a point
// all of them reach the same number of times (a loop whose exit is itself a vote). On the CPU a thread is
// a warp of one lane: the vote returns the lane's own value, so a functor written with it runs its
// per-particle sequence unchanged. Used where lanes pace each other's work (the force pass's shared
// flushes, physics/forces_wcsph_ring.h); warp_exec.h is the warp-per-item model.
#include "core/hd.h"

#include <cstdint>

namespace ejecta {

// The lanes of the calling warp running this code together (CUDA: __activemask()), 1 on the CPU.
EJ_INLINE uint32_t warp_lanes() {
#if defined(__CUDA_ARCH__)
  return __activemask();
#else
  return 1u;
#endif
}

// The smallest v over the lanes (sm_80 and later: one REDUX instruction; before, a pass over the lanes).
EJ_INLINE uint32_t warp_min(uint32_t lanes, uint32_t v) {
#if defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ >= 800
  return __reduce_min_sync(lanes, v);
#else
  uint32_t m = v;
  for (uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
    const uint32_t other = __shfl_sync(lanes, v, __ffs(rest) - 1);
    m = other < m ? other : m;
  }
  return m;
#endif
#else
  (void)lanes;
  return v;
#endif
}

}  // namespace ejecta
