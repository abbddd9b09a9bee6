#pragma once
// Particle-set measures for the solid collision tests (tests/test_solid_rings.cpp): the smallest
// particle separation, the connected pieces of a body (particles linked when closer than a link
// length) and the centre-of-mass velocity of a body. Bodies are id ranges of the initial layout.
// Cell lists of the link length keep each measure O(n).
#include "simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace ejecta::test {

// Calls f(i, j, r) once for every pair i < j of the 2D points `x` (n x 2) closer than `r_max`.
inline void for_each_close_pair_2d(const std::vector<double>& x, const std::vector<std::size_t>& sel, double r_max,
                                   const std::function<void(std::size_t, std::size_t, double)>& f) {
  std::unordered_map<int64_t, std::vector<std::size_t>> cells;
  auto key = [](int64_t cx, int64_t cy) { return (cx << 32) ^ (cy & 0xffffffff); };
  for (std::size_t i : sel)
    cells[key(int64_t(std::floor(x[2 * i] / r_max)), int64_t(std::floor(x[2 * i + 1] / r_max)))].push_back(i);
  for (std::size_t i : sel) {
    const int64_t cx = int64_t(std::floor(x[2 * i] / r_max)), cy = int64_t(std::floor(x[2 * i + 1] / r_max));
    for (int64_t dx = -1; dx <= 1; ++dx)
      for (int64_t dy = -1; dy <= 1; ++dy) {
        auto it = cells.find(key(cx + dx, cy + dy));
        if (it == cells.end()) continue;
        for (std::size_t j : it->second) {
          if (j <= i) continue;
          const double r = std::hypot(x[2 * i] - x[2 * j], x[2 * i + 1] - x[2 * j + 1]);
          if (r < r_max) f(i, j, r);
        }
      }
  }
}

// Indices (into h) of the particles whose initial-layout id lies in [lo, hi).
inline std::vector<std::size_t> body_of(const HostParticles& h, std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> s;
  for (std::size_t i = 0; i < h.n; ++i)
    if (h.id[i] >= lo && h.id[i] < hi) s.push_back(i);
  return s;
}

// Smallest distance between any two particles (of any body), searched below r_max.
inline double min_separation_2d(const HostParticles& h, double r_max) {
  std::vector<std::size_t> all(h.n);
  std::iota(all.begin(), all.end(), std::size_t(0));
  double m = r_max;
  for_each_close_pair_2d(h.position, all, r_max, [&](std::size_t, std::size_t, double r) { m = std::min(m, r); });
  return m;
}

// Smallest distance between two particles of one body, searched below r_max.
inline double min_separation_within_2d(const HostParticles& h, const std::vector<std::size_t>& body, double r_max) {
  double m = r_max;
  for_each_close_pair_2d(h.position, body, r_max, [&](std::size_t, std::size_t, double r) { m = std::min(m, r); });
  return m;
}

// Number of pairs closer than r_close (collapsed pairs).
inline std::size_t close_pairs_2d(const HostParticles& h, double r_close) {
  std::vector<std::size_t> all(h.n);
  std::iota(all.begin(), all.end(), std::size_t(0));
  std::size_t c = 0;
  for_each_close_pair_2d(h.position, all, r_close, [&](std::size_t, std::size_t, double) { ++c; });
  return c;
}

// Connected pieces of a body, particles linked below `link`; returns the piece sizes, largest first.
inline std::vector<std::size_t> pieces_2d(const HostParticles& h, const std::vector<std::size_t>& body, double link) {
  std::unordered_map<std::size_t, std::size_t> slot;
  for (std::size_t k = 0; k < body.size(); ++k) slot[body[k]] = k;
  std::vector<std::size_t> parent(body.size());
  std::iota(parent.begin(), parent.end(), std::size_t(0));
  std::function<std::size_t(std::size_t)> root = [&](std::size_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for_each_close_pair_2d(h.position, body, link, [&](std::size_t i, std::size_t j, double) {
    const std::size_t a = root(slot[i]), b = root(slot[j]);
    if (a != b) parent[a] = b;
  });
  std::unordered_map<std::size_t, std::size_t> size;
  for (std::size_t k = 0; k < body.size(); ++k) ++size[root(k)];
  std::vector<std::size_t> out;
  for (const auto& kv : size) out.push_back(kv.second);
  std::sort(out.rbegin(), out.rend());
  return out;
}

// Mass-weighted mean of component `d` of the velocity over a body.
inline double body_velocity(const HostParticles& h, const std::vector<std::size_t>& body, int d) {
  double mv = 0, m = 0;
  for (std::size_t i : body) mv += h.mass[i] * h.velocity[i * h.dim + d], m += h.mass[i];
  return mv / m;
}

inline double body_centre(const HostParticles& h, const std::vector<std::size_t>& body, int d) {
  double mx = 0, m = 0;
  for (std::size_t i : body) mx += h.mass[i] * h.position[i * h.dim + d], m += h.mass[i];
  return mx / m;
}

}  // namespace ejecta::test
