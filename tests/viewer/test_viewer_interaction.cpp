// The viewer's interactions on a real SceneView (offscreen GL): dropping fluid (or, in a scene of
// grains, grains) grows the drawn particles and keeps the view, the snapshot button writes a
// restartable file, the clip plane starts through the middle facing the camera, the line profile
// follows the colour field, and the rates read 0 while paused.
#include "gl_test_util.h"
#include "io/h5_reader.h"
#include "sim_test_util.h"
#include "viewer/viewer_state.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

namespace ejecta::viewer {
namespace {

ViewerState state(const ParamSet& scene) {
  ViewerState s;
  s.opt.scene = scene;
  s.opt.interop = false;
  s.model = std::make_unique<ParamPanelModel>(scene);
  rebuild(s);
  return s;
}

// Pixels of the frame that are not the background.
std::size_t drawn(const render::Image& img) {
  std::size_t n = 0;
  const uint8_t* bg = img.rgba.data();
  for (std::size_t i = 0; i < img.rgba.size(); i += 4)
    if (std::abs(int(img.rgba[i]) - bg[0]) + std::abs(int(img.rgba[i + 1]) - bg[1]) + std::abs(int(img.rgba[i + 2]) - bg[2]) > 30) ++n;
  return n;
}

TEST(ViewerInteraction, DropFluidGrowsTheDrawnSceneAndKeepsTheView) {
  EJECTA_NEED_GL();
  ViewerState s = state(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"}));
  s.view->draw(320, 240);
  s.view->camera().zoom(1.5f);
  const glm::mat4 before_view = s.view->camera().view();
  s.view->update();
  s.view->draw(320, 240);
  const std::size_t px0 = drawn(s.view->read());
  const std::size_t n0 = s.sim->particle_count();
  s.drop_size = 0.04f;
  drop_fluid(s, glm::vec3(0.25f, 0.15f, 0.f));
  ASSERT_GT(s.sim->particle_count(), n0) << s.message;
  EXPECT_NE(s.message.find("dropped"), std::string::npos) << s.message;
  EXPECT_EQ(s.view->camera().view(), before_view) << "the view stays";
  s.view->update();
  s.view->draw(320, 240);
  EXPECT_GT(drawn(s.view->read()), px0 + 100) << "the new fluid is drawn";
  s.loop->advance(5);  // and the new simulation steps
  EXPECT_EQ(s.sim->steps(), 5);
  // Inside the water there is no room: a message, nothing else changes.
  const std::size_t n1 = s.sim->particle_count();
  s.drop_size = 0.01f;
  drop_fluid(s, glm::vec3(0.02f, 0.02f, 0.f));
  EXPECT_EQ(s.sim->particle_count(), n1);
  EXPECT_NE(s.message.find("no room"), std::string::npos) << s.message;
  // A pending [reset] edit: refused, since the panel's scene is not the running one.
  s.model->set("particles.dp", "0.004", s.sim.get());
  drop_fluid(s, glm::vec3(0.25f, 0.15f, 0.f));
  EXPECT_EQ(s.sim->particle_count(), n1);
  EXPECT_NE(s.message.find("Reset first"), std::string::npos) << s.message;
}

TEST(ViewerInteraction, DropInAGrainSceneAddsGrainsAndSaysHowMany) {
  EJECTA_NEED_GL();
  ViewerState s = state(test::shipped_scene("grains_column2d.ini"));
  s.view->draw(320, 240);
  s.view->update();
  s.view->draw(320, 240);
  const std::size_t px0 = drawn(s.view->read());
  const std::size_t n0 = s.sim->particle_count();
  const glm::mat4 before_view = s.view->camera().view();
  s.drop_size = 0.05f;
  drop_fluid(s, glm::vec3(0.8f, 0.3f, 0.f));  // key D: grains in a scene of grains, in the empty box
  ASSERT_GT(s.sim->particle_count(), n0) << s.message;
  EXPECT_EQ(s.message, "dropped " + std::to_string(s.sim->particle_count() - n0) + " grains");
  EXPECT_EQ(s.view->camera().view(), before_view) << "the view stays";
  s.view->update();
  s.view->draw(320, 240);
  EXPECT_GT(drawn(s.view->read()), px0 + 50) << "the new grains are drawn";
  s.loop->advance(5);  // and the new simulation steps
  EXPECT_EQ(s.sim->steps(), 5);
  // Over the column's edge: the sites that would overlap are left out, and the message says so.
  const std::size_t n1 = s.sim->particle_count();
  drop_grains(s, glm::vec3(0.26f, 0.3f, 0.f));
  EXPECT_GT(s.sim->particle_count(), n1) << s.message;
  EXPECT_NE(s.message.find("left out"), std::string::npos) << s.message;
  // Inside the column there is no room: a message, nothing else changes.
  const std::size_t n2 = s.sim->particle_count();
  s.drop_size = 0.004f;
  drop_fluid(s, glm::vec3(0.1f, 0.2f, 0.f));
  EXPECT_EQ(s.sim->particle_count(), n2);
  EXPECT_NE(s.message.find("no room"), std::string::npos) << s.message;
}

TEST(ViewerInteraction, DropInATankOfWaterWithGrainsOffersGrainsOrWater) {
  EJECTA_NEED_GL();
  ViewerState s = state(read_scene_string(
      "[scene]\ndim = 2\n[physics]\nmodel = mixed\ngravity = 0, -9.81\n[particles]\ndp = 0.01\n"
      "[fluid]\nc0 = 20\n[tank.1]\nmin = 0, 0\nmax = 0.3, 0.4\n[block.1]\nmin = 0, 0\nmax = 0.3, 0.2\n"
      "[dem]\nspring = 2000\ndamping = 1\nbox_min = 0, 0\nbox_max = 0.3, 0.4\n"
      "[grains.1]\nmin = 0.1, 0.1\nmax = 0.2, 0.16\nradius = 0.01\ndensity = 2600\n",
      "<tank>"));
  ASSERT_TRUE(drops_grains(s.model->params()) && drops_water_too(s.model->params()));
  const std::size_t n0 = s.sim->particle_count();
  s.drop_size = 0.04f;
  drop_fluid(s, glm::vec3(0.15f, 0.3f, 0.f));  // grains by default
  const std::size_t n1 = s.sim->particle_count();
  EXPECT_EQ(s.message, "dropped " + std::to_string(n1 - n0) + " grains");
  s.drop_water = true;
  drop_fluid(s, glm::vec3(0.06f, 0.33f, 0.f));
  EXPECT_GT(s.sim->particle_count(), n1);
  EXPECT_EQ(s.message, "dropped " + std::to_string(s.sim->particle_count() - n1) + " fluid particles");
  s.loop->advance(5);
  EXPECT_EQ(s.sim->steps(), 5);
}

TEST(ViewerInteraction, SnapshotButtonWritesARestartableFile) {
  EJECTA_NEED_GL();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ejecta-viewer-snap-" + std::to_string(getpid()));
  fs::create_directories(dir);
  ViewerState s = state(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"}));
  s.opt.record_dir = dir.string();
  s.loop->advance(3);
  save_snapshot(s);
  std::string path;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".h5") path = e.path().string();
  ASSERT_FALSE(path.empty()) << s.message;
  EXPECT_NE(s.message.find("--restart " + path), std::string::npos) << s.message;
  const H5Reader r(path);
  EXPECT_EQ(r.read_frame(0).step, 3);
  fs::remove_all(dir);
}

TEST(ViewerInteraction, ClipProfileAndRates) {
  EJECTA_NEED_GL();
  ViewerState s = state(test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04"}));
  set_clip(s, true);
  const render::ViewSettings& v = s.view->settings();
  ASSERT_TRUE(v.clip);
  EXPECT_NEAR(glm::dot(v.clip_normal, -s.view->camera().direction()), 1.f, 1e-5f) << "facing the camera";
  set_clip(s, false);
  EXPECT_FALSE(v.clip);
  // The line profile of the colour field (velocity magnitude: zero at rest) along the tank.
  s.profile_a = glm::vec3(0.1f, 0.3f, 0.2f);
  s.profile_b = glm::vec3(0.5f, 0.3f, 0.2f);
  s.profile_set = true;
  update_profile(s);
  ASSERT_EQ(s.profile_plot.series.size(), 1u);
  EXPECT_EQ(s.profile_plot.y_units, "m/s");
  // Rates: stepping gives a positive particle-step rate; paused frames bring it to 0.
  s.running = true;
  update_rates(s, 0.02, 4, 0.01);
  EXPECT_GT(s.particle_steps_per_s, 0);
  s.running = false;
  update_rates(s, 0.02, 0, 0);
  EXPECT_EQ(s.particle_steps_per_s, 0);
  EXPECT_GT(s.fps, 0);
}

}  // namespace
}  // namespace ejecta::viewer
