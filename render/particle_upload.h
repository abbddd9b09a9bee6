#pragma once
// How the engine's render data reaches the renderer's vertex buffers, once per drawn frame:
//   - interop (CUDA backend): the buffers are registered with CUDA once, mapped, filled by the
//     engine's kernel, unmapped: no host round-trip (cuda_gl_interop.cu);
//   - either way the radius buffer is used only while the engine has per-particle radii
//     (has_particle_radii: grains), so SPH scenes upload 20 bytes a particle and grain scenes 24;
//   - host copy (CPU backend, registration failure, --no-interop): the engine fills host staging
//     arrays (on CUDA: device scratch, then one download), then glBufferSubData.
// The status bar shows path().
#include "render/gl_particle_renderer.h"
#include "simulation.h"

#include <memory>
#include <string>
#include <vector>

namespace ejecta::render {

class ParticleUploader {
 public:
  virtual ~ParticleUploader() = default;
  // Resizes the renderer's buffers to the simulation's particle count and fills them.
  virtual RenderRange upload(Simulation& sim, const RenderRequest& req) = 0;
  virtual std::string path() const = 0;  // "CUDA-GL interop" or "host copy"
};

// Whether to carry per-particle radii for this simulation: the engine has them (has_particle_radii:
// grains) and EJECTA_UNIFORM_RADII is not set to 1 (every particle at the uniform radius, as before
// issue 17: for before/after timings with one binary). Used by every upload path and the splat.
bool want_particle_radii(const Simulation& sim);
// EJECTA_UNIFORM_RADII=1: every particle at the uniform radius (live runs, playback and picking).
bool uniform_radii_forced();

std::unique_ptr<ParticleUploader> make_host_uploader(GlParticleRenderer& r);
// The host copy's last step, also playback's: sizes the renderer for pos.size() / 4 particles and
// copies the arrays into its buffers; radii (one per particle, RenderBuffers::radii) when not empty,
// else the renderer's radii are off (the uniform radius).
void upload_host_arrays(GlParticleRenderer& r, const std::vector<float>& pos, const std::vector<float>& col,
                        const std::vector<float>& radii = {});
// nullptr with the reason in `why` when interop is not possible (not a CUDA build, CPU backend,
// registration refused: e.g. the GL context is on another GPU or is Mesa's).
std::unique_ptr<ParticleUploader> make_interop_uploader(GlParticleRenderer& r, Simulation& sim, std::string* why);
// Interop when asked for and possible, else the host copy; `note` says why interop is not used.
std::unique_ptr<ParticleUploader> make_uploader(GlParticleRenderer& r, Simulation& sim, bool allow_interop,
                                                std::string* note);

}  // namespace ejecta::render
