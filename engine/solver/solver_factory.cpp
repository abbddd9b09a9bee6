// The one table of solvers (solver_factory.h): a scene's recipe -> its solver on each backend.
#include "solver/solver_factory.h"

#include <stdexcept>
#include <string>

namespace ejecta {

namespace {

using CpuMaker = std::unique_ptr<Simulation> (*)(const ParamSet&, const SceneParticles&, Precision);
using CudaMaker = std::unique_ptr<Simulation> (*)(const ParamSet&, const SceneParticles&);

struct SolverRow {
  const char* recipe;
  CpuMaker cpu;
  CudaMaker cuda_float, cuda_double;
  bool leapfrog_only;  // the liquid alone's fast path drives the predicted-field leapfrog alone
};

#ifdef EJECTA_WITH_CUDA
#define EJECTA_CUDA_MAKERS(f, d) f, d
#else
#define EJECTA_CUDA_MAKERS(f, d) nullptr, nullptr
#endif

const SolverRow kSolvers[] = {
    {"wcsph", make_cpu_store_solver, EJECTA_CUDA_MAKERS(make_cuda_store_solver_float, make_cuda_store_solver_double),
     true},
    {"gas", make_cpu_store_solver, EJECTA_CUDA_MAKERS(make_cuda_store_solver_float, make_cuda_store_solver_double), false},
    {"solid", make_cpu_store_solver, EJECTA_CUDA_MAKERS(make_cuda_store_solver_float, make_cuda_store_solver_double),
     false},
    {"mixed", make_cpu_store_solver, EJECTA_CUDA_MAKERS(make_cuda_store_solver_float, make_cuda_store_solver_double),
     false},
};

}  // namespace

void check_solver_settings(const ParamSet& params, const std::string& recipe) {
  for (const SolverRow& r : kSolvers)
    if (recipe == r.recipe && r.leapfrog_only && params.text("time.integrator") != "leapfrog")
      throw ParamError(params.where("time.integrator") + ": time.integrator = " + params.text("time.integrator") +
                       " is available for physics.model = gas, solid and mixed only; the wcsph model uses leapfrog");
}

std::unique_ptr<Simulation> make_solver(const ParamSet& params, Backend backend, Precision precision,
                                        const SceneParticles& scene) {
  const SolverRow* row = nullptr;
  for (const SolverRow& r : kSolvers)
    if (scene.recipe == r.recipe) row = &r;
  if (!row) throw std::logic_error("make_solver: no solver for the recipe '" + scene.recipe + "'");
  check_solver_settings(params, scene.recipe);
  if (backend == Backend::Cpu) return row->cpu(params, scene, precision);
#ifdef EJECTA_WITH_CUDA
  const std::string problem = cuda_device_problem();
  if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
  return precision == Precision::Float ? row->cuda_float(params, scene) : row->cuda_double(params, scene);
#else
  throw std::runtime_error("CUDA backend unavailable: " + cuda_unavailable_reason());
#endif
}

}  // namespace ejecta
