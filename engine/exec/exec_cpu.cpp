#include "exec/exec_cpu.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <new>
#include <utility>

namespace ejecta {

void* CpuExec::allocate(std::size_t bytes) {
  // 64-byte alignment: whole cache lines per thread chunk, and room for SIMD loads.
  void* p = std::aligned_alloc(64, ((bytes + 63) / 64) * 64 + 64);
  if (!p) throw std::bad_alloc();
  return p;
}

void CpuExec::deallocate(void* p) { std::free(p); }

void CpuExec::sort_pairs(uint32_t*& keys, uint32_t*& values, uint32_t*& keys_alt,
                         uint32_t*& values_alt, std::size_t n, uint32_t num_keys) {
  const int threads = omp_get_max_threads();
  const std::size_t m = num_keys;
  histogram_.assign(static_cast<std::size_t>(threads) * m, 0u);
  uint32_t* hist = histogram_.data();
  const uint32_t* in_keys = keys;
  const uint32_t* in_values = values;
  uint32_t* out_keys = keys_alt;
  uint32_t* out_values = values_alt;
  // Each thread takes one contiguous chunk so that the scatter below keeps the input order within a
  // key (stability: particles keep their relative order inside a cell between steps).
  auto chunk = [n, threads](int t) {
    return std::pair<std::size_t, std::size_t>(n * t / threads, n * (t + 1) / threads);
  };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const auto [lo, hi] = chunk(t);
    uint32_t* h = hist + static_cast<std::size_t>(t) * m;
    for (std::size_t i = lo; i < hi; ++i) ++h[in_keys[i]];
#pragma omp barrier
#pragma omp single
    {
      uint32_t running = 0;
      for (std::size_t b = 0; b < m; ++b)
        for (int u = 0; u < threads; ++u) {
          uint32_t& c = hist[static_cast<std::size_t>(u) * m + b];
          const uint32_t count = c;
          c = running;
          running += count;
        }
    }
    for (std::size_t i = lo; i < hi; ++i) {
      const uint32_t pos = h[in_keys[i]]++;
      out_keys[pos] = in_keys[i];
      out_values[pos] = in_values[i];
    }
  }
  std::swap(keys, keys_alt);
  std::swap(values, values_alt);
}

std::string CpuExec::device_name() const {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, name = "CPU";
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) name = line.substr(colon + 2);
      break;
    }
  }
  return name + " (" + std::to_string(omp_get_max_threads()) + " threads)";
}

}  // namespace ejecta
