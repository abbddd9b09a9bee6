#include "exec/exec_host.h"

#include "exec/exec_cpu.h"
#include "exec/exec_roundtrip.h"

#include <stdexcept>
#include <string>

namespace ejecta {

#ifdef EJECTA_WITH_CUDA
std::string cuda_device_problem();  // solver/cuda_device.cu
// exec_cuda.cu
std::vector<uint32_t> cuda_exclusive_scan(const std::vector<uint32_t>& in);
std::vector<uint64_t> cuda_exclusive_scan(const std::vector<uint64_t>& in);
void cuda_sort_pairs64(std::vector<uint64_t>& keys, std::vector<uint32_t>& values);
#endif

namespace {

#ifdef EJECTA_WITH_CUDA
void require_cuda() {
  const std::string problem = cuda_device_problem();
  if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
}
#else
[[noreturn]] void require_cuda() {
  throw std::runtime_error("CUDA backend unavailable: this build has no CUDA backend");
}
#endif

template <class T>
std::vector<T> scan_on(Backend backend, const std::vector<T>& in) {
  if (backend == Backend::Cpu) return exclusive_scan_roundtrip<CpuExec>(in);
  require_cuda();
#ifdef EJECTA_WITH_CUDA
  return cuda_exclusive_scan(in);
#endif
}

}  // namespace

std::vector<uint32_t> exclusive_scan_on(Backend backend, const std::vector<uint32_t>& in) { return scan_on(backend, in); }
std::vector<uint64_t> exclusive_scan_on(Backend backend, const std::vector<uint64_t>& in) { return scan_on(backend, in); }

void sort_pairs64_on(Backend backend, std::vector<uint64_t>& keys, std::vector<uint32_t>& values) {
  if (keys.size() != values.size()) throw std::invalid_argument("sort_pairs64_on: keys and values differ in size");
  if (backend == Backend::Cpu) return sort_pairs64_roundtrip<CpuExec>(keys, values);
  require_cuda();
#ifdef EJECTA_WITH_CUDA
  cuda_sort_pairs64(keys, values);
#endif
}

}  // namespace ejecta
