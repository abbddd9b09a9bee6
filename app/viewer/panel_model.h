#pragma once
// The parameter panels as data, generated from the ParamRegistry: one widget per key that the scene's
// physics model reads (ParamDesc::models; numbered keys once per section the scene has, e.g.
// tank.1.min), grouped by the registry's groups in table order. Edits go through ParamSet::set (the registry's validation and ranges); keys without
// needs_rebuild reach the simulation at once through Simulation::apply_params (between steps: the
// viewer edits only between its advance() calls), the others wait for a reset. No ImGui here: the
// ImGui drawing (imgui_panels.cpp) walks this model, and the tests drive it directly.
#include "params/param_set.h"
#include "simulation.h"

#include <set>
#include <string>
#include <vector>

namespace ejecta::viewer {

// The registry group of the [teach] keys (teaching scenes): drawn as the Teach panel, not as widgets.
inline const char* const kTeachGroup = "Teach";

struct Widget {
  std::string key;  // concrete: "viscosity.alpha", "tank.1.min"
  const ParamDesc* desc;
  std::string tooltip;  // INI key, units, range, help, and "needs a reset" when it does
};

struct PanelGroup {
  std::string name;
  std::vector<Widget> widgets;
};

enum class Applied { Live, OnReset };

class ParamPanelModel {
 public:
  explicit ParamPanelModel(ParamSet scene);

  const std::vector<PanelGroup>& groups() const { return groups_; }
  const Widget* find(const std::string& key) const;
  std::size_t widget_count() const;
  const ParamSet& params() const { return params_; }

  // Validates and stores the value (ParamError with the registry's message when it is bad); a live
  // key is applied to `sim` now (when not null), a rebuild key is remembered until reset_done().
  Applied set(const std::string& key, const std::string& value, Simulation* sim);
  const std::set<std::string>& pending_reset() const { return pending_; }
  void reset_done() { pending_.clear(); }

 private:
  ParamSet params_;
  std::vector<PanelGroup> groups_;
  std::set<std::string> pending_;
};

// The status bar's particle count: "1234 particles (1000 fluid)" for the liquid (the rest are walls),
// "1234 particles" for a gas or a solid, which have no walls.
std::string particle_summary(std::size_t particles, std::size_t fluid, const std::string& model);

// The tooltip text of a key: "viscosity.alpha (dimensionless, range [0, 5])\nLinear coefficient ...".
std::string widget_tooltip(const std::string& key, const ParamDesc& d);

}  // namespace ejecta::viewer
