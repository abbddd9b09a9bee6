#include "viewer/panel_model.h"

#include <map>

namespace ejecta::viewer {

std::string widget_tooltip(const std::string& key, const ParamDesc& d) {
  std::string t = key + " (" + (d.units.empty() ? "dimensionless" : d.units);
  const std::string r = range_text(d);
  if (!r.empty()) t += ", range " + r;
  t += ")\n" + d.help;
  if (d.needs_rebuild) t += "\nChanging it needs a reset (applied on Reset).";
  return t;
}

ParamPanelModel::ParamPanelModel(ParamSet scene) : params_(std::move(scene)) {
  std::map<std::string, std::size_t> group_index;
  const std::string model = params_.text("physics.model");
  for (const ParamDesc& d : params_.registry().all()) {
    // Only what the scene's model reads: a liquid scene shows no Gas, Solid or Blast panel.
    if (!uses_model(d, model)) continue;
    // The [teach] text is shown in its own panel (teach_panel.h), not as editable fields.
    if (d.group == kTeachGroup) continue;
    std::vector<std::string> keys;
    const auto hash = d.key.find(".#.");
    if (hash == std::string::npos) {
      keys.push_back(d.key);
    } else {
      const std::string section = d.key.substr(0, hash);
      for (int i : params_.indices(section))
        keys.push_back(section + "." + std::to_string(i) + d.key.substr(hash + 2));
    }
    if (keys.empty()) continue;
    auto it = group_index.find(d.group);
    if (it == group_index.end()) {
      it = group_index.emplace(d.group, groups_.size()).first;
      groups_.push_back(PanelGroup{d.group, {}});
    }
    for (const std::string& k : keys) groups_[it->second].widgets.push_back(Widget{k, &d, widget_tooltip(k, d)});
  }
}

const Widget* ParamPanelModel::find(const std::string& key) const {
  for (const PanelGroup& g : groups_)
    for (const Widget& w : g.widgets)
      if (w.key == key) return &w;
  return nullptr;
}

std::size_t ParamPanelModel::widget_count() const {
  std::size_t n = 0;
  for (const PanelGroup& g : groups_) n += g.widgets.size();
  return n;
}

std::string particle_summary(std::size_t particles, std::size_t fluid, const std::string& model) {
  std::string s = std::to_string(particles) + " particles";
  // Only the liquid has walls besides its moving particles; a gas or a solid is all one kind.
  if (model == "wcsph") s += " (" + std::to_string(fluid) + " fluid)";
  return s;
}

Applied ParamPanelModel::set(const std::string& key, const std::string& value, Simulation* sim) {
  const ParamDesc* d = params_.registry().find(key);
  params_.set(key, value, "viewer");  // throws ParamError for an unknown key or a bad value
  if (d->needs_rebuild) {
    pending_.insert(key);
    return Applied::OnReset;
  }
  if (sim) sim->apply_params(params_);
  return Applied::Live;
}

}  // namespace ejecta::viewer
