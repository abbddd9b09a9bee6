#include "params/model_keys.h"

#include "scene/mixed_scene.h"

#include <algorithm>

namespace ejecta {

namespace {

// The models whose keys the scene may set: physics.model itself, and for a mixed scene the models of
// its bodies (wcsph for [block.N]/[tank.N], solid for [solid_block.N]) with the keys of the mixed
// engine (the integrator's).
bool scene_reads(const ParamDesc& d, const ParamSet& ps) {
  const std::string model = ps.text("physics.model");
  if (model != "mixed") return uses_model(d, model);
  if (d.models.empty() || std::find(d.models.begin(), d.models.end(), "mixed") != d.models.end()) return true;
  for (const auto& m : mixed_scene_models(ps))
    if (std::find(d.models.begin(), d.models.end(), m.first) != d.models.end()) return true;
  return false;
}

}  // namespace

std::vector<std::string> keys_unused_by_model(const ParamSet& ps) {
  std::vector<std::string> unused;
  for (const ParamDesc& d : ps.registry().all()) {
    if (scene_reads(d, ps)) continue;
    const auto hash = d.key.find(".#.");
    if (hash == std::string::npos) {
      if (ps.is_set(d.key)) unused.push_back(d.key);
      continue;
    }
    const std::string section = d.key.substr(0, hash);
    for (int i : ps.indices(section)) {
      const std::string key = section + "." + std::to_string(i) + d.key.substr(hash + 2);
      if (ps.is_set(key)) unused.push_back(key);
    }
  }
  return unused;
}

void check_model_keys(const ParamSet& ps) {
  const std::vector<std::string> unused = keys_unused_by_model(ps);
  if (unused.empty()) return;
  const std::string& key = unused.front();
  const ParamDesc& d = *ps.registry().find(key);
  const std::string model = ps.text("physics.model");
  const std::string where = ps.where(key);
  const std::string prefix = (where == "default" ? "" : where + ": ") + key + " is read by " + models_text(d) + " only";
  if (model == "mixed") {
    // Per material: name the models the scene's bodies use, and the section that would bring the
    // key's model in.
    std::string used;
    for (const auto& m : mixed_scene_models(ps)) used += (used.empty() ? "" : ", ") + m.first + " (" + m.second + ")";
    const std::string& want = d.models.front();
    const std::string bring = want == "wcsph"   ? "a liquid [block.N]"
                              : want == "solid" ? "a [solid_block.N] body"
                              : want == "dem"   ? "a [grains.N] block"
                                                : "physics.model = " + want;
    throw ParamError(prefix + ", and no material of this mixed scene uses that model (its bodies use " +
                     (used.empty() ? std::string("none") : used) + "); remove it or add " + bring);
  }
  std::string fix = "remove it";
  if (d.models.size() == 1)
    fix += d.models.front() == "dem" ? " or set physics.model = mixed (grains are a material of mixed scenes)"
                                     : " or set physics.model = " + d.models.front();
  throw ParamError(prefix + ", and this scene's physics.model is " + model + " (" + ps.where("physics.model") +
                   "); " + fix);
}

}  // namespace ejecta
