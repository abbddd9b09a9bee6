#pragma once
// The CUDA device of a rank in a distributed run (issue 19; docs/architecture.md, "Distributed runs").
// Compiled only in builds with both the CUDA backend and EJECTA_MPI (engine/dist/dist_device.cu); it
// sees no MPI header, so no MPI flags reach nvcc.
#include <string>

namespace ejecta::dist {

// Makes device local_rank % (device count) current for this process's CUDA work, before any
// allocation; returns its index and sets *count and *name. Throws std::runtime_error when no device is
// usable or it cannot be selected.
int use_cuda_device(int local_rank, int* count, std::string* name);

}  // namespace ejecta::dist
