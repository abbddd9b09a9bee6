#pragma once
// "Reset block" and "reset random" of the viewer for a mixed scene of grains (issue 17; the cuda-samples
// `particles` demo's CONFIG_GRID and CONFIG_RANDOM resets, as scene/fluid_layout.h does for a liquid):
// the scene rebuilt with its fixed grains (floors, gates) as they are and its free grains laid out
// afresh, at rest, each keeping its radius and mass:
//  - Block: the sites of a lattice of spacing 2.02 r_max (r_max the largest grain) nearest the centre
//    of the grains' box (dem.box_min .. max) in the max-norm: a square or cube of grains hanging in the
//    middle, which then falls (the demo's grid, spacing 2 r);
//  - Random: sites drawn uniformly without replacement from every free site of that lattice in the box
//    (the demo draws positions uniformly at random; here on the lattice, so that no two grains overlap,
//    which a stiff Hertz contact would turn into an explosion).
// A site is free when it lies at least r_max inside every plane of the box and at least r_max plus the
// fixed grain's radius from every fixed grain. Linear in the number of sites and grains (a hash of the
// fixed grains' cells, a partial sort for Block). Same code on both backends.
#include "params/param_set.h"
#include "scene/fluid_layout.h"
#include "scene/mixed_scene.h"
#include "simulation.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ejecta {

// The free grains' new positions (count of free grains * dim, in the order of the grains of `init`) of
// `layout`; `seed` picks the random one. Throws std::invalid_argument when the box holds fewer free sites
// than free grains, or the scene has no grains.
std::vector<double> grain_layout_sites(const ParamSet& params, const SceneParticles& init, FluidLayout layout,
                                       uint64_t seed);

// The mixed scene of grains rebuilt with its free grains laid out as `layout` (time 0, step 0) on
// `backend` in the scene's precision. Throws std::logic_error for a scene with liquid or solids.
std::unique_ptr<Simulation> make_grain_simulation_with_layout(const ParamSet& params, Backend backend,
                                                              FluidLayout layout, uint64_t seed = 1);

}  // namespace ejecta
