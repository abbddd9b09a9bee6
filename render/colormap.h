#pragma once
// Colormaps as data: 256 RGB samples each from matplotlib (assets/colormaps/, written by
// scripts/make-colormaps.py and embedded in the binary). The GL renderer uploads them as 1D textures;
// sample() is the same linear interpolation on the CPU, for legends and tests.
#include <array>
#include <string>
#include <vector>

namespace ejecta::render {

struct Colormap {
  std::string name;
  std::vector<std::array<float, 3>> rgb;  // evenly spaced samples, first = value 0
  std::array<float, 3> sample(float t) const;  // t clamped to [0, 1]
};

// "viridis", "turbo", "coolwarm" (diverging, for signed fields), "greys" (black to white), "tab10"
// (ten discrete colours, for categories: kind, material).
const std::vector<std::string>& colormap_names();
// Throws std::invalid_argument naming the known colormaps for an unknown name.
const Colormap& colormap(const std::string& name);
// Parses "r g b" rows ('#' comments); throws std::invalid_argument for a malformed table.
Colormap parse_colormap(const std::string& name, const std::string& text);

// Embedded files by their source path, e.g. "shaders/particles.vert"; nullptr if absent.
const char* embedded_asset(const std::string& path);

}  // namespace ejecta::render
