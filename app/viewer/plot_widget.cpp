#include "viewer/plot_widget.h"

#include "viewer/format_units.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ejecta::viewer {

namespace {

constexpr float kPad = 4, kGap = 8, kSwatch = 14;

bool overlaps(const PlotText& a, const PlotText& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

std::string tick_label(double v, double factor, double step) {
  const double s = step / factor;
  const int decimals = std::max(0, int(std::ceil(-std::log10(s) - 1e-9)));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 12), v / factor);
  return buf;
}

// The finite range of all series along x (axis 0) or y (axis 1).
void data_range(const PlotSpec& spec, int axis, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const PlotSeries& s : spec.series) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      const double v = axis == 0 ? s.x[i] : s.y[i];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
}

// Series colours (the Tableau 10 hues); reference curves are light grey.
ImU32 series_colour(const PlotSpec& spec, int i) {
  if (spec.series[std::size_t(i)].reference) return IM_COL32(200, 200, 200, 170);
  static const ImU32 c[] = {IM_COL32(31, 119, 180, 255), IM_COL32(255, 127, 14, 255), IM_COL32(44, 160, 44, 255),
                            IM_COL32(214, 39, 40, 255),  IM_COL32(148, 103, 189, 255), IM_COL32(140, 86, 75, 255),
                            IM_COL32(227, 119, 194, 255), IM_COL32(188, 189, 34, 255), IM_COL32(23, 190, 207, 255)};
  int k = 0;  // the colour index counts only the non-reference series, so adding a reference keeps colours
  for (int j = 0; j < i; ++j) k += spec.series[std::size_t(j)].reference ? 0 : 1;
  return c[k % 9];
}

// Index of the sample nearest to x (x ascending).
std::size_t nearest(const std::vector<double>& xs, double x) {
  const auto it = std::lower_bound(xs.begin(), xs.end(), x);
  if (it == xs.begin()) return 0;
  if (it == xs.end()) return xs.size() - 1;
  const std::size_t i = std::size_t(it - xs.begin());
  return x - xs[i - 1] < xs[i] - x ? i - 1 : i;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int max_ticks, double* step_out) {
  std::vector<double> ticks;
  if (!(hi > lo) || max_ticks < 1) return ticks;
  const double span = hi - lo;
  double p = std::pow(10.0, std::floor(std::log10(span / max_ticks)));
  for (int guard = 0; guard < 8; ++guard, p *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      const double step = m * p;
      const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
      if (last - first + 1 > max_ticks) continue;
      for (double k = first; k <= last; k += 1) ticks.push_back(std::fabs(k) < 0.5 ? 0.0 : k * step);
      if (step_out) *step_out = step;
      return ticks;
    }
  return ticks;
}

PlotAxis make_axis(double lo, double hi, const std::string& label, const std::string& units, int max_ticks,
                   bool extend) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) lo = 0, hi = 1;
  const double mag = std::max(std::fabs(lo), std::fabs(hi));
  if (hi - lo <= 1e-9 * mag || hi == lo) {
    // One value (a uniform series): a band of 10% about it, or [-1, 1] about zero.
    const double pad = mag > 0 ? 0.05 * mag : 1.0;
    lo -= pad;
    hi += pad;
  }
  PlotAxis a;
  double step = 1;
  a.ticks = nice_ticks(lo, hi, std::max(2, max_ticks), &step);
  if (extend && !a.ticks.empty()) {
    // Out to whole steps: the same step, one more tick at either end at most.
    lo = std::floor(lo / step + 1e-9) * step;
    hi = std::ceil(hi / step - 1e-9) * step;
    a.ticks.clear();
    for (double k = std::round(lo / step); k <= std::round(hi / step); k += 1)
      a.ticks.push_back(std::fabs(k) < 0.5 ? 0.0 : k * step);
  }
  a.lo = lo;
  a.hi = hi;
  const UnitScale u = unit_scale(std::max(std::fabs(lo), std::fabs(hi)), units);
  a.factor = u.factor;
  a.title = u.text.empty() ? label : label + " [" + u.text + "]";
  for (double t : a.ticks) a.labels.push_back(tick_label(t, a.factor, step));
  return a;
}

PlotLayout layout_plot(const PlotSpec& spec, float width, float height, const TextMetrics& m) {
  PlotLayout L;
  L.width = width;
  L.height = height;
  const float lh = m.line_height;
  auto text = [&](const std::string& s, float x, float y, int series = -1) {
    return PlotText{s, x, y, m.width(s), lh, series};
  };
  double xlo, xhi, ylo, yhi;
  data_range(spec, 0, xlo, xhi);
  data_range(spec, 1, ylo, yhi);
  if (std::isfinite(spec.x_lo) && std::isfinite(spec.x_hi) && spec.x_lo < spec.x_hi) xlo = spec.x_lo, xhi = spec.x_hi;

  // Top rows: the y title, then the legend entries, flowing and wrapping.
  const PlotAxis y_probe = make_axis(ylo, yhi, spec.y_label, spec.y_units, 4, true);
  L.texts.push_back(text(y_probe.title, 0, 0));
  float cx = L.texts.back().w + 2 * kGap, cy = 0;
  const bool legend = spec.series.size() > 1 || (spec.series.size() == 1 && spec.series[0].reference);
  if (legend)
    for (std::size_t i = 0; i < spec.series.size(); ++i) {
      const float w = kSwatch + m.width(spec.series[i].name);
      if (cx + w > width && cx > 0) cx = 0, cy += lh + 2;
      L.texts.push_back(text(spec.series[i].name, cx + kSwatch, cy, int(i)));
      cx += w + kGap;
    }
  const std::size_t n_fixed = L.texts.size();
  L.top = cy + lh + 2 + lh / 2;  // half a line, for the top tick label centred on the top edge
  // Bottom row: x tick labels, with the x title at its right end.
  L.bottom = height - lh - kPad;
  L.right = width - kPad;

  // y axis: about one tick per 1.6 lines of height.
  const float data_h = std::max(1.f, L.bottom - L.top);
  L.y = make_axis(ylo, yhi, spec.y_label, spec.y_units, std::clamp(int(data_h / (1.6f * lh)) + 1, 2, 8), true);
  L.texts[0].text = L.y.title;
  L.texts[0].w = m.width(L.y.title);
  float label_w = 0;
  for (const std::string& s : L.y.labels) label_w = std::max(label_w, m.width(s));
  L.left = label_w + kPad + 2;
  for (std::size_t i = 0; i < L.y.ticks.size(); ++i) {
    const float w = m.width(L.y.labels[i]);
    L.texts.push_back(text(L.y.labels[i], L.left - kPad - w, L.to_px_y(L.y.ticks[i]) - lh / 2));
  }

  // x axis: the most ticks whose widest label (and a gap) fits the spacing.
  double xstep_lo = xlo, xstep_hi = xhi;
  PlotAxis xa;
  for (int n = 10; n >= 2; --n) {
    xa = make_axis(xstep_lo, xstep_hi, spec.x_label, spec.x_units, n, false);
    float wmax = 0;
    for (const std::string& s : xa.labels) wmax = std::max(wmax, m.width(s));
    if (xa.ticks.size() < 2 || (L.right - L.left) / float(xa.ticks.size()) >= wmax + 2 * kGap) break;
  }
  L.x = xa;
  const PlotText xt = text(L.x.title, width - m.width(L.x.title), L.bottom + kPad);
  L.texts.push_back(xt);
  for (std::size_t i = 0; i < L.x.ticks.size(); ++i) {
    const float w = m.width(L.x.labels[i]);
    const PlotText t = text(L.x.labels[i], L.to_px_x(L.x.ticks[i]) - w / 2, L.bottom + kPad);
    if (t.x < 0 || t.x + t.w > width) continue;
    bool clear = true;
    for (std::size_t k = n_fixed; k < L.texts.size() && clear; ++k) {
      PlotText padded = L.texts[k];
      padded.x -= kGap / 2;
      padded.w += kGap;
      clear = !overlaps(t, padded);
    }
    if (clear) L.texts.push_back(t);
  }
  return L;
}

void draw_plot(const char* id, const PlotSpec& spec, float width, float height) {
  if (width <= 0) width = ImGui::GetContentRegionAvail().x;
  TextMetrics m;
  m.width = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  m.line_height = ImGui::GetTextLineHeight();
  const PlotLayout L = layout_plot(spec, width, height, m);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 a(o.x + L.left, o.y + L.top), b(o.x + L.right, o.y + L.bottom);
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Text, 0.12f);
  dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
  for (double t : L.y.ticks) dl->AddLine(ImVec2(a.x, o.y + L.to_px_y(t)), ImVec2(b.x, o.y + L.to_px_y(t)), grid);
  for (double t : L.x.ticks) dl->AddLine(ImVec2(o.x + L.to_px_x(t), a.y), ImVec2(o.x + L.to_px_x(t), b.y), grid);
  dl->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Border));
  for (const PlotText& t : L.texts) {
    dl->AddText(ImVec2(o.x + t.x, o.y + t.y), text_col, t.text.c_str());
    if (t.series >= 0) {
      const float ym = o.y + t.y + t.h / 2;
      dl->AddRectFilled(ImVec2(o.x + t.x - kSwatch, ym - 1.5f), ImVec2(o.x + t.x - 4, ym + 1.5f),
                        series_colour(spec, t.series));
    }
  }
  // The curves, references first (under the others), clipped to the data rectangle.
  dl->PushClipRect(a, b, true);
  std::vector<ImVec2> pts;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < spec.series.size(); ++i) {
      const PlotSeries& s = spec.series[i];
      if (s.reference != (pass == 0)) continue;
      const ImU32 col = series_colour(spec, int(i));
      const float thick = s.reference ? 2.5f : 1.5f;
      const std::size_t n = std::min(s.x.size(), s.y.size());
      pts.clear();
      if (s.markers) {
        for (std::size_t k = 0; k < n; ++k)
          if (std::isfinite(s.x[k]) && std::isfinite(s.y[k]))
            dl->AddCircleFilled(ImVec2(o.x + L.to_px_x(s.x[k]), o.y + L.to_px_y(s.y[k])), 2.f, col, 6);
        continue;
      }
      for (std::size_t k = 0; k <= n; ++k) {
        const bool ok = k < n && std::isfinite(s.x[k]) && std::isfinite(s.y[k]);
        if (ok) pts.emplace_back(o.x + L.to_px_x(s.x[k]), o.y + L.to_px_y(s.y[k]));
        if (!ok || k == n) {
          if (pts.size() == 1) dl->AddCircleFilled(pts[0], thick, col);
          if (pts.size() > 1) dl->AddPolyline(pts.data(), int(pts.size()), col, ImDrawFlags_None, thick);
          pts.clear();
        }
      }
    }
  dl->PopClipRect();
  ImGui::PushID(id);
  ImGui::Dummy(ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImGui::PopID();
  if (!hovered) return;
  // Read-out: each series at the x under the cursor.
  const float mx = ImGui::GetIO().MousePos.x - o.x;
  if (mx < L.left || mx > L.right) return;
  const double xv = L.x.lo + double((mx - L.left) / (L.right - L.left)) * (L.x.hi - L.x.lo);
  dl->AddLine(ImVec2(o.x + mx, a.y), ImVec2(o.x + mx, b.y), ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
  std::string tip = spec.x_label + " = " + format_eng(xv, spec.x_units, 4);
  for (const PlotSeries& s : spec.series) {
    if (s.markers || s.x.empty() || s.x.size() != s.y.size()) continue;
    const std::size_t k = nearest(s.x, xv);
    tip += "\n" + (s.name.empty() ? spec.y_label : s.name) + " = " + format_eng(s.y[k], spec.y_units, 4);
  }
  ImGui::SetTooltip("%s", tip.c_str());
}

}  // namespace ejecta::viewer
