#pragma once
// The Teach panel of a teaching scene (scenes/teaching/, docs/teaching.md): the scene's [teach] keys
// as rows of label and text, in the registry's order, so a key added to the registry's Teach group
// shows up without touching the viewer. No ImGui here (the tests read the rows).
#include "params/param_set.h"

#include <string>
#include <utility>
#include <vector>

namespace ejecta::viewer {

struct TeachPanel {
  std::string title;                                       // teach.title ("" = none)
  std::vector<std::pair<std::string, std::string>> rows;   // (label, text) of every other set key
  bool empty() const { return title.empty() && rows.empty(); }
};

// The panel of `scene`; empty when the scene has no [teach] section.
TeachPanel teach_panel(const ParamSet& scene);

}  // namespace ejecta::viewer
