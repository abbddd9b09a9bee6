#pragma once
// A per-thread array of N values for the functors of for_each_balanced (exec_cuda.cuh), one source for
// both backends. ThreadSlots<T, N, false>: a local array (on CUDA, indexed at run time, it lives in
// local memory: the thread's stack, cached in L1 with the register spills). ThreadSlots<T, N, true>: on
// CUDA, this thread's slice of a static shared-memory array of the block (kBalancedThreads x N values,
// N x 512 bytes a block of 32-bit values), value k of thread t at k * kBalancedThreads + t, so the 32
// lanes of a warp always read and write 32 consecutive words, one a bank, whatever k each lane is at;
// no local memory, no sync (a thread reads only its own slice). On the CPU both are the local array.
// The launch must have kBalancedThreads threads a block (for_each and for_each_balanced have, in blocks
// of 128) and each kernel one ThreadSlots<T, N, true, Tag> live at a time (the buffer is one per kernel,
// type, size and Tag: a second with the same would alias the first).
#include "core/hd.h"

#include <cstdint>

namespace ejecta {

constexpr int kBalancedThreads = 128;  // CudaExec::for_each_balanced's block (exec_cuda.cuh)

#if defined(__CUDA_ARCH__)
template <class T, int N, int Tag>
__device__ __forceinline__ T* shared_thread_slots() {
  __shared__ T buffer[N * kBalancedThreads];
  return buffer + threadIdx.x;
}
#endif

template <class T, int N, bool Shared, int Tag = 0>
struct ThreadSlots {
  T v[N];
  EJ_INLINE T& operator[](int k) { return v[k]; }
};

template <class T, int N, int Tag>
struct ThreadSlots<T, N, true, Tag> {
#if defined(__CUDA_ARCH__)
  T* p = shared_thread_slots<T, N, Tag>();
  __device__ __forceinline__ T& operator[](int k) { return p[k * kBalancedThreads]; }
#else
  T v[N];
  T& operator[](int k) { return v[k]; }
#endif
};

}  // namespace ejecta
