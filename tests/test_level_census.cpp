// The neighbour search's census (neighbors/level_census.h, issue 18): its neighbour counts against brute
// force, and the impact's search work per particle flat in the particle count (the benchmark scales
// every spacing of scenes/impact3d.ini by one factor; the cells, levels and candidates per particle must
// follow, or the cost per particle grows with the size).
#include "command_output.h"
#include "neighbors/level_census.h"
#include "scene/scene_particles.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace ejecta {
namespace {

TEST(LevelCensus, NeighboursAsBruteForce) {
  // A jittered lattice with two smoothing lengths (two levels) and two labels.
  const double dp = 0.1;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.3 * dp, 0.3 * dp);
  std::vector<double> x, h;
  std::vector<uint8_t> label;
  for (int k = 0; k < 12; ++k)
    for (int j = 0; j < 12; ++j)
      for (int i = 0; i < 12; ++i) {
        x.push_back(i * dp + jitter(rng));
        x.push_back(j * dp + jitter(rng));
        x.push_back(k * dp + jitter(rng));
        h.push_back((i + j) % 7 == 0 ? 2.6 * dp : 1.3 * dp);
        label.push_back(k >= 6);
      }
  const std::size_t n = h.size();
  const LevelCensus c = level_census(3, x.data(), h.data(), label.data(), n);
  std::size_t pairs = 0, most = 0;
  double gap = 1e30;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t mine = 0;
    for (std::size_t j = 0; j < n; ++j) {
      double r2 = 0;
      for (int d = 0; d < 3; ++d) r2 += (x[3 * i + d] - x[3 * j + d]) * (x[3 * i + d] - x[3 * j + d]);
      const double hij = 0.5 * (h[i] + h[j]);
      if (j == i || !(r2 < 4 * hij * hij)) continue;
      ++mine;
      if (label[i] != label[j]) gap = std::min(gap, std::sqrt(r2));
    }
    pairs += mine;
    most = std::max(most, mine);
  }
  EXPECT_EQ(c.particles, n);
  EXPECT_EQ(c.levels, 2);
  EXPECT_DOUBLE_EQ(c.neighbours, double(pairs) / double(n));
  EXPECT_EQ(c.neighbours_max, most);
  EXPECT_DOUBLE_EQ(c.label_gap, gap);
  EXPECT_GT(c.neighbours, 20);
  EXPECT_GE(c.candidates, c.neighbours + 1);  // every pair and the particle itself are candidates
  EXPECT_GE(c.warp_trips, c.candidates);      // a warp runs its longest lane's candidates
  EXPECT_LE(c.warp_bodies, c.warp_trips);
  EXPECT_GE(c.warp_bodies, double(most));
  EXPECT_EQ(c.level_particles[0] + c.level_particles[1], n);
  EXPECT_GT(c.occupied, 0u);
  // Cells of half the support: the same neighbours from fewer candidates.
  const LevelCensus half = level_census(3, x.data(), h.data(), label.data(), n, 0, 2);
  EXPECT_DOUBLE_EQ(half.neighbours, c.neighbours);
  EXPECT_DOUBLE_EQ(half.label_gap, gap);
  EXPECT_DOUBLE_EQ(half.cell[0], 0.5 * c.cell[0]);
  EXPECT_LT(half.candidates, 0.8 * c.candidates);
}

std::string exact(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// scenes/impact3d.ini with its target's dp and its projectile's (as `--benchmark` scales them).
LevelCensus impact_census(double dp, double dp_projectile) {
  // The flaws play no part in the search.
  const ParamSet p = test::shipped_scene("impact3d.ini", {"solid_block.1.dp=" + exact(dp),
                                                          "solid_block.2.dp=" + exact(dp_projectile), "solid.damage=false"});
  const SceneParticles s = build_scene_particles(p);
  return level_census(3, s.position.data(), s.h.data(), nullptr, s.size());
}

TEST(LevelCensus, ImpactWorkPerParticleFlatInTheParticleCount) {
  const LevelCensus a = impact_census(0.1, 0.1), b = impact_census(0.0625, 0.0625);  // 33k and 135k particles
  ASSERT_GT(b.particles, 3 * a.particles);
  EXPECT_EQ(a.levels, 1);
  EXPECT_EQ(b.levels, 1);  // one h: one level, cells of 2 h = 2.6 dp
  EXPECT_NEAR(b.cell[0] / a.cell[0], 0.625, 1e-9);
  // Per particle the same work up to the surface's share (a fifth of the coarse target's particles lie
  // in its outer layer, an eighth of the fine one's; measured: candidates 376 -> 424, particles per
  // occupied bucket 13.8 -> 17.3): a grid capped or cells grown with the count would multiply the
  // candidates (cells twice as large: 2.4 times).
  EXPECT_NEAR(b.candidates / a.candidates, 1.0, 0.2) << a.candidates << " -> " << b.candidates;
  EXPECT_NEAR(b.neighbours / a.neighbours, 1.0, 0.1) << a.neighbours << " -> " << b.neighbours;
  EXPECT_NEAR(b.ranges / a.ranges, 1.0, 0.02);  // 9 rows of 3 cells
  EXPECT_NEAR(b.warp_bodies / a.warp_bodies, 1.0, 0.2) << a.warp_bodies << " -> " << b.warp_bodies;
  EXPECT_NEAR(double(b.particles) / double(b.occupied) / (double(a.particles) / double(a.occupied)), 1.0, 0.3);
}

// The 4M jump (docs/benchmarks.md, 2026-12-04): the benchmark's 4M rung had the projectile's dp one ulp
// below the target's (here a few ulps, which survive h = 1.3 dp), which made a second level of cells twice as large for the target. The same
// search work as with equal spacings (before level_grid.h's kLevelSlack: two levels, 2.4 times the
// candidates).
TEST(LevelCensus, ImpactSpacingsOneUlpApartSearchAsEqualOnes) {
  const double dp = 0.0625;
  const LevelCensus equal = impact_census(dp, dp), apart = impact_census(dp, dp * (1 - 1e-15));  // a few ulps
  EXPECT_LT(apart.h_min, apart.h_max);
  EXPECT_EQ(apart.levels, 1);
  EXPECT_EQ(apart.dims, equal.dims);
  EXPECT_NEAR(apart.candidates, equal.candidates, 0.01 * equal.candidates);
  EXPECT_DOUBLE_EQ(apart.neighbours, equal.neighbours);
}

// `--benchmark SCENE --benchmark-census STEPS` through the binary, at 4072 particles of the impact: a rung
// at which the former scaling (0.05 dp / 0.05) put the projectile's h one ulp below the target's. Both
// spacings stay equal to the last bit, one level; with 2 steps the force phase of each step.
TEST(LevelCensus, BenchmarkRungKeepsEqualSpacingsEqual) {
  const std::string bin = std::string(EJECTA_BINARY_DIR) + "/ejecta";
  if (access(bin.c_str(), X_OK) != 0) GTEST_SKIP() << "needs the ejecta binary at " << bin;
  const std::string cmd = "OMP_NUM_THREADS=1 '" + bin + "' --benchmark '" + test::source_dir() +
                          "/scenes/impact3d.ini' --benchmark-sizes 4000 --precision double --backend cpu "
                          "--benchmark-census 2 2>&1";
  const test::CommandOutput run = test::command_output(cmd);
  const std::string& out = run.out;
  ASSERT_TRUE(run.ok) << out;
  auto text = [&](const std::string& key) {
    const std::size_t at = out.find("\"" + key + "\": ");
    EXPECT_NE(at, std::string::npos) << key << " missing in: " << out;
    if (at == std::string::npos) return std::string();
    const std::size_t from = at + key.size() + 4;
    return out.substr(from, out.find_first_of(",}", from) - from);
  };
  EXPECT_EQ(text("particles"), "4072") << out;
  EXPECT_EQ(text("h_spread"), "0") << out;  // (h_max - h_min) / h_min: one ulp would print 1e-16
  EXPECT_EQ(text("levels"), "1") << out;
  EXPECT_EQ(text("steps"), "2");
  EXPECT_GT(std::atof(text("time").c_str()), 0);
  const std::size_t forces = out.find("\"forces_ms\": [");
  ASSERT_NE(forces, std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin() + forces, out.begin() + out.find(']', forces), ','), 1) << "two steps: " << out;
  EXPECT_GT(std::atof(text("candidates").c_str()), std::atof(text("neighbours").c_str()));
}

}  // namespace
}  // namespace ejecta
