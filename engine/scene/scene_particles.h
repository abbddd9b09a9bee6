#pragma once
// One scene description for every model (issue 14, "one store"): the particles of every body of a
// scene with a material per particle, each material with its model. A liquid, gas or solid scene is a
// scene of one material's model; a mixed scene (physics.model = mixed) holds several in the same
// arrays. `build_scene_particles` (scene_particles.cpp) is the one builder; every solver is built from
// this description (solver/solver_factory.h, `make_solver`). Everything in double; the solver converts.
//
// A particle's material is (phase, material): `phase` names the model (ParticlePhase, core/particle_phase.h:
// the liquid, its tank walls, a solid, a DEM grain, a gas) and `material` indexes that model's table
// (the solids' library materials; 0 for the liquid, whose one material is `liquid`, and for the gas,
// whose one material is `gas`).
#include "core/particle_phase.h"
#include "core/types.h"
#include "materials/material_library.h"
#include "params/param_set.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ejecta {

// The liquid's material (model wcsph): Tait EOS (Monaghan 1994) constants, c0 resolved (its automatic
// value filled in), and the lattice spacing and the one smoothing length of its uniform-h fast path.
struct LiquidMaterial {
  double rho0 = 1000, c0 = 0, gamma = 7;
  double dp = 0, h = 0;
};

// The gas's material (model gas): the ideal-gas gamma.
struct GasMaterial {
  double gamma = 5.0 / 3.0;
};

// The boundary interface of boundary.model = mdbc_english2022 (physics/boundary_mdbc_english2022.h): a
// tank's inner box or an obstacle, snapped to the particle lattice as its particles are.
struct WallBox {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  bool obstacle = false;  // an obstacle's solid box (walls inside), else a tank's inner box (walls outside)
  unsigned faces = 0;     // obstacles: bit 2d the low face of axis d meets the fluid, 2d+1 the high face
  // A gate ([gate.N]): an obstacle moving at this constant velocity, its box lo + v t, hi + v t at time t
  // (solver/uniform_liquid.h, move_gates); 0 for tanks and obstacles.
  double velocity[3] = {0, 0, 0};
  // The time at which a gate stops (gate.N.travel / |velocity|; infinite for a gate that keeps moving):
  // from then on its box is lo + v stop_time and its particles are at rest (move_gates, stop_gates).
  double stop_time = std::numeric_limits<double>::infinity();
};

struct SceneParticles {
  int dim = 2;
  double gravity[3] = {0, 0, 0};
  // The solver recipe the scene asks for: "wcsph", "gas", "solid" (one model's recipe, with its fast
  // paths) or "mixed" (the general recipe over several models' materials in one store): the
  // scene's physics.model, which solver_factory.h's table looks up.
  std::string recipe = "wcsph";
  // The materials.
  LiquidMaterial liquid;            // when the scene has a liquid (has_liquid)
  bool has_liquid = false;
  GasMaterial gas;                  // when the scene has a gas
  std::vector<Material> materials;  // the solid bodies' library materials, by material index
  // Per particle.
  std::vector<double> position;  // n * dim
  std::vector<double> velocity;  // n * dim
  std::vector<double> density;   // n (the liquid: hydrostatic start; gas: the block density; solids: rho0)
  std::vector<double> mass;      // n
  std::vector<double> h;         // n, or empty: every particle has the liquid's uniform liquid.h
  std::vector<double> energy;    // n, a gas particle's specific internal energy; empty without gas
  std::vector<double> radius;    // n, a grain's radius (0 for the other phases); empty without grains
  std::vector<uint8_t> kind;     // n, ParticleKind: 0 free, 1 fixed (walls, frozen gas, prescribed solids)
  std::vector<uint8_t> phase;    // n, ParticlePhase: the model of the particle's material
  std::vector<uint8_t> material; // n, index into that model's materials (materials for solids, else 0)
  // Weibull flaws (Grady-Kipp damage) of solid particles, by particle number: particle i owns the
  // activation strains flaw_strain[flaw_offset[i] .. flaw_offset[i+1]), ascending. Empty when no body
  // has flaws (no material with weibull.k, m, or solid.damage = false); then the solver carries no
  // damage.
  std::vector<std::int64_t> flaw_offset;  // n + 1, or empty
  std::vector<double> flaw_strain;
  // The particles' ids (a distributed run's share of a solid scene, whose flaw table stays by scene
  // id); empty: 0 .. n-1.
  std::vector<uint32_t> id;
  std::vector<WallBox> wall_boxes;  // the liquid's tanks' inner boxes and its obstacles (scene_builder.cpp)

  std::size_t size() const { return mass.size(); }
  std::size_t fluid_count() const;       // kind kFluid (free) particles
  std::size_t count(uint8_t ph) const;   // particles of one phase
  // The particles ids[0], ids[1], ... of this set, in that order, with the same materials (a rank's
  // share of a scene, a shuffled copy). With flaws, the flaw table stays whole and the particles keep
  // their scene ids (`id`), as they do with keep_ids.
  SceneParticles subset(const std::vector<std::size_t>& ids, bool keep_ids = false) const;
};

// The one builder: the scene's bodies ([tank.N]/[block.N] liquid, [gas_block.N] gas, [solid_block.N]
// solids, [grains.N] grains) laid out as particles of their materials, after the checks of each
// body's section. Throws ParamError naming the section and the file:line of its keys. `check` sees the
// particle count before anything large is allocated (scene/scene_size.h).
SceneParticles build_scene_particles(const ParamSet& params, const SizeCheck& check = {});
}  // namespace ejecta
