#pragma once
// The work of the level grid's neighbour search (level_grid.h), counted on the host for a given set of
// particles (issue 18: does the work per particle change with the particle count?). The particles are
// keyed, sorted and tabled by the solver's own LevelIndex on the CPU backend (the same grid as
// StoreSolver::level_grid_of: the particles' extent, h from the smallest to the largest), then each
// sorted particle i searches as the solid's force pass does (symmetric, reach 2 h_i) and counts
//  - candidates: the particles its ranges hold (each one distance test);
//  - ranges: the contiguous ranges scanned (a row of cells each, row-major);
//  - neighbours: j != i with r < 2 h_ij, h_ij = (h_i + h_j) / 2 (the solid's pairs, solid_model.h);
// and, for warps of 32 consecutive sorted particles (the CUDA pass's lanes), the longest lane's
// candidates (the warp's loop trips when its lanes scan in step) and the loop trips at which at least
// one lane has a neighbour (the pair body the warp executes, its lanes diverging). Optionally a label
// per particle (e.g. projectile and target): the smallest distance between particles of different labels
// among the searched pairs (a contact gap).
#include "exec/exec_cpu.h"
#include "neighbors/level_index.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ejecta {

struct LevelCensus {
  std::size_t particles = 0;
  int levels = 0;
  std::vector<std::array<int, 3>> dims;      // buckets per axis, per level
  std::vector<double> cell;                  // cell size per level (2 h_top over the split)
  std::vector<std::size_t> level_particles;  // particles per level
  std::size_t buckets = 0, occupied = 0, fullest = 0;  // buckets, non-empty ones, the fullest's particles
  double h_min = 0, h_max = 0, h_mean = 0;
  double candidates = 0, ranges = 0, neighbours = 0;  // per particle
  std::size_t candidates_max = 0, neighbours_max = 0;
  double warp_trips = 0, warp_bodies = 0;  // per warp of 32
  double label_gap = std::numeric_limits<double>::infinity();
};

namespace census_detail {

template <int D>
LevelCensus count(const double* pos, const double* h, const uint8_t* label, std::size_t n, int band, int split) {
  LevelCensus c;
  c.particles = n;
  if (n == 0) return c;
  std::vector<Vec<double, D>> x(n);
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int d = 0; d < D; ++d) lo[d] = std::numeric_limits<double>::max(), hi[d] = -lo[d];
  c.h_min = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < D; ++d) {
      x[i][d] = pos[i * D + d];
      lo[d] = std::min(lo[d], x[i][d]);
      hi[d] = std::max(hi[d], x[i][d]);
    }
    c.h_min = std::min(c.h_min, h[i]);
    c.h_max = std::max(c.h_max, h[i]);
    c.h_mean += h[i] / double(n);
  }
  LevelGrid<double, D> grid = make_level_grid<double, D>(lo, hi, c.h_min, c.h_max, n, split);
  grid.band = band;
  CpuExec exec;
  std::size_t bytes = 0;
  LevelIndex<double, D, CpuExec> index(exec, grid, n, &bytes, CellOrder::RowMajor);
  index.build(x.data(), h);
  const uint32_t* perm = index.permutation();
  std::vector<Vec<double, D>> xs(n);
  std::vector<double> hs(n);
  std::vector<uint8_t> ls(label ? n : 0);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = x[perm[i]];
    hs[i] = h[perm[i]];
    if (label) ls[i] = label[perm[i]];
  }
  index.set_level_hmax(hs.data());
  const LevelGrid<double, D>& g = index.grid();

  c.levels = g.levels;
  for (int l = 0; l < g.levels; ++l) {
    c.dims.push_back({g.dims[l][0], g.dims[l][1], g.dims[l][2]});
    c.cell.push_back(1 / double(g.inv_cell[l]));
    c.level_particles.push_back(g.offset[g.base[l + 1]] - g.offset[g.base[l]]);
  }
  c.buckets = g.base[g.levels];
  for (std::size_t b = 0; b < c.buckets; ++b) {
    const std::size_t k = g.offset[b + 1] - g.offset[b];
    c.occupied += k > 0;
    c.fullest = std::max(c.fullest, k);
  }

  // One warp of 32 lanes at a time: each lane's candidates in the search's order, with whether each is
  // a neighbour.
  const long long warps = static_cast<long long>((n + 31) / 32);
  double cand = 0, rng = 0, nb = 0, trips = 0, bodies = 0, gap = c.label_gap;
  std::size_t cand_max = 0, nb_max = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : cand, rng, nb, trips, bodies) \
    reduction(max : cand_max, nb_max) reduction(min : gap)
  for (long long w = 0; w < warps; ++w) {
    std::vector<uint8_t> lane[32];
    std::size_t longest = 0;
    const std::size_t i0 = std::size_t(w) * 32, i1 = std::min(n, i0 + 32);
    for (std::size_t i = i0; i < i1; ++i) {
      std::vector<uint8_t>& hit = lane[i - i0];
      std::size_t ranges = 0, found = 0;
      g.for_each_range(xs[i], 2 * hs[i], true, [&](uint32_t b, uint32_t e, double) {
        ++ranges;
        for (uint32_t j = b; j < e; ++j) {
          const double r2 = norm2(xs[i] - xs[j]), hij = 0.5 * (hs[i] + hs[j]);
          const bool pair = j != i && r2 < 4 * hij * hij;
          hit.push_back(pair);
          found += pair;
          if (pair && label && ls[i] != ls[j]) gap = std::min(gap, std::sqrt(r2));
        }
      });
      cand += double(hit.size());
      rng += double(ranges);
      nb += double(found);
      cand_max = std::max(cand_max, hit.size());
      nb_max = std::max(nb_max, found);
      longest = std::max(longest, hit.size());
    }
    trips += double(longest);
    for (std::size_t k = 0; k < longest; ++k) {
      bool any = false;
      for (std::size_t q = 0; q < i1 - i0 && !any; ++q) any = k < lane[q].size() && lane[q][k];
      bodies += any;
    }
  }
  c.candidates = cand / double(n);
  c.ranges = rng / double(n);
  c.neighbours = nb / double(n);
  c.candidates_max = cand_max;
  c.neighbours_max = nb_max;
  c.warp_trips = trips / double(warps);
  c.warp_bodies = bodies / double(warps);
  c.label_gap = gap;
  return c;
}

}  // namespace census_detail

// The census of n particles in dim 1, 2 or 3: positions n * dim, h n, label n or null; band as
// neighbours.band_rows (0: row-major); split as make_level_grid's (2: cells of h, half the support).
inline LevelCensus level_census(int dim, const double* pos, const double* h, const uint8_t* label, std::size_t n,
                                int band = 0, int split = 1) {
  if (dim == 1) return census_detail::count<1>(pos, h, label, n, band, split);
  if (dim == 2) return census_detail::count<2>(pos, h, label, n, band, split);
  return census_detail::count<3>(pos, h, label, n, band, split);
}

}  // namespace ejecta
