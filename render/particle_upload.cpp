#include "render/particle_upload.h"

#include <GL/glew.h>

#include <vector>

namespace ejecta::render {

namespace {

class HostUploader final : public ParticleUploader {
 public:
  explicit HostUploader(GlParticleRenderer& r) : r_(r) {}
  RenderRange upload(Simulation& sim, const RenderRequest& req) override {
    const std::size_t n = sim.particle_count();
    r_.set_particle_count(n);
    pos_.resize(4 * n);
    col_.resize(n);
    RenderRange range;
    if (sim.backend() == Backend::Cpu) {
      range = sim.fill_render_data(req, RenderBuffers{pos_.data(), col_.data(), n, false});
    } else {
      range = fill_via_device(sim, req, n);
    }
    glBindBuffer(GL_ARRAY_BUFFER, r_.position_buffer());
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(pos_.size() * sizeof(float)), pos_.data());
    glBindBuffer(GL_ARRAY_BUFFER, r_.colour_buffer());
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(col_.size() * sizeof(float)), col_.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return range;
  }
  std::string path() const override { return "host copy"; }

 private:
  RenderRange fill_via_device(Simulation& sim, const RenderRequest& req, std::size_t n);
  GlParticleRenderer& r_;
  std::vector<float> pos_, col_;
};

}  // namespace

// Defined in cuda_gl_interop.cu (CUDA builds) or below: the CUDA backend's host path fills device
// scratch and downloads it.
RenderRange fill_host_from_device(Simulation& sim, const RenderRequest& req, float* pos, float* col, std::size_t n);

RenderRange HostUploader::fill_via_device(Simulation& sim, const RenderRequest& req, std::size_t n) {
  return fill_host_from_device(sim, req, pos_.data(), col_.data(), n);
}

std::unique_ptr<ParticleUploader> make_host_uploader(GlParticleRenderer& r) { return std::make_unique<HostUploader>(r); }

std::unique_ptr<ParticleUploader> make_uploader(GlParticleRenderer& r, Simulation& sim, bool allow_interop,
                                                std::string* note) {
  std::string why = "disabled (--no-interop)";
  if (allow_interop)
    if (auto u = make_interop_uploader(r, sim, &why)) return u;
  if (note) *note = why;
  return make_host_uploader(r);
}

}  // namespace ejecta::render
