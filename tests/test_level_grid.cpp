// The gas model's neighbour search for widely varying h (neighbors/level_grid.h) against brute
// force, with the solver's own key, sort and table on the CPU backend: h log-uniform over a factor
// 10 or 100 (and one particle with h 1000 times the smallest), uniform and clustered positions, some
// particles far outside the table (folded), h changed after the sort (as the h iteration does);
// gather (r < 2 h_i) and symmetric (r < 2 max(h_i, h_j)) searches, each pair exactly once; buckets in
// Morton order (the CUDA backend's) and row-major order (the CPU backend's).
#include "exec/exec_cpu.h"
#include "neighbors/level_index.h"
#include "wide_h_cloud.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace ejecta {
namespace {

template <int D>
void compare(double h_ratio, bool clustered, unsigned seed, CellOrder order = CellOrder::Morton, int band = 0) {
  const std::size_t n = D == 3 ? 1500 : 2000;
  auto cloud = test::wide_h_cloud<D>(n, h_ratio, clustered, seed, 50);  // the far ones fold into the table
  std::vector<Vec<double, D>>& x = cloud.x;
  std::vector<double>& h = cloud.h;
  const double h0 = cloud.h0;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CpuExec exec;
  std::size_t bytes = 0;
  auto grid = make_level_grid<double, D>(lo, hi, h0, h_ratio * h0, n);
  grid.band = band;
  LevelIndex<double, D, CpuExec> index(exec, grid, n, &bytes, order);
  index.build(x.data(), h.data());
  const uint32_t* perm = index.permutation();
  std::vector<Vec<double, D>> xs(n);
  std::vector<double> hs(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = x[perm[i]];
    hs[i] = h[perm[i]] * (i % 5 == 0 ? 1.7 : 1.0);  // some h grow after the sort
  }
  index.set_level_hmax(hs.data());
  const LevelGrid<double, D>& lg = index.grid();
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (int mode = 0; mode < 2; ++mode) {
      std::vector<uint32_t> found, want;
      lg.for_each_neighbor(xs[i], xs.data(), 2 * hs[i], mode == 1, [&](uint32_t j, const Vec<double, D>&, double r2) {
        const double reach = 2 * (mode == 1 ? std::max(hs[i], hs[j]) : hs[i]);
        if (r2 < reach * reach) found.push_back(j);
      });
      for (uint32_t j = 0; j < n; ++j) {
        const double reach = 2 * (mode == 1 ? std::max(hs[i], hs[j]) : hs[i]);
        if (norm2(xs[i] - xs[j]) < reach * reach) want.push_back(j);
      }
      std::sort(found.begin(), found.end());
      ASSERT_EQ(found, want) << "particle " << i << (mode ? " symmetric" : " gather") << ", h " << hs[i];
      pairs += want.size();
    }
  }
  EXPECT_GT(pairs, 4 * n);  // the test sees real neighbourhoods, not only self-pairs
}

TEST(LevelGrid, BruteForce1D_Ratio100) { compare<1>(100, false, 1); }
TEST(LevelGrid, BruteForce2D_Ratio10) { compare<2>(10, false, 2); }
TEST(LevelGrid, BruteForce2D_Ratio100Clustered) { compare<2>(100, true, 3); }
TEST(LevelGrid, BruteForce3D_Ratio10Clustered) { compare<3>(10, true, 4); }
TEST(LevelGrid, BruteForce3D_Ratio100) { compare<3>(100, false, 5); }
TEST(LevelGrid, BruteForce2D_Ratio100ClusteredRowMajor) { compare<2>(100, true, 3, CellOrder::RowMajor); }
TEST(LevelGrid, BruteForce3D_Ratio10RowMajor) { compare<3>(10, false, 6, CellOrder::RowMajor); }
// The banded order (bucket_order.h), the same band height in every level (a level's rows in y fewer
// than B: row-major there).
TEST(LevelGrid, BruteForce3D_Ratio10Banded) { compare<3>(10, false, 6, CellOrder::RowMajor, 3); }
TEST(LevelGrid, BruteForce3D_Ratio100ClusteredBanded) { compare<3>(100, true, 7, CellOrder::RowMajor, 2); }

// h apart by round-off (or by less than kLevelSlack) share a level, whose top is the largest h; a
// level is added only beyond that (issue 18: the impact's 4M rung, docs/benchmarks.md).
TEST(LevelGrid, HAlmostEqualShareALevel) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, h = 0.026142220631225364;
  const auto one = make_level_grid<double, 3>(lo, hi, std::nextafter(h, 0.0), h, 1000);
  EXPECT_EQ(one.levels, 1);
  EXPECT_EQ(one.h_top[0], h);
  EXPECT_EQ(one.inv_cell[0], 1.0 / (2 * h));
  EXPECT_EQ((make_level_grid<double, 3>(lo, hi, h, 1.0005 * h, 1000).levels), 1);
  EXPECT_EQ((make_level_grid<double, 3>(lo, hi, h, 1.01 * h, 1000).levels), 2);
  EXPECT_EQ((make_level_grid<double, 3>(lo, hi, h, 2.001 * h, 1000).levels), 2);
  EXPECT_EQ((make_level_grid<double, 3>(lo, hi, h, 2.01 * h, 1000).levels), 3);
  const auto f = make_level_grid<float, 3>(lo, hi, std::nextafter(h, 0.0), h, 1000);
  EXPECT_EQ(f.levels, 1);
}

TEST(LevelGrid, LevelsDoubleFromTheSmallestH) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const auto g = make_level_grid<double, 2>(lo, hi, 0.01, 1.0, 1000);
  EXPECT_EQ(g.levels, 8);  // 0.01 .. 1.28
  EXPECT_DOUBLE_EQ(g.h_top[0], 0.01);
  EXPECT_DOUBLE_EQ(g.h_top[3], 0.08);
  EXPECT_EQ(g.level_of(0.005), 0);
  EXPECT_EQ(g.level_of(0.015), 1);
  EXPECT_EQ(g.level_of(50.0), 7);
  for (int l = 0; l < g.levels; ++l) EXPECT_LE(g.base[l + 1] - g.base[l], 2u * 1000 + 64 + 8) << l;
}

}  // namespace
}  // namespace ejecta
