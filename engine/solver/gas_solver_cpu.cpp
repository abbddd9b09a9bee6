// CPU backend of the gas solver (g++ with OpenMP).
#include "exec/exec_cpu.h"
#include "solver/gas_solver.h"
#include "solver/solver_factory.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cpu_gas_solver(const ParamSet& params, const SceneParticles& init,
                                                Precision precision) {
  if (precision == Precision::Float) return make_gas_solver<float, CpuExec>(params, init);
  return make_gas_solver<double, CpuExec>(params, init);
}

}  // namespace ejecta
