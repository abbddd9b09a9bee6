// The term registry of every model (engine/solver/term_registry.h, solver/terms/*.h, issue 14):
// every registered term names keys the parameter registry has, `ejecta --list-terms` (docs/terms.md)
// shows each term with its fields and keys, and the step's list is the models' recipes looked up by
// name and merged by stage.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "exec/exec_cpu.h"
#include "params/param_registry.h"
#include "sim_test_util.h"
#include "simulation.h"
#include "solver/store_solver.h"
#include "solver/model_recipes.h"
#include "solver/term_catalog.h"

namespace ejecta {
namespace {

TEST(TermRegistry, EveryTermDeclaresFieldsAndRegisteredKeys) {
  const auto& entries = term_catalog().entries();
  ASSERT_EQ(entries.size(), 22u);  // 2 + 7 liquid (mixed; uniform h, with the three wall models), 3 + 3 solid (terms, hooks), 2 dem, 2 coupling, 2 gas, 1 gravity
  for (const auto& e : entries) {
    const TermInfo& t = e.info;
    EXPECT_FALSE(t.cite.empty()) << t.name;
    EXPECT_FALSE(t.reads.empty()) << t.name;
    EXPECT_FALSE(t.writes.empty()) << t.name;
    EXPECT_FALSE(t.params.empty()) << t.name;
    for (const std::string& k : t.params)
      EXPECT_NE(ParamRegistry::builtin().find(k), nullptr) << t.name << " declares the unknown key " << k;
  }
}

TEST(TermRegistry, ListTermsShowsEveryTermWithItsKeys) {
  const std::string md = term_catalog_markdown();
  for (const auto& e : term_catalog().entries()) {
    const std::size_t at = md.find("### `" + e.info.name + "`");
    ASSERT_NE(at, std::string::npos) << e.info.name;
    const std::size_t next = md.find("### ", at + 4);
    const std::string section = md.substr(at, next == std::string::npos ? std::string::npos : next - at);
    for (const std::string& k : e.info.params)
      EXPECT_NE(section.find("`" + k + "`"), std::string::npos) << e.info.name << " " << k;
    for (const std::string& f : e.info.reads) EXPECT_NE(section.find("`" + f + "`"), std::string::npos) << f;
  }
}

TEST(TermRegistry, DocsPageIsUpToDate) {
  const std::string path = test::source_dir() + "/docs/terms.md";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path << "; run `ejecta --list-terms > docs/terms.md`";
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(text.str() == term_catalog_markdown())
      << path << " is out of date with engine/solver/terms/; regenerate it with `ejecta --list-terms > docs/terms.md`";
}

std::vector<std::string> names(const std::vector<TermInfo>& list) {
  std::vector<std::string> n;
  for (const TermInfo& t : list) n.push_back(t.name);
  return n;
}

// The merge by stage gives the order the mixed solver always ran (EOS passes, the boundary state, the
// pair forces, the reaction), whatever the order of the recipes.
TEST(TermRegistry, StepIsTheRecipesMergedByStage) {
  EXPECT_EQ(names(mixed_recipe(false)),
            (std::vector<std::string>{"eos_tait_monaghan1994", "eos_solid_benz_asphaug1994", "boundary_adami2012",
                                      "forces_monaghan1992", "forces_solid_gray2001", "reaction_adami2012"}));
  EXPECT_EQ(names(mixed_recipe(true, true, true)),
            (std::vector<std::string>{"eos_tait_monaghan1994", "eos_solid_benz_asphaug1994",
                                      "correction_randles_libersky1996", "boundary_adami2012", "forces_monaghan1992",
                                      "forces_solid_gray2001", "contact_hertz_mindlin_tsuji1992",
                                      "reaction_adami2012"}));
  std::vector<ModelRecipe> reversed = mixed_model_recipes(false, true);
  std::reverse(reversed.begin(), reversed.end());
  std::vector<std::string> r;
  for (const auto* e : step_terms(term_catalog(), reversed)) r.push_back(e->info.name);
  EXPECT_EQ(r, (std::vector<std::string>{"eos_solid_benz_asphaug1994", "eos_tait_monaghan1994", "boundary_adami2012",
                                         "contact_linear_green2010", "forces_solid_gray2001", "forces_monaghan1992",
                                         "reaction_adami2012"}));
}

// The general store runs what the registry gives for its scene's recipes: the shipped grain column
// (Hertz-Mindlin grains) and the ocean impact (liquid, basalt, gradient correction on).
TEST(TermRegistry, MixedSolverRunsTheRegisteredRecipe) {
  auto grains = make_simulation(test::shipped_scene("grains_column2d.ini"), Backend::Cpu);
  const auto* g = dynamic_cast<const StoreSolver<float, 2, CpuExec>*>(grains.get());
  ASSERT_NE(g, nullptr);
  std::vector<TermInfo> run;
  for (const Term& t : g->terms()) {
    run.push_back(t.info);
    EXPECT_TRUE(bool(t.run)) << t.info.name;
  }
  EXPECT_EQ(names(run), names(mixed_recipe(false, true, true)));
  auto ocean = make_simulation(test::shipped_scene("ocean_impact2d.ini", {"solid.gradient_correction=true"}),
                               Backend::Cpu);
  const auto* o = dynamic_cast<const StoreSolver<double, 2, CpuExec>*>(ocean.get());
  ASSERT_NE(o, nullptr);
  run.clear();
  for (const Term& t : o->terms()) run.push_back(t.info);
  EXPECT_EQ(names(run), names(mixed_recipe(true)));
}

std::vector<std::string> names(const std::vector<Term>& list) {
  std::vector<std::string> n;
  for (const Term& t : list) {
    n.push_back(t.info.name);
    EXPECT_TRUE(bool(t.run)) << t.info.name;
  }
  return n;
}

// Gas and solid scenes run their recipes from the registry in the same general store (issue 14: one
// store for every scene but the liquid alone): Sod's tube, a self-gravitating gas, the bar with
// gradient correction, a porous slab (p-alpha: the solid's terms with the porosity's fields) and the
// rubble pile with self-gravity; solids alone unmasked (not phased), their terms compiled without the
// phase test.
TEST(TermRegistry, GasAndSolidSolversRunTheirRecipes) {
  auto sod = make_simulation(test::shipped_scene("sod1d.ini"), Backend::Cpu);
  const auto* g = dynamic_cast<const StoreSolver<double, 1, CpuExec>*>(sod.get());
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(names(g->terms()), (std::vector<std::string>{"density_gradh_price2012", "forces_gas_gradh_price2012"}));
  auto cold = make_simulation(test::shipped_scene("cold_collapse3d.ini", {"gas_block.1.dp=0.2"}), Backend::Cpu);
  const auto* c = dynamic_cast<const StoreSolver<double, 3, CpuExec>*>(cold.get());
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(names(c->terms()), (std::vector<std::string>{"density_gradh_price2012", "forces_gas_gradh_price2012",
                                                          "self_gravity_barnes_hut1986"}));
  auto bar = make_simulation(test::shipped_scene("bar2d.ini", {"solid.gradient_correction=true"}), Backend::Cpu);
  const auto* b = dynamic_cast<const StoreSolver<double, 2, CpuExec>*>(bar.get());
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->phased());
  EXPECT_EQ(names(b->terms()), (std::vector<std::string>{"eos_solid_benz_asphaug1994", "correction_randles_libersky1996",
                                                          "forces_solid_gray2001"}));
  auto porous = make_simulation(test::shipped_scene("porous_planar1d.ini"), Backend::Cpu);
  const auto* p = dynamic_cast<const StoreSolver<double, 1, CpuExec>*>(porous.get());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(names(p->terms()), (std::vector<std::string>{"eos_solid_benz_asphaug1994", "forces_solid_gray2001"}));
  auto rubble = make_simulation(
      test::shipped_scene("rubble_pile_disruption3d.ini", {"solid_block.1.dp=100", "solid_block.2.dp=100"}), Backend::Cpu);
  const auto* r = dynamic_cast<const StoreSolver<double, 3, CpuExec>*>(rubble.get());
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(names(r->terms()), (std::vector<std::string>{"eos_solid_benz_asphaug1994", "forces_solid_gray2001",
                                                          "self_gravity_barnes_hut1986"}));
}

// The liquid alone runs its uniform-h recipe (summation density only with fluid.density = summation),
// in 2D and in 3D with each neighbour record (the force term's variants).
TEST(TermRegistry, LiquidSolverRunsItsRecipe) {
  const std::vector<std::string> recipe{"eos_tait_monaghan1994_uniform_h", "wall_pressure_adami2012",
                                        "forces_monaghan1992_uniform_h", "collider_monaghan1994"};
  auto dam = make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"}), Backend::Cpu);
  const auto* d = dynamic_cast<const StoreSolver<float, 2, CpuExec>*>(dam.get());
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(names(d->terms()), recipe);
  auto sum = make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01", "fluid.density=summation"}),
                             Backend::Cpu);
  const auto* s = dynamic_cast<const StoreSolver<float, 2, CpuExec>*>(sum.get());
  ASSERT_NE(s, nullptr);
  std::vector<std::string> with_sum{"density_summation_monaghan1992"};
  with_sum.insert(with_sum.end(), recipe.begin(), recipe.end());
  EXPECT_EQ(names(s->terms()), with_sum);
  for (const char* record : {"arrays", "packed", "packed_eos"}) {
    auto dam3 = make_simulation(
        test::shipped_scene("dambreak3d.ini", {"particles.dp=0.1", std::string("fluid.neighbour_record=") + record}),
        Backend::Cpu);
    const auto* d3 = dynamic_cast<const StoreSolver<float, 3, CpuExec>*>(dam3.get());
    ASSERT_NE(d3, nullptr) << record;
    EXPECT_EQ(names(d3->terms()), recipe) << record;
  }
  // Dynamic boundary particles (boundary.model = dbc_crespo2007) take the walls' place in the recipe.
  auto dbc = make_simulation(
      test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01", "boundary.model=dbc_crespo2007"}), Backend::Cpu);
  const auto* b = dynamic_cast<const StoreSolver<float, 2, CpuExec>*>(dbc.get());
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(names(b->terms()), (std::vector<std::string>{"eos_tait_monaghan1994_uniform_h", "wall_density_crespo2007",
                                                          "forces_monaghan1992_uniform_h", "collider_monaghan1994"}));
}

// A term is bound only where its solver's context offers what it needs: every model's in the general
// store, the liquid's uniform-h variants in the store's liquid-alone path only (solver/uniform_liquid.h).
TEST(TermRegistry, TermsBindOnlyWhereTheirContextOffersWhatTheyNeed) {
  const auto store = term_registry<StoreTermContext<double, 2, CpuExec>>();
  const auto liquid = term_registry<WcsphTermContext<double, 2, CpuExec>>();
  EXPECT_TRUE(bool(liquid.at("forces_monaghan1992_uniform_h").bind));
  EXPECT_TRUE(bool(liquid.at("wall_pressure_adami2012").bind));
  EXPECT_FALSE(bool(liquid.at("forces_monaghan1992").bind));
  EXPECT_FALSE(bool(liquid.at("boundary_adami2012").bind));
  EXPECT_FALSE(bool(store.at("forces_monaghan1992_uniform_h").bind));
  EXPECT_FALSE(bool(liquid.at("density_gradh_price2012").bind));
  EXPECT_FALSE(bool(liquid.at("forces_solid_gray2001").bind));
  EXPECT_TRUE(bool(store.at("density_gradh_price2012").bind));
  for (const char* t : {"forces_solid_gray2001", "contact_linear_green2010", "self_gravity_barnes_hut1986",
                        "forces_gas_gradh_price2012", "forces_monaghan1992", "damage_benz_asphaug1994"})
    EXPECT_TRUE(bool(store.at(t).bind)) << t;
  for (const auto& e : term_catalog().entries()) EXPECT_FALSE(bool(e.bind)) << e.info.name;
}

struct Term_Dummy {
  static constexpr unsigned needs = kTermNeedsMixedLiquid;
  static TermInfo info() { return {"boundary_adami2012", "coupling", TermStage::Boundary, "a second", {}, {}, {}}; }
};

// The integrator's hooks are registered terms of stages after_stage and after_step, bound by each
// solver from its hook recipe by the materials of its scene: the porous iron slab (eps-alpha, no
// strength) its porosity return only; the elastic bar none; the tension bar (brittle_nu0, Weibull
// flaws, no yield limit) damage only; the basalt crater (von Mises, flaws) the yield and damage; the
// ocean impact (basalt, mixed) the yield only.
std::vector<std::string> hook_names(const Simulation& s) {
  if (auto* a = dynamic_cast<const StoreSolver<double, 1, CpuExec>*>(&s)) return names(a->hooks());
  if (auto* a = dynamic_cast<const StoreSolver<double, 2, CpuExec>*>(&s)) return names(a->hooks());
  if (auto* a = dynamic_cast<const StoreSolver<float, 2, CpuExec>*>(&s)) return names(a->hooks());
  ADD_FAILURE() << "not a 1D/2D store solver";
  return {};
}

TEST(TermRegistry, IntegratorHooksAreRegisteredTerms) {
  using V = std::vector<std::string>;
  EXPECT_EQ(hook_names(*make_simulation(test::shipped_scene("porous_planar1d.ini"), Backend::Cpu)),
            V{"distention_return_wuennemann2006"});
  EXPECT_EQ(hook_names(*make_simulation(test::shipped_scene("bar2d.ini"), Backend::Cpu)), V{});
  EXPECT_EQ(hook_names(*make_simulation(test::shipped_scene("tension_bar2d.ini"), Backend::Cpu)),
            V{"damage_benz_asphaug1994"});
  EXPECT_EQ(hook_names(*make_simulation(test::shipped_scene("crater2d.ini"), Backend::Cpu)),
            (V{"yield_limit_collins2004", "damage_benz_asphaug1994"}));
  EXPECT_EQ(hook_names(*make_simulation(test::shipped_scene("ocean_impact2d.ini"), Backend::Cpu)),
            V{"yield_limit_collins2004"});
  for (const char* t : {"distention_return_wuennemann2006", "yield_limit_collins2004"})
    EXPECT_EQ(term_catalog().at(t).info.stage, TermStage::AfterStage) << t;
  EXPECT_EQ(term_catalog().at("damage_benz_asphaug1994").info.stage, TermStage::AfterStep);
  EXPECT_TRUE(bool(term_registry<StoreTermContext<double, 2, CpuExec>>().at("damage_benz_asphaug1994").bind));
}

TEST(TermRegistry, UnknownMisplacedAndDuplicateTermsAreRefused) {
  EXPECT_THROW(step_terms(term_catalog(), {{"liquid", {"forces_monaghan1993"}}}), std::logic_error);
  EXPECT_THROW(step_terms(term_catalog(), {{"solid", {"forces_monaghan1992"}}}), std::logic_error);
  TermRegistry<NoTermContext> r = term_registry<NoTermContext>();
  EXPECT_THROW(r.add<Term_Dummy>(), std::logic_error);
}

}  // namespace
}  // namespace ejecta
