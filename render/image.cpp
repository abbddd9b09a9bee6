#include "render/image.h"

#include <stdexcept>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace ejecta::render {

void write_png(const std::string& path, const Image& img) {
  if (img.width <= 0 || img.height <= 0 || img.rgba.size() != std::size_t(img.width) * img.height * 4)
    throw std::runtime_error("write_png: empty or mis-sized image for " + path);
  if (!stbi_write_png(path.c_str(), img.width, img.height, 4, img.rgba.data(), img.width * 4))
    throw std::runtime_error("cannot write PNG '" + path + "' (does its directory exist and is it writable?)");
}

}  // namespace ejecta::render
