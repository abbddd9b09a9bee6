// What the viewer shows of self-gravity (issue 16): the `bound` field (gravity/gravity_bound.h) against
// the analytic escape speed of a Plummer sphere, and the tree's top cells (SelfGravity::cells), which
// must nest, halve their side per level and hold every particle.
#include "exec/exec_cpu.h"
#include "gravity/gravity_bound.h"
#include "gravity/self_gravity.h"
#include "gravity_test_util.h"
#include "sim_test_util.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace ejecta {
namespace {

// A Plummer sphere (G = M = a = 1, phi(r) = -1 / sqrt(r^2 + 1)) moving as a whole at V = (3, -2, 1),
// which the centre-of-mass velocity must remove. Each particle gets a random direction and a speed of
// 0.8 or 1.2 times the analytic escape speed sqrt(-2 phi(r)), in opposite pairs so that v_cm = V
// exactly: 1/2 v^2 + phi = (1 - f^2) phi, -0.36 phi (bound) or +0.44 phi (not), far from the tree's and
// the finite sample's potential errors (0.1-1% for 20000 particles).
TEST(GravityBound, PlummerEscapeSpeed) {
  const std::size_t n = 20000;
  test::GravitySet s = test::plummer_sphere(n, 31);
  std::mt19937_64 rng(5);
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec<double, 3>> x(n), v(n), a(n, Vec<double, 3>::zero());
  std::vector<double> m(s.m), h(n, 0.01), phi(n, 0);
  std::vector<uint8_t> bound(n, 7);
  std::vector<int> expect(n);
  const double V[3] = {3, -2, 1};
  for (std::size_t i = 0; i < n; i += 2) {
    double dir[3] = {g(rng), g(rng), g(rng)};
    const double len = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    const bool fast = (i / 2) % 2 == 1;
    for (std::size_t j = i; j < i + 2 && j < n; ++j) {
      for (int d = 0; d < 3; ++d) x[j][d] = s.x[3 * j + d];
      const double r2 = x[j][0] * x[j][0] + x[j][1] * x[j][1] + x[j][2] * x[j][2];
      const double vesc = std::sqrt(2 / std::sqrt(r2 + 1));
      const double speed = (fast ? 1.2 : 0.8) * vesc * (j == i ? 1 : -1);
      expect[j] = fast ? 0 : 1;
      for (int d = 0; d < 3; ++d) v[j][d] = V[d] + speed * dir[d] / len;
    }
  }
  // The pairs' partners sit at other radii: v_cm is V only to the spread of the speeds; the margins
  // above leave room for it (checked below).
  CpuExec exec;
  SelfGravity<double, 3, CpuExec> grav(exec, n, nullptr);
  GravitySettings gs;
  gs.G = 1;
  gs.theta = 0.5;
  gs.softening = 0.01;
  grav.set(gs);
  grav.accumulate(x.data(), m.data(), h.data(), a.data(), phi.data());
  mark_gravity_bound(exec, n, v.data(), m.data(), phi.data(), bound.data());
  std::size_t wrong = 0, bound_count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(bound[i] == 0 || bound[i] == 1) << i;
    if (int(bound[i]) != expect[i]) ++wrong;
    bound_count += bound[i] == 1;
  }
  EXPECT_EQ(bound_count, n / 2);
  EXPECT_EQ(wrong, 0u);
  // Without the centre-of-mass velocity (V counted as peculiar speed) nearly nothing would be bound:
  // the criterion is relative to v_cm.
  std::vector<Vec<double, 3>> still(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) still[i][d] = v[i][d] - V[d];
  std::vector<uint8_t> bound_still(n, 7);
  mark_gravity_bound(exec, n, still.data(), m.data(), phi.data(), bound_still.data());
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(bound_still[i], bound[i]) << i;
}

// The top levels of the tree of a uniform cube: the root holds every particle, each cell's side is
// the root's / 2^level, a cell lies inside a cell of the level above, every particle lies in one
// cell of each level that has no leaves above it, and a level has at most 8^level cells.
TEST(GravityTree, TopCellsNestAndHoldTheParticles) {
  const std::size_t n = 5000;
  test::GravitySet s = test::uniform_cube(n, 8);
  std::vector<Vec<double, 3>> x(n), a(n, Vec<double, 3>::zero());
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) x[i][d] = s.x[3 * i + d];
  std::vector<double> h(n, 0.01), phi(n, 0);
  CpuExec exec;
  SelfGravity<double, 3, CpuExec> grav(exec, n, nullptr);
  GravitySettings gs;
  gs.G = 1;
  grav.set(gs);
  EXPECT_TRUE(grav.cells(3).empty());  // nothing built yet
  grav.accumulate(x.data(), s.m.data(), h.data(), a.data(), phi.data());
  const std::vector<TreeCellBox> cells = grav.cells(3);
  std::size_t per_level[3] = {0, 0, 0};
  for (const TreeCellBox& c : cells) {
    ASSERT_GE(c.level, 0);
    ASSERT_LT(c.level, 3);
    ++per_level[c.level];
  }
  EXPECT_EQ(per_level[0], 1u);
  EXPECT_EQ(per_level[1], 8u);   // 5000 random points fill every octant
  EXPECT_EQ(per_level[2], 64u);  // and every octant of those (about 78 each)
  const TreeCellBox& root = cells[0];
  const double side = root.hi[0] - root.lo[0];
  EXPECT_NEAR(side, 1.0, 1e-3);
  for (const TreeCellBox& c : cells) {
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(c.hi[d] - c.lo[d], side / double(1 << c.level), 1e-12);
      EXPECT_GE(c.lo[d], root.lo[d] - 1e-12);
      EXPECT_LE(c.hi[d], root.hi[d] + 1e-12);
    }
  }
  for (int level = 0; level < 3; ++level) {
    std::size_t outside = 0;
    for (std::size_t i = 0; i < n; ++i) {
      int holders = 0;
      for (const TreeCellBox& c : cells) {
        if (c.level != level) continue;
        bool in = true;
        for (int d = 0; d < 3; ++d) in = in && x[i][d] >= c.lo[d] && x[i][d] <= c.hi[d];
        holders += in;
      }
      outside += holders != 1;
    }
    EXPECT_EQ(outside, 0u) << "level " << level;
  }
}

// `bound` is derived when a frame or a colour asks for it, not at every evaluation: a cold cube at rest
// (the cold collapse, 10^3 particles, G = 1) captured after one step is bound everywhere (phi < 0,
// v ~ 0); without the refresh on capture the field would hold whatever its allocation held.
TEST(GravityBound, ComputedWhenCaptured) {
  const auto sim = make_simulation(test::shipped_scene("cold_collapse3d.ini", {"gas_block.1.dp=0.1"}), Backend::Cpu);
  test::step_n(*sim, 1);
  const FrameData f = sim->capture_frame({"bound"});
  const FieldData* b = f.find("bound");
  ASSERT_TRUE(b);
  ASSERT_EQ(b->count(), sim->particle_count());
  std::size_t bound = 0;
  for (unsigned char c : b->bytes) bound += c == 1 ? 1 : 0;
  EXPECT_EQ(bound, sim->particle_count());
}

}  // namespace
}  // namespace ejecta
