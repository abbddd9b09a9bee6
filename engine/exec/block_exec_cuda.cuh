#pragma once
// for_each_block on CUDA (block_exec.h): one block of kBlockThreads threads per item, with `words`
// 32-bit words of dynamic shared memory. __launch_bounds__(kBlockThreads, B) asks ptxas to fit B
// blocks per SM: B = 4 unless the functor names its own kCudaMinBlocks.
#include "exec/block_exec.h"
#include "exec/exec_cuda.cuh"

#include <type_traits>
#include <typeinfo>

namespace ejecta {

struct CudaBlock {
  template <class T>
  struct Lane {
    T v;
    __host__ __device__ T& operator[](int) { return v; }
    __host__ __device__ const T& operator[](int) const { return v; }
  };
  uint32_t* buffer;
  int thread;
  template <class F>
  __host__ __device__ void each(F&& f) const {
    f(thread);
  }
  template <class F>
  __host__ __device__ void single(F&& f) const {
    if (thread == 0) f();
  }
  __host__ __device__ void sync() const {
#if defined(__CUDA_ARCH__)
    __syncthreads();
#endif
  }
  __host__ __device__ uint32_t* shared() const { return buffer; }
};

template <class F, class = void>
struct BlockMinBlocks {
  static constexpr int value = 4;
};
template <class F>
struct BlockMinBlocks<F, std::void_t<decltype(F::kCudaMinBlocks)>> {
  static constexpr int value = F::kCudaMinBlocks;
};

template <class F>
__global__ void __launch_bounds__(kBlockThreads, BlockMinBlocks<F>::value)
    ejecta_for_each_block_kernel(std::size_t n, F f) {
  extern __shared__ uint32_t ejecta_block_shared[];
  const std::size_t item = blockIdx.x;
  if (item >= n) return;  // whole blocks leave together
  const CudaBlock b{ejecta_block_shared, int(threadIdx.x)};
  f(b, item);
}

template <>
struct BlockLaunch<CudaExec> {
  template <class F>
  static void run(CudaExec& exec, std::size_t n, std::size_t words, const F& f) {
    if (n == 0) return;
    const std::size_t bytes = words * sizeof(uint32_t);
    if (bytes > 48 * 1024)
      cuda_check(cudaFuncSetAttribute(ejecta_for_each_block_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(bytes)),
                 "for_each_block shared memory");
    ejecta_for_each_block_kernel<<<unsigned(n), kBlockThreads, bytes, exec.stream()>>>(n, f);
    cuda_check(cudaGetLastError(), typeid(F).name());
    if (exec.debug_sync()) cuda_check(cudaStreamSynchronize(exec.stream()), typeid(F).name());
  }
};

}  // namespace ejecta
