#pragma once
// ImGui drawing of the material panels (material_panel_model.h): one collapsing section per material
// of the running scene, its EOS, elasticity, yield, damage, melt and porosity keys; edits are live.
// Porous scenes also get the crush-curve window (crush_plot.h).
#include "viewer/viewer_state.h"

namespace ejecta::viewer {

void draw_material_panel(ViewerState& s);
// The crush-curve window of a porous scene (while s.crush_on), refreshed every 0.5 s.
void draw_crush_window(ViewerState& s);

}  // namespace ejecta::viewer
