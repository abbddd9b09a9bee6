#pragma once
// From one scene description to its solver (issue 14): `make_solver` looks the scene's recipe up in
// one table of solvers (solver_factory.cpp) and builds it on the backend and precision asked. The
// backend entry points below are each compiled in their own translation unit (g++ with OpenMP, or
// nvcc), one per backend (and precision on CUDA), so that nvcc compiles them in parallel.
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "simulation.h"

#include <memory>

namespace ejecta {

// The solver of `scene.recipe` over the scene's particles: the store (StoreSolver, solver/
// store_solver.h), whose materials may be of every model; "wcsph", the liquid alone, runs its uniform-h
// fast path in it (solver/uniform_liquid.h), "gas", "solid" and "mixed" the level grid. What
// make_simulation, the viewer's drops and resets and a restart from a frame build. (The former classes,
// GasSolver, SolidSolver and WcsphSolver, were retired into the store: docs/architecture.md.)
// The wcsph recipe runs with leapfrog only (a ParamError for time.integrator otherwise).
// The solver settings a recipe refuses (the liquid's integrator is leapfrog only), checked before the
// scene's particles are laid out, so that this error comes first (ParamError with file:line).
void check_solver_settings(const ParamSet& params, const std::string& recipe);

std::unique_ptr<Simulation> make_solver(const ParamSet& params, Backend backend, Precision precision,
                                        const SceneParticles& scene);

// The backend entry points (the recipe's table row in solver_factory.cpp).
std::unique_ptr<Simulation> make_cpu_store_solver(const ParamSet& params, const SceneParticles& init,
                                                  Precision precision);
#ifdef EJECTA_WITH_CUDA
std::unique_ptr<Simulation> make_cuda_store_solver_float(const ParamSet& params, const SceneParticles& init);
std::unique_ptr<Simulation> make_cuda_store_solver_double(const ParamSet& params, const SceneParticles& init);
// "" when a device is usable, else why not.
std::string cuda_device_problem();
// Device memory free now (bytes).
std::size_t cuda_free_memory();
#endif

}  // namespace ejecta
