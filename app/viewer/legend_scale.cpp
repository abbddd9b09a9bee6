#include "viewer/legend_scale.h"

#include "render_data/colour_histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ejecta::viewer {

double nice_number(double x, bool round) {
  const double e = std::floor(std::log10(x)), f = x / std::pow(10.0, e);  // f in [1, 10)
  double n;
  if (round) n = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  else n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return n * std::pow(10.0, e);
}

Ticks nice_ticks(double lo, double hi, int target) {
  Ticks t;
  if (!(std::isfinite(lo) && std::isfinite(hi))) return t;
  if (hi < lo) std::swap(lo, hi);
  if (!(hi > lo)) {
    t.values = {lo};
    return t;
  }
  // The step: the range over (target - 1) intervals, rounded to a nice number; loose enough that
  // at least two ticks fall inside.
  double step = nice_number((hi - lo) / std::max(1, target - 1), true);
  while (std::floor(hi / step) - std::ceil(lo / step) < 1) step = nice_number(step / 2.1, true);
  t.step = step;
  const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
  for (double k = first; k <= last; ++k) {
    double v = k * step;
    if (std::fabs(v) < 1e-12 * step) v = 0;  // no "-0"
    t.values.push_back(v);
  }
  return t;
}

std::string tick_label(double v, double step) {
  char buf[48];
  if (v == 0) return "0";
  const double big = std::max(std::fabs(v), step > 0 ? step : std::fabs(v));
  const int step_exp = step > 0 ? int(std::floor(std::log10(step) + 1e-9)) : int(std::floor(std::log10(std::fabs(v))));
  const int big_exp = int(std::floor(std::log10(big) + 1e-9));
  if (step_exp >= -3 && big_exp < 5) {
    // Fixed point: as many decimals as the step has (a step of 0.25 needs 2, 0.5 one, 20 none).
    int decimals = std::max(0, -step_exp);
    if (step > 0) {
      const double mant = step / std::pow(10.0, step_exp);
      if (std::fabs(mant - std::round(mant)) > 1e-6) ++decimals;  // 2.5 x 10^k
    }
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  } else {
    // Scientific: the digits that separate neighbouring ticks.
    const int digits = std::clamp(big_exp - step_exp, 0, 4);
    std::snprintf(buf, sizeof buf, "%.*e", digits, v);
  }
  return buf;
}

std::pair<float, float> uniform_range(const std::string& field, bool is_signed, float v) {
  if (field == "damage") return {0.f, 1.f};
  if (v != 0 && std::isfinite(v)) {
    const float d = 0.05f * std::fabs(v);
    return {v - d, v + d};
  }
  return is_signed ? std::pair<float, float>{-1.f, 1.f} : std::pair<float, float>{0.f, 1.f};
}

bool is_categorical(const FieldInfo& f) {
  return f.components == 1 && (f.scalar == ScalarType::UInt8 || f.scalar == ScalarType::UInt32) && f.name != "id" &&
         f.name != "flaw_count" && f.name != "active_flaws";
}

std::vector<std::pair<int, std::string>> category_names(const FieldInfo& f) {
  // "0 fluid, 1 wall": comma-separated items that start with an integer.
  std::vector<std::pair<int, std::string>> out;
  std::istringstream in(f.description);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::istringstream is(item);
    int k;
    std::string rest, word;
    if (!(is >> k)) return {};
    while (is >> word) rest += (rest.empty() ? "" : " ") + word;
    if (rest.empty()) return {};
    out.emplace_back(k, rest);
  }
  return out;
}

std::vector<float> histogram(const std::vector<float>& values, const uint8_t* kind, float lo, float hi, int bins) {
  std::vector<float> h(std::size_t(std::max(bins, 1)), 0.f);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (kind && kind[i] != 0) continue;
    const int b = colour_bin(values[i], lo, hi, int(h.size()));
    if (b >= 0) h[std::size_t(b)] += 1.f;
  }
  return h;
}

namespace {

// v in the SI prefix that leaves 1 <= |v| < 1000 (within the listed ones).
std::pair<double, const char*> si(double v) {
  static const std::pair<double, const char*> kPrefixes[] = {{1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "u"},
                                                             {1e-9, "n"}};
  for (const auto& [scale, name] : kPrefixes)
    if (std::fabs(v) >= scale * (1 - 1e-9)) return {v / scale, name};
  return {v / 1e-9, "n"};
}

}  // namespace

std::string time_label(double t) {
  if (t == 0) return "t = 0 s";
  const auto [m, prefix] = si(t);
  const int decimals = std::max(0, 2 - int(std::floor(std::log10(std::fabs(m)) + 1e-9)));
  char buf[48];
  std::snprintf(buf, sizeof buf, "t = %.*f %ss", decimals, m, prefix);
  return buf;
}

std::string length_label(double metres) {
  // cm reads better than 10s of mm on a bar between 1 and 100 cm.
  char buf[48];
  if (metres >= 0.01 && metres < 1) std::snprintf(buf, sizeof buf, "%g cm", metres * 100);
  else {
    const auto [m, prefix] = si(metres);
    std::snprintf(buf, sizeof buf, "%g %sm", m, prefix);
  }
  return buf;
}

}  // namespace ejecta::viewer
