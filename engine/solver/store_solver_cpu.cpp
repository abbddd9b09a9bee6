// CPU backend of the store solver, every scene (g++ with OpenMP).
#include "exec/exec_cpu.h"
#include "solver/store_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cpu_store_solver(const ParamSet& params, const SceneParticles& init,
                                                  Precision precision) {
  if (precision == Precision::Float) return make_store_solver<float, CpuExec>(params, init);
  return make_store_solver<double, CpuExec>(params, init);
}

}  // namespace ejecta
