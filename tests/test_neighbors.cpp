// Neighbour search against brute force, on the CPU backend, with the solver's own grid, sort and
// table: uniform, clustered and outlier-laden random sets in 1, 2 and 3D, in Morton bucket order (the
// CUDA backend's) and row-major order (the CPU backend's); the Morton codes and bucket ranks.
#include "exec/exec_cpu.h"
#include "neighbors/cell_index.h"
#include "neighbors/morton.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace ejecta {
namespace {

enum class Layout { Uniform, Clustered, Outliers };

template <int D>
std::vector<Vec<double, D>> make_points(Layout layout, std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 0.02);
  std::vector<Vec<double, D>> p(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < D; ++d) p[i][d] = u(rng);
    if (layout == Layout::Clustered && i % 4 != 0) {  // three quarters in five tight clusters
      const double centre = 0.15 + 0.17 * double(i % 5);
      for (int d = 0; d < D; ++d) p[i][d] = centre + g(rng);
    }
    if (layout == Layout::Outliers && i % 50 == 0) {  // splashes far away, in every direction
      for (int d = 0; d < D; ++d) p[i][d] = (u(rng) - 0.5) * 1e4;
    }
  }
  if (layout == Layout::Outliers) p[1][0] = 1e9;  // one particle very far away
  return p;
}

template <int D>
std::size_t compare_with_brute_force(Layout layout, std::size_t n, double radius, CellOrder order = CellOrder::Morton,
                                     int reach = 1, int band = 0, bool clip = true) {
  auto pts = make_points<D>(layout, n, 42u + unsigned(layout));
  // The grid covers the bulk only (as the solver's does at start); outliers fold into its buckets.
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CpuExec exec;
  std::size_t bytes = 0;
  auto grid = make_cell_grid<double, D>(lo, hi, radius, n, reach);
  grid.band = band;
  grid.clip = clip;
  CellIndex<double, D, CpuExec> index(exec, grid, n, &bytes, order);
  index.build(pts.data());
  const uint32_t* perm = index.permutation();
  std::vector<Vec<double, D>> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = pts[perm[i]];
  // The tables (offsets and ranks) must stay within a few buckets per particle, however far the
  // outliers fly.
  EXPECT_LE(bytes, n * 5 * sizeof(uint32_t) + 2 * (2 * n + 100) * sizeof(uint32_t));

  const double r2max = radius * radius;
  std::size_t pairs = 0, candidates = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<uint32_t> found;
    candidates += index.grid().for_each_candidate(sorted[i], [&](uint32_t j) {
      if (norm2(sorted[i] - sorted[j]) < r2max) found.push_back(perm[j]);
    });
    std::vector<uint32_t> expected;
    for (std::size_t j = 0; j < n; ++j)
      if (norm2(sorted[i] - pts[j]) < r2max) expected.push_back(uint32_t(j));
    std::sort(found.begin(), found.end());
    std::sort(expected.begin(), expected.end());
    if (found != expected) {
      ADD_FAILURE() << "particle " << perm[i] << ": " << found.size() << " found, " << expected.size()
                    << " expected (no duplicates, none missing)";
      return candidates;
    }
    pairs += found.size();
  }
  EXPECT_GT(pairs, n) << "the test set must have real neighbours";
  return candidates;
}

// The banded order (bucket_order.h): the same sets, bands of 1, 3 and 4 rows, with both reaches, the
// outliers folded into the table.
TEST(NeighborSearch, BandedOrder3D) {
  compare_with_brute_force<3>(Layout::Outliers, 3000, 0.1, CellOrder::RowMajor, 1, 3);
  compare_with_brute_force<3>(Layout::Clustered, 3000, 0.05, CellOrder::RowMajor, 2, 4);
  compare_with_brute_force<3>(Layout::Uniform, 3000, 0.1, CellOrder::RowMajor, 2, 1);
}

TEST(NeighborSearch, Uniform1D) { compare_with_brute_force<1>(Layout::Uniform, 2000, 0.003); }
TEST(NeighborSearch, Uniform2D) { compare_with_brute_force<2>(Layout::Uniform, 3000, 0.04); }
TEST(NeighborSearch, Uniform3D) { compare_with_brute_force<3>(Layout::Uniform, 3000, 0.1); }
TEST(NeighborSearch, Clustered2D) { compare_with_brute_force<2>(Layout::Clustered, 3000, 0.03); }
TEST(NeighborSearch, Clustered3D) { compare_with_brute_force<3>(Layout::Clustered, 3000, 0.05); }
TEST(NeighborSearch, Outliers1D) { compare_with_brute_force<1>(Layout::Outliers, 2000, 0.003); }
TEST(NeighborSearch, Outliers2D) { compare_with_brute_force<2>(Layout::Outliers, 3000, 0.04); }
TEST(NeighborSearch, Outliers3D) { compare_with_brute_force<3>(Layout::Outliers, 3000, 0.1); }

TEST(NeighborSearch, RowMajorOrder2D) { compare_with_brute_force<2>(Layout::Outliers, 3000, 0.04, CellOrder::RowMajor); }
TEST(NeighborSearch, RowMajorOrder3D) { compare_with_brute_force<3>(Layout::Clustered, 3000, 0.05, CellOrder::RowMajor); }

// Cells of half the support (fluid.neighbour_cells = half): the same neighbours, none twice, with
// outliers folding into the table; on a uniform set the candidates fall towards 125/216 of those of
// cells of the full support (the set's edges keep it above that).
TEST(NeighborSearch, HalfCellsFindTheSameNeighbours) {
  compare_with_brute_force<2>(Layout::Outliers, 3000, 0.04, CellOrder::RowMajor, 2);
  compare_with_brute_force<3>(Layout::Clustered, 3000, 0.05, CellOrder::RowMajor, 2);
  compare_with_brute_force<1>(Layout::Outliers, 2000, 0.003, CellOrder::RowMajor, 2);
  // About 20 particles per cell of the support, as in a liquid at h/dp 1.5 (27), so the table of half
  // cells is not folded by its cap of 2 buckets a particle.
  // The whole rows (CellGrid::clip off); clipped (ClippedRowsVisitFewerCandidates), about 84.2 / 8 / 20.6 = 0.51.
  const std::size_t full = compare_with_brute_force<3>(Layout::Uniform, 20000, 0.1, CellOrder::RowMajor, 1, 0, false);
  const std::size_t half = compare_with_brute_force<3>(Layout::Uniform, 20000, 0.1, CellOrder::RowMajor, 2, 0, false);
  std::printf("uniform 3D candidates: cells of the support %zu, of half of it %zu (ratio %.3f; 125/216 = 0.579)\n",
              full, half, double(half) / double(full));
  EXPECT_LT(double(half), 0.66 * double(full));
  EXPECT_GT(double(half), 0.5 * double(full));
}

// The wall pressure pass skips dry walls by the flags of the buckets holding fluid: with half cells the
// flags are dilated (CellIndex::mark), one load per wall instead of 125; the answer must be the same as
// looking at the 125 buckets around, also where the table wraps (outliers) and in 2D.
template <int D>
void expect_dilated_marks_match(std::size_t n, double radius) {
  auto pts = make_points<D>(Layout::Outliers, n, 7u);
  std::vector<uint8_t> kind(n);
  for (std::size_t i = 0; i < n; ++i) kind[i] = i % 9 == 0 ? 0 : 1;  // sparse "fluid" among "walls"
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CpuExec exec;
  std::size_t bytes = 0;
  auto grid = make_cell_grid<double, D>(lo, hi, radius, n, 2);
  CellIndex<double, D, CpuExec> index(exec, grid, n, &bytes, CellOrder::RowMajor);
  index.build(pts.data());
  std::vector<uint8_t> sorted_kind(n);
  for (std::size_t i = 0; i < n; ++i) sorted_kind[i] = kind[index.permutation()[i]];
  index.mark(sorted_kind.data(), 0, &bytes);
  ASSERT_TRUE(index.grid().marks_dilated);
  std::vector<uint8_t> raw(grid.num_buckets, 0);
  for (std::size_t i = 0; i < n; ++i)
    if (kind[i] == 0) raw[grid.bucket_of(pts[i])] = 1;
  CellGrid<double, D> plain = index.grid();
  plain.marked = raw.data();
  plain.marks_dilated = false;
  std::size_t wet = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool expected = plain.any_marked_around(pts[i]);
    ASSERT_EQ(index.grid().any_marked_around(pts[i]), expected) << "point " << i;
    wet += expected;
  }
  EXPECT_GT(wet, 0u);
  EXPECT_LT(wet, n) << "some points must be dry for the test to mean something";
}

TEST(NeighborSearch, HalfCellsDilatedMarksMatchTheBucketsAround) {
  expect_dilated_marks_match<3>(3000, 0.05);
  expect_dilated_marks_match<2>(3000, 0.02);
  expect_dilated_marks_match<1>(2000, 0.001);
}

// Rows clipped to the support (CellGrid::clip, cell_grid.h): the clipped walk visits every candidate
// within the support that the whole rows visit, in the same order (it is a subsequence of the whole
// walk holding all its pairs within the support), and these are the brute force's neighbours. In float
// and double, reach 1 and 2, 1D, 2D and 3D: a lattice of half a cell from a cell face (many points on the
// faces, many pairs at exactly the support, nudged by an ulp either way), random points, a table folded
// down to its least size (every bucket holding several cells), and clusters far away (folded into the
// table; at 2e4 cells the float coordinates keep 1e-3 of a cell, at 1e5 cells the rows are not clipped).
template <class T, int D>
void expect_clipped_rows_keep_the_pairs(int reach, std::size_t table_n) {
  std::mt19937 rng(7u + unsigned(reach) + unsigned(table_n));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double support = 0.1, cell = support / reach;
  double lo[3] = {0, 0, 0}, hi[3] = {0.3, 0.3, 0.3};
  std::vector<Vec<T, D>> pts;
  const int side = D == 3 ? 9 : D == 2 ? 25 : 200;
  for (int k = 0; k < (D >= 3 ? side : 1); ++k)
    for (int j = 0; j < (D >= 2 ? side : 1); ++j)
      for (int i = 0; i < side; ++i) {
        const int c[3] = {i, j, k};
        Vec<T, D> p;
        // Half cells from the origin's face (lo - 2 cells): each other point on a face.
        for (int d = 0; d < D; ++d) p[d] = T(-2 * cell + (c[d] + 4) * 0.5 * cell);
        const int nudge = (i + 2 * j + 3 * k) % 3;  // on, below or above
        for (int d = 0; d < D && nudge; ++d) p[d] = std::nextafter(p[d], nudge == 1 ? T(-1e30) : T(1e30));
        pts.push_back(p);
      }
  for (int i = 0; i < 600; ++i) {
    Vec<T, D> p;
    for (int d = 0; d < D; ++d) p[d] = T(hi[d] * u(rng));
    pts.push_back(p);
  }
  const double far[2] = {2e4 * cell, 1e5 * cell};
  for (double f : far)
    for (int i = 0; i < 60; ++i) {
      Vec<T, D> p;
      for (int d = 0; d < D; ++d) p[d] = T(f + 2 * support * u(rng));
      pts.push_back(p);
    }
  Vec<T, D> absurd;
  for (int d = 0; d < D; ++d) absurd[d] = T(1e9);
  pts.push_back(absurd);
  const std::size_t n = pts.size();
  CpuExec exec;
  std::size_t bytes = 0;
  auto grid = make_cell_grid<T, D>(lo, hi, support, table_n, reach);
  CellIndex<T, D, CpuExec> index(exec, grid, n, &bytes, CellOrder::RowMajor);
  index.build(pts.data());
  const uint32_t* perm = index.permutation();
  std::vector<Vec<T, D>> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = pts[perm[i]];
  CellGrid<T, D> clipped = index.grid(), whole = index.grid();
  ASSERT_TRUE(clipped.clip) << "on by default";
  whole.clip = false;
  const T r2max = T(support) * T(support);
  std::size_t pairs = 0, expected_n = 0, near_support = 0, kept = 0, all = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<uint32_t> walk, full;
    kept += clipped.for_each_candidate(sorted[i], [&](uint32_t j) { walk.push_back(j); });
    all += whole.for_each_candidate(sorted[i], [&](uint32_t j) { full.push_back(j); });
    std::size_t k = 0;  // walk, a subsequence of full holding every pair of full within the support
    for (uint32_t j : full) {
      const bool within = norm2(sorted[i] - sorted[j]) < r2max;
      if (k < walk.size() && walk[k] == j) {
        ++k;
      } else if (within) {
        ADD_FAILURE() << "point " << perm[i] << ": neighbour " << perm[j] << " missed or out of order";
        return;
      }
    }
    ASSERT_EQ(k, walk.size()) << "point " << perm[i] << ": candidates not in the whole rows, or out of order";
    // The brute force: every pair within the support is found, and nothing else; a pair within a
    // round-off of the support (r^2 within 1e-5 of it) may be missed, by the whole rows too (its cells
    // can lie reach + 1 apart after the rounding of the cell coordinates: the walk's pairs are the
    // whole rows', checked above).
    std::vector<uint32_t> found;
    for (uint32_t j : walk)
      if (norm2(sorted[i] - sorted[j]) < r2max) found.push_back(perm[j]);
    std::sort(found.begin(), found.end());
    for (std::size_t j = 0; j < n; ++j) {
      const T r2 = norm2(sorted[i] - pts[j]);
      const bool sliver = r2 < r2max && !(r2 < r2max * T(1 - 1e-5));
      near_support += std::abs(double(r2) / double(r2max) - 1) < 1e-5;
      const bool in = std::binary_search(found.begin(), found.end(), uint32_t(j));
      if (r2 < r2max && !sliver) {
        ASSERT_TRUE(in) << "point " << perm[i] << ": neighbour " << j << " (r^2 " << r2 << ") not found";
        ++expected_n;
      }
      if (!(r2 < r2max)) ASSERT_FALSE(in);
    }
    pairs += found.size();
  }
  EXPECT_GT(expected_n, 4 * n);
  EXPECT_GT(near_support, n / 4) << "pairs within a round-off of the support";
  if (D > 1) EXPECT_LT(kept, all);  // in 1D every cell of the row can hold a neighbour
  std::printf("%dD %s, reach %d, table for %zu: %zu pairs, %zu within 1e-5 of the support, %zu of %zu candidates\n", D,
              sizeof(T) == 4 ? "float" : "double", reach, table_n, pairs, near_support, kept, all);
}

TEST(NeighborSearch, ClippedRowsKeepEveryPairInOrder) {
  for (int reach = 1; reach <= 2; ++reach)
    for (std::size_t table_n : {std::size_t(100000), std::size_t(1)}) {
      SCOPED_TRACE("reach " + std::to_string(reach) + ", table for " + std::to_string(table_n));
      expect_clipped_rows_keep_the_pairs<float, 3>(reach, table_n);
      expect_clipped_rows_keep_the_pairs<double, 3>(reach, table_n);
      expect_clipped_rows_keep_the_pairs<float, 2>(reach, table_n);
      expect_clipped_rows_keep_the_pairs<double, 2>(reach, table_n);
      expect_clipped_rows_keep_the_pairs<float, 1>(reach, table_n);
    }
}

// The clipped rows visit fewer candidates: a uniform set at about 20 particles a cell of the support,
// as a liquid at h/dp 1.5; a particle uniform in its cell sees 84 of 125 cells on average with reach 2
// (0.67), 20.6 of 27 with reach 1 (0.76) in 3D; 21.6 of 25 (0.86) and 8.1 of 9 (0.90) in 2D. Fails with the clipping off (ratio 1).
template <int D>
double clipped_candidate_ratio(int reach, std::size_t n, double radius) {
  auto pts = make_points<D>(Layout::Uniform, n, 3u);
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CpuExec exec;
  std::size_t bytes = 0;
  CellIndex<double, D, CpuExec> index(exec, make_cell_grid<double, D>(lo, hi, radius, n, reach), n, &bytes,
                                      CellOrder::RowMajor);
  index.build(pts.data());
  CellGrid<double, D> whole = index.grid();
  whole.clip = false;
  std::size_t kept = 0, all = 0;
  for (std::size_t i = 0; i < n; ++i) {
    kept += index.grid().for_each_candidate(pts[i], [](uint32_t) {});
    all += whole.for_each_candidate(pts[i], [](uint32_t) {});
  }
  const double ratio = double(kept) / double(all);
  std::printf("%dD, reach %d: %zu candidates of %zu in the whole rows (%.3f)\n", D, reach, kept, all, ratio);
  return ratio;
}

TEST(NeighborSearch, ClippedRowsVisitFewerCandidates) {
  EXPECT_LT(clipped_candidate_ratio<3>(2, 20000, 0.1), 0.72);
  EXPECT_LT(clipped_candidate_ratio<3>(1, 20000, 0.1), 0.80);
  EXPECT_LT(clipped_candidate_ratio<2>(2, 20000, 0.02), 0.90);
  EXPECT_LT(clipped_candidate_ratio<2>(1, 20000, 0.02), 0.95);
}

TEST(NeighborSearch, HalfCellsRefuseTheMortonOrder) {
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  CpuExec exec;
  std::size_t bytes = 0;
  auto grid = make_cell_grid<double, 3>(lo, hi, 0.1, 100, 2);
  EXPECT_EQ(grid.reach, 2);
  EXPECT_EQ(grid.rows(), 25);
  for (int d = 0; d < 3; ++d) EXPECT_GE(grid.dims[d], 5);
  EXPECT_THROW((CellIndex<double, 3, CpuExec>(exec, grid, 100, &bytes, CellOrder::Morton)), std::invalid_argument);
  EXPECT_THROW((make_cell_grid<double, 3>(lo, hi, 0.1, 100, 3)), std::invalid_argument);
}

TEST(Morton, CodesInterleaveTheBitsXFirst) {
  const uint32_t a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, c[3] = {0, 0, 1}, d[3] = {5, 3, 6};
  EXPECT_EQ(morton_code<3>(a), 1u);
  EXPECT_EQ(morton_code<3>(b), 2u);
  EXPECT_EQ(morton_code<3>(c), 4u);
  // x = 101, y = 011, z = 110: bit triples (z y x) from the top 1 0 1, 1 1 0, 0 1 1 = 0b101110011.
  EXPECT_EQ(morton_code<3>(d), 0b101110011u);
  const uint32_t e[2] = {5, 3};  // pairs (y x) from the top: 0 1, 1 0, 1 1
  EXPECT_EQ(morton_code<2>(e), 0b011011u);
  const uint32_t big[3] = {(1u << 20) - 1, 0, (1u << 20) - 1};
  EXPECT_EQ(morton_code<3>(big), 0x0b6db6db6db6db6dull);  // triples (z y x) = 101, twenty times
}

// The ranks are a permutation, keep the Z-order, and each aligned 2x2x2 block of a table whose sides
// are even is 8 consecutive ranks: the locality the order is for.
TEST(Morton, BucketRanksFollowTheZOrder) {
  const int dims[3] = {6, 4, 10};
  const auto rank = bucket_ranks(dims, 3, CellOrder::Morton);
  ASSERT_EQ(rank.size(), 240u);
  std::vector<uint32_t> seen(rank);
  std::sort(seen.begin(), seen.end());
  for (uint32_t r = 0; r < 240; ++r) ASSERT_EQ(seen[r], r);
  auto id = [&](int x, int y, int z) { return x + dims[0] * (y + dims[1] * z); };
  for (int z = 0; z < 10; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x + 1 < 6; ++x) {
        const uint32_t c0[3] = {uint32_t(x), uint32_t(y), uint32_t(z)}, c1[3] = {uint32_t(x + 1), uint32_t(y), uint32_t(z)};
        EXPECT_EQ(rank[id(x, y, z)] < rank[id(x + 1, y, z)], morton_code<3>(c0) < morton_code<3>(c1));
      }
  for (int z = 0; z < 10; z += 2)
    for (int y = 0; y < 4; y += 2)
      for (int x = 0; x < 6; x += 2) {
        uint32_t lo = ~0u, hi = 0;
        for (int k = 0; k < 8; ++k) {
          const uint32_t r = rank[id(x + (k & 1), y + (k >> 1 & 1), z + (k >> 2))];
          lo = std::min(lo, r);
          hi = std::max(hi, r);
        }
        EXPECT_EQ(hi - lo, 7u) << x << " " << y << " " << z;
      }
  const auto rows = bucket_ranks(dims, 3, CellOrder::RowMajor);
  for (uint32_t b = 0; b < 240; ++b) EXPECT_EQ(rows[b], b);
  EXPECT_EQ(default_cell_order(Backend::Cuda), CellOrder::RowMajor);  // Morton measured slower (bucket_order.h)
  EXPECT_EQ(default_cell_order(Backend::Cpu), CellOrder::RowMajor);
}

TEST(NeighborSearch, SortIsStableCountingSort) {
  CpuExec exec;
  std::vector<uint32_t> keys = {3, 1, 3, 0, 1, 3}, vals = {0, 1, 2, 3, 4, 5}, ka(6), va(6);
  uint32_t *k = keys.data(), *v = vals.data(), *kb = ka.data(), *vb = va.data();
  exec.sort_pairs(k, v, kb, vb, 6, 4);
  EXPECT_EQ(std::vector<uint32_t>(k, k + 6), (std::vector<uint32_t>{0, 1, 1, 3, 3, 3}));
  EXPECT_EQ(std::vector<uint32_t>(v, v + 6), (std::vector<uint32_t>{3, 1, 4, 0, 2, 5}));
}

// The counting sort splits the input into one chunk per thread; with several threads it must give
// exactly the single-threaded (stable) order. The suite runs with OMP_NUM_THREADS=1, so force more.
TEST(NeighborSearch, CountingSortIsThreadCountIndependent) {
  std::mt19937 rng(7);
  const std::size_t n = 100000;
  const uint32_t m = 5000;
  std::vector<uint32_t> keys0(n);
  for (auto& k : keys0) k = rng() % m;
  auto sorted_with = [&](int threads) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    CpuExec exec;
    std::vector<uint32_t> k(keys0), v(n), ka(n), va(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = uint32_t(i);
    uint32_t *pk = k.data(), *pv = v.data(), *pka = ka.data(), *pva = va.data();
    exec.sort_pairs(pk, pv, pka, pva, n, m);
    omp_set_num_threads(before);
    return std::vector<uint32_t>(pv, pv + n);
  };
  const auto one = sorted_with(1), three = sorted_with(3);
  EXPECT_EQ(one, three);
  for (std::size_t i = 1; i < n; ++i) {
    ASSERT_LE(keys0[one[i - 1]], keys0[one[i]]);
    if (keys0[one[i - 1]] == keys0[one[i]]) ASSERT_LT(one[i - 1], one[i]) << "stable";
  }
}

}  // namespace
}  // namespace ejecta
