#include "viewer/teach_panel.h"

#include "viewer/panel_model.h"

namespace ejecta::viewer {

TeachPanel teach_panel(const ParamSet& scene) {
  TeachPanel p;
  for (const ParamDesc& d : scene.registry().all()) {
    if (d.group != kTeachGroup || !scene.is_set(d.key)) continue;
    const std::string text = scene.text(d.key);
    if (text.empty()) continue;
    if (d.key == "teach.title")
      p.title = text;
    else
      p.rows.emplace_back(d.label, text);
  }
  return p;
}

}  // namespace ejecta::viewer
