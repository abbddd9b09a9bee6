#pragma once
// A small x-y plot for ImGui (there is no ImPlot in Debian): axes with nice ticks, the x quantity
// (time by default) and the y quantity named in full with their units in engineering form (t [ms],
// kinetic energy [kJ]), several series with a legend, an optional reference curve (an exact solution,
// measured data) drawn under them, and a hover read-out. The layout (ranges, ticks, labels, where
// every piece of text goes) is a pure function of the data, the size and the text metrics, so tests
// check it without GL; draw_plot() only paints that layout with an ImDrawList.
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace ejecta::viewer {

struct PlotSeries {
  std::string name;           // the legend's label, in full
  std::vector<double> x, y;   // same length; non-finite points break the line
  bool reference = false;     // an exact solution or measured data: grey, under the others
  bool markers = false;       // points (particles on a curve): a dot each, no line, no read-out
};

struct PlotSpec {
  std::string x_label = "t", x_units = "s";
  std::string y_label, y_units;  // "kinetic energy", "J"; "" units: dimensionless
  std::vector<PlotSeries> series;
  // A fixed x range (when both are finite and x_lo < x_hi): points outside are clipped; otherwise the
  // data's range.
  double x_lo = std::numeric_limits<double>::quiet_NaN(), x_hi = std::numeric_limits<double>::quiet_NaN();
};

// One axis: the range shown and its ticks, in the data's (SI) units; labels show value / factor.
struct PlotAxis {
  double lo = 0, hi = 1;
  double factor = 1;
  std::string title;  // "t [ms]", "max density error [1e-3]"
  std::vector<double> ticks;
  std::vector<std::string> labels;
};

// Text size, in pixels: ImGui's font in the viewer, a fixed width per character in tests.
struct TextMetrics {
  std::function<float(const std::string&)> width;
  float line_height = 13;
};

// A piece of text placed by the layout (top left corner, pixels from the widget's top left).
struct PlotText {
  std::string text;
  float x = 0, y = 0, w = 0, h = 0;
  int series = -1;  // legend entries: the series it names (a colour swatch sits left of it)
};

struct PlotLayout {
  float width = 0, height = 0;
  float left = 0, top = 0, right = 0, bottom = 0;  // the data rectangle
  PlotAxis x, y;
  std::vector<PlotText> texts;  // axis titles, tick labels, legend entries
  float to_px_x(double v) const { return left + float((v - x.lo) / (x.hi - x.lo)) * (right - left); }
  float to_px_y(double v) const { return bottom - float((v - y.lo) / (y.hi - y.lo)) * (bottom - top); }
};

// Ticks at 1, 2 or 5 x 10^k covering [lo, hi], at most max_ticks of them inside it; *step gets the step.
std::vector<double> nice_ticks(double lo, double hi, int max_ticks, double* step = nullptr);

// The axis over the data range [lo, hi] (widened when empty or degenerate). extend: round the range
// out to whole ticks (y); otherwise the ticks lie inside the data range (x: time runs edge to edge).
PlotAxis make_axis(double lo, double hi, const std::string& label, const std::string& units, int max_ticks,
                   bool extend);

// Where everything goes in a width x height box: the y title and the legend on top (wrapping, never
// cut), tick labels left of and under the data rectangle, the x title under it at the right. No two
// texts overlap and all lie inside the box (tick labels that would collide are left out).
PlotLayout layout_plot(const PlotSpec& spec, float width, float height, const TextMetrics& metrics);

// Draws the plot at the ImGui cursor (width <= 0: the available width) and moves the cursor past it.
// Hovering shows each series' value at the cursor's x.
void draw_plot(const char* id, const PlotSpec& spec, float width, float height);

}  // namespace ejecta::viewer
