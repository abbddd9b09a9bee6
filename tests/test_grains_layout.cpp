// "Reset block" and "reset random" for grains (scene/grain_layout.h, the viewer's keys B and N in a mixed
// scene of grains; the cuda-samples particles demo's grid and random resets): the free grains of the
// shipped 2D column (800 grains on a floor of fixed grains) laid out afresh in the box, never
// overlapping each other or the fixed grains, the block compact around the box centre, the random
// layout reproducible by seed; the rebuilt scene keeps its particles and runs (CPU).
#include "grain_test_util.h"
#include "sim_test_util.h"

#include "physics/solid_model.h"
#include "scene/grain_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace ejecta {
namespace {

struct Checked {
  double min_gap = 1e30;        // the smallest distance between two laid-out centres minus 2 r_max
  double min_fixed_gap = 1e30;  // the smallest distance to a fixed grain minus r_max + its radius
  double spread[3] = {0, 0, 0}; // the largest |x - box centre| per axis
};

Checked check(const ParamSet& p, const SceneParticles& init, const std::vector<double>& x) {
  const int dim = init.dim;
  double r_max = 0;
  for (std::size_t i = 0; i < init.size(); ++i) r_max = std::max(r_max, init.radius[i]);
  const auto lo = p.vec3("dem.box_min"), hi = p.vec3("dem.box_max");
  const std::size_t n = x.size() / std::size_t(dim);
  Checked c;
  for (std::size_t a = 0; a < n; ++a) {
    for (int d = 0; d < dim; ++d) {
      EXPECT_GE(x[a * dim + d], lo[d] + r_max - 1e-12);
      EXPECT_LE(x[a * dim + d], hi[d] - r_max + 1e-12);
      c.spread[d] = std::max(c.spread[d], std::fabs(x[a * dim + d] - 0.5 * (lo[d] + hi[d])));
    }
    for (std::size_t b = a + 1; b < n; ++b) {  // O(n^2): a test of 800 grains
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (x[a * dim + d] - x[b * dim + d]) * (x[a * dim + d] - x[b * dim + d]);
      c.min_gap = std::min(c.min_gap, std::sqrt(r2) - 2 * r_max);
    }
    for (std::size_t j = 0; j < init.size(); ++j) {
      if (init.phase[j] != kPhaseGrain || init.kind[j] == 0) continue;
      double r2 = 0;
      for (int d = 0; d < dim; ++d)
        r2 += (x[a * dim + d] - init.position[j * dim + d]) * (x[a * dim + d] - init.position[j * dim + d]);
      c.min_fixed_gap = std::min(c.min_fixed_gap, std::sqrt(r2) - (r_max + init.radius[j]));
    }
  }
  return c;
}

TEST(GrainsLayout, BlockAndRandomNeverOverlapAndStayInTheBox) {
  const ParamSet p = test::shipped_scene("grains_column2d.ini");
  const SceneParticles init = build_mixed_scene(p);
  std::size_t n_free = 0;
  double r_max = 0;
  for (std::size_t i = 0; i < init.size(); ++i)
    if (init.phase[i] == kPhaseGrain) r_max = std::max(r_max, init.radius[i]), n_free += init.kind[i] == 0;
  const std::vector<double> block = grain_layout_sites(p, init, FluidLayout::Block, 1);
  const std::vector<double> a = grain_layout_sites(p, init, FluidLayout::Random, 7);
  const std::vector<double> b = grain_layout_sites(p, init, FluidLayout::Random, 7);
  const std::vector<double> c = grain_layout_sites(p, init, FluidLayout::Random, 8);
  ASSERT_EQ(block.size(), 2 * n_free);
  ASSERT_EQ(a.size(), 2 * n_free);
  EXPECT_EQ(a, b) << "one seed, one layout";
  EXPECT_NE(a, c) << "another seed, another layout";
  const Checked cb = check(p, init, block), ca = check(p, init, a);
  // The block: a square of n_free sites of spacing 2.02 r_max about the box centre, at most one row of
  // sites more in each direction than a perfect square.
  const double half = 0.5 * std::ceil(std::sqrt(double(n_free)) + 1) * 2.02 * r_max;
  std::printf("  %zu free grains: block spread %.4f x %.4f m (square: %.4f), gaps %.3g / %.3g m; random spread "
              "%.4f x %.4f m, gaps %.3g / %.3g m\n", n_free, cb.spread[0], cb.spread[1], half, cb.min_gap,
              cb.min_fixed_gap, ca.spread[0], ca.spread[1], ca.min_gap, ca.min_fixed_gap);
  EXPECT_GE(cb.min_gap, 0.01 * r_max);
  EXPECT_GE(ca.min_gap, 0.01 * r_max);
  EXPECT_GE(cb.min_fixed_gap, 0.0);
  EXPECT_GE(ca.min_fixed_gap, 0.0);
  EXPECT_LT(cb.spread[0], half + 2.02 * r_max);
  EXPECT_LT(cb.spread[1], half + 2.02 * r_max);
  EXPECT_GT(ca.spread[0], 2 * half) << "random sites fill the box, not the middle";
  // A box too small for the grains is refused with the counts.
  ParamSet small = p;
  small.set("dem.box_max", "0.2, 0.2", "test");
  EXPECT_THROW(grain_layout_sites(small, init, FluidLayout::Random, 1), std::invalid_argument);
}

TEST(GrainsLayout, RebuiltSceneKeepsItsGrainsAndRuns) {
  const ParamSet p = test::shipped_scene("grains_column2d.ini");
  const std::size_t n = make_simulation(p, Backend::Cpu)->particle_count();
  for (FluidLayout l : {FluidLayout::Block, FluidLayout::Random}) {
    auto sim = make_grain_simulation_with_layout(p, Backend::Cpu, l, 3);
    EXPECT_EQ(sim->particle_count(), n);
    EXPECT_EQ(sim->time(), 0.0);
    test::step_n(*sim, 50);
    EXPECT_TRUE(std::isfinite(sim->diagnostics().kinetic));
  }
  // A liquid scene is not a grain scene.
  EXPECT_THROW(make_grain_simulation_with_layout(test::shipped_scene("boulders_dambreak3d.ini",
                                                                     {"particles.dp=0.04", "grains.1.radius=0.02",
                                                                      "grains.1.spacing=0.041"}),
                                                 Backend::Cpu, FluidLayout::Block, 1),
               std::logic_error);
}

}  // namespace
}  // namespace ejecta
