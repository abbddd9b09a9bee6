#pragma once
// The gravity.* keys (engine/params/builtin_params.cpp) as the solvers read them.
#include "gravity/self_gravity.h"
#include "params/param_set.h"

namespace ejecta {

inline bool self_gravity_enabled(const ParamSet& params) { return params.text("gravity.self") == "on"; }

inline GravitySettings gravity_settings_from(const ParamSet& params) {
  GravitySettings s;
  s.G = params.real("gravity.G");
  s.theta = params.real("gravity.theta");
  s.softening = params.real("gravity.softening");
  s.group_walk = params.text("gravity.walk") == "groups";
  s.warp_walk = params.text("gravity.walk") == "warps";
  s.group = int(params.integer("gravity.group"));
  s.leaf = int(params.integer("gravity.leaf_size"));
  s.warp_staged = params.text("gravity.warp_eval") == "staged";
  s.warp_targets = int(params.integer("gravity.warp_targets"));
  s.warp_tree_groups = params.text("gravity.warp_groups") != "consecutive";
  s.warp_cousins = params.text("gravity.warp_groups") == "cousins";
  s.keys_build = params.text("gravity.build") == "keys";
  s.warp_packed = params.text("gravity.warp_nodes") == "packed";
  return s;
}

}  // namespace ejecta
