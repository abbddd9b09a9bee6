// Builds without CUDA: no splat rasterizer, GL sprites draw every frame.
#ifndef EJECTA_WITH_CUDA
#include "render/cuda_splat.h"

namespace ejecta::render {

std::unique_ptr<SplatRenderer> make_splat_renderer(Simulation&, std::string* why) {
  if (why) *why = "not available (this build has no CUDA)";
  return nullptr;
}

}  // namespace ejecta::render
#endif
