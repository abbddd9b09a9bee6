// Offscreen frames of the default scene: pixel statistics, not golden images. The fluid covers a
// plausible share of the frame, and its pixels lie on the viridis curve (flat discs, so no shading
// changes the colours), spanning the colormap (auto range); lit spheres cover the same footprint.
#include "gl_test_util.h"
#include "render/colormap.h"
#include "sim_test_util.h"
#include "viewer/scene_view.h"
#include "step_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ejecta {
namespace {

ParamSet coarse_default_scene() {
  ParamSet p = read_scene_string(default_scene_ini(), "<default scene>");
  p.apply_override("particles.dp=0.005");  // about 250 fluid particles: quick
  return p;
}

// Distance in RGB [0, 1] from c to the nearest viridis sample, and that sample's position t.
std::pair<float, float> nearest_on(const render::Colormap& m, const uint8_t* px) {
  float best = 1e9f, t = 0;
  for (int k = 0; k <= 1000; ++k) {
    const auto c = m.sample(k / 1000.f);
    float d = 0;
    for (int j = 0; j < 3; ++j) d += (c[j] - px[j] / 255.f) * (c[j] - px[j] / 255.f);
    if (d < best) best = d, t = k / 1000.f;
  }
  return {std::sqrt(best), t};
}

struct FrameStats {
  double covered = 0;      // fraction of pixels that are not background
  double off_curve = 0;    // fraction of covered pixels farther than 0.03 from viridis
  float t_min = 1, t_max = 0;
};

FrameStats stats(const render::Image& img, const render::ViewSettings& s, bool check_curve) {
  const render::Colormap& viridis = render::colormap("viridis");
  FrameStats st;
  std::size_t covered = 0, off = 0;
  const uint8_t bg[3] = {uint8_t(std::lround(s.background.r * 255)), uint8_t(std::lround(s.background.g * 255)),
                         uint8_t(std::lround(s.background.b * 255))};
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const uint8_t* p = img.pixel(x, y);
      if (std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) <= 3) continue;
      ++covered;
      if (!check_curve) continue;
      const auto [d, t] = nearest_on(viridis, p);
      if (d > 0.03f) ++off;
      st.t_min = std::min(st.t_min, t);
      st.t_max = std::max(st.t_max, t);
    }
  st.covered = double(covered) / (double(img.width) * img.height);
  st.off_curve = covered ? double(off) / double(covered) : 1.0;
  return st;
}

TEST(RenderFrames, DefaultSceneShowsTheFluidInViridis) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  auto sim = make_simulation(scene, Backend::Cpu);
  viewer::SceneView view(*sim, scene, false);
  EXPECT_EQ(view.upload_path(), "host copy");
  view.colour() = viewer::ColourChoice{"position", 1, true, 0, 1};  // height: a gradient over the column
  view.settings().mode = render::SpriteMode::Discs;
  view.settings().walls = render::WallMode::Hidden;
  view.settings().outline.clear();  // only the fluid's pixels: no tank outline
  view.update();
  view.draw(320, 240);
  const render::Image img = view.read();
  std::string why;
  std::printf("context: %s\n", test::shared_gl_context(&why)->description().c_str());
  // EJECTA_TEST_FRAMES=DIR keeps the frame for a look.
  if (const char* dir = std::getenv("EJECTA_TEST_FRAMES")) render::write_png(std::string(dir) + "/default-scene.png", img);
  const FrameStats st = stats(img, view.settings(), true);
  // The column (0.057 x 0.114 m) in the 0.4 x 0.3 m tank, fitted to the frame: a few percent.
  EXPECT_GT(st.covered, 0.01);
  EXPECT_LT(st.covered, 0.25);
  EXPECT_LT(st.off_curve, 0.02) << "fluid pixels are viridis colours";
  EXPECT_LT(st.t_min, 0.1f) << "the lowest particles get the bottom of the colormap";
  EXPECT_GT(st.t_max, 0.9f) << "the highest the top";
}

TEST(RenderFrames, WallsShownCoverMoreAndSpheresKeepTheFootprint) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  auto sim = make_simulation(scene, Backend::Cpu);
  viewer::SceneView view(*sim, scene, false);
  view.settings().mode = render::SpriteMode::Discs;
  view.settings().walls = render::WallMode::Hidden;
  view.update();
  view.draw(320, 240);
  const double fluid_only = stats(view.read(), view.settings(), false).covered;
  view.settings().walls = render::WallMode::Dimmed;
  view.draw(320, 240);
  const double with_walls = stats(view.read(), view.settings(), false).covered;
  EXPECT_GT(with_walls, fluid_only * 1.5) << "the tank's walls are drawn";
  view.settings().walls = render::WallMode::Hidden;
  view.settings().mode = render::SpriteMode::Spheres;
  view.draw(320, 240);
  const double spheres = stats(view.read(), view.settings(), false).covered;
  EXPECT_NEAR(spheres, fluid_only, 0.1 * fluid_only);
}

TEST(RenderFrames, ColormapsAreMatplotlibTables) {
  for (const std::string& name : render::colormap_names()) {
    const render::Colormap& m = render::colormap(name);
    EXPECT_EQ(m.rgb.size(), 256u) << name;
  }
  // viridis starts dark purple and ends yellow (matplotlib's _viridis_data first and last rows).
  const auto lo = render::colormap("viridis").sample(0), hi = render::colormap("viridis").sample(1);
  EXPECT_NEAR(lo[0], 0.267004, 1e-6);
  EXPECT_NEAR(hi[1], 0.906157, 1e-6);
  EXPECT_THROW(render::colormap("jet"), std::invalid_argument);
}

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

// True when no pixel of the outer `margin` rows/columns differs from the background.
bool border_is_background(const render::Image& img, int margin) {
  const uint8_t* bg = img.pixel(0, 0);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      if (x >= margin && x < img.width - margin && y >= margin && y < img.height - margin) continue;
      const uint8_t* p = img.pixel(x, y);
      if (p[0] != bg[0] || p[1] != bg[1] || p[2] != bg[2]) return false;
    }
  return true;
}

TEST(RenderFrames, FitToSceneFramesTheWholeTankIn2DAnd3D) {
  EJECTA_NEED_GL();
  for (const char* name : {"dambreak2d.ini", "dambreak3d.ini"}) {
    const ParamSet scene = test::shipped_scene(name, {std::string("particles.dp=") + (name[8] == '2' ? "0.005" : "0.04")});
    auto sim = make_simulation(scene, Backend::Cpu);
    viewer::SceneView view(*sim, scene, false);
    view.settings().walls = render::WallMode::Shown;
    view.update();
    view.draw(320, 240);
    const render::Image img = view.read();
    EXPECT_TRUE(border_is_background(img, 3)) << name << ": the fitted view leaves a margin";
    const FrameStats st = stats(img, view.settings(), false);
    EXPECT_GT(st.covered, 0.05) << name << ": the tank fills a good part of the frame";
    view.camera().zoom(0.5f);  // zoomed out by 2: the scene covers about a quarter of the pixels
    view.draw(320, 240);
    const double ratio = stats(view.read(), view.settings(), false).covered / st.covered;
    EXPECT_GT(ratio, 0.15) << name;
    EXPECT_LT(ratio, 0.45) << name;
  }
}

TEST(RenderFrames, ManualRangeClampsToTheColormapEnds) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  auto sim = make_simulation(scene, Backend::Cpu);
  viewer::SceneView view(*sim, scene, false);
  view.settings().mode = render::SpriteMode::Discs;
  view.settings().walls = render::WallMode::Hidden;
  view.settings().outline.clear();  // only the fluid's pixels: no tank outline
  // Every density is near 1000 kg/m^3: a manual range far below it maps all to the top colour.
  view.colour() = viewer::ColourChoice{"density", -1, false, 0.f, 1.f};
  view.update();
  EXPECT_EQ(view.settings().range_max, 1.f) << "the manual range is kept";
  view.draw(320, 240);
  FrameStats st = stats(view.read(), view.settings(), true);
  EXPECT_GT(st.t_min, 0.98f);
  view.colour().min = 2000.f, view.colour().max = 3000.f;
  view.update();
  view.draw(320, 240);
  st = stats(view.read(), view.settings(), true);
  EXPECT_LT(st.t_max, 0.02f);
}

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

TEST(RenderFrames, ClipPlaneCutsThe3DBody) {
  EJECTA_NEED_GL();
  const ParamSet scene = test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04"});
  auto sim = make_simulation(scene, Backend::Cpu);
  viewer::SceneView view(*sim, scene, false);
  view.update();
  view.draw(320, 240);
  const double whole = stats(view.read(), view.settings(), false).covered;
  // The column spans x in [1.992, 3.22]: a plane through its middle removes about half of it.
  view.settings().clip = true;
  view.settings().clip_normal = glm::vec3(1, 0, 0);
  view.settings().clip_offset = 2.6f;
  view.draw(320, 240);
  const double cut = stats(view.read(), view.settings(), false).covered;
  EXPECT_GT(whole, 0.005);
  EXPECT_LT(cut, 0.8 * whole);
  EXPECT_GT(cut, 0.2 * whole);
}

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

TEST(RenderFrames, CoolwarmAutoRangeIsSymmetricAboutZero) {
  EJECTA_NEED_GL();
  const ParamSet scene = coarse_default_scene();
  auto sim = make_simulation(scene, Backend::Cpu);
  test::step_n(*sim, 10);
  viewer::SceneView view(*sim, scene, false);
  view.colour().field = "pressure";
  view.settings().colormap = "coolwarm";
  const RenderRange r = view.update();
  ASSERT_LT(r.min, r.max);
  EXPECT_EQ(view.settings().range_min, -view.settings().range_max);
  EXPECT_EQ(view.settings().range_max, std::max(std::fabs(r.min), std::fabs(r.max)));
  view.settings().colormap = "viridis";
  view.update();
  EXPECT_EQ(view.settings().range_min, r.min) << "other maps take the data's range";
}

}  // namespace
}  // namespace ejecta
