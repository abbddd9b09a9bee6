#pragma once
// Solid scenes (physics.model = solid): [solid_block.N] boxes, spheres or shells, each on its own lattice of spacing dp,
// of a material named from the library (solid.materials, default assets/materials.ini) and with an
// initial velocity. Everything in double; the solver converts.
#include "materials/material_library.h"
#include "params/param_set.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

struct SolidInitial {
  int dim = 2;
  double gravity[3] = {0, 0, 0};
  std::vector<Material> materials;  // those the blocks use, in order of first use
  std::vector<double> position;     // n * dim
  std::vector<double> velocity;     // n * dim
  std::vector<double> density;      // n, the material's rho0
  std::vector<double> mass;         // n, rho0 dp^dim
  std::vector<double> h;            // n, solid.h_over_dp * dp (fixed)
  std::vector<uint8_t> material;    // n, index into materials
  std::vector<uint8_t> kind;        // n, 0 free, 1 prescribed motion (keeps its initial velocity)
  // Weibull flaws (Grady-Kipp damage), by particle number: particle i owns the activation strains
  // flaw_strain[flaw_offset[i] .. flaw_offset[i+1]), ascending. Empty when no body has flaws (no
  // material with weibull.k, m, or solid.damage = false); then the solver carries no damage.
  std::vector<std::int64_t> flaw_offset;  // n + 1, or empty
  std::vector<double> flaw_strain;
  // The particles' ids (a distributed run's share of the scene, whose flaw table stays by scene id);
  // empty: 0 .. n-1.
  std::vector<uint32_t> id;
  std::size_t size() const { return mass.size(); }
};

// The library path of solid.materials: absolute as given; relative to the working directory when
// that file exists, else to the source tree (EJECTA_SOURCE_DIR in the environment, or the build's).
std::string resolve_material_library(const std::string& path);

// Throws ParamError naming the file:line of the offending key (an unknown material with a suggestion).
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
SolidInitial build_solid_scene(const ParamSet& params, const SizeCheck& check = {});

}  // namespace ejecta
