// Grains are drawn at their own size (issue 17, RenderBuffers::radii): frames of grains of two sizes,
// 2x apart in radius, measured disc by disc. The grains lie spaced out (no grain touches another), so
// every disc is one connected patch of pixels; its area must be pi r_px^2 with r_px the grain's own
// radius in pixels, and the big grains' mean area 4 times the small ones'. Before the radii were
// carried, every grain was drawn at one radius (area ratio 1). GL sprites (CPU backend, host copy:
// the `gl` tier) and the CUDA splat rasterizer (GPU tier) alike; the GPU test also compares the splat
// with the GL sprites on a dense polydisperse 3D pile (per-particle depth) and the splat's wide path
// with its per-particle path. Also without GL: picking uses the drawn radius, playback carries the
// radii, and SPH frames do not change when the radius attribute is on with no radii.
#include "gl_test_util.h"
#include "physics/solid_model.h"
#include "render/frame_render_data.h"
#include "render/gl_framebuffer.h"
#include "render/gl_particle_renderer.h"
#include "render_data/fill_render_data.h"
#include "sim_test_util.h"
#include "step_util.h"
#include "viewer/scene_view.h"
#include "viewer/view_model.h"

#include <GL/glew.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace ejecta {
namespace {

constexpr double kBig = 0.01, kSmall = 0.005;  // m: radii 2x apart

// 2D grains at rest (no gravity), a row of big ones over a row of small ones, 6 cm apart: isolated.
ParamSet two_sizes_2d() {
  const std::string ini =
      "[scene]\nname = two_sizes\ndim = 2\n[physics]\nmodel = mixed\ngravity = 0, 0\n"
      "[dem]\nspring = 2000\ndamping = 1\nbox_min = 0, 0\nbox_max = 0.4, 0.3\n"
      "[grains.1]\nmin = 0.02, 0.16\nmax = 0.38, 0.2\nradius = 0.01\nspacing = 0.06\n"
      "[grains.2]\nmin = 0.035, 0.06\nmax = 0.38, 0.1\nradius = 0.005\nspacing = 0.06\n";
  return read_scene_string(ini, "<two grain sizes>");
}

struct DiscAreas {
  double big = 0, small = 0;              // mean pixel area of the discs of each size
  double big_expected = 0, small_expected = 0;  // pi r_px^2 at the drawn radius
  int big_count = 0, small_count = 0;
  double worst = 0;  // the largest |area / expected - 1| of a single disc
};

// The connected patch (4-neighbours) of non-background pixels around (x, y) in an image: its size.
std::size_t patch_area(const render::Image& img, int x0, int y0, std::vector<uint8_t>& seen) {
  auto drawn = [&](int x, int y) {
    const uint8_t* p = img.pixel(x, y);
    const uint8_t* b = img.pixel(0, 0);  // a corner: background
    return std::abs(p[0] - b[0]) + std::abs(p[1] - b[1]) + std::abs(p[2] - b[2]) > 3;
  };
  if (!drawn(x0, y0)) return 0;
  std::vector<std::pair<int, int>> stack{{x0, y0}};
  seen[std::size_t(y0) * img.width + x0] = 1;
  std::size_t n = 0;
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    ++n;
    const int nb[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
    for (const auto& q : nb) {
      if (q[0] < 0 || q[1] < 0 || q[0] >= img.width || q[1] >= img.height) continue;
      uint8_t& s = seen[std::size_t(q[1]) * img.width + q[0]];
      if (s || !drawn(q[0], q[1])) continue;
      s = 1;
      stack.push_back({q[0], q[1]});
    }
  }
  return n;
}

// Draws the scene's grains as flat discs (or spheres) through `view` and measures each grain's disc.
DiscAreas measure_discs(viewer::SceneView& view, Simulation& sim, render::SpriteMode mode, int w, int h,
                        const char* png = nullptr) {
  view.settings().mode = mode;
  view.settings().walls = render::WallMode::Hidden;
  view.settings().outline.clear();
  view.settings().show_collider = false;
  // White behind the discs: the lit spheres' darkest rims stay apart from it.
  view.settings().background = render::light_background();
  view.colour() = viewer::ColourChoice{"position", 0, true, 0, 1};
  view.update();
  view.draw(w, h);
  const render::Image img = view.read();
  if (const char* dir = std::getenv("EJECTA_TEST_FRAMES"))
    if (png) render::write_png(std::string(dir) + "/" + png, img);
  const render::Camera& cam = view.camera();
  const glm::mat4 proj = cam.proj(float(w) / float(h)), vp = proj * cam.view();
  const FrameData f = sim.capture_frame({"position", kRadiusField});
  std::vector<float> pos, col, rad;
  render::fill_from_frame(f, RenderRequest{"position", -1}, pos, col, &rad);
  EXPECT_EQ(rad.size(), pos.size() / 4) << "the frame carries the grains' radii";
  DiscAreas a;
  std::vector<uint8_t> seen(std::size_t(w) * h, 0);
  for (std::size_t i = 0; i < rad.size(); ++i) {
    const glm::vec4 c = vp * glm::vec4(pos[4 * i], pos[4 * i + 1], pos[4 * i + 2], 1.f);
    const int x = int(std::floor((c.x / c.w * 0.5f + 0.5f) * float(w)));
    const int y = h - 1 - int(std::floor((c.y / c.w * 0.5f + 0.5f) * float(h)));  // the image's top row first
    const double rpx = double(rad[i]) * view.settings().radius_scale * proj[1][1] * 0.5 * h / c.w;
    const double expected = M_PI * rpx * rpx;
    const double area = double(patch_area(img, x, y, seen));
    a.worst = std::max(a.worst, std::abs(area / expected - 1));
    const bool big = rad[i] > 0.75 * kBig;
    (big ? a.big : a.small) += area;
    (big ? a.big_expected : a.small_expected) += expected;
    ++(big ? a.big_count : a.small_count);
  }
  a.big /= std::max(1, a.big_count), a.big_expected /= std::max(1, a.big_count);
  a.small /= std::max(1, a.small_count), a.small_expected /= std::max(1, a.small_count);
  return a;
}

// The bounds: the big discs' mean area is 4 times the small ones' within 8%, each mean within 8% of
// pi r_px^2 and no single disc off by more than 15% (pixel coverage of a disc 11 px in radius: the
// lattice-point count in a circle of radius R is pi R^2 + O(R^(2/3)), a few percent here).
void expect_true_sizes(const DiscAreas& a, const std::string& what) {
  std::printf("%s: %d big discs of %.1f px (expected %.1f), %d small of %.1f px (expected %.1f), area ratio %.3f, "
              "worst disc %.1f%% off\n",
              what.c_str(), a.big_count, a.big, a.big_expected, a.small_count, a.small, a.small_expected,
              a.big / std::max(1e-9, a.small), 100 * a.worst);
  EXPECT_GE(a.big_count, 5) << what;
  EXPECT_GE(a.small_count, 5) << what;
  EXPECT_NEAR(a.big / a.small, 4.0, 0.08 * 4.0) << what << ": areas follow the radii (2x apart)";
  EXPECT_NEAR(a.big / a.big_expected, 1.0, 0.08) << what;
  EXPECT_NEAR(a.small / a.small_expected, 1.0, 0.08) << what;
  EXPECT_LT(a.worst, 0.15) << what;
}

TEST(GrainPictures, SpritesDrawEachGrainAtItsOwnRadius) {
  EJECTA_NEED_GL();
  const ParamSet scene = two_sizes_2d();
  auto sim = make_simulation(scene, Backend::Cpu);
  viewer::SceneView view(*sim, scene, false);
  ASSERT_EQ(view.upload_path(), "host copy");
  view.draw(1000, 750);  // fits the camera for this frame's aspect
  // At the natural radius the grains are drawn at their true size.
  EXPECT_FLOAT_EQ(view.settings().radius_scale, 1.f);
  expect_true_sizes(measure_discs(view, *sim, render::SpriteMode::Discs, 1000, 750, "grains-discs.png"), "GL discs");
  expect_true_sizes(measure_discs(view, *sim, render::SpriteMode::Spheres, 1000, 750), "GL spheres");
  // The radius box scales grains in proportion: twice the radius, twice every grain.
  view.settings().radius *= 2;
  const DiscAreas twice = measure_discs(view, *sim, render::SpriteMode::Discs, 1000, 750);
  EXPECT_FLOAT_EQ(view.settings().radius_scale, 2.f);
  expect_true_sizes(twice, "GL discs, radius box doubled");
}

// SPH scenes: no radius field, so the radius buffer stays off. With it on and every radius 0, or
// every radius equal to the uniform one, the frame is the same to the pixel: the per-particle path
// draws what the uniform one does.
TEST(GrainPictures, SphFramesAreTheSameWithTheRadiusAttribute) {
  EJECTA_NEED_GL();
  auto sim = make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"}), Backend::Cpu);
  test::step_n(*sim, 20);
  ASSERT_FALSE(has_particle_radii(sim->fields()));
  const std::size_t n = sim->particle_count();
  std::vector<float> pos(4 * n), col(n);
  const RenderRange r =
      sim->fill_render_data(RenderRequest{"velocity", -1}, RenderBuffers{pos.data(), col.data(), n, false});
  render::GlParticleRenderer renderer;
  render::Camera cam(true);
  cam.set_aspect(640.f / 480.f);
  cam.fit(render::Bounds{glm::vec3(0.f), glm::vec3(0.4f, 0.3f, 0.f)});  // the tank
  render::ViewSettings s;
  s.radius = 0.0025f;
  s.range_min = r.min, s.range_max = r.max;
  s.walls = render::WallMode::Dimmed;
  render::Framebuffer fb;
  fb.resize(640, 480);
  auto frame = [&](const std::vector<float>& radii, render::SpriteMode mode) {
    render::upload_host_arrays(renderer, pos, col, radii);
    EXPECT_EQ(renderer.has_radii(), !radii.empty());
    s.mode = mode;
    fb.bind();
    renderer.draw(cam, s, 640, 480);
    return fb.read();
  };
  for (const render::SpriteMode mode : {render::SpriteMode::Spheres, render::SpriteMode::Discs}) {
    const render::Image off = frame({}, mode);
    const render::Image zeros = frame(std::vector<float>(n, 0.f), mode);
    const render::Image same = frame(std::vector<float>(n, s.radius), mode);
    const test::FramePairStats a = test::compare_frames(off, zeros), b = test::compare_frames(off, same);
    EXPECT_GT(a.in_a, std::size_t(640 * 480 / 50)) << "the dam break is drawn";
    EXPECT_EQ(a.unequal, 0u) << "radii 0: the uniform radius";
    EXPECT_EQ(b.unequal, 0u) << "own radii equal to the uniform one";
  }
}

// Without GL: a click on a big grain near its rim (farther out than the 8 px tolerance) picks it
// at its drawn radius, and misses it where grains were all drawn at the uniform radius.
TEST(GrainRadii, PickUsesEachGrainsDrawnRadius) {
  render::Camera cam(true);
  cam.set_aspect(1.f);
  cam.fit(render::Bounds{glm::vec3(-0.1f, -0.1f, 0.f), glm::vec3(0.1f, 0.1f, 0.f)});
  render::ViewSettings s;
  s.radius = 0.002f;
  const std::vector<float> pos = {0.f, 0.f, 0.f, 0.f, 0.06f, 0.f, 0.f, 0.f};
  const std::vector<float> radii = {0.02f, 0.f};  // a grain of 2 cm, an SPH particle
  const glm::mat4 proj = cam.proj(1.f);
  const float ppm = proj[1][1] * 0.5f * 400.f;  // orthographic: pixels per metre in a 400 px frame
  const glm::vec4 c = proj * cam.view() * glm::vec4(0.f, 0.f, 0.f, 1.f);
  const double cx = (c.x / c.w * 0.5 + 0.5) * 400, cy = (0.5 - c.y / c.w * 0.5) * 400;
  const double rim = 0.9 * 0.02 * ppm;  // 90% of the grain's radius in pixels
  ASSERT_GT(rim, 12.0) << "the test needs the rim beyond the 8 px tolerance";
  EXPECT_EQ(viewer::pick_particle(cam, s, pos, radii, cx + rim, cy, 400, 400), 0);
  EXPECT_EQ(viewer::pick_particle(cam, s, pos, {}, cx + rim, cy, 400, 400), -1);
  EXPECT_EQ(viewer::pick_particle(cam, s, pos, radii, cx + 1.2 * rim, cy, 400, 400), -1);
  // The SPH particle at its uniform radius (plus the tolerance).
  const double px = cx + 0.06 * ppm;
  EXPECT_EQ(viewer::pick_particle(cam, s, pos, radii, px + 5, cy, 400, 400), 1);
}

// Without GL: playback draws a recorded frame's grains at the radii the live run drew.
TEST(GrainRadii, PlaybackCarriesTheLiveRadii) {
  auto sim = make_simulation(test::shipped_scene("grains_column2d.ini"), Backend::Cpu);
  test::step_n(*sim, 5);
  const std::size_t n = sim->particle_count();
  std::vector<float> pos(4 * n), col(n), live(n, -1.f);
  RenderBuffers out{pos.data(), col.data(), n, false, live.data()};
  sim->fill_render_data(RenderRequest{"velocity", -1}, out);
  const FrameData f = sim->capture_frame();
  std::vector<float> ppos, pcol, prad;
  render::fill_from_frame(f, RenderRequest{"velocity", -1}, ppos, pcol, &prad);
  EXPECT_EQ(prad, live);
  EXPECT_EQ(ppos, pos);
  // A recording without the field (--record-fields): no radii, the uniform radius.
  render::fill_from_frame(sim->capture_frame({"position", "velocity"}), RenderRequest{"position", -1}, ppos, pcol,
                          &prad);
  EXPECT_TRUE(prad.empty());
}

// GPU: the CUDA splat rasterizer draws the grains at their own radius too, and matches the GL
// sprites on a dense polydisperse 3D pile (sizes 1 cm +- 50%, spheres intersecting by their own
// depth), by the bounds of InteropGpu.SplatFramesMatchSpriteFrames; the sprites filled through
// interop equal those filled through the host copy to the pixel; zoomed in, the splat's wide-particle
// path draws the same pixels as its per-particle path.
TEST(GrainPicturesGpu, SplatDrawsEachGrainAtItsOwnRadius) {
  std::string why;
  auto ctx = test::nvidia_egl_context(&why);
  if (!ctx) GTEST_SKIP() << why;
  {
    const ParamSet scene = two_sizes_2d();
    auto sim = make_simulation(scene, Backend::Cuda);
    viewer::SceneView splat(*sim, scene, true, true);
    ASSERT_EQ(splat.upload_path(), "CUDA splat (interop)");
    splat.draw(1000, 750);
    expect_true_sizes(measure_discs(splat, *sim, render::SpriteMode::Discs, 1000, 750, "grains-splat.png"),
                      "splat discs");
    expect_true_sizes(measure_discs(splat, *sim, render::SpriteMode::Spheres, 1000, 750), "splat spheres");
    viewer::SceneView sprites(*sim, scene, true, false);
    ASSERT_EQ(sprites.upload_path(), "CUDA-GL interop");
    sprites.draw(1000, 750);
    expect_true_sizes(measure_discs(sprites, *sim, render::SpriteMode::Discs, 1000, 750), "interop sprites");
  }
  const ParamSet pile = test::shipped_scene(
      "grains3d.ini", {"grains.1.min=0.3,0.3,0.05", "grains.1.max=0.7,0.7,0.3", "grains.1.spacing=0.031",
                       "grains.1.size_spread=0.5", "grains.1.jitter=0"});
  auto sim = make_simulation(pile, Backend::Cuda);
  test::run_until(*sim, 0.15);  // falling onto the floor: grains overlap on the screen
  viewer::SceneView splat(*sim, pile, true, true), sprites(*sim, pile, true, false), host(*sim, pile, false);
  ASSERT_NE(splat.splat(), nullptr);
  ASSERT_EQ(sprites.upload_path(), "CUDA-GL interop");
  ASSERT_EQ(host.upload_path(), "host copy");
  for (const render::SpriteMode mode : {render::SpriteMode::Spheres, render::SpriteMode::Discs}) {
    for (viewer::SceneView* v : {&splat, &sprites, &host}) {
      v->settings().mode = mode;
      v->settings().walls = render::WallMode::Hidden;
      v->settings().outline.clear();
      v->colour().field = "velocity";
      v->update();
      v->draw(800, 600);
    }
    const render::Image a = splat.read(), b = sprites.read();
    const test::FramePairStats s = test::compare_frames(a, b);
    std::printf("polydisperse pile, %s: splat %zu px, sprites %zu px, IoU %.4f, %.2f%% of shared pixels off by > 8\n",
                mode == render::SpriteMode::Spheres ? "spheres" : "discs", s.in_a, s.in_b, s.iou(),
                100 * s.off_fraction());
    EXPECT_GT(s.in_b, a.rgba.size() / 4 / 100);
    EXPECT_GE(s.iou(), 0.97);
    EXPECT_LE(s.off_fraction(), 0.03);
    // The radii mapped through interop draw the same pixels as the radii copied through the host.
    EXPECT_EQ(test::compare_frames(b, host.read()).unequal, 0u) << "interop and host copy";
  }
  splat.settings().mode = render::SpriteMode::Spheres;
  splat.camera().zoom(6.f);
  splat.draw(800, 600);
  const render::Image wide = splat.read();
  splat.splat()->set_wide_radius_px(1e9f);
  splat.draw(800, 600);
  const render::Image narrow = splat.read();
  splat.splat()->set_wide_radius_px(6.f);
  const test::FramePairStats s = test::compare_frames(wide, narrow);
  EXPECT_GT(s.in_a, wide.rgba.size() / 4 / 10);
  EXPECT_EQ(s.unequal, 0u) << "the wide path uses each grain's radius as the per-particle path does";
}

}  // namespace
}  // namespace ejecta
