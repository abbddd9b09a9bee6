#pragma once
// Adding fluid to a running liquid (wcsph) simulation between steps, as the cuda-samples particles
// demo's "add sphere" does: a sphere or a block of particles on the scene's lattice, at rest or
// moving, where it does not overlap the particles already there. The particle arrays of a solver
// have a fixed size, so the simulation is rebuilt with the larger count: every field of every
// particle goes through the field registry (capture_frame / restore_frame), the old particles keep
// their state bit for bit, the new ones get what the scene builder and the solver's initialisation
// give fluid particles, and the neighbour grid is built afresh. Same code on both backends.
#include "io/frame.h"
#include "params/param_set.h"
#include "simulation.h"

#include <memory>
#include <vector>

namespace ejecta {

enum class DropShape { Sphere, Block };

struct FluidDrop {
  DropShape shape = DropShape::Sphere;
  double center[3] = {0, 0, 0};    // m (2D: x, y)
  double size = 0;                 // sphere: radius; block: half the edge (m)
  double velocity[3] = {0, 0, 0};  // m/s
};

// The drop's lattice sites (n * dim positions, the scene's lattice of spacing particles.dp) inside
// some tank's inner box (or anywhere without tanks), outside every obstacle, and at least 0.9 dp
// from each of the `dim`-dimensional `existing` positions. Linear time (a hash of cells).
std::vector<double> drop_sites(const ParamSet& params, const FluidDrop& drop, const std::vector<double>& existing);

// The field `name` of a frame; std::invalid_argument naming it when the frame lacks it.
const FieldData& need_field(const FrameData& f, const char* name);

// `fresh`, a solver just built with the n_old particles of `old` (in the frame's order) and k new ones
// (ids n_old, n_old + 1, ...), continued from `old`: every old particle gets back every field of `old` bit
// for bit, each new one keeps what the solver's initialisation gave it, and dt is the smaller of the
// two (the new particles may need a shorter step). The fluid and the grain drops share it.
void restore_grown(Simulation& fresh, const FrameData& old);

// The simulation `sim` (built from `params`, physics.model = wcsph) with the drop added: a new
// Simulation on the same backend and precision, at the same time and step. `added` gets the number
// of new particles. Throws std::invalid_argument when no site is free (naming why) and
// std::logic_error for other models.
std::unique_ptr<Simulation> add_fluid(const Simulation& sim, const ParamSet& params, const FluidDrop& drop,
                                      std::size_t* added = nullptr);

// A liquid solver built from the frame's own particles and continued from it: the restart of a frame
// whose particle count is not the scene's (fluid was added in the viewer; a mixed scene's grains were:
// scene/grain_drop.h). A frame of the scene's
// own count restarts as make_simulation + restore_frame would.
std::unique_ptr<Simulation> make_simulation_from_frame(const ParamSet& params, Backend backend,
                                                       const FrameData& frame);

}  // namespace ejecta
