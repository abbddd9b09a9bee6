#pragma once
// Gas scenes (physics.model = gas): [gas_block.N] boxes of ideal gas, each on its own lattice of spacing
// gas.N.dp with its density, specific internal energy and velocity; an optional point blast
// ([blast]: energy deposited around a centre). Particles of phase kPhaseGas (frozen boundary particles,
// gas.frozen_x, of kind kWall), the material gas.gamma. Everything in double; the solver converts.
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <vector>

namespace ejecta {

// Throws ParamError naming the section and the file:line of its keys.
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
SceneParticles build_gas_scene(const ParamSet& params, const SizeCheck& check = {});

}  // namespace ejecta
