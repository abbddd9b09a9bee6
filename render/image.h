#pragma once
// An RGBA8 image, top row first (as PNG stores it), and its PNG writer.
#include <cstdint>
#include <string>
#include <vector>

namespace ejecta::render {

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4
  const uint8_t* pixel(int x, int y) const { return &rgba[(std::size_t(y) * width + x) * 4]; }
};

// Throws std::runtime_error naming the path when the file cannot be written.
void write_png(const std::string& path, const Image& img);

}  // namespace ejecta::render
