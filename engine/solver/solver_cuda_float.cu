// CUDA backend, single precision (its own translation unit so the two precisions compile in parallel).
#include "exec/exec_cuda.cuh"
#include "solver/solver_factory.h"
#include "solver/cuda_out_of_memory.h"
#include "solver/wcsph_solver.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cuda_solver_float(const ParamSet& params, const SceneParticles& init) {
  try {
    return make_wcsph_solver<float, CudaExec>(params, init);
  } catch (const CudaAllocError& e) {
    throw_out_of_memory(init, e.free_bytes, estimated_bytes<float>(init));
  }
}

}  // namespace ejecta
