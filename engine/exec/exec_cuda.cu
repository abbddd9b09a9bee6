#include "exec/exec_cuda.cuh"

#include "exec/debug_sync.h"
#include "exec/exec_roundtrip.h"
#include "exec/key_bits.h"

#include <cstdlib>
#include <string>

namespace ejecta {

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

CudaExec::CudaExec() {
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "stream");
  if (const char* cap = std::getenv("EJECTA_DEVICE_MEMORY_LIMIT")) limit_ = std::strtoull(cap, nullptr, 10);
  debug_sync_ = debug_sync_from_environment();
}

void CudaExec::after_launch(const std::type_info& functor, std::size_t n) const {
  cudaError_t e = cudaGetLastError();
  const char* stage = "launch of";
  if (e == cudaSuccess && debug_sync_) {
    e = cudaStreamSynchronize(stream_);
    stage = "kernel";
  }
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in ") + stage + " " + demangled_type_name(functor.name()) +
                             " over " + std::to_string(n) + " items: " + cudaGetErrorString(e) +
                             (debug_sync_ ? "" : " (EJECTA_DEBUG_SYNC=1 checks after every launch)"));
}

void CudaExec::after_library_call(const char* what) const {
  if (!debug_sync_) return;
  cuda_check(cudaStreamSynchronize(stream_), what);
  cuda_check(cudaGetLastError(), what);
}

CudaExec::~CudaExec() {
  if (scratch_) cudaFree(scratch_);
  if (result_) cudaFree(result_);
  if (pinned_result_) cudaFreeHost(pinned_result_);
  if (result_copied_) cudaEventDestroy(result_copied_);
  if (stream_) cudaStreamDestroy(stream_);
}

void* CudaExec::allocate(std::size_t bytes) {
  void* p = nullptr;
  if (bytes == 0) bytes = 1;
  if (limit_ && allocated_ + bytes > limit_) throw CudaAllocError(bytes, limit_ - allocated_);
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls work
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw CudaAllocError(bytes, free_b);
  }
  allocated_ += bytes;
  sizes_[p] = bytes;
  return p;
}

void CudaExec::deallocate(void* p) {
  auto it = sizes_.find(p);
  if (it != sizes_.end()) {
    allocated_ -= it->second;
    sizes_.erase(it);
  }
  cudaFree(p);
}

void CudaExec::upload(void* dst, const void* src, std::size_t bytes) {
  cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_), "upload");
  cuda_check(cudaStreamSynchronize(stream_), "upload");
}

void CudaExec::download(void* dst, const void* src, std::size_t bytes) const {
  cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_), "download");
  cuda_check(cudaStreamSynchronize(stream_), "download");
}

void CudaExec::copy(void* dst, const void* src, std::size_t bytes) {
  cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_), "copy");
}

// Grows a scratch allocation to at least `bytes` (never shrinks: the sizes settle after a step).
void* CudaExec::grow(void*& buffer, std::size_t& have, std::size_t bytes) {
  if (bytes > have) {
    if (buffer) deallocate(buffer);
    buffer = nullptr;
    have = 0;
    buffer = allocate(bytes);
    have = bytes;
  }
  return buffer;
}

void* CudaExec::scratch(std::size_t bytes) { return grow(scratch_, scratch_bytes_, bytes); }
void* CudaExec::scratch_result(std::size_t bytes) { return grow(result_, result_bytes_, bytes); }

namespace {
constexpr std::size_t kPinnedResultBytes = 256;  // a reduction's result (StepExtremes: 16 bytes in float)
}

const void* CudaExec::queue_result_download(const void* d_out, std::size_t bytes) {
  if (result_queued_) throw std::logic_error("CudaExec: a reduction with meanwhile inside another's meanwhile");
  if (bytes > kPinnedResultBytes) throw std::logic_error("CudaExec: a reduction's result over the pinned buffer");
  if (!pinned_result_) cuda_check(cudaMallocHost(&pinned_result_, kPinnedResultBytes), "pinned result buffer");
  if (!result_copied_) cuda_check(cudaEventCreateWithFlags(&result_copied_, cudaEventDisableTiming), "event");
  cuda_check(cudaMemcpyAsync(pinned_result_, d_out, bytes, cudaMemcpyDeviceToHost, stream_), "download");
  cuda_check(cudaEventRecord(result_copied_, stream_), "event record");
  result_queued_ = true;
  return pinned_result_;
}

void CudaExec::wait_result_download() {
  result_queued_ = false;
  cuda_check(cudaEventSynchronize(result_copied_), "download");
}

namespace {
// CUB's stable radix sort of (key, value) pairs over bits [begin_bit, end_bit) on `stream`, its
// temporary storage from scratch(bytes); keys and values end up in the arrays the pointers name
// (swapped with the alternates when CUB's result is there).
template <class K, class Scratch>
void radix_sort_pairs(Scratch&& scratch, cudaStream_t stream, K*& keys, uint32_t*& values, K*& keys_alt,
                      uint32_t*& values_alt, std::size_t n, int begin_bit, int end_bit, const char* what) {
  cub::DoubleBuffer<K> k(keys, keys_alt);
  cub::DoubleBuffer<uint32_t> v(values, values_alt);
  std::size_t bytes = 0;
  cuda_check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, static_cast<int>(n), begin_bit, end_bit, stream),
             what);
  void* tmp = scratch(bytes);
  cuda_check(cub::DeviceRadixSort::SortPairs(tmp, bytes, k, v, static_cast<int>(n), begin_bit, end_bit, stream),
             what);
  if (k.Current() != keys) {
    std::swap(keys, keys_alt);
    std::swap(values, values_alt);
  }
}

// The OR and the AND of the keys: the bits where they differ.
struct KeyBits {
  uint64_t any, all;
};
struct KeyBitsOf {
  const uint64_t* k;
  __host__ __device__ KeyBits operator()(std::size_t i) const { return {k[i], k[i]}; }
};
struct MergeKeyBits {
  __host__ __device__ KeyBits operator()(const KeyBits& a, const KeyBits& b) const {
    return {a.any | b.any, a.all & b.all};
  }
};
}  // namespace

void CudaExec::sort_pairs(uint32_t*& keys, uint32_t*& values, uint32_t*& keys_alt,
                          uint32_t*& values_alt, std::size_t n, uint32_t num_keys) {
  // Only the bits that keys can use: fewer radix passes for small bucket tables.
  int end_bit = 1;
  while (end_bit < 32 && (uint64_t(1) << end_bit) < num_keys) ++end_bit;
  radix_sort_pairs([this](std::size_t b) { return scratch(b); }, stream_, keys, values, keys_alt, values_alt, n, 0,
                   end_bit, "radix sort");
  after_library_call("radix sort");
}

void CudaExec::sort_pairs64(uint64_t*& keys, uint32_t*& values, uint64_t*& keys_alt, uint32_t*& values_alt,
                            std::size_t n) {
  if (n == 0) return;
  // The bit span where keys differ (exec/key_bits.h, as on the CPU): fewer passes for keys of a small grid.
  const KeyBits b = transform_reduce(n, KeyBits{0, ~uint64_t(0)}, KeyBitsOf{keys}, MergeKeyBits{});
  const KeyBitSpan span = differing_key_bits(b.any, b.all);
  if (span.lo == span.hi) return;
  radix_sort_pairs([this](std::size_t b) { return scratch(b); }, stream_, keys, values, keys_alt, values_alt, n,
                   span.lo, span.hi, "radix sort (64-bit keys)");
  after_library_call("radix sort (64-bit keys)");
}

void CudaExec::synchronize() const { cuda_check(cudaStreamSynchronize(stream_), "synchronize"); }

std::size_t CudaExec::cache_bytes() const {
  int dev = 0, bytes = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, dev);
  return bytes > 0 ? std::size_t(bytes) : 0;
}

std::string CudaExec::device_name() const {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, dev);
  return prop.name;
}

}  // namespace ejecta

namespace ejecta {

// exec_host.cpp's CUDA round trips.

std::vector<uint32_t> cuda_exclusive_scan(const std::vector<uint32_t>& in) {
  return exclusive_scan_roundtrip<CudaExec>(in);
}
std::vector<uint64_t> cuda_exclusive_scan(const std::vector<uint64_t>& in) {
  return exclusive_scan_roundtrip<CudaExec>(in);
}
void cuda_sort_pairs64(std::vector<uint64_t>& keys, std::vector<uint32_t>& values) {
  sort_pairs64_roundtrip<CudaExec>(keys, values);
}

}  // namespace ejecta
