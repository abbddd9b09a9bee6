#pragma once
// The size of a scene, known to its builder before it allocates anything (counted in double: a tiny
// spacing can overflow an integer), and the hook through which a caller refuses a scene that will not
// fit: make_simulation checks host and device memory (scene/memory_budget.h), the scene fuzzer caps
// the count.
#include "params/param_set.h"

#include <functional>
#include <string>

namespace ejecta {

struct SceneSize {
  double particles = 0;
  int dim = 2;
  std::string dp_key;          // the spacing that sets the count: "particles.dp", "gas_block.1.dp", ...
  double dp = 0;               // its value
  bool several_spacings = false;  // one per block (gas, solid): all scale together
  double builder_bytes_per_particle = 0;  // the builder's own host arrays (position, velocity, ...)
};

using SizeCheck = std::function<void(const SceneSize&)>;

// Runs `check` (when given), then refuses any scene of more than 2^31 particles (the engine's particle
// indices are 32-bit): ParamError at the spacing's file:line, saying how the count scales.
void check_scene_size(const ParamSet& params, const SceneSize& size, const SizeCheck& check);

}  // namespace ejecta
