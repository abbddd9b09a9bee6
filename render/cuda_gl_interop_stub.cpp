// Builds without CUDA: no interop, and no CUDA backend to copy from.
#ifndef EJECTA_WITH_CUDA
#include "render/cuda_gl_interop.h"

#include <stdexcept>

namespace ejecta::render {

std::unique_ptr<ParticleUploader> make_interop_uploader(GlParticleRenderer&, Simulation&, std::string* why) {
  if (why) *why = "not available (this build has no CUDA)";
  return nullptr;
}

RenderRange fill_host_from_device(Simulation&, const RenderRequest&, float*, float*, float*, std::size_t) {
  throw std::logic_error("no CUDA backend in this build");
}

}  // namespace ejecta::render
#endif
