// The interactive viewer's window under a display (xvfb-run in CI; skips without one): the P key
// pressed in a real GLFW window goes through the key table and the frame loop's action handler to a
// screenshot with the legend, written to --screenshot-dir under a unique name that is printed; and
// --theme light restyles the ImGui panels (not only the scene's background).
#include "binary_util.h"
#include "gl_test_util.h"
#include "sim_test_util.h"
#include "viewer/legend.h"
#include "viewer/viewer_app.h"
#include "viewer/window_input.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <stb_image.h>

#include <filesystem>
#include <unistd.h>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

#define EJECTA_NEED_DISPLAY()                                                                     \
  do {                                                                                            \
    if (!render::display_available()) {                                                           \
      if (test::gl_required()) FAIL() << "no display (EJECTA_REQUIRE_GL=1; CI runs under xvfb-run)"; \
      GTEST_SKIP() << "no display: run under xvfb-run to test the window";                       \
    }                                                                                             \
  } while (0)

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("ejecta-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  return d;
}

render::Image load_png(const std::string& path) {
  render::Image img;
  int comp = 0;
  unsigned char* d = stbi_load(path.c_str(), &img.width, &img.height, &comp, 4);
  if (!d) return img;
  img.rgba.assign(d, d + std::size_t(img.width) * img.height * 4);
  stbi_image_free(d);
  return img;
}

TEST(ViewerKeys, PKeyWritesAScreenshotWithTheLegendUnderAUniquePrintedName) {
  EJECTA_NEED_DISPLAY();
  EJECTA_NEED_GL();  // the drawing: the tests' shared offscreen context
  // The window that takes the key: a real GLFW window without a GL context of its own (a second,
  // GLX, context next to the tests' EGL one is refused by some drivers).
  if (!glfwInit()) GTEST_SKIP() << "GLFW cannot start";
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* win = glfwCreateWindow(480, 400, "ejecta test: keys", nullptr, nullptr);
  ASSERT_NE(win, nullptr);
  const fs::path dir = fresh_dir("pkey");
  {
    viewer::ViewerState s;
    s.opt.scene = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"});
    s.opt.interop = false;
    s.opt.screenshot_dir = dir.string();
    s.model = std::make_unique<viewer::ParamPanelModel>(s.opt.scene);
    viewer::rebuild(s);
    s.loop->advance(3);
    s.view->update();

    // The key as GLFW delivers it, through the viewer's own callback and the key table.
    viewer::WindowInput input;
    viewer::attach_window_input(win, &input);
    const GLFWkeyfun key = glfwSetKeyCallback(win, nullptr);
    glfwSetKeyCallback(win, key);
    ASSERT_NE(key, nullptr);
    key(win, GLFW_KEY_P, 0, GLFW_PRESS, 0);
    ASSERT_EQ(input.actions.size(), 1u);
    ASSERT_EQ(input.actions.front(), viewer::Action::Screenshot);

    int w = 0, h = 0;
    glfwGetFramebufferSize(win, &w, &h);
    ASSERT_GT(w, 0);
    std::vector<std::string> paths;
    for (int k = 0; k < 2; ++k) {  // P twice: two files
      testing::internal::CaptureStdout();
      viewer::handle_action(s, input.actions.front(), win, w, h);
      const std::string out = testing::internal::GetCapturedStdout();
      const std::string path = (dir / ("ejecta-dambreak2d-3" + std::string(k ? "-2" : "") + ".png")).string();
      EXPECT_EQ(out, "ejecta: screenshot " + path + "\n") << s.message;
      EXPECT_EQ(s.message, "screenshot " + path);
      ASSERT_TRUE(fs::exists(path)) << path;
      paths.push_back(path);
    }
    // The legend: its lower-right box differs from the particles drawn alone.
    const render::Image shot = load_png(paths[0]);
    ASSERT_EQ(shot.width, w);
    ASSERT_EQ(shot.height, h);
    s.view->draw(w, h);
    const render::Image plain = s.view->read();
    const viewer::LegendContent lc = viewer::legend_content(*s.view);
    const int bw = int(viewer::kLegendWidth), bh = int(viewer::legend_height(lc));
    std::size_t differ = 0, total = 0;
    for (int y = std::max(0, h - bh); y < h; ++y)
      for (int x = std::max(0, w - bw); x < w; ++x, ++total) {
        int d = 0;
        for (int c = 0; c < 3; ++c) d += std::abs(int(shot.pixel(x, y)[c]) - int(plain.pixel(x, y)[c]));
        differ += d > 30 ? 1 : 0;
      }
    EXPECT_GT(double(differ) / double(total), 0.2) << "the legend is in the screenshot";
  }
  glfwDestroyWindow(win);
  fs::remove_all(dir);
}

// B and N pressed in a real window go through the key table to "reset block" / "reset random": the
// liquid is rebuilt with the same particles, laid out afresh at rest; any key marks the input as
// touched (what stops --demo), even one the table does not bind.
TEST(ViewerKeys, BAndNResetTheFluidAndAnyKeyStopsTheDemo) {
  EJECTA_NEED_DISPLAY();
  EJECTA_NEED_GL();
  if (!glfwInit()) GTEST_SKIP() << "GLFW cannot start";
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* win = glfwCreateWindow(480, 400, "ejecta test: reset keys", nullptr, nullptr);
  ASSERT_NE(win, nullptr);
  {
    viewer::ViewerState s;
    s.opt.scene = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"});
    s.opt.interop = false;
    s.model = std::make_unique<viewer::ParamPanelModel>(s.opt.scene);
    viewer::rebuild(s);
    s.loop->advance(5);
    const std::size_t n = s.sim->particle_count(), fluid = s.sim->fluid_count();
    viewer::WindowInput input;
    viewer::attach_window_input(win, &input);
    const GLFWkeyfun key = glfwSetKeyCallback(win, nullptr);
    glfwSetKeyCallback(win, key);
    key(win, GLFW_KEY_B, 0, GLFW_PRESS, 0);
    key(win, GLFW_KEY_N, 0, GLFW_PRESS, 0);
    ASSERT_EQ(input.actions.size(), 2u);
    EXPECT_TRUE(input.touched);
    int w = 0, h = 0;
    glfwGetFramebufferSize(win, &w, &h);
    for (const char* what : {"reset block", "reset random"}) {
      viewer::handle_action(s, input.actions.front(), win, w, h);
      input.actions.pop_front();
      EXPECT_EQ(s.message.rfind(what, 0), 0u) << s.message;
      EXPECT_EQ(s.sim->steps(), 0) << what << ": a fresh start";
      EXPECT_EQ(s.sim->particle_count(), n);
      EXPECT_EQ(s.sim->fluid_count(), fluid);
      EXPECT_EQ(s.sim->diagnostics().max_speed, 0.0) << what << ": at rest";
      s.loop->advance(5);  // and it runs
      s.view->update();
    }
    input.touched = false;
    key(win, GLFW_KEY_F12, 0, GLFW_PRESS, 0);  // unbound
    EXPECT_TRUE(input.touched);
    EXPECT_TRUE(input.actions.empty());
  }
  glfwDestroyWindow(win);
}

// Share of the pixels of rows [y0, y1) whose mean channel is above 200 (light) and below 60 (dark).
std::pair<double, double> light_dark(const render::Image& img, int y0, int y1) {
  std::size_t light = 0, dark = 0, n = 0;
  for (int y = std::max(0, y0); y < std::min(img.height, y1); ++y)
    for (int x = 0; x < img.width; ++x, ++n) {
      const uint8_t* p = img.pixel(x, y);
      const int m = (p[0] + p[1] + p[2]) / 3;
      light += m > 200 ? 1 : 0;
      dark += m < 60 ? 1 : 0;
    }
  return {double(light) / double(n), double(dark) / double(n)};
}

TEST(ViewerKeys, ThemeLightRestylesThePanels) {
  EJECTA_NEED_DISPLAY();
  const fs::path dir = fresh_dir("theme");
  fs::create_directories(dir);
  auto window = [&](const std::string& theme) {
    const std::string shot = (dir / (theme + ".png")).string();
    const auto r = test::run_binary("--backend cpu --frames 4 --screenshot '" + shot + "' --width 480 --height 360 --theme " +
                                        theme + " --set particles.dp=0.01",
                                    "XDG_CONFIG_HOME='" + dir.string() + "'");
    EXPECT_EQ(r.code, 0) << r.out;
    return load_png(shot);
  };
  const render::Image light = window("light"), dark = window("dark");
  ASSERT_EQ(light.height, 360);
  ASSERT_EQ(dark.height, 360);
  // The status bar (the bottom 44 rows, the window's full width): ImGui's window background with text.
  const auto [l_light, l_dark] = light_dark(light, 360 - 40, 360 - 4);
  const auto [d_light, d_dark] = light_dark(dark, 360 - 40, 360 - 4);
  EXPECT_GT(l_light, 0.6) << "light panels with --theme light";
  EXPECT_LT(l_dark, 0.1);
  EXPECT_GT(d_dark, 0.6) << "dark panels by default";
  EXPECT_LT(d_light, 0.1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ejecta
