// The parameter panels generated from the registry, and the key table behind bindings and help.
#include "sim_test_util.h"
#include "viewer/key_bindings.h"
#include "viewer/panel_model.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace ejecta {
namespace {

ParamSet scene_with_every_section(const std::string& model) {
  // The dam break has a tank and a block; an obstacle, a gate, a gas block, a solid block and grains (the
  // other models' geometry) make every numbered section present. The panel model is built from the
  // ParamSet alone, so keys of other models may be set here (make_simulation would refuse them).
  return test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005", "obstacle.1.min=0.3, 0, 0",
                                                "obstacle.1.max=0.32, 0.02, 0", "gate.1.min=0.4, 0, 0", "gate.1.max=0.42, 0.1, 0",
                                                "gas_block.1.min=0, 0, 0",
                                                "gas_block.1.max=1, 1, 0", "solid_block.1.min=0, 0, 0",
                                                "solid_block.1.max=1, 1, 0", "grains.1.min=0, 0, 0",
                                                "grains.1.max=0.1, 0.1, 0", "probe.1.position=0.1, 0.1, 0",
                                                "gauge.1.position=0.2, 0, 0", "force.1.min=0, 0, 0",
                                                "force.1.max=0.1, 0.1, 0", "physics.model=" + model});
}

TEST(PanelModel, EveryParameterOfTheModelYieldsAWidgetAndNoOther) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  ASSERT_EQ(physics_models(), (std::vector<std::string>{"wcsph", "gas", "solid", "mixed"}));
  for (const std::string& m : physics_models()) {
    const viewer::ParamPanelModel model(scene_with_every_section(m));
    std::size_t used = 0;
    for (const ParamDesc& d : reg.all()) {
      std::string key = d.key;
      const auto hash = key.find(".#.");
      if (hash != std::string::npos) key.replace(hash, 3, ".1.");
      const viewer::Widget* w = model.find(key);
      if (!uses_model(d, m) || d.group == viewer::kTeachGroup) {  // [teach]: the Teach panel (teach_panel.h)
        EXPECT_EQ(w, nullptr) << key << " is not read by the " << m << " model or is teaching text";
        continue;
      }
      ++used;
      ASSERT_NE(w, nullptr) << key;
      EXPECT_EQ(w->desc, &d);
      EXPECT_NE(w->tooltip.find(key), std::string::npos) << "the INI key is in the tooltip";
      EXPECT_NE(w->tooltip.find(d.help), std::string::npos);
      if (!d.units.empty()) {
        EXPECT_NE(w->tooltip.find(d.units), std::string::npos);
      }
      EXPECT_EQ(w->tooltip.find("needs a reset") != std::string::npos, d.needs_rebuild) << key;
    }
    EXPECT_EQ(model.widget_count(), used) << m;
    EXPECT_LT(used, reg.all().size()) << m << ": every model leaves some keys out";
    // Groups in the table's order, each once.
    std::set<std::string> names;
    for (const auto& g : model.groups()) EXPECT_TRUE(names.insert(g.name).second) << g.name;
    EXPECT_EQ(model.groups().front().name, "Scene");
  }
}

std::set<std::string> group_names(const viewer::ParamPanelModel& model) {
  std::set<std::string> names;
  for (const auto& g : model.groups()) names.insert(g.name);
  return names;
}

TEST(PanelModel, PanelsShowOnlyTheGroupsOfTheScenesModel) {
  // The case: a liquid scene showed Gas, Solid and Blast panels.
  const auto liquid = group_names(viewer::ParamPanelModel(test::shipped_scene("dambreak2d.ini")));
  for (const char* g : {"Gas", "Solid", "Blast"}) EXPECT_EQ(liquid.count(g), 0u) << g;
  for (const char* g : {"Scene", "Fluid", "Viscosity", "Boundary", "Time", "View", "Geometry"})
    EXPECT_EQ(liquid.count(g), 1u) << g;
  const viewer::ParamPanelModel gas_model(test::shipped_scene("sod1d.ini"));
  const auto gas = group_names(gas_model);
  for (const char* g : {"Fluid", "Solid", "Boundary", "Collider"}) EXPECT_EQ(gas.count(g), 0u) << g;
  for (const char* g : {"Gas", "Blast", "Time", "Viscosity"}) EXPECT_EQ(gas.count(g), 1u) << g;
  // One viscosity description (issue 14): the gas's panel has the switch, not the liquid's wall factor.
  EXPECT_NE(gas_model.find("viscosity.switch"), nullptr);
  EXPECT_EQ(gas_model.find("viscosity.wall_factor"), nullptr);
  EXPECT_EQ(gas_model.find("viscosity.solid.alpha"), nullptr) << "material overrides are for mixed scenes";
  const viewer::ParamPanelModel solid(test::shipped_scene("bar2d.ini"));
  const auto solid_groups = group_names(solid);
  for (const char* g : {"Fluid", "Gas", "Blast", "Fault"}) EXPECT_EQ(solid_groups.count(g), 0u) << g;
  EXPECT_EQ(solid_groups.count("Solid"), 1u);
  EXPECT_NE(solid.find("viscosity.alpha"), nullptr);
  EXPECT_EQ(solid.find("viscosity.switch"), nullptr);
  EXPECT_NE(solid.find("time.rtol"), nullptr) << "rk23 tolerances belong to the solid model too";
  EXPECT_EQ(solid.find("particles.dp"), nullptr) << "solid blocks carry their own spacing";
}

TEST(PanelModel, ParticleSummaryCountsFluidOnlyForTheLiquid) {
  EXPECT_EQ(viewer::particle_summary(1200, 1000, "wcsph"), "1200 particles (1000 fluid)");
  EXPECT_EQ(viewer::particle_summary(1200, 1200, "solid"), "1200 particles");
  EXPECT_EQ(viewer::particle_summary(400, 400, "gas"), "400 particles");
}

TEST(PanelModel, NumberedSectionsGetOneWidgetEach) {
  ParamSet p = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005", "block.2.min=0.2, 0, 0",
                                                      "block.2.max=0.25, 0.05, 0"});
  const viewer::ParamPanelModel model(p);
  EXPECT_NE(model.find("block.1.velocity"), nullptr);
  EXPECT_NE(model.find("block.2.velocity"), nullptr);
  EXPECT_EQ(model.find("obstacle.1.min"), nullptr) << "the scene has no obstacle";
}

double mean_fluid_ay(const Simulation& sim) {
  const FrameData f = sim.capture_frame({"acceleration", "kind"});
  const float* a = reinterpret_cast<const float*>(f.find("acceleration")->bytes.data());
  const uint8_t* kind = f.find("kind")->bytes.data();
  double s = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < f.particles; ++i)
    if (kind[i] == kFluid) s += a[2 * i + 1], ++n;
  return s / double(n);
}

TEST(PanelModel, LiveChangeReachesTheEngine) {
  const ParamSet scene = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"});
  viewer::ParamPanelModel model(scene);
  auto sim = make_simulation(scene, Backend::Cpu);
  auto reference = make_simulation(scene, Backend::Cpu);
  EXPECT_EQ(model.set("physics.gravity", "0, -29.43, 0", sim.get()), viewer::Applied::Live);
  EXPECT_TRUE(model.pending_reset().empty());
  test::step_n(*sim, 1);
  test::step_n(*reference, 1);
  // Pressure forces are the same one step in; the mean fluid acceleration differs by the change,
  // less what the walls (whose Adami pressure feels gravity too) push back.
  const double diff = mean_fluid_ay(*sim) - mean_fluid_ay(*reference);
  EXPECT_LT(diff, -10.0);
  EXPECT_GT(diff, -19.7);
}

TEST(PanelModel, RebuildKeysWaitForTheReset) {
  const ParamSet scene = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"});
  viewer::ParamPanelModel model(scene);
  auto sim = make_simulation(scene, Backend::Cpu);
  const std::size_t n = sim->particle_count();
  EXPECT_EQ(model.set("particles.dp", "0.004", sim.get()), viewer::Applied::OnReset);
  EXPECT_EQ(model.pending_reset(), std::set<std::string>{"particles.dp"});
  test::step_n(*sim, 1);
  EXPECT_EQ(sim->particle_count(), n);
  auto rebuilt = make_simulation(model.params(), Backend::Cpu);
  EXPECT_GT(rebuilt->particle_count(), n);
  model.reset_done();
  EXPECT_TRUE(model.pending_reset().empty());
}

TEST(PanelModel, BadValuesAreRejectedWithTheRegistryMessage) {
  viewer::ParamPanelModel model(test::shipped_scene("dambreak2d.ini"));
  try {
    model.set("viscosity.alpha", "11", nullptr);
    FAIL() << "out of range accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("[0, 10]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(model.set("viscosity.alpah", "1", nullptr), ParamError);
  EXPECT_EQ(model.params().real("viscosity.alpha"), 0.02);
}

TEST(KeyBindings, KeysAndActionsAreUniqueAndEveryActionIsBound) {
  std::set<int> keys;
  std::set<int> actions;
  for (const auto& b : viewer::key_bindings()) {
    EXPECT_TRUE(keys.insert(b.key).second) << b.key_name << " bound twice";
    EXPECT_TRUE(actions.insert(int(b.action)).second) << b.description;
    EXPECT_EQ(viewer::binding_for_key(b.key), &b);
  }
  EXPECT_EQ(actions.size(), std::size_t(viewer::Action::Quit) + 1) << "an action without a key";
  EXPECT_EQ(viewer::binding_for_key(-12345), nullptr);
}

TEST(KeyBindings, HelpPanelAndDocsAgreeWithTheTable) {
  const auto rows = viewer::help_rows();
  ASSERT_EQ(rows.size(), viewer::key_bindings().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].first, viewer::key_bindings()[i].key_name);
    EXPECT_EQ(rows[i].second, viewer::key_bindings()[i].description);
  }
  std::ifstream in(test::source_dir() + "/docs/viewer.md");
  ASSERT_TRUE(in) << "docs/viewer.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find(viewer::key_table_markdown()), std::string::npos)
      << "docs/viewer.md must hold the key table verbatim (`ejecta --list-keys`):\n"
      << viewer::key_table_markdown();
}

}  // namespace
}  // namespace ejecta
