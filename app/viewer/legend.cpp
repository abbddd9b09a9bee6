#include "viewer/legend.h"

#include "render/colormap.h"
#include "viewer/legend_scale.h"
#include "viewer/scene_look.h"

#include <imgui.h>

#include <algorithm>

namespace ejecta::viewer {

LegendContent legend_content(const SceneView& view) {
  LegendContent c;
  c.colour = view.colour();
  c.colormap = view.settings().colormap;
  c.histogram = view.histogram();
  for (const FieldInfo& f : view.fields())
    if (f.name == c.colour.field) {
      c.units = f.units;
      c.categorical = is_categorical(f);
      if (c.categorical) c.categories = category_names(f);
    }
  return c;
}

float legend_height(const LegendContent& c) {
  if (!c.categorical) return kLegendHeight;
  const std::size_t rows = c.categories.empty() ? 10 : c.categories.size();
  const ImGuiStyle& st = ImGui::GetStyle();
  return std::min(kLegendHeight, float(2 + rows) * ImGui::GetTextLineHeightWithSpacing() + 2 * st.WindowPadding.y + 4);
}

namespace {

ImU32 colour_at(const render::Colormap& m, float t) {
  const auto c = m.sample(t);
  return ImColor(c[0], c[1], c[2]);
}

// Discrete colours with their names: the k-th colour of the map is the middle of its k-th tenth.
void draw_categories(const LegendContent& c, const render::Colormap& m) {
  std::vector<std::pair<int, std::string>> rows = c.categories;
  if (rows.empty())
    for (int k = 0; k < 10; ++k) rows.emplace_back(k, "");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float side = ImGui::GetTextLineHeight();
  for (const auto& [k, name] : rows) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float t = (float(k) - kCategoryMin) / (kCategoryMax - kCategoryMin);
    dl->AddRectFilled(p, ImVec2(p.x + side, p.y + side), colour_at(m, t));
    ImGui::Dummy(ImVec2(side, side));
    ImGui::SameLine();
    ImGui::Text("%d %s", k, name.c_str());
  }
}

// The bar from max (top) to min (bottom), nice ticks to its right, the histogram to its left.
void draw_bar(const LegendContent& c, const render::Colormap& m) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float text_h = ImGui::GetTextLineHeight();
  // Tick labels are centred on their value: the top one reaches half a line above the bar, so the
  // bar starts that much (and a margin) below the units.
  ImGui::Dummy(ImVec2(1, 0.5f * text_h + 2));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float hist_w = 36, gap = 3, bar_w = 18, h = 170;
  const float bar_x = p.x + hist_w + gap;
  const int steps = 64;
  for (int i = 0; i < steps; ++i) {
    const ImU32 top = colour_at(m, 1.f - float(i) / steps), bot = colour_at(m, 1.f - float(i + 1) / steps);
    dl->AddRectFilledMultiColor(ImVec2(bar_x, p.y + h * i / steps), ImVec2(bar_x + bar_w, p.y + h * (i + 1) / steps),
                                top, top, bot, bot);
  }
  // Histogram: one bar per bin, length by count relative to the fullest bin, in the bin's colour.
  const float peak = c.histogram.empty() ? 0.f : *std::max_element(c.histogram.begin(), c.histogram.end());
  if (peak > 0) {
    const int bins = int(c.histogram.size());
    for (int b = 0; b < bins; ++b) {
      const float len = hist_w * c.histogram[std::size_t(b)] / peak;
      if (len <= 0) continue;
      const float y1 = p.y + h * (1.f - float(b) / bins), y0 = p.y + h * (1.f - float(b + 1) / bins);
      dl->AddRectFilled(ImVec2(bar_x - gap - len, y0), ImVec2(bar_x - gap, y1), colour_at(m, (b + 0.5f) / bins));
    }
  }
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const double lo = c.colour.min, hi = c.colour.max;
  const Ticks t = nice_ticks(lo, hi, 5);
  for (double v : t.values) {
    const float y = hi > lo ? p.y + h * float((hi - v) / (hi - lo)) : p.y + 0.5f * h;
    dl->AddLine(ImVec2(bar_x + bar_w, y), ImVec2(bar_x + bar_w + 4, y), text);
    dl->AddText(ImVec2(bar_x + bar_w + 7, y - 0.5f * text_h), text, tick_label(v, t.step).c_str());
  }
  ImGui::Dummy(ImVec2(hist_w + gap + bar_w, h + 0.5f * text_h + 2));
}

}  // namespace

void draw_legend_window(const LegendContent& c, float x, float y, bool fixed) {
  const render::Colormap& m = render::colormap(c.colormap);
  ImGui::SetNextWindowPos(ImVec2(x, y), fixed ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kLegendWidth, legend_height(c)), fixed ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
  ImGui::Begin("Legend", nullptr,
               ImGuiWindowFlags_NoScrollbar |
                   (fixed ? ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings : 0));
  // Field and units on lines of their own, so that a long field name does not hide the units.
  ImGui::TextUnformatted(colour_spec(c.colour).c_str());
  ImGui::TextUnformatted(c.units.empty() ? "[dimensionless]" : ("[" + c.units + "]").c_str());
  if (c.categorical) {
    draw_categories(c, m);
  } else {
    draw_bar(c, m);
    ImGui::TextUnformatted(c.colour.auto_range ? "auto range" : "manual range");
  }
  ImGui::End();
}

}  // namespace ejecta::viewer
