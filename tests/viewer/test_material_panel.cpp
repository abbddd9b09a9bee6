// The material panels generated from the material key table, without GL: a widget for every key a
// material uses (and none for the others), edits validated by the library reader and handed to the
// solver between steps, kept over a reset of the same scene.
#include "material_test_data.h"
#include "sim_test_util.h"
#include "viewer/material_panel_model.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace ejecta {
namespace {

using test::kEveryGroup;

std::vector<Material> every_group() {
  const MaterialLibrary lib = parse_material_library(kEveryGroup, "every.ini");
  return {lib.at("rock"), lib.at("metal")};
}

TEST(MaterialPanel, EveryKeyYieldsAWidgetForAMaterialThatUsesIt) {
  const viewer::MaterialPanelModel model(every_group());
  ASSERT_EQ(model.sections().size(), 2u);
  EXPECT_EQ(model.sections()[0].name, "rock");
  EXPECT_EQ(model.sections()[1].index, 1u);
  std::size_t used = 0;
  for (const MaterialKeyDesc& d : material_keys()) {
    bool somewhere = false;
    for (std::size_t i = 0; i < 2; ++i) {
      const viewer::MaterialWidget* w = model.find(i, d.key);
      EXPECT_EQ(w != nullptr, d.uses(model.materials()[i])) << model.materials()[i].name << " " << d.key;
      if (!w) continue;
      somewhere = true;
      ++used;
      EXPECT_EQ(w->desc, &d);
      EXPECT_NE(w->tooltip.find(d.key), std::string::npos);
      EXPECT_NE(w->tooltip.find(d.help), std::string::npos);
      if (!d.units.empty()) EXPECT_NE(w->tooltip.find(d.units), std::string::npos) << d.key;
      EXPECT_EQ(model.value(i, d.key), d.value(model.materials()[i]));
    }
    EXPECT_TRUE(somewhere) << d.key << " has a widget in one of the sections";
  }
  EXPECT_EQ(model.widget_count(), used);
  // Groups in table order, each once per section; the murnaghan metal shows no Tillotson key.
  const viewer::MaterialSection& metal = model.sections()[1];
  EXPECT_EQ(metal.groups.front().group, MaterialGroup::Eos);
  for (std::size_t g = 1; g < metal.groups.size(); ++g) EXPECT_LT(int(metal.groups[g - 1].group), int(metal.groups[g].group));
  EXPECT_EQ(model.find(1, "tillotson.A"), nullptr);
  EXPECT_EQ(model.find(1, "weibull.k"), nullptr);
}

double max_of(const Simulation& sim, const char* field) {
  const FrameData frame = sim.capture_frame({field});
  const FieldData& f = frame.fields[0];
  std::vector<double> v(f.bytes.size() / sizeof(double));
  std::memcpy(v.data(), f.bytes.data(), f.bytes.size());
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

ParamSet small_bar() { return test::shipped_scene("bar2d.ini", {"solid_block.1.dp=0.02", "solid_block.2.dp=0.02"}); }

TEST(MaterialPanel, ShearModulusEditReachesTheSolver) {
  const ParamSet scene = small_bar();
  auto sim = make_simulation(scene, Backend::Cpu);
  auto reference = make_simulation(scene, Backend::Cpu);
  viewer::MaterialPanelModel model(*sim);
  ASSERT_EQ(model.sections().size(), 1u);
  EXPECT_EQ(model.sections()[0].name, "elastic_nu0");
  // mu 5e6 -> 2e7: the longitudinal sound speed sqrt(K/rho + 4/3 mu/rho) goes from 100 to 173 m/s.
  model.set(0, "shear_modulus", "2e7", sim.get());
  EXPECT_EQ(sim->materials()[0].shear_modulus, 2e7);
  EXPECT_EQ(model.materials()[0].shear_modulus, 2e7);
  EXPECT_EQ(model.edited().count(0), 1u);
  test::step_n(*sim, 1);
  test::step_n(*reference, 1);
  const double c = max_of(*sim, "sound_speed"), c_ref = max_of(*reference, "sound_speed");
  EXPECT_NEAR(c_ref, 100, 2);
  EXPECT_NEAR(c, std::sqrt(3333.33 + 4.0 / 3.0 * 2e4), 4);
  EXPECT_GT(max_of(*sim, "stress_rate"), 3 * max_of(*reference, "stress_rate")) << "Hooke with the new mu";

  // A bad value changes nothing, in the model or the solver.
  EXPECT_THROW(model.set(0, "shear_modulus", "-5", sim.get()), MaterialError);
  EXPECT_THROW(model.set(0, "yield", "none", sim.get()), MaterialError);
  EXPECT_EQ(sim->materials()[0].shear_modulus, 2e7);
  EXPECT_EQ(model.value(0, "shear_modulus"), "2e7");

  // A new yield model rebuilds the section: its strength key appears, live.
  EXPECT_EQ(model.find(0, "von_mises.Y0"), nullptr);
  model.set(0, "yield", "von_mises", sim.get());
  ASSERT_NE(model.find(0, "von_mises.Y0"), nullptr);
  model.set(0, "von_mises.Y0", "1000", sim.get());
  EXPECT_EQ(sim->materials()[0].yield, YieldKind::VonMises);
  test::step_n(*sim, 10);
  EXPECT_LT(max_of(*sim, "von_mises_stress"), 1000 * (1 + 1e-9)) << "the limit acts";

  // Tensile damage on and off from the panel: its keys appear and go, live.
  ASSERT_EQ(model.sections()[0].addable.size(), 2u) << "damage and melt";
  EXPECT_EQ(model.find(0, "weibull.k"), nullptr);
  model.add_group(0, MaterialGroup::Damage, sim.get());
  EXPECT_NE(model.find(0, "weibull.k"), nullptr);
  EXPECT_NE(model.find(0, "weibull.m"), nullptr);
  EXPECT_TRUE(sim->materials()[0].damage);
  EXPECT_EQ(model.sections()[0].addable, std::vector<MaterialGroup>{MaterialGroup::Melt});
  model.remove_group(0, MaterialGroup::Damage, sim.get());
  EXPECT_EQ(model.find(0, "weibull.m"), nullptr);
  EXPECT_FALSE(sim->materials()[0].damage);
  EXPECT_THROW(model.add_group(0, MaterialGroup::Yield, sim.get()), std::invalid_argument);

  // A reset of the same scene keeps the edits; materials of another scene are not touched.
  auto rebuilt = make_simulation(scene, Backend::Cpu);
  EXPECT_TRUE(model.reapply(*rebuilt));
  EXPECT_EQ(rebuilt->materials()[0].shear_modulus, 2e7);
  EXPECT_EQ(rebuilt->materials()[0].von_mises.Y0, 1000);
  EXPECT_NE(model.to_ini().find("[elastic_nu0]\n"), std::string::npos);
  EXPECT_NE(model.to_ini().find("shear_modulus = 2e7\n"), std::string::npos);
}

TEST(MaterialPanel, SolversWithoutMaterialsHaveNoSections) {
  ParamSet p = read_scene_string(default_scene_ini(), "<default scene>");
  p.apply_override("particles.dp=0.01");
  auto sim = make_simulation(p, Backend::Cpu);
  const viewer::MaterialPanelModel model(*sim);
  EXPECT_TRUE(model.sections().empty());
  EXPECT_EQ(model.widget_count(), 0u);
}

}  // namespace
}  // namespace ejecta
