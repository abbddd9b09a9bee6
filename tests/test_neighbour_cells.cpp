// The liquid's neighbour grid with cells of the support (27 scanned in 3D) or of half of it (125
// smaller ones: fluid.neighbour_cells = half, neighbors/cell_grid.h). The neighbours are the same
// (tests/test_neighbors.cpp checks the sets against brute force); the sums run in another order, so
// the two runs agree to round-off, and the probes, which walk the grid's rows, sample the same values.
#include "probe_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ejecta {
namespace {

std::unique_ptr<Simulation> run(std::vector<std::string> overrides, const char* cells, Backend backend, long steps) {
  overrides.push_back(std::string("fluid.neighbour_cells=") + cells);
  auto sim = make_simulation(test::shipped_scene("dambreak3d.ini", overrides), backend);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  return sim;
}

// SPHERIC 2 at dp = 0.06 for 60 steps (the column has started to fall), in double: the summation
// order's round-off (1e-16 relative) may grow, but stays far below a particle spacing.
TEST(NeighbourCells, HalfCellsAgreeWithSupportCells_Double) {
  const std::vector<std::string> o = {"particles.dp=0.06", "scene.precision=double"};
  const auto a = run(o, "support", Backend::Cpu, 60), b = run(o, "half", Backend::Cpu, 60);
  const test::ParticleDifference d = test::max_difference_by_id(a->download(), b->download());
  std::printf("  half against support cells, 60 steps, double: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g kg/m^3\n",
              d.position, d.velocity, d.density);
  EXPECT_LT(d.position, 1e-9 * 0.06);
  EXPECT_LT(d.density, 1e-9 * 1000);
  EXPECT_NEAR(a->time(), b->time(), 1e-12);
}

// The probes of the shipped scene (P1-P8, H1-H4) and two in the falling column sample the same
// values through the 25 rows of the half cells as through the 9 rows of the support cells.
TEST(NeighbourCells, ProbesSampleTheSameValuesThroughHalfCells) {
  const std::vector<std::string> o = {"particles.dp=0.06", "scene.precision=double", "probe.9.position=3, 0.5, 0.1",
                                      "probe.10.position=2.5, 0.5, 0.3", "probe.10.fields=pressure, velocity, density"};
  const auto a = run(o, "support", Backend::Cpu, 40), b = run(o, "half", Backend::Cpu, 40);
  const std::vector<double> sa = sample_probes_now(*a), sb = sample_probes_now(*b);
  const ProbeLayout& l = *probe_layout(*a);
  ASSERT_EQ(sa.size(), sb.size());
  int wet = 0;
  for (std::size_t c = 0; c < sa.size(); ++c) {
    const bool gauge = l.instruments[l.columns[c].instrument].gauge;
    // A gauge level moves by round-off only where a colour sits on the level.
    EXPECT_NEAR(sa[c], sb[c], gauge ? 1e-6 : 1e-7 * std::max(1.0, std::fabs(sa[c]))) << l.columns[c].name;
    wet += !gauge && sa[c] != 0;
  }
  EXPECT_GE(wet, 2) << "too few wet probes to compare";
}

TEST(NeighbourCells, CudaHalfCellsAgreeWithSupportCells_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto a = run({"particles.dp=0.04"}, "support", Backend::Cuda, 200);
  const auto b = run({"particles.dp=0.04"}, "half", Backend::Cuda, 200);
  const auto c = run({"particles.dp=0.04"}, "half", Backend::Cpu, 200);
  const test::ParticleDifference gpu = test::max_difference_by_id(a->download(), b->download());
  const test::ParticleDifference cpu_gpu = test::max_difference_by_id(b->download(), c->download());
  std::printf("  float, 200 steps: half against support on the GPU |dx| %.3g m; half, CPU against GPU |dx| %.3g m\n",
              gpu.position, cpu_gpu.position);
  EXPECT_LT(gpu.position, 1e-3 * 0.04) << "the same neighbours: only the summation order differs";
  EXPECT_LT(cpu_gpu.position, 1e-3 * 0.04);
}

}  // namespace
}  // namespace ejecta
