#pragma once
// The model of a particle's material (scene/scene_particles.h; a mixed scene's store carries it as the
// `phase` field, solver/store_solver.h). kPhaseWall: the liquid's fixed tank walls; kPhaseGrain: a DEM
// grain (physics/dem_grains.h), a moving wall to the liquid; kPhaseGas: the gas model (not in mixed
// stores yet).
#include <cstdint>

namespace ejecta {

enum ParticlePhase : uint8_t { kPhaseLiquid = 0, kPhaseWall = 1, kPhaseSolid = 2, kPhaseGrain = 3, kPhaseGas = 4 };

}  // namespace ejecta
