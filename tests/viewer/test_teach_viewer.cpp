// Issue 17 in the viewer, without a window: the keys B and N (reset block / random) in the key table,
// the demo cycle's timer and its stop on input, where D drops fluid when the cursor is off the scene,
// and the Teach panel's rows read from a teaching scene (and left out of the parameter panels).
#include "sim_test_util.h"
#include "viewer/demo_cycle.h"
#include "viewer/key_bindings.h"
#include "viewer/panel_model.h"
#include "viewer/teach_panel.h"
#include "viewer/viewer_state.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

namespace ejecta {
namespace {

TEST(TeachViewer, KeysBAndNResetTheFluidAndDFallsBackToTheViewCentre) {
  const viewer::KeyBinding* b = viewer::binding_for_key(GLFW_KEY_B);
  const viewer::KeyBinding* n = viewer::binding_for_key(GLFW_KEY_N);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(b->action, viewer::Action::ResetBlock);
  EXPECT_EQ(n->action, viewer::Action::ResetRandom);
  EXPECT_NE(viewer::key_table_markdown().find("Reset random"), std::string::npos);
  const viewer::KeyBinding* d = viewer::binding_for_key(GLFW_KEY_D);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(std::string(d->description).find("view centre"), std::string::npos);

  render::Bounds box;
  box.lo = {0.f, 0.f, 0.f};
  box.hi = {0.4f, 0.3f, 0.f};
  const glm::vec3 inside{0.1f, 0.2f, 0.f}, outside{0.5f, 0.2f, 0.f};
  EXPECT_EQ(viewer::drop_centre(inside, true, box, 2), inside);
  const glm::vec3 centre{0.2f, 0.15f, 0.f};
  EXPECT_EQ(viewer::drop_centre(outside, true, box, 2), centre) << "a cursor off the scene: the view centre";
  EXPECT_EQ(viewer::drop_centre(inside, false, box, 2), centre) << "no cursor in the window: the view centre";
}

TEST(TeachViewer, DemoLoadsTheNextSceneOnItsTimerAndStopsOnInput) {
  viewer::DemoCycle demo({"a.ini", "b.ini", "c.ini"}, 10);
  ASSERT_TRUE(demo.active());
  EXPECT_EQ(demo.tick(100.0), "a.ini") << "the first scene at once";
  EXPECT_EQ(demo.tick(105.0), "");
  EXPECT_NEAR(demo.remaining(105.0), 5.0, 1e-12);
  EXPECT_NE(demo.status(105.0).find("demo 1/3: a.ini, next in 5 s"), std::string::npos) << demo.status(105.0);
  EXPECT_EQ(demo.tick(110.0), "b.ini");
  EXPECT_EQ(demo.tick(120.5), "c.ini");
  EXPECT_EQ(demo.tick(131.0), "a.ini") << "it wraps round";
  demo.stop();
  EXPECT_FALSE(demo.active());
  EXPECT_EQ(demo.tick(1000.0), "") << "no loads after the user took over";
  EXPECT_FALSE(viewer::DemoCycle({}, 10).active());
}

TEST(TeachViewer, TeachPanelShowsTheTeachSectionAndTheParameterPanelsLeaveItOut) {
  const ParamSet p = read_scene_file(test::source_dir() + "/scenes/teaching/wall_layers_pitfall.ini");
  const viewer::TeachPanel t = viewer::teach_panel(p);
  EXPECT_EQ(t.title, p.text("teach.title"));
  ASSERT_EQ(t.rows.size(), 6u);  // text, look, why, fix, paper, measure
  EXPECT_EQ(t.rows[0].second, p.text("teach.text"));
  EXPECT_EQ(t.rows[1].first, "What to look at");
  const viewer::ParamPanelModel model(p);
  for (const viewer::PanelGroup& g : model.groups()) EXPECT_NE(g.name, viewer::kTeachGroup);
  EXPECT_EQ(model.find("teach.title"), nullptr);
  EXPECT_TRUE(viewer::teach_panel(test::shipped_scene("dambreak2d.ini")).empty());
}

}  // namespace
}  // namespace ejecta
