#include "render/particle_upload.h"

#include "render_data/fill_render_data.h"

#include <GL/glew.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace ejecta::render {

// Defined in cuda_gl_interop.cu (CUDA builds) or its stub: the CUDA backend's host path fills device
// scratch and downloads it (rad: nullptr, or n radii).
RenderRange fill_host_from_device(Simulation& sim, const RenderRequest& req, float* pos, float* col, float* rad,
                                  std::size_t n);

namespace {

class HostUploader final : public ParticleUploader {
 public:
  explicit HostUploader(GlParticleRenderer& r) : r_(r) {}
  RenderRange upload(Simulation& sim, const RenderRequest& req) override {
    const std::size_t n = sim.particle_count();
    r_.set_particle_count(n);
    pos_.resize(4 * n);
    col_.resize(n);
    // Checked every frame: a grain drop can bring the radius field into a liquid scene.
    rad_.resize(want_particle_radii(sim) ? n : 0);
    float* rad = rad_.empty() ? nullptr : rad_.data();
    RenderRange range;
    if (sim.backend() == Backend::Cpu) {
      range = sim.fill_render_data(req, RenderBuffers{pos_.data(), col_.data(), n, false, rad});
    } else {
      range = fill_host_from_device(sim, req, pos_.data(), col_.data(), rad, n);
    }
    upload_host_arrays(r_, pos_, col_, rad_);
    return range;
  }
  std::string path() const override { return "host copy"; }

 private:
  GlParticleRenderer& r_;
  std::vector<float> pos_, col_, rad_;
};

}  // namespace

bool uniform_radii_forced() {
  static const bool uniform = [] {
    const char* e = std::getenv("EJECTA_UNIFORM_RADII");
    return e && std::string(e) == "1";
  }();
  return uniform;
}

bool want_particle_radii(const Simulation& sim) { return !uniform_radii_forced() && has_particle_radii(sim.fields()); }

void upload_host_arrays(GlParticleRenderer& r, const std::vector<float>& pos, const std::vector<float>& col,
                        const std::vector<float>& radii) {
  r.set_particle_count(pos.size() / 4);
  r.set_radii(!radii.empty());
  glBindBuffer(GL_ARRAY_BUFFER, r.position_buffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(pos.size() * sizeof(float)), pos.data());
  glBindBuffer(GL_ARRAY_BUFFER, r.colour_buffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(col.size() * sizeof(float)), col.data());
  if (!radii.empty()) {
    glBindBuffer(GL_ARRAY_BUFFER, r.radius_buffer());
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(radii.size() * sizeof(float)), radii.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
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
