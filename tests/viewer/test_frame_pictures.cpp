// What frames and screenshots show, by their pixels: the legend's units clear of its colour bar, the
// categories of `kind` in tab10's colours, a uniform field's range, dimmed walls translucent, hidden
// walls as the tank's outline, the 1D profile plots of Sod's tube (not a blank frame), the light theme,
// the scale bar's length, the screenshot's unique names and --until's final frame.
#include "binary_util.h"
#include "gl_test_util.h"
#include "render/colormap.h"
#include "sim_test_util.h"
#include "viewer/frame_overlay.h"
#include "viewer/legend.h"
#include "viewer/legend_scale.h"
#include "viewer/scene_look.h"
#include "step_util.h"

#include <glm/glm.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

ParamSet coarse_default_scene() {
  ParamSet p = read_scene_string(default_scene_ini(), "<default scene>");
  p.apply_override("particles.dp=0.005");
  return p;
}

void keep(const render::Image& img, const std::string& name) {
  // EJECTA_TEST_FRAMES=DIR keeps the frame for a look.
  if (const char* dir = std::getenv("EJECTA_TEST_FRAMES")) render::write_png(std::string(dir) + "/" + name, img);
}

bool near_rgb(const uint8_t* p, int r, int g, int b, int tol) {
  return std::abs(p[0] - r) <= tol && std::abs(p[1] - g) <= tol && std::abs(p[2] - b) <= tol;
}

std::size_t count_rgb(const render::Image& img, int r, int g, int b, int tol, int x0 = 0, int y0 = 0, int x1 = -1,
                      int y1 = -1) {
  if (x1 < 0) x1 = img.width;
  if (y1 < 0) y1 = img.height;
  std::size_t n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) n += near_rgb(img.pixel(x, y), r, g, b, tol);
  return n;
}

// Within 0.03 of the colormap and saturated (not the grey of text or window).
bool on_colormap(const render::Colormap& m, const uint8_t* p) {
  const int hi = std::max({p[0], p[1], p[2]}), lo = std::min({p[0], p[1], p[2]});
  if (hi - lo < 40) return false;
  for (int k = 0; k <= 200; ++k) {
    const auto c = m.sample(k / 200.f);
    float d = 0;
    for (int j = 0; j < 3; ++j) d += (c[j] - p[j] / 255.f) * (c[j] - p[j] / 255.f);
    if (d < 0.03f * 0.03f) return true;
  }
  return false;
}

struct Frame {
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<viewer::SceneView> view;
};

Frame make_frame(const ParamSet& scene) {
  Frame f;
  f.sim = make_simulation(scene, Backend::Cpu);
  f.view = std::make_unique<viewer::SceneView>(*f.sim, scene, false);
  f.view->set_histogram_interval(0);
  return f;
}

TEST(FramePictures, LegendUnitsStayClearOfTheColourBar) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  Frame f = make_frame(scene);
  test::step_n(*f.sim, 20);  // the column starts to fall: a range of speeds
  f.view->settings().walls = render::WallMode::Hidden;
  f.view->update();
  const int w = 640, h = 480;
  f.view->draw(w, h);
  viewer::FrameOverlay overlay;
  overlay.draw(*f.view, viewer::FrameCaption{"dam", f.sim->time(), true, false}, nullptr, w, h);
  const render::Image img = f.view->read();
  keep(img, "legend.png");
  const int x0 = w - int(viewer::kLegendWidth) - 10, y0 = h - int(viewer::kLegendHeight) - 10;
  const render::Colormap& m = render::colormap(f.view->settings().colormap);
  // Rows of the legend: with text (white) and with the colour bar (many colormap pixels).
  std::vector<bool> text(h, false), bar(h, false);
  for (int y = y0; y < h - 10; ++y) {
    int on_map = 0;
    for (int x = x0; x < w - 10; ++x) {
      const uint8_t* p = img.pixel(x, y);
      if (p[0] > 200 && p[1] > 200 && p[2] > 200) text[y] = true;
      on_map += on_colormap(m, p);
    }
    bar[y] = on_map >= 12;
  }
  int bar_top = -1, bar_rows = 0;
  for (int y = y0; y < h; ++y)
    if (bar[y]) {
      if (bar_top < 0) bar_top = y;
      ++bar_rows;
    }
  ASSERT_GT(bar_rows, 120) << "the colour bar is drawn";
  // Bands of text rows from the top: the field name, then the units; the units must end above the bar,
  // with no text row joining them to it (a tick label reaching up into the units merges the bands).
  std::vector<std::pair<int, int>> bands;
  for (int y = y0; y < h; ++y)
    if (text[y]) {
      if (bands.empty() || bands.back().second != y - 1) bands.push_back({y, y});
      else bands.back().second = y;
    }
  ASSERT_GE(bands.size(), 4u) << "title, units and tick labels";
  EXPECT_LT(bands[1].second, bar_top) << "the units line ends before the colour bar starts";
  EXPECT_LT(bands[1].second - bands[1].first, 16) << "the units band is one line, not merged with a tick label";
  // Tick labels beside the bar.
  int ticks_in_bar = 0;
  for (std::size_t k = 2; k < bands.size(); ++k) ticks_in_bar += bar[bands[k].first] || bar[bands[k].second];
  EXPECT_GE(ticks_in_bar, 2);
}

TEST(FramePictures, UniformFieldGetsItsNaturalRangeAndAHistogram) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  Frame f = make_frame(scene);  // at rest: every speed is 0
  f.view->update();
  EXPECT_EQ(f.view->colour().min, 0.f);
  EXPECT_EQ(f.view->colour().max, 1.f) << "a speed of 0 everywhere: 0..1 m/s, not -0.5..0.5";
  const viewer::LegendContent c = viewer::legend_content(*f.view);
  EXPECT_EQ(c.units, "m/s");
  ASSERT_EQ(c.histogram.size(), 32u);
  EXPECT_EQ(c.histogram[0], float(f.sim->fluid_count())) << "all the fluid in the first bin";
}

TEST(FramePictures, KindIsDrawnInCategoryColours) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  Frame f = make_frame(scene);
  viewer::apply_command_line_look(*f.view, f.sim->fields(), "kind", "", viewer::LookOptions{"shown", "discs", "", ""});
  EXPECT_EQ(f.view->settings().colormap, "tab10");
  f.view->update();
  EXPECT_EQ(f.view->colour().min, viewer::kCategoryMin);
  EXPECT_EQ(f.view->colour().max, viewer::kCategoryMax);
  const viewer::LegendContent c = viewer::legend_content(*f.view);
  EXPECT_TRUE(c.categorical);
  ASSERT_EQ(c.categories.size(), 2u);
  EXPECT_EQ(c.categories[1].second, "wall");
  f.view->draw(320, 240);
  const render::Image img = f.view->read();
  keep(img, "kind.png");
  const std::size_t fluid = count_rgb(img, 0x1f, 0x77, 0xb4, 2), wall = count_rgb(img, 0xff, 0x7f, 0x0e, 2);
  EXPECT_GT(fluid, 300u) << "fluid in tab10's first colour";
  EXPECT_GT(wall, 300u) << "walls in its second";
}

TEST(FramePictures, DimmedWallsAreTranslucentAndHiddenWallsLeaveTheOutline) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  Frame f = make_frame(scene);
  f.view->settings().mode = render::SpriteMode::Discs;
  auto frame = [&](render::WallMode walls) {
    f.view->settings().walls = walls;
    f.view->update();
    f.view->draw(640, 480);
    return f.view->read();
  };
  const render::Image dimmed = frame(render::WallMode::Dimmed), hidden = frame(render::WallMode::Hidden);
  keep(dimmed, "walls-dimmed.png");
  keep(hidden, "walls-hidden.png");
  // Discs are unshaded: a dimmed wall pixel is exactly grey over the background at the wall opacity.
  const glm::vec3 bg = f.view->settings().background;
  auto blend = [&](float b) {
    return int(std::lround((render::kDimmedWallGrey * render::kDimmedWallAlpha + b * (1 - render::kDimmedWallAlpha)) * 255));
  };
  const std::size_t translucent = count_rgb(dimmed, blend(bg.r), blend(bg.g), blend(bg.b), 2);
  EXPECT_GT(translucent, 2000u) << "the tank's walls, translucent over the background";
  EXPECT_LT(count_rgb(dimmed, 89, 89, 89, 2), 10u) << "no opaque 0.35 grey any more";
  EXPECT_EQ(count_rgb(hidden, blend(bg.r), blend(bg.g), blend(bg.b), 2), 0u);
  // Hidden: the tank's inner box as lines (0.7 grey on the dark theme), about its perimeter in pixels.
  const std::size_t outline = count_rgb(hidden, 179, 179, 179, 3);
  EXPECT_GT(outline, 800u) << "the outline of the 0.4 x 0.3 m tank";
  EXPECT_LT(count_rgb(dimmed, 179, 179, 179, 3), 50u) << "no outline while the walls are drawn";
}

TEST(FramePictures, SodTubeIsAProfilePlotNotABlankFrame) {
  EJECTA_NEED_GL();
  const ParamSet scene = test::shipped_scene("sod1d.ini");
  Frame f = make_frame(scene);
  test::step_until(*f.sim, 0.005);
  f.view->update();
  const int w = 800, h = 600;
  f.view->draw(w, h);
  const viewer::Profiles p = viewer::profiles_of(*f.sim, scene);
  ASSERT_EQ(p.curves.size(), 4u) << "density, velocity, pressure, internal energy";
  ASSERT_FALSE(p.exact_x.empty()) << "two gas blocks meeting at x = 0: a Riemann problem";
  // The exact solution at the frame's time: left state far left, right state far right.
  EXPECT_DOUBLE_EQ(p.curves[0].exact_y.front(), 1.0);
  EXPECT_DOUBLE_EQ(p.curves[0].exact_y.back(), 0.25);
  viewer::FrameOverlay overlay;
  overlay.draw(*f.view, viewer::FrameCaption{"sod1d", f.sim->time(), true, true}, &p, w, h);
  const render::Image img = f.view->read();
  keep(img, "sod1d.png");
  const glm::vec3 bg = f.view->settings().background;
  const std::size_t background =
      count_rgb(img, int(std::lround(bg.r * 255)), int(std::lround(bg.g * 255)), int(std::lround(bg.b * 255)), 3);
  EXPECT_LT(double(background), 0.97 * w * h) << "not a blank frame";
  // Each of the four panels holds particle markers and the exact line.
  const int m = viewer::kProfileMarkerRgb, e = viewer::kProfileExactRgb;
  for (int q = 0; q < 4; ++q) {
    const int x0 = (q % 2) * w / 2, y0 = 60 + (q / 2) * (h - 60) / 2;
    const int x1 = x0 + w / 2, y1 = y0 + (h - 60) / 2;
    EXPECT_GT(count_rgb(img, (m >> 16) & 255, (m >> 8) & 255, m & 255, 3, x0, y0, x1, y1), 200u) << "panel " << q;
    EXPECT_GT(count_rgb(img, (e >> 16) & 255, (e >> 8) & 255, e & 255, 3, x0, y0, x1, y1), 150u) << "panel " << q;
  }
}

TEST(FramePictures, LightThemeAndScaleBar) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  Frame f = make_frame(scene);
  f.view->apply_look(viewer::LookOptions{"", "", "", "light"});
  f.view->update();
  const int w = 640, h = 480;
  f.view->draw(w, h);
  viewer::FrameOverlay overlay;
  overlay.draw(*f.view, viewer::FrameCaption{"dam", 0.0, true, true}, nullptr, w, h);
  const render::Image img = f.view->read();
  keep(img, "light.png");
  EXPECT_TRUE(near_rgb(img.pixel(w / 2, 2), 255, 255, 255, 0)) << "white background";
  // The caption's dark text in the top left corner.
  EXPECT_GT(count_rgb(img, 0, 0, 0, 60, 0, 0, 200, 60), 20u);
  // The scale bar's length is the projected length of its distance at the target.
  const render::Camera& cam = f.view->camera();
  const auto [metres, px] = viewer::scale_bar(cam, w, h);
  ASSERT_GT(metres, 0);
  const glm::mat4 vp = cam.proj(float(w) / h) * cam.view();
  auto screen_x = [&](glm::vec3 x) {
    const glm::vec4 c = vp * glm::vec4(x, 1.f);
    return (c.x / c.w * 0.5f + 0.5f) * w;
  };
  const glm::vec3 t = cam.target();
  EXPECT_NEAR(screen_x(t + glm::vec3(float(metres), 0, 0)) - screen_x(t), px, 0.5f);
  EXPECT_GT(px, 60.f);
  EXPECT_LT(px, 400.f);
  const double m = metres / std::pow(10.0, std::floor(std::log10(metres) + 1e-9));
  EXPECT_TRUE(std::fabs(m - 1) < 1e-6 || std::fabs(m - 2) < 1e-6 || std::fabs(m - 5) < 1e-6) << metres;
}

TEST(FramePictures, ScreenshotsGetUniqueNamesInTheChosenFolder) {
  EJECTA_NEED_GL();
  const fs::path dir = fs::temp_directory_path() / ("ejecta-test-shots-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const ParamSet scene = coarse_default_scene();
  Frame f = make_frame(scene);
  f.view->update();
  const std::string a = viewer::save_screenshot(*f.view, *f.sim, scene, dir.string(), 400, 340);
  const std::string b = viewer::save_screenshot(*f.view, *f.sim, scene, dir.string(), 400, 340);
  EXPECT_EQ(fs::path(a).parent_path(), dir);
  EXPECT_NE(a, b);
  EXPECT_TRUE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
  EXPECT_NE(b.find("-2.png"), std::string::npos) << b;
  fs::remove_all(dir);
}

TEST(FramePictures, TheFinalStateIsAlwaysAFrame) {
  EJECTA_NEED_GL();
  const fs::path dir = fs::temp_directory_path() / ("ejecta-test-final-" + std::to_string(getpid()));
  fs::remove_all(dir);
  // 7 steps, a frame every 5: frames of steps 0 and 5, and the final state (step 7); --until ends
  // through the same RenderObserver::finish().
  const auto r = test::run_binary("--headless --backend cpu --steps 7 --render-every 5 --render-dir '" + dir.string() +
                                  "' --width 160 --height 120 --theme light --no-overlay --set particles.dp=0.005");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote 3 frames"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "frame_000002.png"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ejecta
