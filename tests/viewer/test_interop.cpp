// GPU only: frames drawn through CUDA-GL interop equal, pixel for pixel, the frames drawn through
// the host-copy fallback, on an NVIDIA EGL context (device or surfaceless platform). Skips without a
// CUDA device or without an NVIDIA EGL context (Mesa's software rasteriser cannot share buffers with CUDA).
#include "gl_test_util.h"
#include "render/gl_context.h"
#include "sim_test_util.h"
#include "viewer/scene_view.h"

#include <gtest/gtest.h>

namespace ejecta {
namespace {

TEST(InteropGpu, InteropFramesEqualFallbackFrames) {
  if (!cuda_available()) GTEST_SKIP() << "needs a CUDA device: " << cuda_unavailable_reason();
  // The EGL device platform first; NVIDIA's EGL also serves the surfaceless platform, which then
  // shares buffers with CUDA just the same (seen on the H200 host when the device platform failed).
  std::string why;
  render::OffscreenChoice egl_only;
  egl_only.egl_surfaceless = egl_only.hidden_window = false;
  auto ctx = render::create_offscreen_context(&why, egl_only);
  if (!ctx) {
    std::printf("EGL device platform: %s; trying the surfaceless platform\n", why.c_str());
    render::OffscreenChoice surfaceless;
    surfaceless.egl_device = surfaceless.hidden_window = false;
    ctx = render::create_offscreen_context(&why, surfaceless);
  }
  if (!ctx) GTEST_SKIP() << "no EGL context: " << why;
  if (ctx->vendor().find("NVIDIA") == std::string::npos)
    GTEST_SKIP() << "the EGL device is not NVIDIA's (" << ctx->description() << "): no CUDA-GL interop";
  std::printf("context: %s\n", ctx->description().c_str());
  for (const char* scene_name : {"dambreak2d.ini", "dambreak3d.ini"}) {
    const ParamSet scene = test::shipped_scene(scene_name);
    auto sim = make_simulation(scene, Backend::Cuda);
    test::run_until(*sim, 0.02);  // moving fluid: a spread of speeds
    viewer::SceneView interop(*sim, scene, true);
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

}  // namespace
}  // namespace ejecta
