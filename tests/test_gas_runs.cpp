// Gas model: restart (N + N steps equal 2N, bit for bit, for each integrator), the shipped 2D/3D Sod
// and Sedov scenes build and step, bad gas scenes give clear errors, and the CPU and CUDA backends
// agree on Sod 1D (GPU-only: skips, saying why, where no CUDA device is found).
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ejecta {
namespace {

void check_gas_restart(const std::vector<std::string>& overrides, long before = 100, long after = 100) {
  const ParamSet p = test::shipped_scene("sod1d.ini", overrides);
  test::expect_exact_restart(p, before, after, {"internal_energy", "smoothing_length"});
}

TEST(GasRestart, NPlusNEqualsTwoN_Leapfrog) { check_gas_restart({}); }
TEST(GasRestart, NPlusNEqualsTwoN_PredictorCorrector) { check_gas_restart({"time.integrator=predictor_corrector"}); }
TEST(GasRestart, NPlusNEqualsTwoN_Rk23SwitchConductivity) {
  check_gas_restart({"time.integrator=rk23", "viscosity.switch=morris_monaghan", "gas.conductivity=1"});
}
TEST(GasRestart, FromTheFirstFrame_Rk23) { check_gas_restart({"time.integrator=rk23"}, 0, 300); }
TEST(GasRestart, NPlusNEqualsTwoN_Rk23) { check_gas_restart({"time.integrator=rk23"}, 300, 300); }
TEST(GasRestart, NPlusNEqualsTwoN_Float) { check_gas_restart({"scene.precision=float"}); }

TEST(GasRestart, FieldsAreRegistered) {
  auto sim = make_simulation(test::shipped_scene("sod1d.ini", {"viscosity.switch=morris_monaghan"}), Backend::Cpu);
  std::vector<std::string> names;
  for (const FieldInfo& f : sim->fields()) names.push_back(f.name);
  for (const char* want : {"internal_energy", "smoothing_length", "omega", "pressure", "sound_speed",
                           "energy_rate", "viscosity_alpha", "signal_speed"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

// Momentum: without frozen particles or gravity the pair forces (pressure, viscosity) are
// antisymmetric, so total momentum stays at its initial value to round-off.
TEST(GasConservation, MomentumWithoutBoundaries) {
  auto sim = make_simulation(test::shipped_scene("sod2d.ini", {"gas.frozen_x=0", "gas_block.1.dp=0.03",
                                                               "gas_block.2.dp=0.06"}),
                             Backend::Cpu);
  StopRule r;
  r.max_steps = 30;
  StepLoop(*sim, r).run();
  const Diagnostics d = sim->diagnostics();
  EXPECT_LT(std::fabs(d.momentum[0]), 1e-13);
  EXPECT_LT(std::fabs(d.momentum[1]), 1e-13);
}

TEST(GasScenes, ShippedScenesStep) {
  for (const char* scene : {"sod2d.ini", "sod3d.ini", "sedov2d.ini", "sedov3d.ini"}) {
    auto sim = make_simulation(test::shipped_scene(scene), Backend::Cpu);
    const double e0 = sim->diagnostics().total;
    StopRule r;
    r.max_steps = 1;
    StepLoop(*sim, r).run();
    EXPECT_EQ(sim->steps(), 1) << scene;
    EXPECT_LT(std::fabs(sim->diagnostics().total / e0 - 1), 1e-3) << scene;
  }
}


TEST(GasScenes, BadInputIsReported) {
  const std::string no_gas = test::scene_error("[physics]\nmodel = gas\n");
  EXPECT_NE(no_gas.find("gas_block.1"), std::string::npos) << no_gas;
  const std::string range = test::scene_error("[physics]\nmodel = gas\n[gas]\ngamma = 0.5\n");
  EXPECT_NE(range.find("bad.ini:4"), std::string::npos) << range;
  EXPECT_NE(range.find("gas.gamma"), std::string::npos) << range;
  const std::string integ = test::scene_error("[time]\nintegrator = rk23\n");
  EXPECT_NE(integ.find("physics.model = gas"), std::string::npos) << integ;
  const std::string fixed = test::scene_error("[physics]\nmodel = gas\n[gas]\nh_mode = fixed\n[gas_block.1]\nmin = 0, 0\nmax = 1, 1\n");
  EXPECT_NE(fixed.find("gas.h"), std::string::npos) << fixed;
}

TEST(GasBackendAgreement, CpuAndCudaAgreeOnSod1D_Double) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("sod1d.ini");
  auto a = make_simulation(p, Backend::Cpu);
  auto b = make_simulation(p, Backend::Cuda);
  StopRule rule;
  rule.max_steps = 1000;  // t = 0.194: the same steps on both, whatever rounding does to dt
  StepLoop(*a, rule).run();
  StepLoop(*b, rule).run();
  const test::ParticleDifference diff = test::max_difference_by_id(a->download(), b->download());
  const double dx = diff.position, drho = diff.density;
  const double de = std::fabs(a->diagnostics().total - b->diagnostics().total) / a->diagnostics().total;
  std::printf("  Sod 1D double, 1000 steps: max |dx| %.3g, max |drho| %.3g, energy %.3g\n", dx, drho, de);
  // Same functors in the same order; only rounding (FMA contraction on the GPU) differs, amplified
  // through ~1000 steps of a shock problem.
  EXPECT_LT(dx, 1e-6);
  EXPECT_LT(drho, 1e-4);
  EXPECT_LT(de, 1e-9);
}

}  // namespace
}  // namespace ejecta
