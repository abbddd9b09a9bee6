#include "render/colormap.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace ejecta::render {

std::array<float, 3> Colormap::sample(float t) const {
  if (!(t >= 0)) t = 0;  // NaN too
  if (t > 1) t = 1;
  const float x = t * float(rgb.size() - 1);
  const std::size_t i = std::min(std::size_t(x), rgb.size() - 2);
  const float f = x - float(i);
  std::array<float, 3> c;
  for (int k = 0; k < 3; ++k) c[k] = rgb[i][k] * (1 - f) + rgb[i + 1][k] * f;
  return c;
}

const std::vector<std::string>& colormap_names() {
  static const std::vector<std::string> names = {"viridis", "turbo", "coolwarm", "greys", "tab10"};
  return names;
}

Colormap parse_colormap(const std::string& name, const std::string& text) {
  Colormap m;
  m.name = name;
  std::istringstream in(text);
  std::string line;
  int row = 0;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::array<float, 3> c;
    if (!(ls >> c[0] >> c[1] >> c[2]) || std::any_of(c.begin(), c.end(), [](float v) { return !(v >= 0 && v <= 1); }))
      throw std::invalid_argument("colormap " + name + ", line " + std::to_string(row) + ": expected r g b in [0, 1]");
    m.rgb.push_back(c);
  }
  if (m.rgb.size() < 2) throw std::invalid_argument("colormap " + name + ": fewer than 2 samples");
  return m;
}

const Colormap& colormap(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, Colormap> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const auto& names = colormap_names();
  const char* text = embedded_asset("assets/colormaps/" + name + ".txt");
  if (std::find(names.begin(), names.end(), name) == names.end() || !text) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown colormap '" + name + "' (colormaps: " + known + ")");
  }
  return cache.emplace(name, parse_colormap(name, text)).first->second;
}

}  // namespace ejecta::render
