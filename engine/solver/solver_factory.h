#pragma once
// Backend entry points; each is compiled in its own translation unit (g++ with OpenMP, or nvcc).
#include "params/param_set.h"
#include "scene/gas_scene.h"
#include "scene/mixed_scene.h"
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"
#include "simulation.h"

#include <memory>

namespace ejecta {

std::unique_ptr<Simulation> make_cpu_solver(const ParamSet& params, const InitialParticles& init,
                                            Precision precision);
// The liquid solver on either backend from a built particle set (engine/scene/fluid_drop.cpp): what
// the viewer's drop, the fluid resets and the restart from a frame rebuild.
std::unique_ptr<Simulation> make_liquid_solver(const ParamSet& params, Backend backend, Precision precision,
                                               const InitialParticles& init);
// The gas model (physics.model = gas), engine/solver/gas_solver.h.
std::unique_ptr<Simulation> make_cpu_gas_solver(const ParamSet& params, const GasInitial& init,
                                                Precision precision);
// The solid model (physics.model = solid), engine/solver/solid_solver.h.
std::unique_ptr<Simulation> make_cpu_solid_solver(const ParamSet& params, const SolidInitial& init,
                                                  Precision precision);
// Mixed materials in one store (physics.model = mixed), engine/solver/mixed_solver.h.
std::unique_ptr<Simulation> make_cpu_mixed_solver(const ParamSet& params, const MixedInitial& init,
                                                  Precision precision);
#ifdef EJECTA_WITH_CUDA
std::unique_ptr<Simulation> make_cuda_mixed_solver_float(const ParamSet& params, const MixedInitial& init);
std::unique_ptr<Simulation> make_cuda_mixed_solver_double(const ParamSet& params, const MixedInitial& init);
std::unique_ptr<Simulation> make_cuda_solid_solver_float(const ParamSet& params, const SolidInitial& init);
std::unique_ptr<Simulation> make_cuda_solid_solver_double(const ParamSet& params, const SolidInitial& init);
std::unique_ptr<Simulation> make_cuda_gas_solver_float(const ParamSet& params, const GasInitial& init);
std::unique_ptr<Simulation> make_cuda_gas_solver_double(const ParamSet& params, const GasInitial& init);
#endif
#ifdef EJECTA_WITH_CUDA
std::unique_ptr<Simulation> make_cuda_solver_float(const ParamSet& params, const InitialParticles& init);
std::unique_ptr<Simulation> make_cuda_solver_double(const ParamSet& params, const InitialParticles& init);
// "" when a device is usable, else why not.
std::string cuda_device_problem();
// Device memory free now (bytes).
std::size_t cuda_free_memory();
#endif

}  // namespace ejecta
