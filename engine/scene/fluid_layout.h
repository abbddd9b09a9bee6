#pragma once
// "Reset block" and "reset random" of the viewer (issue 17, after the cuda-samples `particles` demo's
// CONFIG_GRID and CONFIG_RANDOM resets): the liquid scene rebuilt with its walls and obstacles as they
// are and its fluid particles laid out afresh, at rest, at the reference density (mass rho0 dp^dim):
//  - Block: the sites of the scene's lattice nearest the first tank's centre in the max-norm (a square
//    or cube of fluid hanging in the middle, which then falls); where it does not fit it fills the tank
//    outwards from the centre;
//  - Random: sites drawn uniformly without replacement from every free lattice site of the tanks, each
//    moved by a uniform jitter of at most 0.2 dp per axis, so no two particles are closer than 0.6 dp
//    (unlike the cuda-samples' uniform random positions, which SPH would punish with huge pressures).
// Same number of fluid particles as the scene builds. Linear in the number of lattice sites of the
// tanks (plus a partial sort for Block). Same code on both backends.
#include "params/param_set.h"
#include "simulation.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ejecta {

enum class FluidLayout { Block, Random };

// The `n` fluid positions (n * dim) of `layout` in the scene `params` (physics.model = wcsph, with at
// least one [tank.N]). Throws std::invalid_argument when the tanks hold fewer than n free sites, or the
// scene has no tank; std::logic_error for other models.
std::vector<double> fluid_layout_sites(const ParamSet& params, std::size_t n, FluidLayout layout, uint64_t seed);

// The scene rebuilt with its fluid laid out as `layout` (time 0, step 0) on `backend` in the scene's
// precision; `seed` picks the random layout.
std::unique_ptr<Simulation> make_simulation_with_layout(const ParamSet& params, Backend backend,
                                                        FluidLayout layout, uint64_t seed = 1);

}  // namespace ejecta
