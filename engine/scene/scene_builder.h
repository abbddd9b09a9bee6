#pragma once
// The liquid's layout: turns the geometry sections of a scene ([tank.N], [block.N], [obstacle.N]) into
// particles of the liquid (phase kPhaseLiquid) and its walls (kPhaseWall), after checking them (empty,
// overlapping, fluid outside every tank); the uniform h is liquid.h (no per-particle h). Everything in
// double; the solver converts to its precision. Part of the one builder (scene_particles.h).
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

// Throws ParamError naming the section and the file:line where its keys were set.
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
SceneParticles build_scene(const ParamSet& params, const SizeCheck& check = {});

// The time at which the gate of section `section` ([gate.N]) stops: its travel / its speed; infinite
// without a travel or at rest. Its box at time t is min + v min(t, this), max + v min(t, this) (the
// solver's mDBC boxes, UniformLiquid::move_gates; the viewer's outline, geometry_outline).
double gate_stop_time(const ParamSet& ps, const std::string& section);

// Tait density at the depth where |g| depth = g_depth under a free surface, from the exact
// hydrostatic pressure dp/dz = -rho(p) |g| (B = c0^2 rho0 / gamma). Fluid particles start with it and
// with mass = density * dp^dim.
double hydrostatic_density(double rho0, double B, double gamma, double g_depth);

}  // namespace ejecta
