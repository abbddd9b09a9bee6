#pragma once
// The particle cloud of the variable-h neighbour-search tests (test_level_grid.cpp, test_tree_search.cpp):
// n positions in the unit box, uniform or (clustered) two in three around its centre, every 97th
// particle flung far away ((u - 0.5) x 50 on odd ids, x far_even on even ones), h log-uniform over a
// factor h_ratio above h0 (0.002, 0.01, 0.02 in 1-3D), and particle 7 with 1000 h0.
#include "core/vec.h"

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace ejecta::test {

template <int D>
struct WideHCloud {
  std::vector<Vec<double, D>> x;
  std::vector<double> h;
  double h0;
};

template <int D>
WideHCloud<D> wide_h_cloud(std::size_t n, double h_ratio, bool clustered, unsigned seed, double far_even) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 0.03);
  WideHCloud<D> c{std::vector<Vec<double, D>>(n), std::vector<double>(n), D == 1 ? 0.002 : D == 2 ? 0.01 : 0.02};
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < D; ++d) c.x[i][d] = clustered && i % 3 ? 0.5 + g(rng) : u(rng);
    if (i % 97 == 0)  // flying away
      for (int d = 0; d < D; ++d) c.x[i][d] = (u(rng) - 0.5) * (i % 2 ? 50 : far_even);
    c.h[i] = c.h0 * std::pow(h_ratio, u(rng));
  }
  c.h[7] = 1000 * c.h0;  // one enormous particle
  return c;
}

}  // namespace ejecta::test
