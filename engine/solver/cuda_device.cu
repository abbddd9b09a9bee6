// Device discovery for the facade (compiled only with the CUDA backend).
#include "solver/solver_factory.h"

#include <cuda_runtime.h>

#include <filesystem>
#include <string>

namespace ejecta {

std::string cuda_device_problem() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    // Without an NVIDIA GPU the runtime finds no driver and reports "CUDA driver version is
    // insufficient", which reads as "update the driver"; say what is true instead.
    const bool driver_loaded = std::filesystem::exists("/proc/driver/nvidia/version");
    if (e == cudaErrorNoDevice) return "no CUDA device found";
    if (!driver_loaded && (e == cudaErrorInsufficientDriver || e == cudaErrorInitializationError))
      return "no CUDA device found (no NVIDIA driver is loaded)";
    return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
  }
  if (count == 0) return "no CUDA device found";
  return "";
}

std::size_t cuda_free_memory() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return 0;
  return free_b;
}

}  // namespace ejecta
