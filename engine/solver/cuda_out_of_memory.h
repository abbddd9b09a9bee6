#pragma once
// Turns a failed device allocation of the liquid alone (its uniform-h path, solver/uniform_liquid.h)
// into a message that says how many particles would fit.
#include "scene/scene_builder.h"
#include "simulation.h"
#include "solver/uniform_liquid.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace ejecta {

template <class T>
double estimated_bytes(const SceneParticles& init) {
  const bool xsph = false;
  switch (init.dim) {
    case 1: return UniformLiquid<T, 1, CudaExec>::estimated_bytes_per_particle(xsph);
    case 2: return UniformLiquid<T, 2, CudaExec>::estimated_bytes_per_particle(xsph);
    default: return UniformLiquid<T, 3, CudaExec>::estimated_bytes_per_particle(xsph);
  }
}

[[noreturn]] inline void throw_out_of_memory(const SceneParticles& init, std::size_t free_after,
                                             double bytes_per_particle) {
  std::size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);  // the solver's buffers are released by now
  if (free_b == 0) free_b = free_after;
  if (const char* cap = std::getenv("EJECTA_DEVICE_MEMORY_LIMIT"))
    free_b = std::min<std::size_t>(free_b, std::strtoull(cap, nullptr, 10));
  const double fit = 0.9 * double(free_b) / bytes_per_particle;
  std::ostringstream msg;
  msg << "not enough GPU memory for " << init.size() << " particles (about " << bytes_per_particle
      << " bytes each, " << double(free_b) / (1 << 20) << " MiB free): about " << std::size_t(fit)
      << " particles fit; use a larger particles.dp";
  throw OutOfMemoryError(msg.str());
}

}  // namespace ejecta
