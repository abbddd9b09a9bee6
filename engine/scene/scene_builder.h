#pragma once
// Turns the geometry sections of a scene ([tank.N], [block.N], [obstacle.N]) into particles, after
// checking them (empty, overlapping, fluid outside every tank). Everything in double; the solver
// converts to its precision.
#include "params/param_set.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <vector>

namespace ejecta {

// The boundary interface of boundary.model = mdbc_english2022 (physics/boundary_mdbc_english2022.h): a
// tank's inner box or an obstacle, snapped to the particle lattice as its particles are.
struct WallBox {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  bool obstacle = false;  // an obstacle's solid box (walls inside), else a tank's inner box (walls outside)
  unsigned faces = 0;     // obstacles: bit 2d the low face of axis d meets the fluid, 2d+1 the high face
};

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
  std::vector<WallBox> wall_boxes;  // the tanks' inner boxes and the obstacles (scene_builder.cpp)
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
