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
    if (rows_) {  // a row selection (select_rows): f over the listed rows instead of [0, n)
      ++rows_runs_;
      const uint32_t* r = rows_;
      const long long nr = static_cast<long long>(rows_count_);
#pragma omp parallel for schedule(dynamic, 256)
      for (long long k = 0; k < nr; ++k) f(static_cast<std::size_t>(r[k]));
      return;
    }
    const long long nn = static_cast<long long>(n);
#pragma omp parallel for schedule(dynamic, 256)
    for (long long i = 0; i < nn; ++i) f(static_cast<std::size_t>(i));
  }

  // A row selection for the neighbour loops (solver/row_subset_pass.h: a distributed run's pair pass
  // split around its halo exchange): until clear_rows(), for_each_balanced(n, f) runs f(rows[k]) for
  // k < count instead of f(i) for i < n (rows: memory of this layer); selected_runs() counts the loops
  // that took it. for_each and the reductions are not affected.
  void select_rows(const uint32_t* rows, std::size_t count) {
    rows_ = rows;
    rows_count_ = count;
    rows_runs_ = 0;
  }
  void clear_rows() { rows_ = nullptr; }
  bool rows_selected() const { return rows_ != nullptr; }  // a loop now would run over the selection
  long selected_runs() const { return rows_runs_; }

  // Stable sort of (key, value) pairs by key, keys < num_keys: a counting sort, O(n + num_keys), so the
  // per-step sort stays linear in the particle count. Results end in keys/values; the *_alt buffers
  // are scratch of the same size.
  void sort_pairs(uint32_t*& keys, uint32_t*& values, uint32_t*& keys_alt, uint32_t*& values_alt,
                  std::size_t n, uint32_t num_keys);

  // Stable sort of (64-bit key, value) pairs by key: an LSD radix sort in 11-bit digits over the bits
  // where the keys differ (Morton keys, octree and domain keys). Same contract as sort_pairs.
  void sort_pairs64(uint64_t*& keys, uint32_t*& values, uint64_t*& keys_alt, uint32_t*& values_alt,
                    std::size_t n);

  // out[i] = in[0] + ... + in[i-1] for i in [0, n]: n + 1 entries, out[0] = 0 and out[n] the total
  // (an offset table from counts). out must not alias in. Two passes over per-thread chunks: the
  // result is exact and does not depend on the thread count (integers).
  template <class T>
  void exclusive_scan(const T* in, T* out, std::size_t n) const {
    const int threads = omp_get_max_threads();
    std::vector<T> partial(static_cast<std::size_t>(threads) + 1, T(0));
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
      T sum = T(0);
      for (std::size_t i = lo; i < hi; ++i) sum += in[i];
      partial[static_cast<std::size_t>(t) + 1] = sum;
#pragma omp barrier
#pragma omp single
      for (int u = 0; u < threads; ++u) partial[static_cast<std::size_t>(u) + 1] += partial[static_cast<std::size_t>(u)];
      T running = partial[static_cast<std::size_t>(t)];
      for (std::size_t i = lo; i < hi; ++i) {
        out[i] = running;
        running += in[i];
      }
    }
    out[n] = partial[static_cast<std::size_t>(threads)];
  }

  // Stream compaction: the indices i < n with pred(i), in increasing order, into list, and their number
  // into *count. pred is meant as a pure test: one that also writes (particle i's own values) is run
  // correctly here, but on CUDA its stores made CUB's compaction wait on each item in turn (the liquid's
  // wet walls, solver/terms/liquid_uniform_terms.h: a flag pass is faster there).
  template <class Pred>
  void select_if(std::size_t n, const Pred& pred, uint32_t* list, uint32_t* count) const {
    std::vector<uint32_t> keep(n), pos(n + 1);
    for_each(n, [&](std::size_t i) { keep[i] = pred(i) ? 1u : 0u; });
    exclusive_scan(keep.data(), pos.data(), n);
    for_each(n, [&](std::size_t i) {
      if (keep[i]) list[pos[i]] = static_cast<uint32_t>(i);
    });
    *count = pos[n];
  }

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
  // counts[b] = the number of i in [0, n) with bin_of(i) == b, for b in [0, bins); an i whose bin is
  // outside that range counts nowhere. Integer counts: the same for any thread count and on CUDA.
  template <class BinOf>
  void count_bins(std::size_t n, int bins, const BinOf& bin_of, uint32_t* counts) const {
    const int threads = omp_get_max_threads();
    std::vector<uint32_t> partial(static_cast<std::size_t>(threads) * bins, 0u);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      uint32_t* local = partial.data() + static_cast<std::size_t>(t) * bins;
      const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
      for (std::size_t i = lo; i < hi; ++i) {
        const int b = bin_of(i);
        if (b >= 0 && b < bins) ++local[b];
      }
    }
    for (int b = 0; b < bins; ++b) counts[b] = 0u;
    for (int t = 0; t < threads; ++t)
      for (int b = 0; b < bins; ++b) counts[b] += partial[static_cast<std::size_t>(t) * bins + b];
  }
  // The same, then meanwhile(): CudaExec runs meanwhile() between queueing the reduction (with its
  // result's copy) and waiting for it, so that device work queued there overlaps the host's wait and
  // what follows it; here the reduction is done first, the same order of effects on the data.
  template <class R, class Map, class Op, class Meanwhile>
  R transform_reduce(std::size_t n, R init, const Map& map, const Op& op, Meanwhile&& meanwhile) const {
    const R result = transform_reduce(n, init, map, op);
    meanwhile();
    return result;
  }

  void synchronize() const {}
  // The CPU backend runs each loop to its end before returning: nothing to synchronise or check.
  bool debug_sync() const { return false; }
  std::string device_name() const;
  std::size_t workspace_bytes() const { return histogram_.capacity() * sizeof(uint32_t); }
  void* stream_handle() const { return nullptr; }  // no device stream (Simulation::device_stream)

 private:
  std::vector<uint32_t> histogram_;  // per-thread bucket counts for the counting sort
  const uint32_t* rows_ = nullptr;    // select_rows
  std::size_t rows_count_ = 0;
  mutable long rows_runs_ = 0;
};

}  // namespace ejecta
