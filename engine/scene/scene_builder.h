#pragma once
// The liquid's layout: turns the geometry sections of a scene ([tank.N], [block.N], [obstacle.N]) into
// particles of the liquid (phase kPhaseLiquid) and its walls (kPhaseWall), after checking them (empty,
// overlapping, fluid outside every tank); the uniform h is liquid.h (no per-particle h). Everything in
// double; the solver converts to its precision. Part of the one builder (scene_particles.h).
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <vector>

namespace ejecta {

// Throws ParamError naming the section and the file:line where its keys were set.
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
SceneParticles build_scene(const ParamSet& params, const SizeCheck& check = {});

// Tait density at the depth where |g| depth = g_depth under a free surface, from the exact
// hydrostatic pressure dp/dz = -rho(p) |g| (B = c0^2 rho0 / gamma). Fluid particles start with it and
// with mass = density * dp^dim.
double hydrostatic_density(double rho0, double B, double gamma, double g_depth);

}  // namespace ejecta
