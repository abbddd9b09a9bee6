#include "exec/exec_cpu.h"

#include "exec/key_bits.h"

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

namespace {

// One stable counting pass by the digit (key >> shift) & mask, digit < m: per-thread histograms over
// contiguous chunks, so equal digits keep their input order. hist is the caller's workspace.
template <class K>
void counting_pass(const K* in_keys, const uint32_t* in_values, K* out_keys, uint32_t* out_values, std::size_t n,
                   int shift, K mask, std::size_t m, std::vector<uint32_t>& histogram) {
  const int threads = omp_get_max_threads();
  histogram.assign(static_cast<std::size_t>(threads) * m, 0u);
  uint32_t* hist = histogram.data();
  auto digit = [shift, mask](K key) { return static_cast<std::size_t>((key >> shift) & mask); };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
    uint32_t* h = hist + static_cast<std::size_t>(t) * m;
    for (std::size_t i = lo; i < hi; ++i) ++h[digit(in_keys[i])];
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
      const uint32_t pos = h[digit(in_keys[i])]++;
      out_keys[pos] = in_keys[i];
      out_values[pos] = in_values[i];
    }
  }
}

}  // namespace

void CpuExec::sort_pairs(uint32_t*& keys, uint32_t*& values, uint32_t*& keys_alt,
                         uint32_t*& values_alt, std::size_t n, uint32_t num_keys) {
  // Each thread takes one contiguous chunk so that the scatter keeps the input order within a key
  // (stability: particles keep their relative order inside a cell between steps).
  counting_pass<uint32_t>(keys, values, keys_alt, values_alt, n, 0, ~uint32_t(0), num_keys, histogram_);
  std::swap(keys, keys_alt);
  std::swap(values, values_alt);
}

void CpuExec::sort_pairs64(uint64_t*& keys, uint32_t*& values, uint64_t*& keys_alt, uint32_t*& values_alt,
                           std::size_t n) {
  // Only the bits where some keys differ need passes (exec/key_bits.h).
  uint64_t any = 0, all = ~uint64_t(0);
  for (std::size_t i = 0; i < n; ++i) {
    any |= keys[i];
    all &= keys[i];
  }
  const KeyBitSpan span = differing_key_bits(any, all);  // lo == hi: all keys equal, input order stays
  constexpr int kBits = 11;
  for (int shift = span.lo; shift < span.hi; shift += kBits) {
    const int bits = std::min(kBits, span.hi - shift);
    counting_pass<uint64_t>(keys, values, keys_alt, values_alt, n, shift, (uint64_t(1) << bits) - 1,
                            std::size_t(1) << bits, histogram_);
    std::swap(keys, keys_alt);
    std::swap(values, values_alt);
  }
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
