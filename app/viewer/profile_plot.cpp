#include "viewer/profile_plot.h"

#include "render_data/fill_render_data.h"
#include "viewer/legend_scale.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace ejecta::viewer {

namespace {

const char* const kProfileFields[] = {"density", "velocity", "pressure", "internal_energy"};

ImU32 rgb(unsigned c, int alpha = 255) { return IM_COL32((c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff, alpha); }

double exact_value(const GasState& s, const std::string& field, double gamma) {
  if (field == "density") return s.rho;
  if (field == "velocity") return s.u;
  if (field == "pressure") return s.p;
  return s.p / ((gamma - 1) * s.rho);  // internal energy, p = (gamma - 1) rho u
}

}  // namespace

std::optional<RiemannSetup> riemann_setup(const ParamSet& scene) {
  if (scene.integer("scene.dim") != 1 || scene.text("physics.model") != "gas") return std::nullopt;
  if (scene.real("blast.energy") > 0) return std::nullopt;
  const std::vector<int> blocks = scene.indices("gas_block");
  if (blocks.size() != 2) return std::nullopt;
  auto state = [&](int b, double* lo, double* hi) {
    const std::string s = "gas_block." + std::to_string(b);
    *lo = scene.vec3(s + ".min")[0];
    *hi = scene.vec3(s + ".max")[0];
    const double rho = scene.real(s + ".density"), u = scene.real(s + ".internal_energy");
    return GasState{rho, scene.vec3(s + ".velocity")[0], (scene.real("gas.gamma") - 1) * rho * u};
  };
  double lo1, hi1, lo2, hi2;
  GasState a = state(blocks[0], &lo1, &hi1), b = state(blocks[1], &lo2, &hi2);
  if (lo2 < lo1) std::swap(a, b), std::swap(lo1, lo2), std::swap(hi1, hi2);
  if (std::fabs(hi1 - lo2) > 1e-9 * std::max(1.0, std::fabs(hi1))) return std::nullopt;  // not touching
  if (!(a.rho > 0 && b.rho > 0 && a.p > 0 && b.p > 0)) return std::nullopt;
  return RiemannSetup{a, b, scene.real("gas.gamma"), hi1};
}

Profiles profiles_of(const FrameData& frame, const ParamSet& scene) {
  Profiles p;
  p.time = frame.time;
  const FieldData* x = frame.find("position");
  if (!x || x->info.components != 1) return p;
  const std::size_t n = x->count();
  const ColourSource xs{x->bytes.data(), x->info.scalar, 1, 0};
  double xmin = 1e300, xmax = -1e300;
  for (std::size_t i = 0; i < n; ++i) xmin = std::min(xmin, xs.raw(i)), xmax = std::max(xmax, xs.raw(i));
  const auto setup = riemann_setup(scene);
  if (setup && n > 1) {
    const int samples = 600;
    for (int k = 0; k < samples; ++k) p.exact_x.push_back(xmin + (xmax - xmin) * k / (samples - 1));
  }
  for (const char* name : kProfileFields) {
    const FieldData* f = frame.find(name);
    if (!f || f->count() != n) continue;
    ProfileCurve c;
    c.name = name;
    c.units = f->info.units;
    const ColourSource v{f->bytes.data(), f->info.scalar, f->info.components, 0};  // the x component
    for (std::size_t i = 0; i < n; ++i) {
      c.x.push_back(xs.raw(i));
      c.y.push_back(v.value(i));
    }
    if (setup) {
      const ExactRiemann ex(setup->left, setup->right, setup->gamma);
      for (double xe : p.exact_x) {
        // At t = 0 the initial discontinuity; after, the self-similar solution at (x - x0) / t.
        const GasState s = p.time > 0 ? ex.sample((xe - setup->x0) / p.time) : (xe < setup->x0 ? setup->left : setup->right);
        c.exact_y.push_back(exact_value(s, name, setup->gamma));
      }
    }
    p.curves.push_back(std::move(c));
  }
  return p;
}

Profiles profiles_of(const Simulation& sim, const ParamSet& scene) {
  std::vector<std::string> names = {"position"};
  for (const FieldInfo& f : sim.fields())
    for (const char* name : kProfileFields)
      if (f.name == name) names.push_back(name);
  return profiles_of(sim.capture_frame(names), scene);
}

namespace {

// One panel: frame, nice ticks on both axes, the particles as small squares, the exact line.
void draw_panel(ImDrawList* dl, const ProfileCurve& c, const std::vector<double>& exact_x, float x0, float y0, float w,
                float h) {
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Text, 0.15f);
  const float th = ImGui::GetTextLineHeight();
  // Plot area inside the panel: room for the title above, y labels left, x labels below.
  const float left = x0 + 62, right = x0 + w - 10, top = y0 + th + 8, bottom = y0 + h - th - 10;
  if (right <= left + 10 || bottom <= top + 10 || c.x.empty()) return;
  double xlo = *std::min_element(c.x.begin(), c.x.end()), xhi = *std::max_element(c.x.begin(), c.x.end());
  double ylo = 1e300, yhi = -1e300;
  for (double v : c.y)
    if (std::isfinite(v)) ylo = std::min(ylo, v), yhi = std::max(yhi, v);
  for (double v : c.exact_y)
    if (std::isfinite(v)) ylo = std::min(ylo, v), yhi = std::max(yhi, v);
  if (!(yhi > ylo)) {
    const auto [a, b] = uniform_range(c.name, c.name == "velocity", float(ylo));
    ylo = a, yhi = b;
  }
  const double pad = 0.06 * (yhi - ylo);
  ylo -= pad, yhi += pad;
  if (!(xhi > xlo)) xlo -= 0.5, xhi += 0.5;
  auto sx = [&](double v) { return left + float((v - xlo) / (xhi - xlo)) * (right - left); };
  auto sy = [&](double v) { return bottom - float((v - ylo) / (yhi - ylo)) * (bottom - top); };

  const std::string title = c.name + (c.units.empty() ? "" : " [" + c.units + "]");
  dl->AddText(ImVec2(left, y0 + 2), text, title.c_str());
  const Ticks tx = nice_ticks(xlo, xhi, 6), ty = nice_ticks(ylo, yhi, 5);
  for (double v : tx.values) {
    const float px = sx(v);
    dl->AddLine(ImVec2(px, top), ImVec2(px, bottom), grid);
    const std::string s = tick_label(v, tx.step);
    dl->AddText(ImVec2(px - 0.5f * ImGui::CalcTextSize(s.c_str()).x, bottom + 3), text, s.c_str());
  }
  for (double v : ty.values) {
    const float py = sy(v);
    dl->AddLine(ImVec2(left, py), ImVec2(right, py), grid);
    const std::string s = tick_label(v, ty.step);
    dl->AddText(ImVec2(left - 5 - ImGui::CalcTextSize(s.c_str()).x, py - 0.5f * th), text, s.c_str());
  }
  dl->AddRect(ImVec2(left, top), ImVec2(right, bottom), text);
  dl->PushClipRect(ImVec2(left, top), ImVec2(right, bottom), true);
  // The exact line under the markers, so that the particles stay visible where they agree.
  if (!c.exact_y.empty()) {
    std::vector<ImVec2> line;
    for (std::size_t k = 0; k < exact_x.size(); ++k) line.emplace_back(sx(exact_x[k]), sy(c.exact_y[k]));
    dl->AddPolyline(line.data(), int(line.size()), rgb(kProfileExactRgb), 0, 2.f);
  }
  const ImU32 marker = rgb(kProfileMarkerRgb);
  for (std::size_t i = 0; i < c.x.size(); ++i) {
    if (!std::isfinite(c.y[i])) continue;
    const float px = sx(c.x[i]), py = sy(c.y[i]);
    dl->AddRectFilled(ImVec2(px - 1.5f, py - 1.5f), ImVec2(px + 1.5f, py + 1.5f), marker);
  }
  dl->PopClipRect();
  const char* xl = "x [m]";
  dl->AddText(ImVec2(right - ImGui::CalcTextSize(xl).x, y0 + 2), text, xl);
}

}  // namespace

void draw_profiles(const Profiles& p, float x, float y, float w, float h) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float th = ImGui::GetTextLineHeight();
  // A key line: what the markers and the line are.
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  float kx = x + 8;
  dl->AddRectFilled(ImVec2(kx, y + 0.5f * th - 2), ImVec2(kx + 4, y + 0.5f * th + 2), rgb(kProfileMarkerRgb));
  dl->AddText(ImVec2(kx + 8, y), text, "SPH particles");
  kx += 8 + ImGui::CalcTextSize("SPH particles").x + 20;
  if (!p.exact_x.empty()) {
    dl->AddLine(ImVec2(kx, y + 0.5f * th), ImVec2(kx + 18, y + 0.5f * th), rgb(kProfileExactRgb), 2.f);
    dl->AddText(ImVec2(kx + 24, y), text, "exact Riemann solution (Toro 2009)");
  }
  y += th + 6;
  h -= th + 6;
  const int n = int(p.curves.size());
  if (n == 0) {
    dl->AddText(ImVec2(x + 8, y + 8), text, "no density, velocity, pressure or energy field to plot");
    return;
  }
  const int cols = n > 1 ? 2 : 1, rows = (n + cols - 1) / cols;
  for (int k = 0; k < n; ++k)
    draw_panel(dl, p.curves[std::size_t(k)], p.exact_x, x + w * float(k % cols) / cols, y + h * float(k / cols) / rows,
               w / cols, h / rows);
}

void draw_profile_window(const Profiles& p, int win_w, int win_h) {
  ImGui::SetNextWindowPos(ImVec2(float(win_w) * 0.3f, 40), ImGuiCond_FirstUseEver);  // below Diagnostics
  ImGui::SetNextWindowSize(ImVec2(float(win_w) * 0.68f - 150, float(win_h) * 0.8f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Profiles (1D)")) {
    ImGui::End();
    return;
  }
  const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  draw_profiles(p, at.x, at.y, avail.x, avail.y);
  ImGui::End();
}

}  // namespace ejecta::viewer
