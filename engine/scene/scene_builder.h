#pragma once
// Turns the geometry sections of a scene ([tank.N], [block.N], [obstacle.N]) into particles, after
// checking them (empty, overlapping, fluid outside every tank). Everything in double; the solver
// converts to its precision.
#include "params/param_set.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <vector>

namespace ejecta {

struct InitialParticles {
  int dim = 2;
  double dp = 0, h = 0;
  double rho0 = 1000, c0 = 0, gamma = 7;  // c0 resolved (automatic value filled in)
  double gravity[3] = {0, 0, 0};
  std::vector<double> position;  // n * dim
  std::vector<double> velocity;  // n * dim
  std::vector<double> density;   // n (hydrostatic start for fluid)
  std::vector<double> mass;      // n (fluid: density dp^dim; walls: rho0 dp^dim)
  std::vector<uint8_t> kind;     // n, ParticleKind
  std::size_t size() const { return kind.size(); }
  std::size_t fluid_count() const;
  // The particles ids[0], ids[1], ... of this set, in that order, with the same constants (a rank's
  // share of a scene, a shuffled copy).
  InitialParticles subset(const std::vector<std::size_t>& ids) const;
};

// Throws ParamError naming the section and the file:line where its keys were set.
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
InitialParticles build_scene(const ParamSet& params, const SizeCheck& check = {});

// Tait density at the depth where |g| depth = g_depth under a free surface, from the exact
// hydrostatic pressure dp/dz = -rho(p) |g| (B = c0^2 rho0 / gamma). Fluid particles start with it and
// with mass = density * dp^dim.
double hydrostatic_density(double rho0, double B, double gamma, double g_depth);

}  // namespace ejecta
