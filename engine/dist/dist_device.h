#pragma once
// The CUDA device of a rank in a distributed run (issue 19; docs/architecture.md, "Distributed runs").
// Compiled only in builds with both the CUDA backend and EJECTA_MPI (engine/dist/dist_device.cu); it
// sees no MPI header, so no MPI flags reach nvcc.
#include <cstddef>
#include <string>

namespace ejecta::dist {

// Makes device local_rank % (device count) current for this process's CUDA work, before any
// allocation; returns its index and sets *count and *name. Throws std::runtime_error when no device is
// usable or it cannot be selected.
int use_cuda_device(int local_rank, int* count, std::string* name);

// Page-locked host memory (cudaMallocHost), for staging the packed halo at the bus' bandwidth; throws
// std::runtime_error when it cannot be had. pinned_free(nullptr) does nothing.
void* pinned_allocate(std::size_t bytes);
void pinned_free(void* p);

}  // namespace ejecta::dist
