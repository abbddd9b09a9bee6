#pragma once
// The ImGui windows of the viewer, drawn from ViewerState (and the panel model inside it).
#include "viewer/viewer_state.h"

namespace ejecta::viewer {

// The panels' colours: ImGui's light style on a light background (--theme light, [view] theme), else
// the dark one.
void apply_panel_theme(bool light);
void draw_control_panel(ViewerState& s);  // run controls, scene, colour, view, parameters
void draw_status_bar(ViewerState& s, int win_w, int win_h);
void draw_legend(ViewerState& s, int win_w, int win_h);  // legend.h; 1D scenes: the profiles too
void draw_plots(ViewerState& s);
void draw_inspector(ViewerState& s);
void draw_help(ViewerState& s);
// The Teach panel of a teaching scene ([teach] section; teach_panel.h); nothing for other scenes.
void draw_teach(ViewerState& s);
// The line profile (key L): the segment over the scene and its plot.
void draw_profile(ViewerState& s, int win_w, int win_h);
// After the windows are drawn: the part of the window clear of the control panel, the legend and the
// status bar (view_model.h's free_fit_rect), where fit-to-view puts the scene.
render::FitRect panel_free_rect();

}  // namespace ejecta::viewer
