// The general store (solver/store_solver.h, issue 14 "one particle engine"): gas and solid scenes run in
// the one store solver (before the former one-model classes GasSolver and SolidSolver were retired, tests
// here showed every field, the clock, dt and diagnostics bit for bit the same as theirs after N steps
// for Sod, Sedov with RK23, the cold collapse, the bar, the crater, the porous slab and the rubble pile,
// commit 3d3a186; the H200 measured the store within 0.2% of them); a mixed scene accumulates its
// plastic strain; and a gas with another model in one store is refused, naming the section.
#include "exec/exec_cpu.h"
#include "scene/scene_particles.h"
#include "sim_test_util.h"
#include "solver/solver_factory.h"
#include "solver/store_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace ejecta {
namespace {

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

// The factory builds the store for a gas scene and for a scene of solids alone.
TEST(StoreSolver, GasAndSolidScenesRunInTheStore) {
  using Store2 = StoreSolver<double, 2, CpuExec>;
  using Store1 = StoreSolver<double, 1, CpuExec>;
  EXPECT_NE(dynamic_cast<Store2*>(make_simulation(test::shipped_scene("bar2d.ini"), Backend::Cpu).get()), nullptr);
  EXPECT_NE(dynamic_cast<Store1*>(make_simulation(test::shipped_scene("sod1d.ini"), Backend::Cpu).get()), nullptr);
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
