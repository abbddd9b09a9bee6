#pragma once
// for_each_warp on CUDA (warp_exec.h): blocks of kWarpBlock threads, one warp per item, each warp
// with `words` 32-bit words of dynamic shared memory. __launch_bounds__(kWarpBlock, B) asks ptxas
// to fit B blocks per SM: B = 8 (32 warps, at most 64 registers a thread) unless the functor names
// its own kCudaMinBlocks.
#include "exec/exec_cuda.cuh"
#include "exec/warp_exec.h"

#include <type_traits>

namespace ejecta {

constexpr int kWarpBlock = 128;  // 4 warps

struct CudaWarp {
  template <class T>
  struct Lane {
    T v;
    __host__ __device__ T& operator[](int) { return v; }
    __host__ __device__ const T& operator[](int) const { return v; }
  };
  uint32_t* buffer;
  int lane;
  template <class F>
  __host__ __device__ void each(F&& f) const {
    f(lane);
  }
  __host__ __device__ uint32_t ballot(const Lane<bool>& p) const {
#if defined(__CUDA_ARCH__)
    return __ballot_sync(0xffffffffu, p.v);
#else
    return p.v ? 1u : 0u;  // never run: CudaWarp exists on the device only
#endif
  }
  __host__ __device__ void sync() const {
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
  }
  __host__ __device__ uint32_t* shared() const { return buffer; }
};

template <class F, class = void>
struct WarpMinBlocks {
  static constexpr int value = 8;
};
template <class F>
struct WarpMinBlocks<F, std::void_t<decltype(F::kCudaMinBlocks)>> {
  static constexpr int value = F::kCudaMinBlocks;
};

template <class F>
__global__ void __launch_bounds__(kWarpBlock, WarpMinBlocks<F>::value)
    ejecta_for_each_warp_kernel(std::size_t n, unsigned words, F f) {
  extern __shared__ uint32_t ejecta_warp_shared[];
  const unsigned warp = threadIdx.x / kWarpLanes;
  const std::size_t item = blockIdx.x * static_cast<std::size_t>(kWarpBlock / kWarpLanes) + warp;
  if (item >= n) return;  // whole warps leave together
  const CudaWarp w{ejecta_warp_shared + std::size_t(warp) * words, int(threadIdx.x % kWarpLanes)};
  f(w, item);
}

template <>
struct WarpLaunch<CudaExec> {
  template <class F>
  static void run(CudaExec& exec, std::size_t n, std::size_t words, const F& f) {
    if (n == 0) return;
    constexpr unsigned per_block = kWarpBlock / kWarpLanes;
    const unsigned grid = static_cast<unsigned>((n + per_block - 1) / per_block);
    const std::size_t bytes = std::size_t(per_block) * words * sizeof(uint32_t);
    if (bytes > 48 * 1024)
      cuda_check(cudaFuncSetAttribute(ejecta_for_each_warp_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(bytes)),
                 "for_each_warp shared memory");
    ejecta_for_each_warp_kernel<<<grid, kWarpBlock, bytes, exec.stream()>>>(n, unsigned(words), f);
    cuda_check(cudaGetLastError(), typeid(F).name());
    if (exec.debug_sync()) cuda_check(cudaStreamSynchronize(exec.stream()), typeid(F).name());
  }
};

}  // namespace ejecta
