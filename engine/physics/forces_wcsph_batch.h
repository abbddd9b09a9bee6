#pragma once
// fluid.neighbour_batch (issue 18): the fused liquid force pass (forces_wcsph.h) in two phases per row
// of cells, against the warp divergence Nsight Compute found in its neighbour loop (on the H200 at the
// peer's settings, 16.9 of 32 threads active per warp on average: about one candidate in four is within
// the support, and the pair terms ran with only the lanes whose candidate was).
//  1. the row's candidates with the distance test only (x_j, r^2 < r2max), the indices of those within
//     the support appended to a per-thread queue of Cap entries (i itself among them: the pair terms
//     skip it, as the one loop's do, so phase 1 carries no self test);
//  2. the queue through the pair terms (F::pair, the very function of the default pass: its distance
//     test repeats, cheap), so that lanes with similar queue lengths run the heavy arithmetic together.
// The queue is flushed every Rows rows (at a point where the warp has reconverged: the row loop is the
// same for every lane), and when it fills: the row's scan then flushes and goes on from the candidate it
// stopped at (the row's ranges of sorted particles from CellGrid::row_ranges, the particle's cells
// computed once by CellGrid::around). The pairs are visited in the order of the default pass, so the
// sums are the same bit for bit on the CPU (NeighbourBatch.* in tests/test_force_variants.cpp).
// On CUDA the queue is a local array (local memory, L1-cached), Cap x 4 bytes a thread, or with Shared
// (fluid.neighbour_batch = row32_shared) the thread's slice of the block's shared memory (Cap x 512
// bytes a block of 128: exec/thread_slots.h), which takes the queue out of the thread's stack (ptxas's
// figures for sm_90: docs/benchmarks.md). The same instructions on the queue's values either way.
#include "exec/thread_slots.h"
#include "physics/forces_wcsph.h"

namespace ejecta {

// Bounded (fluid.neighbour_batch = auto, where a row's candidates fit the queue: liquid_uniform_terms.h):
// the row's scan bounded by the queue's room counted in candidates, stop = min(e, j + Cap - n), so the
// scan tests one bound a candidate (nvcc unrolls it) instead of the range's end and the queue's fill; a
// row holding more candidates than the room flushes within the row, as a full queue does. The same pairs
// in the same order. On the H100 (2026-12-06, docs/benchmarks.md) 3-4% faster at Ejecta's float defaults,
// 27% slower at the peer's settings (their rows hold up to 40 candidates) and 6% slower in double.
template <class F, int Cap, int Rows, bool Shared = false, bool Bounded = false>
struct ForcesBatched {
  static_assert(Cap > 0 && Rows > 0, "ForcesBatched: a queue and rows per flush");
  static constexpr int kCudaMinBlocks = F::kCudaMinBlocks;
  F f;

  EJ_INLINE void operator()(std::size_t i) const {
    if (f.pv.kind[i] != kFluid) return;
    typename F::Sums s = f.begin(i);
    std::conditional_t<Shared, SharedSlots<uint32_t, Cap>, uint32_t[Cap]> q;
    int n = 0;
    uint32_t cand = 0;
    const int rows = f.grid.rows();
    const auto around = f.grid.around(s.xi);  // the particle's cells, once for its rows
    EJ_NO_UNROLL
    for (int r = 0; r < rows; ++r) {
      const auto rr = f.grid.row_ranges(around, r);
      cand += rr.count();
      EJ_NO_UNROLL
      for (int k = 0; k < 3; ++k) {
        uint32_t j = rr.begin(k);
        const uint32_t e = rr.end(k);
        for (;;) {
          // The distance test alone; i itself is queued too (the pair terms skip it, as the one loop's do).
          // Bounded: the queue's room in candidates ends the scan (one test a candidate); else the queue's fill.
          const uint32_t room = static_cast<uint32_t>(Cap - n), stop = Bounded && e - j > room ? j + room : e;
          for (; j < stop && (Bounded || n < Cap); ++j)
            if (f.within(s, f.nb.position(f.pv, j).x)) q[n++] = j;
          if (j == e) break;
          flush(s, i, q, n);  // the queue filled within the row: flushed, the scan goes on from j
          n = 0;
        }
      }
      if ((r + 1) % Rows == 0 || r + 1 == rows) {
        flush(s, i, q, n);
        n = 0;
      }
    }
    f.finish(i, s, cand);
  }

  // q: the queue, a pointer to the local array or (Shared) the shared slots.
  // The next entry's index is read a pair ahead, so that its load from the queue (local memory on CUDA)
  // is under way while the pair terms run (Nsight Compute put 7% of the pass's stalls on that load,
  // H100, 2026-12-06). The same pairs in the same order.
  template <class Q>
  EJ_INLINE void flush(typename F::Sums& s, std::size_t i, Q q, int n) const {
    if (n <= 0) return;
    uint32_t j = q[0];
    EJ_NO_UNROLL
    for (int k = 0; k < n; ++k) {
      const uint32_t next = k + 1 < n ? q[k + 1] : j;
      const auto pos = f.nb.position(f.pv, j);
      f.pair(s, j == i, pos.x, [&] { return f.nb.rest(f.pv, j, pos); });
      j = next;
    }
  }
};

}  // namespace ejecta
