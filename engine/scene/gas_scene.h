#pragma once
// Gas scenes (physics.model = gas): [gas_block.N] boxes of ideal gas, each on its own lattice of spacing
// gas.N.dp with its density, specific internal energy and velocity; an optional point blast
// ([blast]: energy deposited around a centre). Everything in double; the solver converts.
#include "params/param_set.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <vector>

namespace ejecta {

struct GasInitial {
  int dim = 1;
  double gamma = 5.0 / 3.0;
  double gravity[3] = {0, 0, 0};
  std::vector<double> position;  // n * dim
  std::vector<double> velocity;  // n * dim
  std::vector<double> density;   // n, the block density (summation recomputes it)
  std::vector<double> energy;    // n, specific internal energy
  std::vector<double> mass;      // n
  std::vector<double> h;         // n, first smoothing length
  std::vector<uint8_t> kind;     // n, kFluid or kWall (frozen boundary particle, gas.frozen_x)
  std::size_t size() const { return mass.size(); }
};

// Throws ParamError naming the section and the file:line of its keys.
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
GasInitial build_gas_scene(const ParamSet& params, const SizeCheck& check = {});

}  // namespace ejecta
