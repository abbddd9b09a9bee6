#include "params/model_keys.h"

namespace ejecta {

std::vector<std::string> keys_unused_by_model(const ParamSet& ps) {
  const std::string model = ps.text("physics.model");
  std::vector<std::string> unused;
  for (const ParamDesc& d : ps.registry().all()) {
    if (uses_model(d, model)) continue;
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
  std::string fix = "remove it";
  if (d.models.size() == 1) fix += " or set physics.model = " + d.models.front();
  throw ParamError((where == "default" ? "" : where + ": ") + key + " is read by " + models_text(d) +
                   " only, and this scene's physics.model is " + model + " (" + ps.where("physics.model") +
                   "); " + fix);
}

}  // namespace ejecta
