// The binary's rendering paths: headless PNG frames (--render-every), the window under a display
// (Xvfb in CI) with a scripted number of frames, the fallback to headless without a display, and the
// input errors of the rendering options.
#include "binary_util.h"
#include "gl_test_util.h"
#include "render/colormap.h"
#include "sim_test_util.h"

#include <stb_image.h>

#include <filesystem>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / ("ejecta-test-" + name + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

// Share of pixels away from the background colour (the top-left pixel) in a PNG.
double covered_fraction(const std::string& png, int* w, int* h) {
  int comp = 0;
  unsigned char* data = stbi_load(png.c_str(), w, h, &comp, 4);
  if (!data) return -1;
  std::size_t covered = 0;
  const std::size_t n = std::size_t(*w) * *h;
  for (std::size_t i = 0; i < n; ++i) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d += std::abs(int(data[4 * i + c]) - int(data[c]));
    if (d > 6) ++covered;
  }
  stbi_image_free(data);
  return double(covered) / double(n);
}

const char* const kCoarse = "--set particles.dp=0.005";

TEST(RenderCli, HeadlessFramesEveryKSteps) {
  EJECTA_NEED_GL();  // the binary makes its own context in the same order
  TempDir dir("frames");
  const auto r = test::run_binary(std::string("--headless --backend cpu --steps 10 --render-every 5 --render-dir '") +
                                  dir.path.string() + "' --width 160 --height 120 --colour-by velocity.y " + kCoarse);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote 3 frames"), std::string::npos) << r.out;
  for (const char* f : {"frame_000000.png", "frame_000001.png", "frame_000002.png"}) {
    int w = 0, h = 0;
    const double c = covered_fraction((dir.path / f).string(), &w, &h);
    EXPECT_EQ(w, 160) << f;
    EXPECT_EQ(h, 120) << f;
    EXPECT_GT(c, 0.01) << f << ": particles are drawn";
    EXPECT_LT(c, 0.65) << f;  // the fluid, plus the overlay (name, time, scale bar) in a 160 x 120 frame
  }
  EXPECT_FALSE(fs::exists(dir.path / "frame_000003.png"));
}

// --benchmark-render times the frame loop at --steps-per-frame (it ran at the default 4 whatever was asked
// until 2026-12-03, so the "8 steps a frame" figures before then were 4 steps a frame).
TEST(RenderCli, BenchmarkRenderTakesStepsPerFrame) {
  EJECTA_NEED_GL();
  const auto r = test::run_binary("--benchmark-render --backend cpu --benchmark-sizes 2000 --width 160 --height 120 "
                                  "--steps-per-frame 3");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"steps_per_frame\": 3,"), std::string::npos) << r.out;
}

TEST(RenderCli, BadRenderingOptionsAreInputErrors) {
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--render-every 5 --render-dir /tmp/x", "needs --headless"},
      {"--headless --render-every 5", "needs --render-dir"},
      {"--headless --render-every 0 --render-dir /tmp/x", "--render-every: '0' is out of range"},
      {"--headless --render-dir /tmp/x", "needs --render-every"},
      {"--headless --steps 1 --width 8", "--width: '8' is out of range: give a whole number of pixels from 16"},
      {"--screenshot a.png", "needs --frames"},
  };
  for (const Case& c : cases) {
    const auto r = test::run_binary(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST(RenderCli, UnknownColourFieldOrColormapIsAnInputError) {
  EJECTA_NEED_GL();
  TempDir dir("badcolour");
  const std::string base = std::string("--headless --backend cpu --steps 2 --render-every 1 --render-dir '") +
                           dir.path.string() + "' " + kCoarse;
  auto r = test::run_binary(base + " --colour-by speed");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no particle field 'speed' (fields: position, velocity"), std::string::npos) << r.out;
  r = test::run_binary(base + " --colormap jet");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("unknown colormap 'jet'"), std::string::npos) << r.out;
}

TEST(RenderCli, WithoutADisplayTheViewerRunsHeadless) {
  const auto r = test::run_binary(std::string("--backend cpu --steps 3 --json ") + kCoarse, "DISPLAY= WAYLAND_DISPLAY=");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("cannot open a window"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"steps\": 3"), std::string::npos) << r.out;
}

TEST(RenderCli, WindowDrawsSceneAndPanels) {
  if (!render::display_available()) {
    if (test::gl_required()) FAIL() << "no display (EJECTA_REQUIRE_GL=1; CI runs the tests under xvfb-run)";
    GTEST_SKIP() << "no display: run under xvfb-run to test the window";
  }
  TempDir dir("window");
  fs::create_directories(dir.path);
  const std::string shot = (dir.path / "window.png").string();
  // Its own ImGui layout file, not the user's.
  const auto r = test::run_binary(std::string("--backend cpu --frames 12 --run --screenshot '") + shot +
                                      "' --width 640 --height 480 " + kCoarse,
                                  "XDG_CONFIG_HOME='" + dir.path.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ejecta: viewer on window"), std::string::npos) << r.out;
  int w = 0, h = 0;
  const double c = covered_fraction(shot, &w, &h);
  EXPECT_EQ(w, 640);
  EXPECT_EQ(h, 480);
  EXPECT_GT(c, 0.2) << "panels, status bar and particles cover a good part of the window";
  EXPECT_TRUE(fs::exists(dir.path / "ejecta" / "imgui.ini")) << "the layout persists";
}

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

TEST(RenderCli, LookOptionsChangeTheFrame) {
  EJECTA_NEED_GL();
  TempDir dir("look");
  auto frame = [&](const std::string& opts, const std::string& sub) {
    const std::string d = (dir.path / sub).string();
    const auto r = test::run_binary("--headless --backend cpu --steps 1 --render-every 1 --render-dir '" + d +
                                    "' --width 160 --height 120 --no-overlay " + kCoarse + " " + opts);
    EXPECT_EQ(r.code, 0) << r.out;
    int w = 0, h = 0;
    return covered_fraction(d + "/frame_000000.png", &w, &h);
  };
  const double hidden = frame("--walls hidden --sprites discs", "hidden"), shown = frame("--walls shown", "shown");
  EXPECT_GT(shown, 1.5 * hidden) << "the tank's walls appear";
  const auto bad = test::run_binary("--headless --steps 1 --walls transparent");
  EXPECT_EQ(bad.code, 2) << bad.out;
}

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

// Share of non-background pixels in the columns x >= x0.
double covered_right_of(const std::string& png, int x0) {
  int w = 0, h = 0, comp = 0;
  unsigned char* data = stbi_load(png.c_str(), &w, &h, &comp, 4);
  if (!data) return -1;
  std::size_t covered = 0, n = 0;
  for (int y = 0; y < h; ++y)
    for (int x = x0; x < w; ++x, ++n) {
      const unsigned char* p = data + 4 * (std::size_t(y) * w + x);
      int d = 0;
      for (int c = 0; c < 3; ++c) d += std::abs(int(p[c]) - int(data[c]));
      covered += d > 6;
    }
  stbi_image_free(data);
  return double(covered) / double(n);
}

TEST(RenderCli, HeadlessFramesCarryTheLegendUnlessAskedNot) {
  EJECTA_NEED_GL();
  TempDir dir("legend");
  auto right_side = [&](const std::string& opts, const std::string& sub) {
    const std::string d = (dir.path / sub).string();
    const auto r = test::run_binary("--headless --backend cpu --steps 1 --render-every 1 --render-dir '" + d +
                                    "' --width 640 --height 400 --walls hidden " + kCoarse + " " + opts);
    EXPECT_EQ(r.code, 0) << r.out;
    return covered_right_of(d + "/frame_000000.png", 510);
  };
  const double with = right_side("", "with"), without = right_side("--no-legend", "without");
  EXPECT_LT(without, 0.01) << "no fluid at the right of the tank";
  EXPECT_GT(with, 0.2) << "the legend's panel and bar";
}

}  // namespace
}  // namespace ejecta
