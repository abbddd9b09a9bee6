#pragma once
// Points binned by cubic cells of one size (hashed), to visit those near a site: the host-side overlap
// checks of the viewer's drops (fluid_drop.cpp, grain_drop.cpp) and the grain layouts (grain_layout.cpp).
// A query visits the 3^dim cells around the site, so every point closer than the cell size is seen; a
// hash collision only adds candidates, and the caller tests the distance. O(1) a query, O(n) to build.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ejecta {

class PointCells {
 public:
  PointCells(int dim, double cell) : dim_(dim), cell_(cell) {}

  // Bins point `id` at x (dim coordinates).
  void insert(const double* x, std::size_t id) { cells_[key(x, 0, 0, 0)].push_back(id); }

  // Calls f(id) for each point binned in the 3^dim cells around x, in a fixed order; stops at the first
  // call that returns false and returns false then, else true.
  template <class F>
  bool all_near(const double* x, F&& f) const {
    if (cells_.empty()) return true;
    const int rb = dim_ > 1 ? 1 : 0, re = dim_ > 2 ? 1 : 0;
    for (int a = -1; a <= 1; ++a)
      for (int b = -rb; b <= rb; ++b)
        for (int e = -re; e <= re; ++e) {
          const auto it = cells_.find(key(x, a, b, e));
          if (it == cells_.end()) continue;
          for (std::size_t id : it->second)
            if (!f(id)) return false;
        }
    return true;
  }

 private:
  // FNV-1a over the three cell indices (0 beyond dim) of x's cell shifted by (a, b, e).
  uint64_t key(const double* x, int a, int b, int e) const {
    const long shift[3] = {a, b, e};
    uint64_t h = 1469598103934665603ull;
    for (int d = 0; d < 3; ++d) {
      const long k = d < dim_ ? long(std::floor(x[d] / cell_)) + shift[d] : 0;
      h = (h ^ uint64_t(k + (1l << 40))) * 1099511628211ull;
    }
    return h;
  }

  int dim_;
  double cell_;
  std::unordered_map<uint64_t, std::vector<std::size_t>> cells_;
};

}  // namespace ejecta
