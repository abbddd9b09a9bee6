// CPU backend of the mixed-material solver (g++ with OpenMP).
#include "exec/exec_cpu.h"
#include "solver/mixed_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cpu_mixed_solver(const ParamSet& params, const SceneParticles& init,
                                                  Precision precision) {
  if (precision == Precision::Float) return make_mixed_solver<float, CpuExec>(params, init);
  return make_mixed_solver<double, CpuExec>(params, init);
}

}  // namespace ejecta
