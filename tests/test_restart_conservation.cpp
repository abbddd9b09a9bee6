// Restart from a captured frame continues exactly as the uninterrupted run (same backend and
// precision); momentum and angular momentum are conserved to round-off without walls or gravity;
// the diagnostics' energies match sums over the downloaded particles.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ejecta {
namespace {

void check_restart(const std::vector<std::string>& overrides) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", overrides);
  const long n = 150;
  auto whole = make_simulation(p, Backend::Cpu);
  StopRule two_n;
  two_n.max_steps = 2 * n;
  StepLoop(*whole, two_n).run();

  auto first = make_simulation(p, Backend::Cpu);
  StopRule one_n;
  one_n.max_steps = n;
  StepLoop(*first, one_n).run();
  const FrameData frame = first->capture_frame();
  first.reset();
  auto resumed = make_simulation(p, Backend::Cpu);
  resumed->restore_frame(frame);
  StepLoop(*resumed, one_n).run();
  test::expect_same_state(*whole, *resumed);
}

TEST(Restart, NPlusNEqualsTwoN_Float) { check_restart({}); }
TEST(Restart, NPlusNEqualsTwoN_Double) { check_restart({"scene.precision=double"}); }
TEST(Restart, NPlusNEqualsTwoN_XsphSummation) {
  check_restart({"scene.precision=double", "fluid.xsph=0.5", "fluid.density=summation"});
}

TEST(Restart, RejectsAFrameOfAnotherShape) {
  auto a = make_simulation(test::shipped_scene("dambreak2d.ini"), Backend::Cpu);
  auto b = make_simulation(test::shipped_scene("dambreak2d.ini", {"scene.precision=double"}), Backend::Cpu);
  EXPECT_THROW(b->restore_frame(a->capture_frame()), std::invalid_argument);
  EXPECT_THROW(a->restore_frame(a->capture_frame({"position"})), std::invalid_argument);
  EXPECT_THROW(a->capture_frame({"positon"}), std::invalid_argument);
}

TEST(Conservation, MomentumWithoutWallsOrGravity) {
  // Two water blocks colliding off-centre in empty space: every pair force is antisymmetric and
  // central, so linear and angular momentum stay constant to round-off while the blocks splash.
  const char* ini = R"(
[scene]
dim = 2
precision = double
[particles]
dp = 0.01
[physics]
gravity = 0, 0
[fluid]
c0 = 20
[block.1]
min = 0, 0
max = 0.2, 0.2
velocity = 2.0, 0.5
[block.2]
min = 0.22, 0.1
max = 0.42, 0.3
velocity = -1.0, 0
)";
  ParamSet p = read_scene_string(ini, "<free block>");
  auto sim = make_simulation(p, Backend::Cpu);
  const Diagnostics d0 = sim->diagnostics();
  StopRule rule;
  rule.max_steps = 300;
  StepLoop(*sim, rule).run();
  const Diagnostics d1 = sim->diagnostics();
  ASSERT_LT(d1.kinetic, 0.98 * d0.kinetic) << "the blocks must have collided (kinetic energy 2% down)";
  const double p0 = std::hypot(d0.momentum[0], d0.momentum[1]);
  std::printf("  momentum drift %.3g, %.3g (of %.3g); angular %.3g (of %.3g)\n",
              d1.momentum[0] - d0.momentum[0], d1.momentum[1] - d0.momentum[1], p0,
              d1.angular_momentum[2] - d0.angular_momentum[2], d0.angular_momentum[2]);
  EXPECT_NEAR(d1.momentum[0], d0.momentum[0], 1e-12 * p0);
  EXPECT_NEAR(d1.momentum[1], d0.momentum[1], 1e-12 * p0);
  EXPECT_NEAR(d1.angular_momentum[2], d0.angular_momentum[2], 1e-10 * std::fabs(d0.angular_momentum[2]) + 1e-12);
}

TEST(Diagnostics, EnergySumsMatchTheParticles) {
  auto sim = make_simulation(test::shipped_scene("dambreak2d.ini", {"scene.precision=double"}), Backend::Cpu);
  StopRule rule;
  rule.max_steps = 300;
  StepLoop(*sim, rule).run();
  const Diagnostics d = sim->diagnostics();
  const HostParticles h = sim->download();
  double ke = 0, pe = 0, mass = 0;
  for (std::size_t i = 0; i < h.n; ++i) {
    mass += h.mass[i];
    if (h.kind[i] != kFluid) continue;
    ke += 0.5 * h.mass[i] * (h.velocity[2 * i] * h.velocity[2 * i] + h.velocity[2 * i + 1] * h.velocity[2 * i + 1]);
    pe += h.mass[i] * 9.81 * h.position[2 * i + 1];
  }
  EXPECT_NEAR(d.kinetic, ke, 1e-9 * ke);
  EXPECT_NEAR(d.potential, pe, 1e-9 * pe);
  EXPECT_NEAR(d.mass, mass, 1e-12 * mass);
  EXPECT_NEAR(d.total, d.kinetic + d.potential + d.internal, 1e-12 * std::fabs(d.total));
  EXPECT_GT(d.internal, 0.0) << "the compressed column stores energy";
}

}  // namespace
}  // namespace ejecta
