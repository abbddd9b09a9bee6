// The facade's factory: builds the scene, then the solver on the requested backend and precision.
#include "simulation.h"

#include "params/model_keys.h"
#include "probes/probe_api.h"
#include "run/step_loop.h"
#include "scene/memory_budget.h"
#include "scene/scene_particles.h"
#include "solver/solver_factory.h"
#ifdef EJECTA_WITH_MPI
#include "dist/dist_simulation.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace ejecta {

void Simulation::step_queued(double time) const {
  if (step_observer_) step_observer_->on_step_queued(*this, time);
}

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
ColourHistogram Simulation::colour_histogram(const RenderRequest&, float, float) {
  throw std::logic_error("this solver cannot measure a colour histogram");
}
void Simulation::apply_params(const ParamSet&) { throw std::logic_error("this solver cannot change parameters live"); }
ColliderSphere Simulation::collider() const { return ColliderSphere{}; }
void Simulation::set_collider(const ColliderSphere&) { throw std::logic_error("this solver has no collider"); }
std::vector<Material> Simulation::materials() const { return {}; }
void Simulation::set_material(std::size_t, const Material&) { throw std::logic_error("this solver has no materials"); }

namespace {

// One path for every scene: the one builder's description (scene/scene_particles.h), then the solver of
// its recipe from the one table (solver/solver_factory.h).
std::unique_ptr<Simulation> build_simulation(const ParamSet& params, Backend backend, const SizeCheck& check) {
  const Precision precision =
      params.text("scene.precision") == "double" ? Precision::Double : Precision::Float;
  check_model_keys(params);  // a key the model does not read would be silently ignored
  check_solver_settings(params, params.text("physics.model"));
  return make_solver(params, backend, precision, build_scene_particles(params, check));
}

// A copy of `params` with every spacing of `size` multiplied by `factor`.
ParamSet with_spacings_scaled(const ParamSet& params, const SceneSize& size, double factor) {
  std::vector<std::string> keys{size.dp_key};
  if (size.several_spacings) {
    keys.clear();
    const std::string block = size.dp_key.substr(0, size.dp_key.find('.'));
    for (int i : params.indices(block)) keys.push_back(block + "." + std::to_string(i) + ".dp");
  }
  ParamSet p = params;
  for (const std::string& k : keys) p.set(k, format_number(params.real(k) * factor), "memory estimate");
  return p;
}

// Bytes per particle of the solver this scene gets on `backend` (device memory on CUDA, host memory on
// the CPU): its fields, integrator stages, sort buffers and bucket table, as the solver itself counts
// them (device_bytes), measured on a copy of the scene with every spacing coarsened to give about
// 2e4 particles (then 2e3, where a coarse body would be empty). 0 when no copy builds.
double solver_bytes_per_particle(const ParamSet& params, Backend backend, const SceneSize& size) {
  for (double target : {2e4, 2e3}) {
    try {
      const ParamSet probe = with_spacings_scaled(params, size, std::pow(size.particles / target, 1.0 / size.dim));
      const std::unique_ptr<Simulation> sim = build_simulation(probe, backend, {});
      if (sim->particle_count() > 0) return double(sim->device_bytes()) / double(sim->particle_count());
    } catch (const std::exception&) {
      // This coarse copy does not build (or the backend is unavailable, said by the real build).
    }
  }
  return 0;
}

// The particle count of a scene, from its builder's size hook, before it allocates (a tiny exception
// type stops the build there).
struct Counted {
  double particles;
};
double particle_count(const ParamSet& params, Backend backend) {
  try {
    build_simulation(params, backend, [](const SceneSize& s) { throw Counted{s.particles}; });
  } catch (const Counted& c) {
    return c.particles;
  }
  return 0;
}

// The spacing (of size.dp_key) at which the scene has at most `fit` particles: the dp^-dim scaling
// corrected by counting, as a tank's wall shell grows only as dp^-(dim-1).
double spacing_for_count(const ParamSet& params, Backend backend, const SceneSize& size, double fit) {
  double factor = std::pow(size.particles / fit, 1.0 / size.dim);
  for (int it = 0; it < 12; ++it) {
    double n = 0;
    try {
      n = particle_count(with_spacings_scaled(params, size, factor), backend);
    } catch (const std::exception&) {
      break;  // the geometry does not build at this spacing: keep the estimate
    }
    if (n <= fit) break;
    factor *= 1.02 * std::pow(n / fit, 1.0 / (size.dim - (size.dim > 1 ? 0.5 : 0)));
  }
  return size.dp * factor;
}

// Refuses a scene that does not fit in host or device memory (scene/memory_budget.h). Scenes below
// 5e4 particles (some 50 MB) are not measured.
void check_memory(const ParamSet& params, Backend backend, const SceneSize& size) {
  if (size.particles < 5e4) return;
  const double solver = solver_bytes_per_particle(params, backend, size);
  const bool cuda = backend == Backend::Cuda;
  // On the host: the builder's arrays, the solver's upload copies (no more than its store) and, on
  // the CPU backend, the store itself.
  const double host = size.builder_bytes_per_particle + solver * (cuda ? 1 : 2);
  double device_free = 0;
#ifdef EJECTA_WITH_CUDA
  if (cuda && cuda_device_problem().empty()) {
    device_free = double(cuda_free_memory());
    if (const char* cap = std::getenv("EJECTA_DEVICE_MEMORY_LIMIT"))
      device_free = std::min(device_free, std::strtod(cap, nullptr));
  }
#endif
  check_memory_fits(params, size, host, cuda ? solver : 0, device_free,
                    [&](double fit) { return spacing_for_count(params, backend, size, fit); });
}

}  // namespace

std::unique_ptr<Simulation> make_simulation(const ParamSet& params, Backend backend) {
#ifdef EJECTA_WITH_MPI
  if (distributed_run()) return make_distributed_simulation(params, backend);  // mpirun -n K, K > 1
#endif
  // Probe sections of a gas or solid scene are refused before the (possibly long) build.
  if (scene_has_probes(params) && params.text("physics.model") != "wcsph") make_probe_layout(params, 0, {});
  std::unique_ptr<Simulation> sim =
      build_simulation(params, backend, [&](const SceneSize& s) { check_memory(params, backend, s); });
  if (ProbeSampling* probes = probe_sampling(*sim); probes && scene_has_probes(params)) {
    ProbeLayout layout = make_probe_layout(params, sim->dim(), sim->fields());
    if (std::any_of(layout.instruments.begin(), layout.instruments.end(), [](const ProbeInstrument& in) { return in.load; })) {
      const HostParticles host = sim->download();
      check_load_boxes(params, layout, host.position, host.kind);
    }
    probes->set_probes(layout);
  }
  return sim;
}

}  // namespace ejecta
