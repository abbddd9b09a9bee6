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
    upload_host_arrays(r_, pos_, col_);
    return range;
  }
  std::string path() const override { return "host copy"; }

 private:
  RenderRange fill_via_device(Simulation& sim, const RenderRequest& req, std::size_t n);
  GlParticleRenderer& r_;
  std::vector<float> pos_, col_;
};

}  // namespace

void upload_host_arrays(GlParticleRenderer& r, const std::vector<float>& pos, const std::vector<float>& col) {
  r.set_particle_count(pos.size() / 4);
  glBindBuffer(GL_ARRAY_BUFFER, r.position_buffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(pos.size() * sizeof(float)), pos.data());
  glBindBuffer(GL_ARRAY_BUFFER, r.colour_buffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(col.size() * sizeof(float)), col.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

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
