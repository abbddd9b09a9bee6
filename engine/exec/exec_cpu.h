#pragma once
// CPU execution layer: the same functors the CUDA layer launches as kernels run here as OpenMP loops.
// An instance holds its own workspace (no global mutable state), one per Simulation.
#include "core/types.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <omp.h>
#include <string>
#include <vector>

namespace ejecta {

class CpuExec {
 public:
  static constexpr Backend kBackend = Backend::Cpu;

  void* allocate(std::size_t bytes);
  void deallocate(void* p);
  void upload(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }
  void download(void* dst, const void* src, std::size_t bytes) const { std::memcpy(dst, src, bytes); }
  void copy(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }

  template <class F>
  void for_each(std::size_t n, const F& f) const {
    const long long nn = static_cast<long long>(n);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < nn; ++i) f(static_cast<std::size_t>(i));
  }

  // Same as for_each, for loops whose per-item cost varies (neighbour sums near a free surface).
  template <class F>
  void for_each_balanced(std::size_t n, const F& f) const {
    const long long nn = static_cast<long long>(n);
#pragma omp parallel for schedule(dynamic, 256)
    for (long long i = 0; i < nn; ++i) f(static_cast<std::size_t>(i));
  }

  // Stable sort of (key, value) pairs by key, keys < num_keys: a counting sort, O(n + num_keys), so the
  // per-step sort stays linear in the particle count. Results end in keys/values; the *_alt buffers
  // are scratch of the same size.
  void sort_pairs(uint32_t*& keys, uint32_t*& values, uint32_t*& keys_alt, uint32_t*& values_alt,
                  std::size_t n, uint32_t num_keys);

  // Reduction of map(i) over i in [0, n) with an associative, commutative op. Deterministic for a
  // given thread count: each thread reduces its fixed chunk and the partials are combined in thread
  // order (floating-point sums must not depend on which thread finishes first).
  template <class R, class Map, class Op>
  R transform_reduce(std::size_t n, R init, const Map& map, const Op& op) const {
    const int threads = omp_get_max_threads();
    std::vector<R> partial(static_cast<std::size_t>(threads), init);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
      R local = init;
      for (std::size_t i = lo; i < hi; ++i) local = op(local, map(i));
      partial[static_cast<std::size_t>(t)] = local;
    }
    R result = init;
    for (const R& p : partial) result = op(result, p);
    return result;
  }

  void synchronize() const {}
  std::string device_name() const;
  std::size_t workspace_bytes() const { return histogram_.capacity() * sizeof(uint32_t); }

 private:
  std::vector<uint32_t> histogram_;  // per-thread bucket counts for the counting sort
};

}  // namespace ejecta
