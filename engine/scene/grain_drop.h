#pragma once
// Adding a sphere (a disc in 2D) of DEM grains to a running mixed scene between steps: the grain
// counterpart of scene/fluid_drop.h, the cuda-samples `particles` demo's "add sphere" (issue 17). The
// grains sit on a cubic (square) lattice around the drop's centre, of spacing 2.02 r (1 + spread), r and
// spread the radius and size_spread of one [grains.N] block; each grain takes that block's material:
// a radius drawn uniformly in r (1 +- spread), its density, mass rho V(radius); at rest, no spin, an
// empty contact list. A site is dropped where its grain would overlap something already there:
//  - the grains' box (dem.box_min .. max): its planes are walls;
//  - a grain (free or fixed): closer than the two radii;
//  - a liquid or tank-wall particle: closer than the new radius plus half the liquid's spacing;
//  - the collider sphere, when it is on.
// As add_fluid, the simulation is rebuilt with the larger count: every old particle keeps every field
// bit for bit (positions, velocities, spins, contact lists, the liquid's fields), the new ones get what
// the mixed solver's initialisation gives grains. Linear in the number of particles (a hash of cells).
// Same code on both backends.
#include "io/frame.h"
#include "scene/fluid_drop.h"
#include "params/param_set.h"
#include "scene/mixed_scene.h"
#include "simulation.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ejecta {

struct GrainDrop {
  double center[3] = {0, 0, 0};  // m (2D: x, y)
  double radius = 0;             // of the sphere (disc) the grains' centres fill (m); 0: three lattice spacings
  int block = 0;                 // the [grains.N] whose radius and material the grains take; 0: the first free one
};

// The new grains of `drop` next to the particles of `init` (a scene, or a running simulation's particles,
// mixed_initial_of): their positions (k * dim) and radii (k). `first_serial` seeds the radii (the id of
// the first new grain, so that repeated drops differ). Throws std::invalid_argument for a bad drop.
struct GrainSites {
  std::vector<double> position, radius;
  double density = 0;   // of the block (kg/m^3)
  double spacing = 0;   // of the lattice (m)
  std::size_t candidates = 0, dropped = 0;  // lattice sites in the sphere, and those that would overlap
};
GrainSites grain_drop_sites(const ParamSet& params, const SceneParticles& init, const GrainDrop& drop,
                            const ColliderSphere& collider, uint64_t first_serial);

// The particles of a running mixed simulation's frame (all fields) as a SceneParticles, in the frame's
// order, with the scene's constants (materials, the liquid's EOS, gravity) from `params`.
SceneParticles mixed_initial_of(const ParamSet& params, const FrameData& frame);

// The simulation `sim` (built from `params`, physics.model = mixed with [grains.N]) with the drop added:
// a new Simulation on the same backend and precision, at the same time and step. `added` gets the
// number of new grains, `dropped` the number of lattice sites left out because they would overlap.
// Throws std::invalid_argument when no site is free (naming why) and std::logic_error for a scene
// without grains.
std::unique_ptr<Simulation> add_grains(const Simulation& sim, const ParamSet& params, const GrainDrop& drop,
                                       std::size_t* added = nullptr, std::size_t* dropped = nullptr);

// Fluid into a mixed scene with liquid (and grains), as add_fluid does for physics.model = wcsph: the
// drop's lattice sites (drop_sites: in a tank, 0.9 dp from every particle) that are also clear of the
// grains and solids by the scene builder's displacement rule (0.45 (dp + 2 r) from a grain), new liquid
// at rho0 with mass rho0 dp^dim and the drop's velocity. Every old particle keeps its state bit for bit.
// Throws std::invalid_argument when no site is free and std::logic_error for a scene without liquid.
std::unique_ptr<Simulation> add_mixed_fluid(const Simulation& sim, const ParamSet& params, const FluidDrop& drop,
                                            std::size_t* added = nullptr);

// A mixed solver built from the frame's own particles and continued from it (the restart of a frame
// of a mixed scene whose particle count is not the scene's: grains were added in the viewer).
std::unique_ptr<Simulation> make_mixed_simulation_from_frame(const ParamSet& params, Backend backend,
                                                             Precision precision, const FrameData& frame);

}  // namespace ejecta
