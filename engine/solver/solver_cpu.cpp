// CPU backend: the solver template compiled by the host compiler with OpenMP.
#include "exec/exec_cpu.h"
#include "solver/solver_factory.h"
#include "solver/wcsph_solver.h"

namespace ejecta {

std::unique_ptr<Simulation> make_cpu_solver(const ParamSet& params, const SceneParticles& init,
                                            Precision precision) {
  if (precision == Precision::Float) return make_wcsph_solver<float, CpuExec>(params, init);
  return make_wcsph_solver<double, CpuExec>(params, init);
}

}  // namespace ejecta
