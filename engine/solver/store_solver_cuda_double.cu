// CUDA backend of the general store solver (every scene but the liquid alone), double precision (its
// own translation unit: nvcc compiles the precisions in parallel).
#include "exec/exec_cuda.cuh"
#include "solver/store_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cuda_store_solver_double(const ParamSet& params, const SceneParticles& init) {
  try {
    return make_store_solver<double, CudaExec>(params, init);
  } catch (const CudaAllocError& e) {
    throw OutOfMemoryError("CUDA out of memory building the store solver (" + std::to_string(init.size()) +
                           " particles, " + std::to_string(e.free_bytes) + " bytes free)");
  }
}

}  // namespace ejecta
