// The CUDA device of a rank (engine/dist/dist_device.h): local rank modulo the node's device count, so
// that K ranks on one GPU share it and K ranks on K GPUs get one each.
#include "dist/dist_device.h"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ejecta::dist {

int use_cuda_device(int local_rank, int* count, std::string* name) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n <= 0) {
    cudaGetLastError();
    throw std::runtime_error(std::string("distributed run: no CUDA device for this rank (") +
                             (e != cudaSuccess ? cudaGetErrorString(e) : "no device") + ")");
  }
  const int device = (local_rank < 0 ? 0 : local_rank) % n;
  e = cudaSetDevice(device);
  if (e != cudaSuccess)
    throw std::runtime_error("distributed run: cannot select CUDA device " + std::to_string(device) + ": " +
                             cudaGetErrorString(e));
  cudaDeviceProp prop{};
  if (name) *name = cudaGetDeviceProperties(&prop, device) == cudaSuccess ? std::string(prop.name) : "?";
  if (count) *count = n;
  return device;
}

void* pinned_allocate(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t e = cudaMallocHost(&p, bytes ? bytes : 1);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(std::string("distributed run: cannot allocate ") + std::to_string(bytes) +
                             " bytes of page-locked host memory: " + cudaGetErrorString(e));
  }
  return p;
}

void pinned_free(void* p) {
  if (p) cudaFreeHost(p);
}

}  // namespace ejecta::dist
