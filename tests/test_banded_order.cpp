// The banded bucket order (neighbours.band_rows > 0, neighbors/bucket_order.h): the rows of buckets
// along x taken in bands of B rows in y, key (y / B, z, y mod B, x), for the GPU's L2 at millions of
// particles. The rows are a permutation of the row-major ones and every row stays one range, so a
// particle scans the same candidates in the same order (its rows by offset, within a row by x bucket,
// within a bucket in the order the stable sort kept). That last order is the previous storage order:
// a particle entering a bucket from another row may take another place among the bucket's particles
// than in row-major order (its old bucket's key compares differently across a band's edge), so its
// neighbours' sums run in another order: the runs agree to round-off, not bit for bit in general.
// The neighbour sets themselves are checked against brute force in test_neighbors.cpp and
// test_level_grid.cpp (the Banded tests there).
#include "neighbors/bucket_order.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

namespace ejecta {
namespace {

// Every (by, bz) gets one row in [0, My Mz), the bands in order, whatever B (dividing My or not,
// larger than My: row-major then), in 3D; in 2D (Mz = 1) the row is by itself.
TEST(BandedOrder, RowsAreAPermutationInBands) {
  for (int my : {1, 5, 7, 16, 33})
    for (int mz : {1, 3, 8})
      for (int band : {0, 1, 2, 4, 5, 16, 40}) {
        std::vector<int> seen(std::size_t(my) * std::size_t(mz), 0);
        for (int bz = 0; bz < mz; ++bz)
          for (int by = 0; by < my; ++by) {
            const uint32_t r = banded_row(uint32_t(by), uint32_t(bz), my, mz, band);
            ASSERT_LT(r, seen.size()) << "My " << my << " Mz " << mz << " B " << band;
            ++seen[r];
            if (band <= 0 || band >= my || mz == 1) EXPECT_EQ(r, uint32_t(by + my * bz)) << "row-major";
            if (band > 0) {  // the band of by comes first, then z, then y within the band
              const uint32_t first_of_band = uint32_t(by / band) * uint32_t(band) * uint32_t(mz);
              EXPECT_GE(r, first_of_band);
              EXPECT_LT(r, first_of_band + uint32_t(band) * uint32_t(mz));
            }
          }
        for (int c : seen) ASSERT_EQ(c, 1) << "My " << my << " Mz " << mz << " B " << band << ": not a bijection";
      }
  // Within a band, consecutive y of one z are consecutive rows, and the next z follows the band's last y.
  EXPECT_EQ(banded_row(3, 2, 10, 4, 4), banded_row(2, 2, 10, 4, 4) + 1);
  EXPECT_EQ(banded_row(0, 3, 10, 4, 4), banded_row(3, 2, 10, 4, 4) + 1);
  EXPECT_EQ(banded_row(8, 0, 10, 4, 4), 32u);  // the last band (2 rows) starts after 2 bands of 4 x 4 rows
  EXPECT_EQ(banded_row(9, 1, 10, 4, 4), 35u);
}

// The band height from a cache size: the (2 reach + 2) slabs of B + 2 reach rows fit.
TEST(BandedOrder, BandFromTheCacheSize) {
  // 50 MB, 270 kB a row, reach 1: 4 slabs of B + 2 rows -> B = floor(50e6 / (4 * 270e3)) - 2 = 44.
  EXPECT_EQ(band_rows_for_cache(50e6, 270e3, 1, 81), 44);
  EXPECT_EQ(band_rows_for_cache(50e6, 270e3, 1, 40), 0) << "whole planes fit: row-major";
  EXPECT_EQ(band_rows_for_cache(1e6, 270e3, 2, 81), 5) << "at least 2 reach + 1 rows";
  // neighbours.band_rows: B itself, or -1 from the cache: the impact at 4M in double (3,984,877 particles,
  // 81 x 81 x 62 buckets, 186 bytes a neighbour) on 50 MiB of L2: rows 77 x 58, 892 particles a row of
  // 166 kB, half the L2 over 4 slabs: B = 37. Row-major without a cache (the CPU) and in 2D.
  const int dims[3] = {81, 81, 62};
  EXPECT_EQ(band_rows_setting(16, 52428800.0, 3984877, dims, 3, 1, 186), 16);
  EXPECT_EQ(band_rows_setting(0, 52428800.0, 3984877, dims, 3, 1, 186), 0);
  EXPECT_EQ(band_rows_setting(-1, 52428800.0, 3984877, dims, 3, 1, 186), 37);
  EXPECT_EQ(band_rows_setting(-1, 0.0, 3984877, dims, 3, 1, 186), 0);
  EXPECT_EQ(band_rows_setting(-1, 52428800.0, 3984877, dims, 2, 1, 186), 0);
}

std::unique_ptr<Simulation> run(const char* scene, std::vector<std::string> o, int band, Backend backend, long steps) {
  o.push_back("neighbours.band_rows=" + std::to_string(band));
  auto sim = make_simulation(test::shipped_scene(scene, o), backend);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  return sim;
}

// The 3D dam break at dp = 0.06 (15 rows of buckets in y with half cells, 10 with support cells): 40
// steps in float, bands of 2 with half cells and of 3 with support cells. Round-off of float only.
TEST(BandedOrder, SameStateAsRowMajorToRoundOff_DamBreak3D_Float) {
  for (const char* cells : {"half", "support"}) {
    const std::vector<std::string> o = {"particles.dp=0.06", std::string("fluid.neighbour_cells=") + cells};
    const int band = std::string(cells) == "half" ? 2 : 3;
    const auto a = run("dambreak3d.ini", o, 0, Backend::Cpu, 40), b = run("dambreak3d.ini", o, band, Backend::Cpu, 40);
    const HostParticles ha = a->download(), hb = b->download();
    EXPECT_NE(ha.id, hb.id) << "the banded order must sort the particles differently";
    const test::ParticleDifference d = test::max_difference_by_id(ha, hb);
    std::printf("  %s cells, bands of %d against row-major, 40 steps, float: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n",
                cells, band, d.position, d.velocity, d.density);
    EXPECT_LT(d.position, 1e-4 * 0.06) << cells;
    EXPECT_LT(d.density, 1e-3) << cells;  // 1e-6 of rho0
  }
}

// 60 steps in double (the column has started to fall): the summation order's round-off only.
TEST(BandedOrder, SameStateAsRowMajorToRoundOff_DamBreak3D_Double) {
  const std::vector<std::string> o = {"particles.dp=0.06", "scene.precision=double"};
  const auto a = run("dambreak3d.ini", o, 0, Backend::Cpu, 60), b = run("dambreak3d.ini", o, 3, Backend::Cpu, 60);
  const test::ParticleDifference d = test::max_difference_by_id(a->download(), b->download());
  std::printf("  banded (3 rows) against row-major, 60 steps, double: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n",
              d.position, d.velocity, d.density);
  EXPECT_LT(d.position, 1e-9 * 0.06);
  EXPECT_LT(d.density, 1e-9 * 1000);
  EXPECT_NEAR(a->time(), b->time(), 1e-12);
}

// The small impact of tests/test_impact3d.cpp (18k particles, dp = 0.0625 m, 16 rows of buckets in y
// on the solid's level grid), double: after 30 steps (the shock in the target) equal to round-off, with
// the tolerances of the CPU/CUDA agreement test there (measured: bit for bit).
const std::vector<std::string> kImpact = {"solid_block.1.min=-1, -1, -1", "solid_block.1.max=1, 1, 0",
                                          "solid_block.1.dp=0.0625", "solid_block.2.dp=0.0625"};

TEST(BandedOrder, SameStateAsRowMajorToRoundOff_Impact3D_Double) {
  const auto a = run("impact3d.ini", kImpact, 0, Backend::Cpu, 30), b = run("impact3d.ini", kImpact, 4, Backend::Cpu, 30);
  const test::ParticleDifference d = test::max_difference_by_id(a->download(), b->download());
  std::printf("  impact, banded (4 rows) against row-major, 30 steps: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n",
              d.position, d.velocity, d.density);
  EXPECT_LT(d.position, 1e-7);
  EXPECT_LT(d.velocity, 1e-3);
  EXPECT_LT(d.density, 1e-3);
  EXPECT_LT(std::fabs(a->time() - b->time()), 1e-9 * a->time());
}

// On the GPU: CUDA with bands against the CPU with bands (the same sorted order on both: stable sorts of
// the same keys), and against CUDA row-major.
TEST(BandedOrder, CudaAgreesWithCpu_DamBreak3D_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const std::vector<std::string> o = {"particles.dp=0.04"};
  const auto g = run("dambreak3d.ini", o, 4, Backend::Cuda, 200), c = run("dambreak3d.ini", o, 4, Backend::Cpu, 200);
  const auto r = run("dambreak3d.ini", o, 0, Backend::Cuda, 200);
  const test::ParticleDifference cg = test::max_difference_by_id(g->download(), c->download());
  const test::ParticleDifference gr = test::max_difference_by_id(g->download(), r->download());
  std::printf("  float, 200 steps, bands of 4: CPU against GPU |dx| %.3g m; GPU banded against row-major |dx| %.3g m\n",
              cg.position, gr.position);
  EXPECT_LT(cg.position, 1e-3 * 0.04);
  EXPECT_LT(gr.position, 1e-3 * 0.04);
}

TEST(BandedOrder, CudaAgreesWithCpu_Impact3D_Double) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto g = run("impact3d.ini", kImpact, 4, Backend::Cuda, 100), c = run("impact3d.ini", kImpact, 4, Backend::Cpu, 100);
  const test::ParticleDifference d = test::max_difference_by_id(g->download(), c->download());
  std::printf("  impact, bands of 4, 100 steps: CPU against GPU |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n", d.position,
              d.velocity, d.density);
  EXPECT_LT(d.position, 1e-7);
  EXPECT_LT(d.velocity, 1e-3);
  EXPECT_LT(d.density, 1e-3);
  EXPECT_LT(std::fabs(g->time() - c->time()), 1e-9 * c->time());
}

}  // namespace
}  // namespace ejecta
