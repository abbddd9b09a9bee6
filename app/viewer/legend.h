#pragma once
// The colour legend, in the window, in playback and on headless frames and screenshots: the field and
// its units on lines of their own, then the colour bar with nice ticks (legend_scale.h) whose labels
// stay below the units, and beside it a histogram of the values over the fluid (bars in the colours
// they map to; Polyscope's colour-map widget has one); integer fields (kind) as a list of discrete
// colours with their names instead of a bar.
#include "viewer/scene_view.h"

#include <string>
#include <utility>
#include <vector>

namespace ejecta::viewer {

struct LegendContent {
  ColourChoice colour;
  std::string units;
  std::string colormap;
  bool categorical = false;
  std::vector<std::pair<int, std::string>> categories;  // categorical: value and name (may be empty)
  std::vector<float> histogram;                          // counts over [colour.min, colour.max]
};

// What the legend of `view` shows (its colour choice, colormap, fields and histogram).
LegendContent legend_content(const SceneView& view);

// The legend window's size in pixels (frames place it in their lower right corner): the colour bar's
// is fixed; a list of categories is as tall as its rows (legend_height, inside an ImGui frame).
constexpr float kLegendWidth = 170, kLegendHeight = 300;
float legend_height(const LegendContent& c);

// Draws the legend window at (x, y) in the current ImGui context; `fixed`: not movable, no title bar
// (frames and screenshots).
void draw_legend_window(const LegendContent& c, float x, float y, bool fixed);

}  // namespace ejecta::viewer
