#pragma once
// Keys that the scene's physics model does not read. Each registry entry names the models whose code
// reads it (ParamDesc::models); setting gas.gamma in a liquid scene would otherwise be silently
// ignored, which reads as "the parameter does nothing".
#include "params/param_set.h"

#include <string>
#include <vector>

namespace ejecta {

// The concrete keys set in `ps` ("gas.gamma", "tank.1.min") that physics.model does not read.
std::vector<std::string> keys_unused_by_model(const ParamSet& ps);
// Throws ParamError for the first of them, e.g.
//   scenes/x.ini:7: gas.gamma is read by the gas model only, and this scene's physics.model is wcsph
//   (default); remove it or set physics.model = gas
void check_model_keys(const ParamSet& ps);

}  // namespace ejecta
