#pragma once
// CUDA execution layer: runs the same host/device functors as CpuExec, as kernels. Sorting and
// reductions use CUB. One instance per Simulation owns its stream and scratch memory.
#include "core/types.h"
#include "exec/thread_slots.h"  // kBalancedThreads, the block of for_each and for_each_balanced

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>

namespace ejecta {

// Thrown by CudaExec::allocate; the facade turns it into OutOfMemoryError with a particle estimate.
struct CudaAllocError : std::runtime_error {
  std::size_t requested, free_bytes;
  CudaAllocError(std::size_t req, std::size_t free_b)
      : std::runtime_error("cudaMalloc failed"), requested(req), free_bytes(free_b) {}
};

void cuda_check(cudaError_t e, const char* what);

// Programmatic dependent launch (issue 18; sm_90 and later): for_each and for_each_balanced launch their
// kernels with cudaLaunchAttributeProgrammaticStreamSerialization (CudaExec::launch_following), so the
// GPU may start one while the kernel before it on the stream is still running. Its threads first wait
// for that kernel to complete and its writes to be visible (griddepcontrol.wait), then allow the next
// kernel to start early in turn (griddepcontrol.launch_dependents, once every block of this one has
// started: no block waits for a grid that cannot be scheduled). The effects are those of plain launches
// in stream order; what goes is the idle gap between two kernels (about 1.3 us each, some 35 a step of
// the liquid: the CUPTI timeline of docs/benchmarks.md). A kernel launched plainly does not wait.
__device__ __forceinline__ void ejecta_follow_previous_grid() {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

template <class F>
__global__ void ejecta_for_each_kernel(std::size_t n, F f) {
  ejecta_follow_previous_grid();
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) f(i);
}

// CudaExec::count_bins: a block's counts in shared memory, added to the device's once a block.
template <class BinOf>
__global__ void ejecta_count_bins_kernel(std::size_t n, int bins, BinOf bin_of, uint32_t* out) {
  extern __shared__ uint32_t block_counts[];
  for (int k = threadIdx.x; k < bins; k += blockDim.x) block_counts[k] = 0u;
  __syncthreads();
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int b = bin_of(i);
    if (b >= 0 && b < bins) atomicAdd(&block_counts[b], 1u);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < bins; k += blockDim.x)
    if (block_counts[k]) atomicAdd(&out[k], block_counts[k]);
}

// The neighbour loops (for_each_balanced), in blocks of 128 threads. __launch_bounds__(128, B) asks
// ptxas to fit B blocks per SM, i.e. at most 65536 / (128 B) registers a thread. B is 3 (170
// registers) unless the functor names its own kCudaMinBlocks. Measured with -Xptxas -v for sm_90: the
// 3D solid force pass in double uses 172 registers unbounded (2 blocks, 8 warps per SM) and 168
// bounded with an 8-byte spill (3 blocks, 12 warps). The WCSPH pass in float asks for 7 blocks
// (forces_wcsph.h): it went from 80 to 84 registers with the options added in issue 12, which
// allocates 88 and fits 5 blocks (20 warps) per SM instead of 6, and its force pass was 8-13% slower
// on the H200 (docs/benchmarks.md). Results do not change (the same instructions, another register
// allocation).
template <class F, class = void>
struct CudaMinBlocks {
  static constexpr int value = 3;
};
template <class F>
struct CudaMinBlocks<F, std::void_t<decltype(F::kCudaMinBlocks)>> {
  static constexpr int value = F::kCudaMinBlocks;
};

template <class F>
__global__ void __launch_bounds__(kBalancedThreads, CudaMinBlocks<F>::value) ejecta_for_each_balanced_kernel(std::size_t n, F f) {
  ejecta_follow_previous_grid();
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) f(i);
}

// f over a row list (CudaExec::select_rows), with f's launch bounds.
template <class F>
struct SelectedRows {
  F f;
  const uint32_t* rows;
  static constexpr int kCudaMinBlocks = CudaMinBlocks<F>::value;
  __host__ __device__ void operator()(std::size_t k) const { f(static_cast<std::size_t>(rows[k])); }
};

// in[i] for i < n, 0 at i = n: an exclusive scan over n + 1 items then ends with the total.
template <class T>
struct ZeroPadded {
  const T* in;
  std::size_t n;
  __host__ __device__ T operator()(std::size_t i) const { return i < n ? in[i] : T(0); }
};

template <class Map, class R>
struct IndexMap {
  Map map;
  __host__ __device__ R operator()(std::size_t i) const { return map(i); }
};

class CudaExec {
 public:
  static constexpr Backend kBackend = Backend::Cuda;
  CudaExec();
  ~CudaExec();
  CudaExec(const CudaExec&) = delete;
  CudaExec& operator=(const CudaExec&) = delete;

  void* allocate(std::size_t bytes);
  void deallocate(void* p);
  void upload(void* dst, const void* src, std::size_t bytes);
  void download(void* dst, const void* src, std::size_t bytes) const;
  void copy(void* dst, const void* src, std::size_t bytes);

  template <class F>
  void for_each(std::size_t n, const F& f) const {
    if (n == 0) return;
    const unsigned block = kBalancedThreads;
    const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
    launch_following(ejecta_for_each_kernel<F>, grid, block, n, f);
    after_launch(typeid(F), n);
  }
  template <class F>
  void for_each_balanced(std::size_t n, const F& f) const {
    if (rows_) {  // a row selection (select_rows): f over the listed rows instead of [0, n)
      ++rows_runs_;
      const std::size_t m = rows_count_;
      if (m == 0) return;
      const unsigned grid = static_cast<unsigned>((m + kBalancedThreads - 1) / kBalancedThreads);
      launch_following(ejecta_for_each_balanced_kernel<SelectedRows<F>>, grid, kBalancedThreads, m, SelectedRows<F>{f, rows_});
      after_launch(typeid(F), m);
      return;
    }
    if (n == 0) return;
    const unsigned block = kBalancedThreads;  // the __launch_bounds__ of the kernel
    const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
    launch_following(ejecta_for_each_balanced_kernel<F>, grid, block, n, f);
    after_launch(typeid(F), n);
  }

  void sort_pairs(uint32_t*& keys, uint32_t*& values, uint32_t*& keys_alt, uint32_t*& values_alt,
                  std::size_t n, uint32_t num_keys);
  // CUB's radix sort over the bits where the keys differ; the contract of CpuExec::sort_pairs64.
  void sort_pairs64(uint64_t*& keys, uint32_t*& values, uint64_t*& keys_alt, uint32_t*& values_alt,
                    std::size_t n);

  // The contract of CpuExec::exclusive_scan (n + 1 outputs, the total last), with CUB.
  template <class T>
  void exclusive_scan(const T* in, T* out, std::size_t n) {
    auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), ZeroPadded<T>{in, n});
    std::size_t bytes = 0;
    cuda_check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, it, out, n + 1, stream_), "exclusive scan");
    void* tmp = scratch(bytes);
    cuda_check(cub::DeviceScan::ExclusiveSum(tmp, bytes, it, out, n + 1, stream_), "exclusive scan");
    after_library_call("exclusive scan");
  }

  // The contract of CpuExec::select_if, with CUB's single-pass compaction (DeviceSelect::If over the
  // indices: an initialisation and one sweep, where a flag pass, a scan and a scatter took four launches
  // and some 20 bytes of traffic a particle); the count stays in device memory.
  template <class Pred>
  void select_if(std::size_t n, const Pred& pred, uint32_t* list, uint32_t* count) {
    const thrust::counting_iterator<uint32_t> it(0);
    const IndexMap<Pred, bool> keep{pred};  // the index's test, as transform_reduce's map
    std::size_t bytes = 0;
    cuda_check(cub::DeviceSelect::If(nullptr, bytes, it, list, count, static_cast<std::int64_t>(n), keep, stream_), "select");
    void* tmp = scratch(bytes);
    cuda_check(cub::DeviceSelect::If(tmp, bytes, it, list, count, static_cast<std::int64_t>(n), keep, stream_), "select");
    after_library_call("select");
  }

  template <class R, class Map, class Op>
  R transform_reduce(std::size_t n, R init, const Map& map, const Op& op) {
    const R* d_out = queue_reduce(n, init, map, op);
    R result;
    download(&result, d_out, sizeof(R));
    return result;
  }
  // The contract of CpuExec::count_bins: integer counts, so the same as the CPU's whatever the order.
  template <class BinOf>
  void count_bins(std::size_t n, int bins, const BinOf& bin_of, uint32_t* counts) {
    uint32_t* d = static_cast<uint32_t*>(scratch_result(sizeof(uint32_t) * std::size_t(bins)));
    cuda_check(cudaMemsetAsync(d, 0, sizeof(uint32_t) * std::size_t(bins), stream_), "count_bins");
    if (n > 0) {
      const std::size_t blocks = std::min<std::size_t>((n + 255) / 256, 1024);
      ejecta_count_bins_kernel<<<unsigned(blocks), 256, sizeof(uint32_t) * std::size_t(bins), stream_>>>(n, bins, bin_of, d);
      after_launch(typeid(BinOf), n);
    }
    download(counts, d, sizeof(uint32_t) * std::size_t(bins));
  }

  // The contract of CpuExec's transform_reduce with meanwhile: the reduction and its result's copy
  // to pinned host memory are queued, then meanwhile() queues its work behind them on the stream, then
  // the host waits for the copy alone (an event after it), not for meanwhile's work.
  template <class R, class Map, class Op, class Meanwhile>
  R transform_reduce(std::size_t n, R init, const Map& map, const Op& op, Meanwhile&& meanwhile) {
    const void* pinned = queue_result_download(queue_reduce(n, init, map, op), sizeof(R));
    try {
      meanwhile();
    } catch (...) {
      wait_result_download();
      throw;
    }
    wait_result_download();
    R result;
    std::memcpy(&result, pinned, sizeof(R));
    return result;
  }

  void synchronize() const;
  // Debug mode (EJECTA_DEBUG_SYNC=1 or --debug-sync, exec/debug_sync.h): synchronise the stream and
  // check for errors after every launch, naming the kernel's functor, so an asynchronous fault is
  // reported at the launch that caused it rather than at a later copy.
  bool debug_sync() const { return debug_sync_; }
  std::string device_name() const;
  // The device's L2 in bytes (neighbours.band_rows = -1 sizes the banded bucket order for it).
  std::size_t cache_bytes() const;
  std::size_t workspace_bytes() const { return scratch_bytes_ + result_bytes_; }
  cudaStream_t stream() const { return stream_; }
  void* stream_handle() const { return stream_; }  // Simulation::device_stream

  // The contract of CpuExec::select_rows (rows in device memory).
  void select_rows(const uint32_t* rows, std::size_t count) {
    rows_ = rows;
    rows_count_ = count;
    rows_runs_ = 0;
  }
  void clear_rows() { rows_ = nullptr; }
  bool rows_selected() const { return rows_ != nullptr; }  // a loop now would run over the selection
  long selected_runs() const { return rows_runs_; }

 private:
  // kernel<<<grid, block, 0, stream_>>>(n, f) as a programmatic dependent launch (see
  // ejecta_follow_previous_grid); an error of the launch is left to after_launch, as <<<>>>'s is.
  template <class F>
  void launch_following(void (*kernel)(std::size_t, F), unsigned grid, unsigned block, std::size_t n, const F& f) const {
    cudaLaunchAttribute follow[1];
    follow[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    follow[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = 0;
    config.stream = stream_;
    config.attrs = follow;
    config.numAttrs = 1;
    (void)cudaLaunchKernelEx(&config, kernel, n, f);
  }
  // Checks a kernel launch (always) and, in debug mode, its completion; errors name the functor.
  void after_launch(const std::type_info& functor, std::size_t n) const;
  void after_library_call(const char* what) const;
  void* grow(void*& buffer, std::size_t& have, std::size_t bytes);
  void* scratch(std::size_t bytes);
  void* scratch_result(std::size_t bytes);
  // The reduction of transform_reduce queued on the stream; its result in device memory.
  template <class R, class Map, class Op>
  const R* queue_reduce(std::size_t n, R init, const Map& map, const Op& op) {
    auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                              IndexMap<Map, R>{map});
    R* d_out = static_cast<R*>(scratch_result(sizeof(R)));
    std::size_t bytes = 0;
    cuda_check(cub::DeviceReduce::Reduce(nullptr, bytes, it, d_out, n, op, init, stream_), "reduce");
    void* tmp = scratch(bytes);
    cuda_check(cub::DeviceReduce::Reduce(tmp, bytes, it, d_out, n, op, init, stream_), "reduce");
    after_library_call("reduce");
    return d_out;
  }
  // transform_reduce with meanwhile: copies `bytes` at d_out into a pinned host buffer (one at a time;
  // it is reused) and records an event after the copy; the wait is for that event.
  const void* queue_result_download(const void* d_out, std::size_t bytes);
  void wait_result_download();
  // EJECTA_DEVICE_MEMORY_LIMIT (bytes) caps what this instance may allocate, so the out-of-memory
  // path can be exercised on any GPU (tests) and a shared GPU can be fenced (batch runs).
  std::size_t limit_ = 0, allocated_ = 0;
  std::unordered_map<void*, std::size_t> sizes_;
  cudaStream_t stream_ = nullptr;
  bool debug_sync_ = false;
  void* scratch_ = nullptr;
  std::size_t scratch_bytes_ = 0;
  void* result_ = nullptr;
  std::size_t result_bytes_ = 0;
  void* pinned_result_ = nullptr;  // cudaMallocHost (queue_result_download)
  cudaEvent_t result_copied_ = nullptr;
  bool result_queued_ = false;
  const uint32_t* rows_ = nullptr;  // select_rows
  std::size_t rows_count_ = 0;
  mutable long rows_runs_ = 0;
};

}  // namespace ejecta
