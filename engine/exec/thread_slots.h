#pragma once
// A per-thread array of N values in shared memory for the functors of for_each_balanced (exec_cuda.cuh),
// one source for both backends. On CUDA, SharedSlots<T, N> is this thread's slice of a static
// shared-memory array of the block (kBalancedThreads x N values, N x 512 bytes a block of 32-bit values),
// value k of thread t at k * kBalancedThreads + t, so the 32 lanes of a warp always read and write 32
// consecutive words, one a bank, whatever k each lane is at; no local memory (a local array indexed at
// run time lives in the thread's stack, cached in L1 with the register spills), no sync (a thread reads
// only its own slice). On the CPU it is a local array.
// The launch must have kBalancedThreads threads a block (for_each and for_each_balanced have, in blocks
// of 128), and a kernel may hold one SharedSlots<T, N> at a time (the buffer is one per kernel, type and
// size: a second would alias the first).
#include "core/hd.h"

#include <cstdint>

namespace ejecta {

// The block of CudaExec::for_each and for_each_balanced (exec_cuda.cuh launches with it and bounds
// the balanced kernel's registers by it), so the slots and the launches cannot disagree.
constexpr int kBalancedThreads = 128;

#if defined(__CUDA_ARCH__)
template <class T, int N>
__device__ __forceinline__ T* shared_thread_slots() {
  __shared__ T buffer[N * kBalancedThreads];
  return buffer + threadIdx.x;
}
#endif

template <class T, int N>
struct SharedSlots {
#if defined(__CUDA_ARCH__)
  T* p = shared_thread_slots<T, N>();
  __device__ __forceinline__ T& operator[](int k) { return p[k * kBalancedThreads]; }
#else
  T v[N];
  T& operator[](int k) { return v[k]; }
#endif
};

}  // namespace ejecta
