// Faults are caught and reported: dt collapse, density runaway, non-finite state (step, time,
// particle, field in the message), and a scene too large for the GPU (refused before allocating).
#include "integrators/step_monitor.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace ejecta {
namespace {

std::string blow_up_message(const std::vector<std::string>& overrides, double until) {
  ParamSet p = test::shipped_scene("dambreak2d.ini", overrides);
  try {
    auto sim = make_simulation(p, Backend::Cpu);
    test::run_until(*sim, until);
  } catch (const BlowUpError& e) {
    return e.what();
  }
  return "";
}

TEST(Faults, TimeStepCollapseIsReported) {
  const std::string msg = blow_up_message({"time.dt_min=1e-3"}, 0.01);
  ASSERT_FALSE(msg.empty()) << "dt is ~2e-5 s, far below the 1e-3 s floor";
  EXPECT_NE(msg.find("time step collapsed"), std::string::npos) << msg;
  EXPECT_NE(msg.find("time.dt_min"), std::string::npos) << msg;
  EXPECT_NE(msg.find("step 0"), std::string::npos) << msg;
}

TEST(Faults, DensityRunawayNamesStepTimeParticleAndField) {
  // c0 = 2 m/s against surge speeds of ~1.5 m/s: the weakly compressible model no longer holds and,
  // a hundred steps into the run, a particle's density leaves [rho0/1.5, 1.5 rho0].
  const std::string msg = blow_up_message({"fluid.c0=2"}, 0.2);
  ASSERT_FALSE(msg.empty());
  EXPECT_EQ(msg.find("at step 0,"), std::string::npos) << "should fail mid-run: " << msg;
  EXPECT_NE(msg.find("at step "), std::string::npos) << msg;
  EXPECT_NE(msg.find(", t = "), std::string::npos) << msg;
  EXPECT_NE(msg.find("fluid particle "), std::string::npos) << msg;
  EXPECT_NE(msg.find("density = ("), std::string::npos) << msg;
  EXPECT_NE(msg.find("fault.max_density_ratio"), std::string::npos) << msg;
}

TEST(Faults, ImpossibleInitialStateIsCaughtAtStepZero) {
  // c0 = 0.3 m/s: the hydrostatic start alone compresses the column's base to 1.9 rho0.
  const std::string msg = blow_up_message({"fluid.c0=0.3"}, 0.2);
  EXPECT_NE(msg.find("at step 0, t = 0 s: fluid particle"), std::string::npos) << msg;
}

TEST(Faults, NonFiniteStateIsFoundAtTheFirstBadParticle) {
  // The per-step monitor on a hand-made state: the first bad particle and its field win.
  constexpr int n = 8;
  Vec<double, 2> x[n], v[n], a[n];
  double rho[n];
  uint8_t kind[n];
  for (int i = 0; i < n; ++i) {
    x[i] = {{0.1 * i, 0.0}};
    v[i] = {{0.0, -1.0 * i}};
    a[i] = {{0.0, -9.81}};
    rho[i] = 1000;
    kind[i] = kFluid;
  }
  kind[2] = kWall;
  v[5][1] = std::numeric_limits<double>::infinity();
  rho[6] = std::numeric_limits<double>::quiet_NaN();
  ParticleView<double, 2> pv{};
  pv.x = host_as_device(x);
  pv.v = host_as_device(v);
  pv.a = host_as_device(a);
  pv.rho = host_as_device(rho);
  pv.kind = host_as_device(kind);
  MeasureExtremes<double, 2> measure{pv, 500.0, 2000.0};
  StepExtremes<double> e{0, 0, 0xffffffffu, kBadNone};
  for (int i = 0; i < n; ++i) e = CombineExtremes<double>{}(e, measure(i));
  EXPECT_EQ(e.bad_index, 5u);
  EXPECT_EQ(e.bad_field, uint32_t(kBadVelocity));
  EXPECT_DOUBLE_EQ(e.max_v2, 49.0);  // particle 7, the fastest good one
}

TEST(Faults, OutOfGpuMemoryIsRefusedBeforeAllocating) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  // Fence the device to 8 MiB: the 3D dam break at dp = 0.02 (about 3e5 particles) needs ~50 MB. The
  // check before allocating (scene/memory_budget.h) refuses it as bad input, with the spacing that fits.
  setenv("EJECTA_DEVICE_MEMORY_LIMIT", "8388608", 1);
  const ParamSet p = test::shipped_scene("dambreak3d.ini");
  std::string msg;
  try {
    make_simulation(p, Backend::Cuda);
  } catch (const ParamError& e) {
    msg = e.what();
  }
  unsetenv("EJECTA_DEVICE_MEMORY_LIMIT");
  ASSERT_FALSE(msg.empty()) << "expected a ParamError";
  EXPECT_NE(msg.find(" of GPU memory, 8.39 MB available; raise particles.dp to "), std::string::npos) << msg;
  std::printf("  %s\n", msg.c_str());
  // And the device is usable afterwards.
  EXPECT_NO_THROW(make_simulation(test::shipped_scene("dambreak2d.ini"), Backend::Cuda));
}

}  // namespace
}  // namespace ejecta
