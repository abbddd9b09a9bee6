#include "viewer/line_profile.h"

#include "particles/field_values.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ejecta::viewer {

LineProfile line_profile(const std::vector<double>& positions, int dim, const std::vector<double>& values,
                         const std::vector<uint8_t>& kinds, const glm::dvec3& a, const glm::dvec3& b, int samples,
                         double radius) {
  LineProfile out;
  samples = std::max(samples, 2);
  const glm::dvec3 ab = b - a;
  const double len = glm::length(ab);
  out.s.resize(std::size_t(samples));
  out.value.assign(std::size_t(samples), std::numeric_limits<double>::quiet_NaN());
  for (int k = 0; k < samples; ++k) out.s[std::size_t(k)] = len * k / (samples - 1);
  if (!(len > 0) || !(radius > 0)) return out;
  const glm::dvec3 u = ab / len;
  // Bins of width `radius` along the segment hold the particles within `radius` of it.
  const int bins = int(std::ceil(len / radius)) + 1;
  std::vector<std::vector<std::size_t>> bin(static_cast<std::size_t>(bins));
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!kinds.empty() && kinds[i] == kWall) continue;
    glm::dvec3 x(0.0);
    for (int d = 0; d < dim; ++d) x[d] = positions[i * std::size_t(dim) + std::size_t(d)];
    const double t = glm::dot(x - a, u);
    if (t < -radius || t > len + radius) continue;
    const glm::dvec3 off = x - a - t * u;
    if (glm::dot(off, off) > radius * radius) continue;
    bin[std::size_t(std::clamp(int(std::floor(t / radius)), 0, bins - 1))].push_back(i);
  }
  for (int k = 0; k < samples; ++k) {
    const double t = out.s[std::size_t(k)];
    const glm::dvec3 p = a + t * u;
    const int c = std::clamp(int(std::floor(t / radius)), 0, bins - 1);
    double sw = 0, swf = 0;
    for (int bb = std::max(0, c - 1); bb <= std::min(bins - 1, c + 1); ++bb)
      for (std::size_t i : bin[std::size_t(bb)]) {
        glm::dvec3 x(0.0);
        for (int d = 0; d < dim; ++d) x[d] = positions[i * std::size_t(dim) + std::size_t(d)];
        const double q2 = glm::dot(x - p, x - p) / (radius * radius);
        if (q2 >= 1) continue;
        const double w = (1 - q2) * (1 - q2);
        sw += w;
        swf += w * values[i];
      }
    if (sw > 0) out.value[std::size_t(k)] = swf / sw;
  }
  return out;
}

PlotSpec line_profile_plot(const Simulation& sim, const std::string& field, int component, const glm::dvec3& a,
                           const glm::dvec3& b, int samples, double radius) {
  const FrameData f = sim.capture_frame({"position", "kind", field});
  const FieldData& x = *f.find("position");
  const FieldData& k = *f.find("kind");
  const FieldData& v = *f.find(field);
  const int comps = v.info.components;
  std::vector<double> values(f.particles);
  for (std::size_t i = 0; i < f.particles; ++i) {
    if (component >= 0 && component < comps) {
      values[i] = field_value(v, i * std::size_t(comps) + std::size_t(component));
      continue;
    }
    double s2 = 0;
    for (int c = 0; c < comps; ++c) s2 += std::pow(field_value(v, i * std::size_t(comps) + std::size_t(c)), 2);
    values[i] = comps == 1 ? field_value(v, i) : std::sqrt(s2);
  }
  std::vector<uint8_t> kinds(f.particles);
  for (std::size_t i = 0; i < f.particles; ++i) kinds[i] = uint8_t(field_value(k, i));
  const LineProfile lp = line_profile(field_values(x), x.info.components, values, kinds, a, b, samples, radius);
  PlotSpec spec;
  spec.x_label = "distance along the line";
  spec.x_units = "m";
  spec.y_label = field + (comps > 1 ? (component >= 0 ? std::string(".") + "xyz"[component] : std::string(" magnitude")) : "");
  spec.y_units = v.info.units;
  spec.series.push_back(PlotSeries{spec.y_label, lp.s, lp.value, false});
  return spec;
}

}  // namespace ejecta::viewer
