// CUDA backend of the store solver (every scene), float precision (its
// own translation unit: nvcc compiles the precisions in parallel).
#include "exec/exec_cuda.cuh"
#include "solver/cuda_out_of_memory.h"
#include "solver/store_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cuda_store_solver_float(const ParamSet& params, const SceneParticles& init) {
  try {
    return make_store_solver<float, CudaExec>(params, init);
  } catch (const CudaAllocError& e) {
    // The liquid alone: how many particles would fit (its bytes a particle are known ahead).
    if (init.recipe == "wcsph") throw_out_of_memory(init, e.free_bytes, estimated_bytes<float>(init));
    throw OutOfMemoryError("CUDA out of memory building the store solver (" + std::to_string(init.size()) +
                           " particles, " + std::to_string(e.free_bytes) + " bytes free)");
  }
}

}  // namespace ejecta
