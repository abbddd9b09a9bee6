#pragma once
// Block-cooperative launches for both backends (one source): for_each_block(exec, n, words, f) calls
// f(b, item) for item in [0, n) with one block of kBlockThreads threads per item, the pattern of
// warp_exec.h one level up (a block instead of a warp), for passes that stage data in shared memory:
//   - b.each([&](int t) { ... }) runs its body for every thread: on CUDA once per thread with its
//     index, on the CPU as a loop over the threads;
//   - typename B::template Lane<T> is a per-thread value: a register on CUDA, an array of kBlockThreads
//     on the CPU, indexed by the thread in both (v[t]);
//   - b.single([&] { ... }) runs its body once (thread 0 on CUDA);
//   - b.shared() is the block's buffer of `words` 32-bit words (shared memory on CUDA, a per-thread
//     buffer on the CPU); b.sync() orders every thread's shared writes before later reads
//     (__syncthreads): call it between an each/single that writes the buffer and one that reads it.
// Code outside each/single is block-uniform: every CUDA thread runs it with the same values (so it
// may read the shared buffer after a sync, never write it); on the CPU it runs once. Used by the
// liquid's cell-block force pass (physics/forces_wcsph_cells.h).
#include "core/hd.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ejecta {

constexpr int kBlockThreads = 128;

// The CPU emulation: the threads of a block one after another, phase by phase.
struct CpuBlock {
  template <class T>
  struct Lane {
    T v[kBlockThreads];
    T& operator[](int t) { return v[t]; }
    const T& operator[](int t) const { return v[t]; }
  };
  uint32_t* buffer;
  template <class F>
  void each(F&& f) const {
    for (int t = 0; t < kBlockThreads; ++t) f(t);
  }
  template <class F>
  void single(F&& f) const {
    f();
  }
  void sync() const {}
  uint32_t* shared() const { return buffer; }
};

template <class Exec>
struct BlockLaunch;  // for_each_block of an execution layer (below: CpuExec; block_exec_cuda.cuh: CudaExec)

// for_each_block on any execution layer with a BlockLaunch.
template <class Exec, class F>
void for_each_block(Exec& exec, std::size_t n, std::size_t words, const F& f) {
  BlockLaunch<Exec>::run(exec, n, words, f);
}

class CpuExec;
template <>
struct BlockLaunch<CpuExec> {
  template <class F>
  static void run(CpuExec&, std::size_t n, std::size_t words, const F& f) {
    const long long nn = static_cast<long long>(n);
#pragma omp parallel
    {
      std::vector<uint32_t> buffer(words > 0 ? words : 1);
      const CpuBlock b{buffer.data()};
#pragma omp for schedule(dynamic, 2)
      for (long long i = 0; i < nn; ++i) f(b, static_cast<std::size_t>(i));
    }
  }
};

}  // namespace ejecta

#if defined(__CUDACC__)
#include "exec/block_exec_cuda.cuh"
#endif
