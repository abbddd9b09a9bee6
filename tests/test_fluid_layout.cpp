// "Reset block" and "reset random" of the viewer (engine/scene/fluid_layout.h): the fluid's new sites
// lie on the scene's lattice (block) or within 0.2 dp of it (random), inside the tank, the block centred
// and compact, the random draw spread over the tank and no two particles closer than 0.6 dp; the
// rebuilt liquid runs.
#include "scene/fluid_layout.h"
#include "ring_metrics.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ejecta {
namespace {

ParamSet small_dambreak() {
  return read_scene_string(
      "[scene]\ndim = 2\n[particles]\ndp = 0.01\n[physics]\ngravity = 0, -9.81\n"
      "[tank.1]\nmin = 0, 0\nmax = 0.4, 0.3\n[block.1]\nmin = 0, 0\nmax = 0.1, 0.2\n",
      "layout.ini");
}

TEST(FluidLayout, BlockIsACompactSquareOnTheLatticeAtTheTankCentre) {
  const ParamSet p = small_dambreak();
  const std::vector<double> x = fluid_layout_sites(p, 200, FluidLayout::Block, 1);
  ASSERT_EQ(x.size(), 400u);
  double lo[2] = {1e9, 1e9}, hi[2] = {-1e9, -1e9}, mean[2] = {0, 0};
  for (std::size_t i = 0; i < 200; ++i)
    for (int d = 0; d < 2; ++d) {
      const double v = x[2 * i + d];
      // On the builder's lattice: (k + 1/2) dp from the tank's min corner.
      EXPECT_NEAR(std::fmod(v / 0.01 + 1000, 1.0), 0.5, 1e-6);
      lo[d] = std::min(lo[d], v), hi[d] = std::max(hi[d], v), mean[d] += v / 200;
    }
  EXPECT_NEAR(mean[0], 0.2, 0.01);
  EXPECT_NEAR(mean[1], 0.15, 0.01);
  // 200 sites: a 14 x 14 square plus a partial ring, no wider than 16 sites either way.
  EXPECT_LE(hi[0] - lo[0], 15 * 0.01 + 1e-9);
  EXPECT_LE(hi[1] - lo[1], 15 * 0.01 + 1e-9);
  EXPECT_GE(lo[0], 0.0);
  EXPECT_LE(hi[0], 0.4);
}

TEST(FluidLayout, RandomIsSpreadJitteredAndNeverTooClose) {
  const ParamSet p = small_dambreak();
  const std::vector<double> a = fluid_layout_sites(p, 200, FluidLayout::Random, 7);
  const std::vector<double> b = fluid_layout_sites(p, 200, FluidLayout::Random, 7);
  const std::vector<double> c = fluid_layout_sites(p, 200, FluidLayout::Random, 8);
  EXPECT_EQ(a, b) << "the same seed gives the same layout";
  EXPECT_NE(a, c) << "another seed gives another layout";
  HostParticles h;
  h.dim = 2;
  h.n = 200;
  h.position = a;
  EXPECT_GE(test::min_separation_2d(h, 0.01), 0.6 * 0.01 - 1e-12);
  double lo[2] = {1e9, 1e9}, hi[2] = {-1e9, -1e9};
  for (std::size_t i = 0; i < 200; ++i)
    for (int d = 0; d < 2; ++d) lo[d] = std::min(lo[d], a[2 * i + d]), hi[d] = std::max(hi[d], a[2 * i + d]);
  EXPECT_GE(lo[0], 0.0);
  EXPECT_GE(lo[1], 0.0);
  EXPECT_LE(hi[0], 0.4);
  EXPECT_LE(hi[1], 0.3);
  // Spread over the tank (1200 sites, 200 drawn): the draw spans most of it.
  EXPECT_GT(hi[0] - lo[0], 0.3);
  EXPECT_GT(hi[1] - lo[1], 0.2);
}

TEST(FluidLayout, RebuiltSceneKeepsItsParticlesAndRuns) {
  const ParamSet p = small_dambreak();
  auto ref = make_simulation(p, Backend::Cpu);
  for (FluidLayout l : {FluidLayout::Block, FluidLayout::Random}) {
    auto sim = make_simulation_with_layout(p, Backend::Cpu, l, 3);
    EXPECT_EQ(sim->particle_count(), ref->particle_count());
    EXPECT_EQ(sim->fluid_count(), ref->fluid_count());
    EXPECT_EQ(sim->time(), 0.0);
    StopRule rule;
    rule.max_steps = 50;
    EXPECT_NO_THROW(StepLoop(*sim, rule).run());
    EXPECT_EQ(sim->steps(), 50);
  }
}

// The same layouts on the CUDA backend: the same particles, at rest, and 50 steps that stay close to the
// CPU's (the layout is computed on the host, the solvers differ only in the order of sums).
TEST(FluidLayout, RebuiltSceneRunsOnCuda) {
  if (!cuda_available()) GTEST_SKIP() << cuda_unavailable_reason();
  ParamSet p = small_dambreak();
  p.set("scene.precision", "double", "test");
  for (FluidLayout l : {FluidLayout::Block, FluidLayout::Random}) {
    auto cpu = make_simulation_with_layout(p, Backend::Cpu, l, 5);
    auto gpu = make_simulation_with_layout(p, Backend::Cuda, l, 5);
    ASSERT_EQ(gpu->backend(), Backend::Cuda);
    EXPECT_EQ(gpu->fluid_count(), cpu->fluid_count());
    StopRule rule;
    rule.max_steps = 50;
    StepLoop(*cpu, rule).run();
    StepLoop(*gpu, rule).run();
    const test::ParticleDifference d = test::max_difference_by_id(cpu->download(), gpu->download());
    EXPECT_LT(d.position, 1e-9) << "layout " << int(l);
    EXPECT_LT(d.velocity, 1e-6) << "layout " << int(l);
  }
}

TEST(FluidLayout, RefusesWhatItCannotLayOut) {
  const ParamSet p = small_dambreak();
  EXPECT_THROW(fluid_layout_sites(p, 5000, FluidLayout::Block, 1), std::invalid_argument);  // 1200 sites
  EXPECT_THROW(fluid_layout_sites(test::shipped_scene("sod1d.ini"), 10, FluidLayout::Random, 1), std::logic_error);
}

}  // namespace
}  // namespace ejecta
