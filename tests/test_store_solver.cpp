// The general store (solver/store_solver.h, issue 14 "one particle engine"): gas and solid scenes run
// through the one store solver exactly as through the former one-model classes (GasSolver,
// SolidSolver, still built for the benchmark's comparison, EJECTA_SOLVER=classes): the same fields with
// the same descriptions, bit for bit after N steps (the same functors in the same order); and a gas with
// another model in one store is refused, naming the section.
#include "exec/exec_cpu.h"
#include "scene/scene_particles.h"
#include "sim_test_util.h"
#include "solver/gas_solver.h"
#include "solver/solid_solver.h"
#include "solver/solver_factory.h"
#include "solver/store_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace ejecta {
namespace {

FrameData all_fields(const Simulation& s) {
  std::vector<std::string> names;
  for (const FieldInfo& f : s.fields()) names.push_back(f.name);
  FrameData f;
  s.capture_frame_into(f, names);
  return f;
}

// The former class and the store from the same description, `steps` steps each: every field, the clock
// and the next step identical.
void expect_same_run(const std::string& scene, const std::vector<std::string>& overrides, long steps) {
  SCOPED_TRACE(scene);
  const ParamSet p = test::shipped_scene(scene, overrides);
  const SceneParticles s = build_scene_particles(p);
  const Precision prec = p.text("scene.precision") == "double" ? Precision::Double : Precision::Float;
  auto former = s.recipe == "gas" ? make_cpu_gas_solver(p, s, prec) : make_cpu_solid_solver(p, s, prec);
  auto store = make_cpu_store_solver(p, s, prec);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*former, rule).run();
  StepLoop(*store, rule).run();
  EXPECT_EQ(former->steps(), store->steps());
  EXPECT_EQ(former->time(), store->time());
  EXPECT_EQ(former->dt(), store->dt());
  EXPECT_EQ(former->fluid_count(), store->fluid_count());
  const FrameData a = all_fields(*former), b = all_fields(*store);
  ASSERT_EQ(a.fields.size(), b.fields.size());
  for (const FieldData& fa : a.fields) {
    const FieldData* fb = b.find(fa.info.name);
    ASSERT_NE(fb, nullptr) << fa.info.name;
    EXPECT_EQ(fa.info.description, fb->info.description) << fa.info.name;
    EXPECT_EQ(fa.info.units, fb->info.units) << fa.info.name;
    EXPECT_TRUE(fa.bytes == fb->bytes) << fa.info.name << " differs";
  }
  const Diagnostics da = former->diagnostics(), db = store->diagnostics();
  EXPECT_EQ(da.total, db.total);
  EXPECT_EQ(da.kinetic, db.kinetic);
}

TEST(StoreSolver, GasScenesRunAsTheGasClassDid) {
  expect_same_run("sod1d.ini", {}, 60);
  expect_same_run("sedov2d.ini", {"time.integrator=rk23"}, 12);
  expect_same_run("cold_collapse3d.ini", {"gas_block.1.dp=0.2"}, 4);  // self-gravity, the tree search
}

TEST(StoreSolver, SolidScenesRunAsTheSolidClassDid) {
  expect_same_run("bar2d.ini", {"solid.gradient_correction=true"}, 40);
  expect_same_run("crater2d.ini", {}, 10);          // yield limit and Weibull damage
  expect_same_run("porous_planar1d.ini", {}, 30);  // eps-alpha porosity
  // self-gravity and its derived `bound` field (1/2 |v - v_cm|^2 + phi < 0) of two colliding bodies
  expect_same_run("rubble_pile_disruption3d.ini", {"solid_block.1.dp=100", "solid_block.2.dp=100"}, 3);
}

// A mixed scene's plastic strain is accumulated (Wilkins 1964 radial return, measured from the step's
// start): per particle it never decreases, as in a scene of solids alone; the ocean impact's basalt
// yields from the first steps. (The former mixed solver left plastic_strain_step_start at zero, so a
// particle that stopped yielding fell back to 0.)
TEST(StoreSolver, MixedScenePlasticStrainAccumulates) {
  auto sim = make_simulation(test::shipped_scene("ocean_impact2d.ini", {"solid_block.1.dp=40", "solid_block.2.dp=40",
                                                                         "solid_block.3.dp=40"}),
                             Backend::Cpu);
  auto by_id = [&] {
    FrameData f;
    sim->capture_frame_into(f, {"plastic_strain"});
    const HostParticles h = sim->download();
    std::vector<double> eps(h.n);
    const FieldData* e = f.find("plastic_strain");
    for (std::size_t i = 0; i < h.n; ++i) {
      double v = 0;
      if (e->info.scalar == ScalarType::Float64)
        v = reinterpret_cast<const double*>(e->bytes.data())[i];
      else
        v = reinterpret_cast<const float*>(e->bytes.data())[i];
      eps[h.id[i]] = v;
    }
    return eps;
  };
  std::vector<double> last = by_id();
  double most = 0;
  long drops = 0;
  for (int k = 0; k < 30; ++k) {
    StopRule rule;
    rule.max_steps = 1;
    StepLoop(*sim, rule).run();
    const std::vector<double> now = by_id();
    for (std::size_t i = 0; i < now.size(); ++i) {
      if (now[i] < last[i]) ++drops;
      most = std::max(most, now[i]);
    }
    last = now;
  }
  EXPECT_GT(most, 0.0) << "no particle yielded: the test sees nothing";
  EXPECT_EQ(drops, 0) << "plastic strain fell for some particle between steps";
}

// The benchmark's comparison: EJECTA_SOLVER=classes builds the former classes, else the store.
TEST(StoreSolver, FormerClassesAreSelectableForTheBenchmark) {
  using Store2 = StoreSolver<double, 2, CpuExec>;
  using Store1 = StoreSolver<double, 1, CpuExec>;
  using Solid2 = SolidSolver<double, 2, CpuExec>;
  using Gas1 = GasSolver<double, 1, CpuExec>;
  const ParamSet bar = test::shipped_scene("bar2d.ini"), sod = test::shipped_scene("sod1d.ini");
  EXPECT_NE(dynamic_cast<Store2*>(make_simulation(bar, Backend::Cpu).get()), nullptr);
  EXPECT_NE(dynamic_cast<Store1*>(make_simulation(sod, Backend::Cpu).get()), nullptr);
  setenv("EJECTA_SOLVER", "classes", 1);
  EXPECT_NE(dynamic_cast<Solid2*>(make_simulation(bar, Backend::Cpu).get()), nullptr);
  EXPECT_NE(dynamic_cast<Gas1*>(make_simulation(sod, Backend::Cpu).get()), nullptr);
  unsetenv("EJECTA_SOLVER");
}

// A gas with another model in one store: refused by the scene's section, and by the store itself for
// a description that holds both.
TEST(StoreSolver, GasWithAnotherModelIsRefused) {
  ParamSet p = test::shipped_scene("ocean_impact2d.ini", {"gas_block.1.min=0,0", "gas_block.1.max=0.1,0.1",
                                                          "gas_block.1.dp=0.01"});
  try {
    build_scene_particles(p);
    ADD_FAILURE() << "a gas block in a mixed scene was accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("[gas_block.1] in a mixed scene"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("physics.model = gas"), std::string::npos) << e.what();
  }
  const ParamSet g = test::shipped_scene("sod1d.ini");
  SceneParticles s = build_scene_particles(g);
  s.phase[0] = kPhaseSolid;
  try {
    make_cpu_store_solver(g, s, Precision::Double);
    ADD_FAILURE() << "a store of gas and solid was built";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("no term couples a gas"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ejecta
