// GPU only: frames drawn through CUDA-GL interop equal, pixel for pixel, the frames drawn through
// the host-copy fallback, on an NVIDIA EGL context (device or surfaceless platform); the CUDA splat
// rasterizer's frames match the GL sprites' frames. Skips without a CUDA device or without an NVIDIA
// EGL context (Mesa's software rasteriser cannot share buffers with CUDA).
#include "gl_test_util.h"
#include "render/gl_context.h"
#include "sim_test_util.h"
#include "viewer/scene_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace ejecta {
namespace {

// The EGL device platform first; NVIDIA's EGL also serves the surfaceless platform, which then
// shares buffers with CUDA just the same (seen on the H200 host when the device platform failed).
// nullptr with the reason when there is no CUDA device or no NVIDIA EGL context.
std::unique_ptr<render::GlContext> nvidia_egl_context(std::string* why) {
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

TEST(InteropGpu, InteropFramesEqualFallbackFrames) {
  std::string why;
  auto ctx = nvidia_egl_context(&why);
  if (!ctx) GTEST_SKIP() << why;
  std::printf("context: %s\n", ctx->description().c_str());
  for (const char* scene_name : {"dambreak2d.ini", "dambreak3d.ini"}) {
    const ParamSet scene = test::shipped_scene(scene_name);
    auto sim = make_simulation(scene, Backend::Cuda);
    test::run_until(*sim, 0.02);  // moving fluid: a spread of speeds
    viewer::SceneView interop(*sim, scene, true, false);  // GL sprites, filled through interop
    viewer::SceneView host(*sim, scene, false);
    ASSERT_EQ(interop.upload_path(), "CUDA-GL interop") << interop.interop_note();
    ASSERT_EQ(host.upload_path(), "host copy");
    for (const char* field : {"velocity", "density", "pressure"}) {
      interop.colour().field = host.colour().field = field;
      const RenderRange a = interop.update(), b = host.update();
      EXPECT_EQ(a.min, b.min) << field;
      EXPECT_EQ(a.max, b.max) << field;
      interop.draw(640, 480);
      const render::Image ia = interop.read();
      host.draw(640, 480);
      const render::Image ib = host.read();
      ASSERT_EQ(ia.rgba.size(), ib.rgba.size());
      std::size_t differ = 0, drawn = 0;
      for (std::size_t k = 0; k < ia.rgba.size(); k += 4) {
        differ += ia.rgba[k] != ib.rgba[k] || ia.rgba[k + 1] != ib.rgba[k + 1] || ia.rgba[k + 2] != ib.rgba[k + 2];
        drawn += ia.rgba[k] != ia.rgba[0] || ia.rgba[k + 1] != ia.rgba[1];
      }
      EXPECT_EQ(differ, 0u) << scene_name << ", " << field << ": pixels differ";
      EXPECT_GT(drawn, ia.rgba.size() / 4 / 100) << "particles are drawn";
      std::printf("%s %s: %zu pixels drawn, interop fill %.3f ms, host fill %.3f ms\n", scene_name, field, drawn,
                  interop.last_upload_ms(), host.last_upload_ms());
    }
  }
}

// The splat rasterizer follows the sprite shaders' rules, but not GL's rasterization to the bit:
// coverage at silhouettes (GL's point square vs the disc test at pixel centres), the depth of
// touching spheres (24-bit GL depth vs float, ties by draw order vs index) and float rounding in
// the lighting differ. So the frames are compared by statistics, against stated bounds: the drawn
// (non-background) pixel sets overlap with IoU >= 0.97, and of the pixels drawn in both at most 3%
// differ by more than 8/255 in a channel. One frame zoomed in 8x takes the wide-particle path.
TEST(InteropGpu, SplatFramesMatchSpriteFrames) {
  std::string why;
  auto ctx = nvidia_egl_context(&why);
  if (!ctx) GTEST_SKIP() << why;
  for (const char* scene_name : {"dambreak2d.ini", "dambreak3d.ini"}) {
    const ParamSet scene = test::shipped_scene(scene_name);
    auto sim = make_simulation(scene, Backend::Cuda);
    test::run_until(*sim, 0.02);
    viewer::SceneView splat(*sim, scene, true, true);
    viewer::SceneView sprites(*sim, scene, true, false);
    ASSERT_EQ(splat.upload_path(), "CUDA splat (interop)");
    ASSERT_EQ(sprites.upload_path(), "CUDA-GL interop");
    struct Look {
      const char* name;
      render::SpriteMode mode;
      render::WallMode walls;
      bool clip;
      float zoom;
    };
    const Look looks[] = {{"spheres", render::SpriteMode::Spheres, render::WallMode::Dimmed, false, 1.f},
                          {"discs", render::SpriteMode::Discs, render::WallMode::Shown, false, 1.f},
                          {"clipped", render::SpriteMode::Spheres, render::WallMode::Hidden, true, 1.f},
                          {"zoomed", render::SpriteMode::Spheres, render::WallMode::Dimmed, false, 8.f}};
    for (const Look& look : looks) {
      for (viewer::SceneView* v : {&splat, &sprites}) {
        v->colour().field = "velocity";
        v->settings().mode = look.mode;
        v->settings().walls = look.walls;
        v->settings().clip = look.clip;
        v->settings().clip_normal = glm::vec3(0, 1, 0);
        v->settings().clip_offset = 0.5f * (v->bounds().lo.y + v->bounds().hi.y);
        v->fit();
        v->camera().zoom(look.zoom);
        v->update();
      }
      splat.draw(800, 600);
      sprites.draw(800, 600);
      const render::Image a = splat.read(), b = sprites.read();
      ASSERT_EQ(a.rgba.size(), b.rgba.size());
      std::size_t in_a = 0, in_b = 0, both = 0, off = 0;
      auto drawn = [](const render::Image& im, std::size_t k) {
        return im.rgba[k] != im.rgba[0] || im.rgba[k + 1] != im.rgba[1] || im.rgba[k + 2] != im.rgba[2];
      };
      for (std::size_t k = 0; k < a.rgba.size(); k += 4) {
        const bool da = drawn(a, k), db = drawn(b, k);
        in_a += da, in_b += db, both += da && db;
        if (da && db) {
          int d = 0;
          for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.rgba[k + c]) - int(b.rgba[k + c])));
          off += d > 8;
        }
      }
      const double iou = double(both) / double(std::max<std::size_t>(1, in_a + in_b - both));
      const double off_frac = double(off) / double(std::max<std::size_t>(1, both));
      std::printf("%s %s: splat %zu px, sprites %zu px, IoU %.4f, %.2f%% of shared pixels off by > 8\n", scene_name,
                  look.name, in_a, in_b, iou, 100 * off_frac);
      EXPECT_GT(in_b, a.rgba.size() / 4 / 100) << scene_name << " " << look.name << ": particles are drawn";
      EXPECT_GE(iou, 0.97) << scene_name << " " << look.name;
      EXPECT_LE(off_frac, 0.03) << scene_name << " " << look.name;
    }
  }
}

}  // namespace
}  // namespace ejecta
