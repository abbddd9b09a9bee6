// The viewer's view logic without GL: the fit rectangle clear of the panels, zooming about the
// cursor, the clip plane's start, the smallest drawn particle, and the diagnostics plots.
#include "render/camera.h"
#include "viewer/diag_history.h"
#include "viewer/view_model.h"

#include <gtest/gtest.h>

#include <glm/glm.hpp>

namespace ejecta::viewer {
namespace {

// Window pixel (x right, y down) of a world point.
glm::vec2 pixel(const render::Camera& c, float w, float h, glm::vec3 p) {
  const glm::vec4 q = c.proj(w / h) * c.view() * glm::vec4(p, 1.f);
  return glm::vec2((q.x / q.w * 0.5f + 0.5f) * w, (0.5f - q.y / q.w * 0.5f) * h);
}

TEST(ViewModel, FreeRectLeavesOutThePanels) {
  // The viewer's default layout: control panel on the left, legend on the right, status bar below.
  const std::vector<PixelRect> panels = {{10, 10, 370, 610}, {1150, 470, 1270, 740}, {0, 756, 1280, 800}};
  const render::FitRect r = free_fit_rect(1280, 800, panels);
  EXPECT_FLOAT_EQ(r.x0 * 1280, 370);
  EXPECT_FLOAT_EQ(r.x1 * 1280, 1150);
  EXPECT_FLOAT_EQ(r.y0 * 800, 0);
  EXPECT_FLOAT_EQ(r.y1 * 800, 756);
  // No panels: the whole frame; panels that would leave a sliver: the whole frame too.
  const render::FitRect all = free_fit_rect(1280, 800, {});
  EXPECT_EQ(all.x0, 0.f);
  EXPECT_EQ(all.x1, 1.f);
  const render::FitRect crowded = free_fit_rect(400, 300, {{0, 0, 390, 290}});
  EXPECT_EQ(crowded.x1 - crowded.x0, 1.f);
}

TEST(ViewModel, FitKeepsTheSceneInsideTheFreeRect) {
  const std::vector<PixelRect> panels = {{10, 10, 370, 610}, {1150, 470, 1270, 740}, {0, 756, 1280, 800}};
  const float w = 1280, h = 800;
  const render::FitRect r = free_fit_rect(w, h, panels);
  const render::Bounds b{glm::vec3(0.f), glm::vec3(3.2f, 1.f, 0.6f)};
  for (bool two_d : {true, false}) {
    render::Camera c(two_d);
    c.set_aspect(w / h);
    c.set_fit_rect(r);
    if (!two_d) c.preset(render::ViewPreset::Iso);
    c.fit(b);
    float x_lo = 1e9f, x_hi = -1e9f;
    for (int k = 0; k < 8; ++k) {
      const glm::vec3 p((k & 1) ? b.hi.x : b.lo.x, (k & 2) ? b.hi.y : b.lo.y, two_d ? 0.f : ((k & 4) ? b.hi.z : b.lo.z));
      const glm::vec2 px = pixel(c, w, h, p);
      EXPECT_GE(px.x, 370.f) << "clear of the control panel, 2D " << two_d;
      EXPECT_LE(px.x, 1150.f) << "clear of the legend";
      EXPECT_GE(px.y, 0.f);
      EXPECT_LE(px.y, 756.f) << "clear of the status bar";
      x_lo = std::min(x_lo, px.x);
      x_hi = std::max(x_hi, px.x);
    }
    EXPECT_GT(x_hi - x_lo, 0.45f * (1150 - 370)) << "and fills a good part of it, 2D " << two_d;
    // The box's centre sits in the middle of the free rectangle.
    const glm::vec2 mid = pixel(c, w, h, 0.5f * (b.lo + b.hi) * glm::vec3(1, 1, two_d ? 0 : 1));
    EXPECT_NEAR(mid.x, 0.5f * (370 + 1150), 1.f);
    EXPECT_NEAR(mid.y, 0.5f * 756, 1.f);
  }
}

TEST(ViewModel, WheelZoomsAboutTheCursor) {
  for (bool two_d : {true, false}) {
    render::Camera c(two_d);
    c.set_aspect(1.6f);
    c.set_fit_rect(render::FitRect{0.3f, 0.f, 0.9f, 0.95f});
    c.fit(render::Bounds{glm::vec3(0.f), glm::vec3(2.f, 1.f, two_d ? 0.f : 1.f)});
    const float w = 1280, h = 800, mx = 900, my = 250;
    // The point of the target's plane under the cursor.
    const glm::vec3 p = unproject(c, mx, my, int(w), int(h), c.target());
    const float ppm = c.pixels_per_metre(int(h));
    c.zoom_at(1.15f * 1.15f, 2 * mx / w - 1, 1 - 2 * my / h);
    const glm::vec2 q = pixel(c, w, h, p);
    EXPECT_NEAR(q.x, mx, 0.05f) << "2D " << two_d;
    EXPECT_NEAR(q.y, my, 0.05f) << "2D " << two_d;
    EXPECT_NEAR(c.pixels_per_metre(int(h)), ppm * 1.15f * 1.15f, 1e-3f * ppm) << "and it zooms";
  }
}

TEST(ViewModel, PixelsPerMetreMatchTheProjection) {
  for (bool two_d : {true, false}) {
    render::Camera c(two_d);
    c.set_aspect(0.7f);
    c.fit(render::Bounds{glm::vec3(0.f), glm::vec3(1.f, 3.f, two_d ? 0.f : 1.f)});
    const float w = 560, h = 800;
    // One metre along the screen's x at the target: measured through the projection.
    glm::vec3 right(1, 0, 0);
    if (!two_d) right = glm::normalize(glm::cross(c.direction(), glm::vec3(0, 0, 1)));
    const float measured = glm::length(pixel(c, w, h, c.target() + 0.01f * right) - pixel(c, w, h, c.target())) / 0.01f;
    EXPECT_NEAR(c.pixels_per_metre(int(h)), measured, 1e-3f * measured) << "2D " << two_d;
  }
  EXPECT_FLOAT_EQ(min_visible_radius(0.001f, 1000.f), 0.002f) << "1 px radius grows to 4 px across";
  EXPECT_FLOAT_EQ(min_visible_radius(0.01f, 1000.f), 0.01f) << "a 20 px sphere stays";
}

TEST(ViewModel, ClipPlaneThroughTheMiddleFacingTheCamera) {
  HostParticles h;
  h.dim = 3;
  // Two fluid particles and a far wall particle: the box is the fluid's.
  h.position = {0, 0, 0, 2, 1, 0.5, 10, 10, 10};
  h.kind = {kFluid, kFluid, kWall};
  h.n = 3;
  const render::Bounds b = particle_bounds(h);
  EXPECT_EQ(b.hi, glm::vec3(2, 1, 0.5));
  render::Camera c(false);
  c.preset(render::ViewPreset::Iso);
  c.fit(b);
  const ClipPlane p = clip_facing_camera(b, c.direction());
  const glm::vec3 mid(1, 0.5, 0.25);
  EXPECT_NEAR(glm::dot(p.normal, mid), p.offset, 1e-6f) << "through the middle";
  const glm::vec3 eye = c.target() - c.direction() * c.distance();
  EXPECT_GT(glm::dot(p.normal, eye), p.offset) << "the eye's side is cut: the near half";
  EXPECT_NEAR(glm::dot(p.normal, -c.direction()), 1.f, 1e-6f) << "facing the camera";
}

TEST(DiagHistory, PlotsAgainstTimeWithFullNamesAndUnits) {
  DiagHistory hist;
  for (long s = 1; s <= 20; ++s) {
    Diagnostics d;
    d.step = s;
    d.time = 1e-5 * double(s);
    d.dt = 1e-5;
    d.kinetic = double(s);
    d.potential = 100 - double(s);
    d.total = 100;
    d.max_density_error = 0.001 * double(s);
    hist.add(d);
  }
  const std::vector<PlotSpec> plots = hist.plots();
  ASSERT_EQ(plots.size(), 3u);
  EXPECT_EQ(plots[0].y_label, "time step dt");
  EXPECT_EQ(plots[0].y_units, "s");
  EXPECT_EQ(plots[1].y_units, "J");
  ASSERT_EQ(plots[1].series.size(), 3u) << "kinetic, potential, total; internal is zero throughout";
  EXPECT_EQ(plots[2].series[0].name, "max density error") << "named in full";
  for (const PlotSpec& p : plots) {
    EXPECT_EQ(p.x_units, "s");
    for (const PlotSeries& s : p.series) {
      ASSERT_EQ(s.x.size(), 20u);
      EXPECT_DOUBLE_EQ(s.x.back(), 2e-4) << "x is the simulated time";
    }
  }
  TextMetrics m;
  m.width = [](const std::string& s) { return 7.f * float(s.size()); };
  const PlotLayout L = layout_plot(plots[2], 380, 160, m);
  EXPECT_EQ(L.x.title, "t [us]");
  bool whole = false;
  for (const PlotText& t : L.texts) whole |= t.text == "max density error |rho/rho0 - 1|" && t.x + t.w <= 380;
  EXPECT_TRUE(whole) << "the label is not cut: " << L.y.title;
  // A reset (the step count goes back) starts afresh.
  Diagnostics d;
  d.step = 1;
  hist.add(d);
  EXPECT_EQ(hist.size(), 1u);
}

}  // namespace
}  // namespace ejecta::viewer
