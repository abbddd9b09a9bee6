#pragma once
// One offscreen GL context for the rendering tests (EGL device, EGL surfaceless Mesa, or a hidden
// window under Xvfb). Without any of them a test skips, saying why, unless EJECTA_REQUIRE_GL=1 (CI),
// where it fails: there the GL tests must run.
#include "render/gl_context.h"
#include "render/image.h"
#include "simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace ejecta::test {

inline render::GlContext* shared_gl_context(std::string* why) {
  static std::string reason;
  static std::unique_ptr<render::GlContext> ctx = [] { return render::create_offscreen_context(&reason); }();
  if (why) *why = reason;
  if (ctx) ctx->make_current();
  return ctx.get();
}

inline bool gl_required() {
  const char* e = std::getenv("EJECTA_REQUIRE_GL");
  return e && std::string(e) == "1";
}

// Two frames of the same size compared: drawn (non-background: unlike pixel 0) pixels in a, in b, in
// both; of those in both, how many differ by more than 8/255 in a channel; pixels that differ at all.
struct FramePairStats {
  std::size_t in_a = 0, in_b = 0, both = 0, off = 0, unequal = 0;
  double iou() const { return double(both) / double(std::max<std::size_t>(1, in_a + in_b - both)); }
  double off_fraction() const { return double(off) / double(std::max<std::size_t>(1, both)); }
};

inline FramePairStats compare_frames(const render::Image& a, const render::Image& b) {
  FramePairStats s;
  auto drawn = [](const render::Image& im, std::size_t k) {
    return im.rgba[k] != im.rgba[0] || im.rgba[k + 1] != im.rgba[1] || im.rgba[k + 2] != im.rgba[2];
  };
  for (std::size_t k = 0; k < a.rgba.size(); k += 4) {
    const bool da = drawn(a, k), db = drawn(b, k);
    s.in_a += da, s.in_b += db, s.both += da && db;
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.rgba[k + c]) - int(b.rgba[k + c])));
    s.unequal += d > 0;
    if (da && db) s.off += d > 8;
  }
  return s;
}

// For the GPU rendering tests (interop, the CUDA splat): the EGL device platform first; NVIDIA's EGL
// also serves the surfaceless platform, which then shares buffers with CUDA just the same (seen on
// the H200 host when the device platform failed). nullptr with the reason when there is no CUDA
// device or no NVIDIA EGL context.
inline std::unique_ptr<render::GlContext> nvidia_egl_context(std::string* why) {
  if (!cuda_available()) {
    *why = "needs a CUDA device: " + cuda_unavailable_reason();
    return nullptr;
  }
  render::OffscreenChoice egl_only;
  egl_only.egl_surfaceless = egl_only.hidden_window = false;
  auto ctx = render::create_offscreen_context(why, egl_only);
  if (!ctx) {
    std::printf("EGL device platform: %s; trying the surfaceless platform\n", why->c_str());
    render::OffscreenChoice surfaceless;
    surfaceless.egl_device = surfaceless.hidden_window = false;
    ctx = render::create_offscreen_context(why, surfaceless);
  }
  if (!ctx) {
    *why = "no EGL context: " + *why;
    return nullptr;
  }
  if (ctx->vendor().find("NVIDIA") == std::string::npos) {
    *why = "the EGL device is not NVIDIA's (" + ctx->description() + "): no CUDA-GL interop";
    return nullptr;
  }
  return ctx;
}

}  // namespace ejecta::test

// Makes the shared context current or skips/fails the test.
#define EJECTA_NEED_GL()                                                                         \
  do {                                                                                           \
    std::string why_;                                                                            \
    if (!ejecta::test::shared_gl_context(&why_)) {                                               \
      if (ejecta::test::gl_required()) FAIL() << "no OpenGL context (EJECTA_REQUIRE_GL=1): " << why_; \
      GTEST_SKIP() << "no OpenGL context: " << why_;                                             \
    }                                                                                            \
  } while (0)
