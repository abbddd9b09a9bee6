#pragma once
// Helpers of the self-gravity tests: particle sets (Plummer sphere, uniform cube) and the direct
// O(N^2) sum that the tree is compared with (tests only).
#include "gravity/gravity_softening.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace ejecta::test {

struct GravitySet {
  std::vector<double> x, m, h;  // n * 3, n, n
  std::size_t size() const { return m.size(); }
};

// Plummer (1911) sphere of total mass 1 and scale radius a = 1: r = (X^(-2/3) - 1)^(-1/2) from the
// cumulative mass X (Aarseth, Henon & Wielen 1974), cut at X < 0.999 (r < 38).
inline GravitySet plummer_sphere(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  GravitySet s;
  for (std::size_t i = 0; i < n; ++i) {
    const double X = 0.999 * u(rng);
    const double r = 1.0 / std::sqrt(std::pow(X, -2.0 / 3.0) - 1.0);
    const double cz = 2 * u(rng) - 1, ph = 2 * M_PI * u(rng), sz = std::sqrt(1 - cz * cz);
    s.x.insert(s.x.end(), {r * sz * std::cos(ph), r * sz * std::sin(ph), r * cz});
    s.m.push_back(1.0 / double(n));
  }
  return s;
}

inline GravitySet uniform_cube(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  GravitySet s;
  for (std::size_t i = 0; i < n; ++i) {
    s.x.insert(s.x.end(), {u(rng), u(rng), u(rng)});
    s.m.push_back(1.0 / double(n));
  }
  return s;
}

// G = 1 direct sum at particle i, spline softening eps_ij = max(eps_i, eps_j) as the tree's leaves.
inline void direct_gravity(const std::vector<double>& x, const std::vector<double>& m, const std::vector<double>& eps,
                           int dim, std::size_t i, double* acc, double& phi) {
  acc[0] = acc[1] = acc[2] = 0;
  phi = 0;
  for (std::size_t j = 0; j < m.size(); ++j) {
    if (j == i) continue;
    double r[3] = {0, 0, 0}, r2 = 0;
    for (int d = 0; d < dim; ++d) {
      r[d] = x[i * dim + d] - x[j * dim + d];
      r2 += r[d] * r[d];
    }
    double g, f;
    spline_softened(r2, std::max(eps[i], eps[j]), g, f);
    for (int d = 0; d < 3; ++d) acc[d] -= m[j] * g * r[d];
    phi -= m[j] * f;
  }
}

// The q-quantile (0..1) of v (sorted copy).
inline double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const std::size_t k = std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5));
  return v[k];
}

}  // namespace ejecta::test
