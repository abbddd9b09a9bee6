#pragma once
// The CUDA splat rasterizer: on the CUDA backend the particles are drawn by CUDA kernels instead of
// GL point sprites. Why: the GH100 (H100/H200) runs graphics shaders on only two of its TPCs, so GL
// spends about 2 ms on 10^6 sprites there while the same work spread over every SM takes a fraction
// of that (docs/benchmarks.md). Same picture as the sprite shaders (shaders/particles.*): lit sphere
// impostors with their surface depth (so spheres intersect correctly) or flat discs, walls hidden /
// dimmed / shown, the clip plane, the colormap texture's linear lookup and the same light; each grain
// at its own radius (RenderBuffers::radii, a device buffer only while the engine has radii).
//
// One frame: the engine fills device buffers (fill_render_data, no GL involved); a kernel clears a
// 64-bit depth|index buffer; one thread per particle writes atomicMin(depth << 32 | index) over its
// footprint (particles wider than a few pixels go to a list that whole blocks splat); a kernel per
// pixel shades the winner into an RGBA8 texture registered with CUDA (cudaGraphicsGLRegisterImage,
// surface writes); GL blits the texture into the frame's framebuffer. The GL sprite path stays the
// fallback (CPU backend, no interop, --gl-draw) and the reference the GPU test compares against.
#include "render/camera.h"
#include "render/renderer.h"
#include "simulation.h"

#include <memory>
#include <string>

namespace ejecta::render {

class SplatRenderer {
 public:
  virtual ~SplatRenderer() = default;
  // The engine's render data for this frame into the splatter's device buffers.
  virtual RenderRange fill(Simulation& sim, const RenderRequest& req) = 0;
  // Draws the particles into colour attachment 0 of framebuffer `fbo` (width x height): background,
  // particles. Depth is not written to `fbo` (overlays drawn after it ignore depth).
  virtual void draw(const Camera& cam, const ViewSettings& s, int width, int height, unsigned fbo) = 0;
  // Particles wider than this radius (pixels) are splatted by whole blocks (default 6). Tests set it
  // out of reach to check that both paths draw the same pixels.
  virtual void set_wide_radius_px(float r) = 0;
};

// nullptr with the reason in `why` where it cannot be used: not a CUDA build, the CPU backend, or
// the GL texture cannot be registered with CUDA (context on another GPU, Mesa).
std::unique_ptr<SplatRenderer> make_splat_renderer(Simulation& sim, std::string* why);

}  // namespace ejecta::render
