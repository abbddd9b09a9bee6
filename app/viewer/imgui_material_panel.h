#pragma once
// ImGui drawing of the material panels (material_panel_model.h): one collapsing section per material
// of the running scene, its EOS, elasticity, yield, damage and melt keys; edits are live.
#include "viewer/viewer_state.h"

namespace ejecta::viewer {

void draw_material_panel(ViewerState& s);

}  // namespace ejecta::viewer
