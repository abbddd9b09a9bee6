#include "neighbors/bucket_order.h"

#include "exec/exec_cpu.h"
#include "neighbors/morton.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace ejecta {

std::vector<uint32_t> bucket_ranks(const int dims[3], int D, CellOrder order) {
  std::size_t m = 1;
  for (int d = 0; d < 3; ++d) {
    if (dims[d] < 1 || dims[d] > (1 << 20))
      throw std::invalid_argument("bucket_ranks: axis " + std::to_string(d) + " has " + std::to_string(dims[d]) +
                                  " buckets (1 to 2^20)");
    m *= std::size_t(dims[d]);
  }
  std::vector<uint32_t> rank(m);
  if (order == CellOrder::RowMajor) {
    std::iota(rank.begin(), rank.end(), 0u);
    return rank;
  }
  std::vector<uint64_t> codes(m), codes_alt(m);
  std::vector<uint32_t> ids(m), ids_alt(m);
  CpuExec exec;
  exec.for_each(m, [&](std::size_t b) {
    const uint32_t c[3] = {uint32_t(b % dims[0]), uint32_t(b / dims[0] % dims[1]), uint32_t(b / dims[0] / dims[1])};
    codes[b] = D == 1 ? morton_code<1>(c) : D == 2 ? morton_code<2>(c) : morton_code<3>(c);
    ids[b] = uint32_t(b);
  });
  uint64_t *k = codes.data(), *ka = codes_alt.data();
  uint32_t *v = ids.data(), *va = ids_alt.data();
  exec.sort_pairs64(k, v, ka, va, m);  // codes are distinct: the buckets in Z-order
  exec.for_each(m, [&](std::size_t r) { rank[v[r]] = uint32_t(r); });
  return rank;
}

}  // namespace ejecta
