// CUDA-GL interop: the renderer's vertex buffers are registered with CUDA once (again only when the
// renderer reallocates them), mapped each frame, filled by the engine's render functor through the
// device pointers, and unmapped before GL draws. Also the CUDA backend's host-copy fallback.
#include "render/cuda_gl_interop.h"

#include <GL/glew.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ejecta::render {

namespace {

std::string cuda_text(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cuda_text(e));
}

class InteropUploader final : public ParticleUploader {
 public:
  explicit InteropUploader(GlParticleRenderer& r) : r_(r) {}
  ~InteropUploader() override { unregister(); }

  // Registers the current buffers (the radius buffer too while the renderer has one); false with
  // the CUDA error when the driver refuses.
  bool register_buffers(std::string* why) {
    unregister();
    if (r_.particle_count() == 0) return true;  // nothing to register until sized
    cudaError_t e = cudaGraphicsGLRegisterBuffer(&pos_, r_.position_buffer(), cudaGraphicsRegisterFlagsWriteDiscard);
    if (e == cudaSuccess)
      e = cudaGraphicsGLRegisterBuffer(&col_, r_.colour_buffer(), cudaGraphicsRegisterFlagsWriteDiscard);
    if (e == cudaSuccess && r_.has_radii())
      e = cudaGraphicsGLRegisterBuffer(&rad_, r_.radius_buffer(), cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
      cudaGetLastError();
      unregister();
      if (why) *why = "cudaGraphicsGLRegisterBuffer refused: " + cuda_text(e);
      return false;
    }
    generation_ = r_.generation();
    return true;
  }

  RenderRange upload(Simulation& sim, const RenderRequest& req) override {
    const std::size_t n = sim.particle_count();
    r_.set_particle_count(n);
    // Checked every frame: a grain drop can bring the radius field into a liquid scene.
    r_.set_radii(want_particle_radii(sim));
    if (!pos_ || generation_ != r_.generation()) {
      std::string why;
      if (!register_buffers(&why)) throw std::runtime_error(why);
    }
    cudaGraphicsResource_t res[3] = {pos_, col_, rad_};
    const int count = rad_ ? 3 : 2;
    // Mapped and unmapped on the engine's own stream (Simulation::device_stream), so the mapping is
    // ordered before the fill kernel and the unmap after it, with no synchronisation of stream 0.
    const cudaStream_t stream = static_cast<cudaStream_t>(sim.device_stream());
    check(cudaGraphicsMapResources(count, res, stream), "cudaGraphicsMapResources");
    RenderRange range;
    try {
      void* p = nullptr;
      void* c = nullptr;
      void* r = nullptr;
      std::size_t pb = 0, cb = 0, rb = 0;
      check(cudaGraphicsResourceGetMappedPointer(&p, &pb, pos_), "cudaGraphicsResourceGetMappedPointer");
      check(cudaGraphicsResourceGetMappedPointer(&c, &cb, col_), "cudaGraphicsResourceGetMappedPointer");
      std::size_t capacity = std::min(pb / (4 * sizeof(float)), cb / sizeof(float));
      if (rad_) {
        check(cudaGraphicsResourceGetMappedPointer(&r, &rb, rad_), "cudaGraphicsResourceGetMappedPointer");
        capacity = std::min(capacity, rb / sizeof(float));
      }
      // fill_render_data ends with its reduction's download, so the fill kernel is done before unmap.
      range = sim.fill_render_data(req, RenderBuffers{static_cast<float*>(p), static_cast<float*>(c), capacity, true,
                                                      static_cast<float*>(r)});
    } catch (...) {
      cudaGraphicsUnmapResources(count, res, stream);
      throw;
    }
    check(cudaGraphicsUnmapResources(count, res, stream), "cudaGraphicsUnmapResources");
    return range;
  }
  std::string path() const override { return "CUDA-GL interop"; }

 private:
  void unregister() {
    if (pos_) cudaGraphicsUnregisterResource(pos_);
    if (col_) cudaGraphicsUnregisterResource(col_);
    if (rad_) cudaGraphicsUnregisterResource(rad_);
    pos_ = col_ = rad_ = nullptr;
  }
  GlParticleRenderer& r_;
  cudaGraphicsResource_t pos_ = nullptr, col_ = nullptr, rad_ = nullptr;
  unsigned generation_ = 0;
};

}  // namespace

std::unique_ptr<ParticleUploader> make_interop_uploader(GlParticleRenderer& r, Simulation& sim, std::string* why) {
  if (sim.backend() != Backend::Cuda) {
    if (why) *why = "not used (CPU backend)";
    return nullptr;
  }
  // Register once up front so a refusal (Mesa context, GL on another GPU) falls back at start-up.
  r.set_particle_count(sim.particle_count());
  r.set_radii(want_particle_radii(sim));
  auto u = std::make_unique<InteropUploader>(r);
  if (!u->register_buffers(why)) return nullptr;
  return u;
}

RenderRange fill_host_from_device(Simulation& sim, const RenderRequest& req, float* pos, float* col, float* rad,
                                  std::size_t n) {
  float* d = nullptr;
  const std::size_t floats = (rad ? 6 : 5) * n;
  check(cudaMalloc(&d, sizeof(float) * std::max<std::size_t>(floats, 1)), "cudaMalloc (render scratch)");
  RenderRange range;
  try {
    range = sim.fill_render_data(req, RenderBuffers{d, d + 4 * n, n, true, rad ? d + 5 * n : nullptr});
    check(cudaMemcpy(pos, d, 4 * sizeof(float) * n, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(col, d + 4 * n, sizeof(float) * n, cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (rad) check(cudaMemcpy(rad, d + 5 * n, sizeof(float) * n, cudaMemcpyDeviceToHost), "cudaMemcpy");
  } catch (...) {
    cudaFree(d);
    throw;
  }
  cudaFree(d);
  return range;
}

}  // namespace ejecta::render
