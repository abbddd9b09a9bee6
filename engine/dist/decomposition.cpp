#include "dist/decomposition.h"

#include "neighbors/morton.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ejecta::dist {

void KeyGeometry::cell_of(const double* x, int64_t c[3]) const {
  const double top = double((int64_t(1) << bits()) - 1);
  for (int d = 0; d < 3; ++d) {
    double v = d < dim ? std::floor((x[d] - origin[d]) / cell) : 0;
    if (!(v >= 0)) v = 0;  // NaN too: the blow-up check reports it
    c[d] = int64_t(std::min(v, top));
  }
}

bool KeyGeometry::key_of(const int64_t c[3], uint64_t& key) const {
  const int64_t top = (int64_t(1) << bits()) - 1;
  uint32_t u[3] = {0, 0, 0};
  for (int d = 0; d < dim; ++d) {
    if (c[d] < 0 || c[d] > top) return false;
    u[d] = uint32_t(c[d]);
  }
  key = dim == 1 ? uint64_t(u[0]) : dim == 2 ? morton_code<2>(u) : morton_code<3>(u);
  return true;
}

uint64_t KeyGeometry::key(const double* x) const {
  int64_t c[3];
  cell_of(x, c);
  uint64_t k = 0;
  key_of(c, k);
  return k;
}

int Decomposition::owner(uint64_t key) const {
  // The last r with split[r] <= key.
  const auto it = std::upper_bound(split.begin() + 1, split.end() - 1, key);
  return int(it - split.begin()) - 1;
}

int Decomposition::ghost_ranks(const KeyGeometry& g, const double* x, int own, int* out) const {
  int64_t c[3];
  g.cell_of(x, c);
  int n = 0;
  const int r = g.reach;
  const int span[3] = {r, g.dim > 1 ? r : 0, g.dim > 2 ? r : 0};
  for (int dz = -span[2]; dz <= span[2]; ++dz)
    for (int dy = -span[1]; dy <= span[1]; ++dy)
      for (int dx = -span[0]; dx <= span[0]; ++dx) {
        const int64_t nc[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
        uint64_t k = 0;
        if (!g.key_of(nc, k)) continue;
        const int o = owner(k);
        if (o != own && std::find(out, out + n, o) == out + n) out[n++] = o;
      }
  return n;
}

std::vector<uint64_t> balance_splitters(const std::vector<uint64_t>& keys, const std::vector<double>& weights,
                                        int ranks, uint64_t key_end,
                                        const std::function<void(double*, int)>& sum_all) {
  // This rank's weights in key order, as a prefix sum: weight below a key is one binary search.
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<uint64_t> sorted(keys.size());
  std::vector<double> prefix(keys.size() + 1, 0.0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted[i] = keys[order[i]];
    prefix[i + 1] = prefix[i] + weights[order[i]];
  }
  auto below = [&](uint64_t k) {
    return prefix[std::size_t(std::lower_bound(sorted.begin(), sorted.end(), k) - sorted.begin())];
  };
  double total = prefix.back();
  sum_all(&total, 1);
  const int m = ranks - 1;
  std::vector<uint64_t> lo(m, 0), hi(m, key_end);  // invariant: below(lo) < target <= below(hi)
  std::vector<double> w(m);
  while (true) {
    bool open = false;
    for (int s = 0; s < m; ++s) open = open || hi[s] - lo[s] > 1;
    if (!open) break;
    std::vector<uint64_t> mid(m);
    for (int s = 0; s < m; ++s) {
      mid[s] = lo[s] + (hi[s] - lo[s]) / 2;
      w[s] = below(mid[s]);
    }
    sum_all(w.data(), m);
    for (int s = 0; s < m; ++s) {
      if (hi[s] - lo[s] <= 1) continue;
      const double target = total * double(s + 1) / double(ranks);
      (w[s] < target ? lo[s] : hi[s]) = mid[s];
    }
  }
  std::vector<uint64_t> split(std::size_t(ranks) + 1);
  split[0] = 0;
  split[std::size_t(ranks)] = key_end;
  for (int s = 0; s < m; ++s) split[std::size_t(s) + 1] = std::max(hi[s], split[std::size_t(s)]);
  return split;
}

double imbalance(const std::vector<double>& work) {
  if (work.empty()) return 0;
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  const double mx = *std::max_element(work.begin(), work.end());
  return total > 0 ? mx / (total / double(work.size())) - 1 : 0;
}

}  // namespace ejecta::dist
