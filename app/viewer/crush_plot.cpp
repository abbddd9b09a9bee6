#include "viewer/crush_plot.h"

#include "particles/field_values.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ejecta::viewer {

std::vector<std::size_t> porous_materials(const std::vector<Material>& materials) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < materials.size(); ++i)
    if (materials[i].porous.kind != kPorousNone) out.push_back(i);
  return out;
}

namespace {

bool is_palpha(const Material& m) {
  if (m.porous.kind == kPorousNone)
    throw std::invalid_argument("crush curve: material '" + m.name + "' has no porosity model");
  return m.porous.kind == kPorousPAlpha;
}

// alpha(x) by the model's own function (PAlphaCrush::alpha (P2), EpsAlphaCrush::alpha (E1)).
double curve_alpha(const Material& m, double x) {
  return is_palpha(m) ? m.porous.palpha.alpha(x) : m.porous.eps.alpha(x);
}

// The plotted x range: P in [0, 1.25 P_s]; eps_c in [1.25 eps_C, 0] (eps_C < eps_X <= eps_e <= 0),
// wide enough to show the elastic plateau when eps_e = 0 and full compaction beyond eps_C.
std::pair<double, double> curve_range(const Material& m) {
  if (is_palpha(m)) return {0.0, 1.25 * m.porous.palpha.P_s};
  const EpsAlphaCrush<double>& e = m.porous.eps;
  const double lo = std::min(1.25 * e.eps_C, e.eps_C - 0.05), hi = std::max(0.0, e.eps_e) + 0.1 * (e.eps_e - lo);
  return {lo, hi};
}

}  // namespace

PlotSeries crush_curve(const Material& m, int samples) {
  const auto [lo, hi] = curve_range(m);
  std::vector<double> xs;
  const int n = std::max(samples, 16);
  for (int k = 0; k < n; ++k) xs.push_back(lo + (hi - lo) * double(k) / double(n - 1));
  // The corners, exactly: the plot shows the kinks where they are.
  if (is_palpha(m)) {
    xs.push_back(m.porous.palpha.P_e);
    xs.push_back(m.porous.palpha.P_s);
  } else {
    xs.push_back(m.porous.eps.eps_e);
    xs.push_back(m.porous.eps.eps_X);
    xs.push_back(m.porous.eps.eps_C);
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  PlotSeries s;
  s.name = std::string(is_palpha(m) ? "p-alpha" : "epsilon-alpha") + " crush curve";
  s.reference = true;
  for (double x : xs)
    if (x >= lo && x <= hi) {
      s.x.push_back(x);
      s.y.push_back(curve_alpha(m, x));
    }
  return s;
}

std::vector<std::string> crush_fields(const Material& m) {
  return {"position", "material", "distention", is_palpha(m) ? "pressure" : "compaction_strain"};
}

std::vector<CrushPoint> crush_points(const FrameData& frame, const Material& m, const CrushSelection& sel) {
  const std::vector<std::string> names = crush_fields(m);
  std::vector<const FieldData*> f;
  for (const std::string& name : names) {
    const FieldData* d = frame.find(name);
    if (!d) throw std::invalid_argument("crush curve: the frame has no field '" + name + "'");
    f.push_back(d);
  }
  const FieldData &x = *f[0], &mat = *f[1], &alpha = *f[2], &along = *f[3];
  const std::size_t dim = std::size_t(x.info.components);
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < frame.particles; ++i) {
    if (std::size_t(field_value(mat, i)) != sel.material) continue;
    if (sel.radius > 0) {
      double r2 = 0;
      for (std::size_t d = 0; d < dim; ++d) r2 += std::pow(field_value(x, i * dim + d) - sel.centre[d], 2);
      if (r2 > sel.radius * sel.radius) continue;
    }
    chosen.push_back(i);
  }
  // Evenly thinned to at most max_points (a million points would not read better than a few thousand).
  const std::size_t keep = std::min(chosen.size(), std::max<std::size_t>(sel.max_points, 1));
  std::vector<CrushPoint> out;
  for (std::size_t k = 0; k < keep; ++k) {
    const std::size_t i = chosen[k * chosen.size() / keep];
    out.push_back(CrushPoint{i, field_value(along, i), field_value(alpha, i)});
  }
  return out;
}

PlotSpec crush_plot(const Material& m, const std::vector<CrushPoint>& points, int samples) {
  PlotSpec p;
  const bool pa = is_palpha(m);
  p.x_label = pa ? "pressure P" : "compaction strain eps_c";
  p.x_units = pa ? "Pa" : "";
  p.y_label = "distention alpha";
  p.series.push_back(crush_curve(m, samples));
  p.x_lo = p.series[0].x.front();
  p.x_hi = p.series[0].x.back();
  PlotSeries s;
  s.markers = true;
  std::size_t outside = 0;
  for (const CrushPoint& c : points) {
    s.x.push_back(c.x);
    s.y.push_back(c.alpha);
    if (c.x < p.x_lo || c.x > p.x_hi) ++outside;
  }
  s.name = std::to_string(points.size()) + " selected particles";
  if (outside) s.name += " (" + std::to_string(outside) + " off the x range)";
  p.series.push_back(std::move(s));
  return p;
}

}  // namespace ejecta::viewer
