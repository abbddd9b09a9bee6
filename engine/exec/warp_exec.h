#pragma once
// Warp-cooperative launches for both backends (one source): for_each_warp(exec, n, words, f) calls
// f(w, item) for item in [0, n) with one warp of kWarpLanes lanes per item. The functor is written in
// SIMT style against the warp object w (a template parameter):
//   - w.each([&](int lane) { ... }) runs its body for every lane: on CUDA once per thread with the
//     thread's lane index, on the CPU as a loop over the lanes;
//   - typename W::template Lane<T> is a per-lane value: a register on CUDA, an array of kWarpLanes
//     on the CPU, indexed by the lane in both (v[lane]);
//   - w.ballot(p) gathers a Lane<bool> into a 32-bit mask (__ballot_sync on CUDA); below(mask, lane)
//     and above(mask, lane) count the set bits of the lanes before and after `lane` (the warp prefix
//     sum of a flag, for compaction into a list);
//   - w.shared() is this warp's buffer of `words` 32-bit words (shared memory on CUDA, a per-thread
//     buffer on the CPU); w.sync() orders the lanes' shared writes before later reads (__syncwarp).
// Code outside w.each is warp-uniform: every lane of a CUDA warp runs it with the same values; on the
// CPU it runs once. Only used where a warp must share work (the self-gravity walk of
// gravity/octree_warp_walk.h); everything else goes through for_each.
#include "core/hd.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ejecta {

constexpr int kWarpLanes = 32;

EJ_INLINE int popcount32(uint32_t m) {
#if defined(__CUDA_ARCH__)
  return __popc(m);
#else
  return __builtin_popcount(m);
#endif
}
// Set bits of the lanes below / above `lane`.
EJ_INLINE int below(uint32_t mask, int lane) { return popcount32(mask & ((1u << lane) - 1u)); }
EJ_INLINE int above(uint32_t mask, int lane) { return popcount32(lane == 31 ? 0u : mask >> (lane + 1)); }

// The CPU emulation: the lanes of a warp one after another.
struct CpuWarp {
  template <class T>
  struct Lane {
    T v[kWarpLanes];
    T& operator[](int l) { return v[l]; }
    const T& operator[](int l) const { return v[l]; }
  };
  uint32_t* buffer;
  template <class F>
  void each(F&& f) const {
    for (int l = 0; l < kWarpLanes; ++l) f(l);
  }
  uint32_t ballot(const Lane<bool>& p) const {
    uint32_t m = 0;
    for (int l = 0; l < kWarpLanes; ++l) m |= p.v[l] ? (1u << l) : 0u;
    return m;
  }
  void sync() const {}
  uint32_t* shared() const { return buffer; }
};

template <class Exec>
struct WarpLaunch;  // for_each_warp of an execution layer (below: CpuExec; warp_exec_cuda.cuh: CudaExec)

// for_each_warp on any execution layer with a WarpLaunch.
template <class Exec, class F>
void for_each_warp(Exec& exec, std::size_t n, std::size_t words, const F& f) {
  WarpLaunch<Exec>::run(exec, n, words, f);
}

class CpuExec;
template <>
struct WarpLaunch<CpuExec> {
  template <class F>
  static void run(CpuExec&, std::size_t n, std::size_t words, const F& f) {
    const long long nn = static_cast<long long>(n);
#pragma omp parallel
    {
      std::vector<uint32_t> buffer(words > 0 ? words : 1);
      const CpuWarp w{buffer.data()};
#pragma omp for schedule(dynamic, 4)
      for (long long i = 0; i < nn; ++i) f(w, static_cast<std::size_t>(i));
    }
  }
};

}  // namespace ejecta

#if defined(__CUDACC__)
#include "exec/warp_exec_cuda.cuh"
#endif
