// The facade's factory: builds the scene, then the solver on the requested backend and precision.
#include "simulation.h"

#include "params/model_keys.h"
#include "probes/probe_api.h"
#include "scene/scene_builder.h"
#include "solver/solver_factory.h"

#include <stdexcept>

namespace ejecta {

std::string cuda_unavailable_reason() {
#ifdef EJECTA_WITH_CUDA
  return cuda_device_problem();
#else
  return "this build has no CUDA backend (nvcc was not found at configure time)";
#endif
}

bool cuda_available() { return cuda_unavailable_reason().empty(); }

RenderRange Simulation::fill_render_data(const RenderRequest&, const RenderBuffers&) {
  throw std::logic_error("this solver cannot fill render data");
}
void Simulation::apply_params(const ParamSet&) { throw std::logic_error("this solver cannot change parameters live"); }
ColliderSphere Simulation::collider() const { return ColliderSphere{}; }
void Simulation::set_collider(const ColliderSphere&) { throw std::logic_error("this solver has no collider"); }
std::vector<Material> Simulation::materials() const { return {}; }
void Simulation::set_material(std::size_t, const Material&) { throw std::logic_error("this solver has no materials"); }

namespace {

std::unique_ptr<Simulation> make_gas_simulation(const ParamSet& params, Backend backend, Precision precision) {
  const GasInitial init = build_gas_scene(params);
  if (backend == Backend::Cpu) return make_cpu_gas_solver(params, init, precision);
#ifdef EJECTA_WITH_CUDA
  const std::string problem = cuda_device_problem();
  if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
  return precision == Precision::Float ? make_cuda_gas_solver_float(params, init)
                                       : make_cuda_gas_solver_double(params, init);
#else
  throw std::runtime_error("CUDA backend unavailable: " + cuda_unavailable_reason());
#endif
}

std::unique_ptr<Simulation> make_solid_simulation(const ParamSet& params, Backend backend, Precision precision) {
  const SolidInitial init = build_solid_scene(params);
  if (backend == Backend::Cpu) return make_cpu_solid_solver(params, init, precision);
#ifdef EJECTA_WITH_CUDA
  const std::string problem = cuda_device_problem();
  if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
  return precision == Precision::Float ? make_cuda_solid_solver_float(params, init)
                                       : make_cuda_solid_solver_double(params, init);
#else
  throw std::runtime_error("CUDA backend unavailable: " + cuda_unavailable_reason());
#endif
}

}  // namespace

namespace {

std::unique_ptr<Simulation> make_simulation_without_probes(const ParamSet& params, Backend backend) {
  const Precision precision =
      params.text("scene.precision") == "double" ? Precision::Double : Precision::Float;
  check_model_keys(params);  // a key the model does not read would be silently ignored
  if (params.text("physics.model") == "gas") return make_gas_simulation(params, backend, precision);
  if (params.text("physics.model") == "solid") return make_solid_simulation(params, backend, precision);
  if (params.text("time.integrator") != "leapfrog")
    throw ParamError(params.where("time.integrator") + ": time.integrator = " + params.text("time.integrator") +
                     " is available for physics.model = gas and solid only; the wcsph model uses leapfrog");
  const InitialParticles init = build_scene(params);
  if (backend == Backend::Cpu) return make_cpu_solver(params, init, precision);
#ifdef EJECTA_WITH_CUDA
  const std::string problem = cuda_device_problem();
  if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
  return precision == Precision::Float ? make_cuda_solver_float(params, init)
                                       : make_cuda_solver_double(params, init);
#else
  throw std::runtime_error("CUDA backend unavailable: " + cuda_unavailable_reason());
#endif
}

}  // namespace

std::unique_ptr<Simulation> make_simulation(const ParamSet& params, Backend backend) {
  // Probe sections of a gas or solid scene are refused before the (possibly long) build.
  if (scene_has_probes(params) && params.text("physics.model") != "wcsph") make_probe_layout(params, 0, {});
  std::unique_ptr<Simulation> sim = make_simulation_without_probes(params, backend);
  if (ProbeSampling* probes = probe_sampling(*sim); probes && scene_has_probes(params))
    probes->set_probes(make_probe_layout(params, sim->dim(), sim->fields()));
  return sim;
}

}  // namespace ejecta
