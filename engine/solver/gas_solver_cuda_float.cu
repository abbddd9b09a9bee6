// CUDA backend of the gas solver, float precision (its own translation unit: nvcc compiles the
// precisions in parallel).
#include "exec/exec_cuda.cuh"
#include "solver/gas_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cuda_gas_solver_float(const ParamSet& params, const SceneParticles& init) {
  try {
    return make_gas_solver<float, CudaExec>(params, init);
  } catch (const CudaAllocError& e) {
    throw OutOfMemoryError("CUDA out of memory building the gas solver (" + std::to_string(init.size()) +
                           " particles, " + std::to_string(e.free_bytes) + " bytes free)");
  }
}

}  // namespace ejecta
