#pragma once
// The ImGui windows of the viewer, drawn from ViewerState (and the panel model inside it).
#include "viewer/viewer_state.h"

namespace ejecta::viewer {

void draw_control_panel(ViewerState& s);  // run controls, scene, colour, view, parameters
void draw_status_bar(ViewerState& s, int win_w, int win_h);
void draw_legend(ViewerState& s, int win_w, int win_h);  // legend.h; 1D scenes: the profiles too
void draw_plots(ViewerState& s);
void draw_inspector(ViewerState& s);
void draw_help(ViewerState& s);

}  // namespace ejecta::viewer
