// The viewer's non-GL parts: camera, diagnostics history, particle inspector, record toggle.
#include "io/h5_reader.h"
#include "render/camera.h"
#include "sim_test_util.h"
#include "viewer/viewer_state.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace ejecta {
namespace {

// NDC of a world point.
glm::vec3 ndc(const render::Camera& c, float aspect, glm::vec3 p) {
  const glm::vec4 q = c.proj(aspect) * c.view() * glm::vec4(p, 1.f);
  return glm::vec3(q) / q.w;
}

TEST(Camera, FitKeepsEveryCornerInViewIn2DAnd3D) {
  const render::Bounds b{glm::vec3(-0.1f, 0.f, 0.f), glm::vec3(3.2f, 1.f, 0.6f)};
  for (bool two_d : {true, false})
    for (float aspect : {0.5f, 1.f, 2.f}) {
      render::Camera c(two_d);
      c.set_aspect(aspect);
      if (!two_d) c.preset(render::ViewPreset::Iso);
      c.fit(b);
      float extent = 0;
      for (int k = 0; k < 8; ++k) {
        const glm::vec3 p((k & 1) ? b.hi.x : b.lo.x, (k & 2) ? b.hi.y : b.lo.y, two_d ? 0.f : ((k & 4) ? b.hi.z : b.lo.z));
        const glm::vec3 n = ndc(c, aspect, p);
        EXPECT_LE(std::abs(n.x), 1.f) << two_d << " " << aspect;
        EXPECT_LE(std::abs(n.y), 1.f) << two_d << " " << aspect;
        EXPECT_GT(n.z, -1.f);
        EXPECT_LT(n.z, 1.f);
        extent = std::max({extent, std::abs(n.x), std::abs(n.y)});
      }
      EXPECT_GT(extent, 0.45f) << "and fills a good part of it (3D fits the bounding sphere: loose for long boxes)";
    }
}

TEST(Camera, OrbitPanZoom) {
  render::Camera c(false);
  c.fit(render::Bounds{glm::vec3(0.f), glm::vec3(1.f)});
  const glm::vec3 centre(0.5f);
  const glm::vec3 a = ndc(c, 1.f, glm::vec3(1.f, 0.f, 0.f));
  c.orbit(100.f, 0.f);
  const glm::vec3 b = ndc(c, 1.f, glm::vec3(1.f, 0.f, 0.f));
  EXPECT_GT(glm::length(a - b), 0.05f) << "orbiting moves off-centre points";
  EXPECT_NEAR(glm::length(glm::vec2(ndc(c, 1.f, centre))), 0.f, 1e-5f) << "around the target";
  const float d = c.distance();
  c.zoom(2.f);
  EXPECT_NEAR(c.distance(), d / 2, 1e-6f);
  c.pan(50.f, 0.f, 500);
  EXPECT_GT(ndc(c, 1.f, centre).x, 0.05f) << "dragging right moves the scene right";
  render::Camera flat(true);
  flat.fit(render::Bounds{glm::vec3(0.f), glm::vec3(1.f, 1.f, 0.f)});
  flat.orbit(100.f, 100.f);  // no orbiting in 2D
  EXPECT_NEAR(ndc(flat, 1.f, glm::vec3(0.5f, 0.5f, 0.f)).x, 0.f, 1e-6f);
}

TEST(DiagHistory, OneSamplePerStepBoundedSeries) {
  viewer::DiagHistory h(3);
  Diagnostics d;
  for (long s = 1; s <= 5; ++s) {
    d.step = s;
    d.dt = 1e-4 * double(s);
    h.add(d);
    h.add(d);  // the same step again (a paused frame): ignored
  }
  ASSERT_EQ(h.size(), 3u);
  const auto dt = h.series("dt");
  ASSERT_EQ(dt.size(), 3u);
  EXPECT_DOUBLE_EQ(dt[0], 3e-4);
  EXPECT_DOUBLE_EQ(dt[2], 5e-4);
  for (const auto& n : viewer::DiagHistory::names()) EXPECT_EQ(h.series(n).size(), 3u) << n;
  EXPECT_THROW(h.series("entropy"), std::invalid_argument);
}

viewer::ViewerState state_for(const ParamSet& scene) {
  viewer::ViewerState s;
  s.opt.scene = scene;
  s.model = std::make_unique<viewer::ParamPanelModel>(scene);
  s.sim = make_simulation(scene, Backend::Cpu);
  s.loop = std::make_unique<StepLoop>(*s.sim, StopRule{});
  return s;
}

TEST(ViewerState, InspectorShowsEveryFieldOfTheParticle) {
  viewer::ViewerState s = state_for(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"}));
  s.loop->advance(5);
  const HostParticles h = s.sim->download();
  const long i = 7;
  viewer::inspect(s, i);
  EXPECT_EQ(s.picked, i);
  EXPECT_EQ(s.picked_fields.size(), s.sim->fields().size());
  auto value = [&](const std::string& name) {
    for (const auto& [n, v] : s.picked_fields)
      if (n == name) return v;
    return std::string("missing");
  };
  EXPECT_EQ(value("id"), std::to_string(h.id[i]));
  std::ostringstream rho;
  rho << float(h.density[i]) << " kg/m^3";
  EXPECT_EQ(value("density"), rho.str());
}

TEST(ViewerState, RecordToggleWritesAReadableFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ejecta-viewer-record-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  viewer::ViewerState s = state_for(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005", "scene.end_time=0.01"}));
  s.opt.record_dir = dir.string();
  viewer::toggle_recording(s);
  ASSERT_TRUE(s.recorder) << s.message;
  const std::string path = s.recorder->path();
  // Frames every end_time / 100 = 1e-4 s of simulated time, on the same StepLoop the viewer steps.
  while (s.sim->time() < 0.002) s.loop->advance(4, s.record_obs.get());
  viewer::toggle_recording(s);
  EXPECT_FALSE(s.recorder);
  EXPECT_NE(s.message.find("recorded"), std::string::npos) << s.message;
  const H5Reader r(path);
  EXPECT_GE(r.frame_count(), 15u);
  EXPECT_NE(r.info().scene_ini.find("end_time = 0.01"), std::string::npos);
  const FrameData last = r.read_frame(r.frame_count() - 1);
  EXPECT_GT(last.time, 0.0015);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ejecta
