// CPU backend of the solid solver (g++ with OpenMP).
#include "exec/exec_cpu.h"
#include "solver/solid_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cpu_solid_solver(const ParamSet& params, const SceneParticles& init,
                                                  Precision precision) {
  if (precision == Precision::Float) return make_solid_solver<float, CpuExec>(params, init);
  return make_solid_solver<double, CpuExec>(params, init);
}

}  // namespace ejecta
