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
// sums are the same bit for bit on the CPU (tests/test_neighbour_batch.cpp).
// On CUDA the queue is a local array (local memory, L1-cached), Cap x 4 bytes a thread, or with Shared
// (fluid.neighbour_batch = row32_shared) the thread's slice of the block's shared memory (Cap x 512
// bytes a block of 128: exec/thread_slots.h), which takes the queue out of the thread's stack (ptxas's
// figures for sm_90: docs/benchmarks.md). The same instructions on the queue's values either way.
#include "exec/lane_group.h"
#include "exec/thread_slots.h"
#include "physics/forces_wcsph.h"

namespace ejecta {

template <class F, int Cap, int Rows, bool Shared = false, bool Warp = false>
struct ForcesBatched {
  static_assert(Cap > 0 && Rows > 0, "ForcesBatched: a queue and rows per flush");
  static_assert(!(Warp && (Shared || Rows != 1)), "ForcesBatched: the warp's flush keeps a local ring, row by row");
  static constexpr int kCudaMinBlocks = F::kCudaMinBlocks;
  F f;
  // Warp: the free entries a lane keeps for the next row (Cap less the most neighbours a row is expected
  // to hold; a row that holds more flushes that lane's queue within the row, correct but divergent).
  int room = 0;

  EJ_INLINE void operator()(std::size_t i) const {
    if constexpr (Warp) {
      warp_queue(i);
    } else {
      if (f.pv.kind[i] != kFluid) return;
      typename F::Sums s = f.begin(i);
      std::conditional_t<Shared, SharedSlots<uint32_t, Cap>, uint32_t[Cap]> q;
      int n = 0;
      uint32_t cand = 0;
      const int rows = f.grid.rows();
      const auto around = f.grid.around(s.xi);  // the particle's cells, once for its rows
      EJ_NO_UNROLL
      for (int r = 0; r < rows; ++r) {
        cand += scan_row(
            s, f.grid.row_ranges(around, r), n, [&](uint32_t j) { q[n] = j; },
            [&] {
              flush(s, i, q, n);  // the queue filled within the row: flushed, the scan goes on from j
              n = 0;
            });
        if ((r + 1) % Rows == 0 || r + 1 == rows) {
          flush(s, i, q, n);
          n = 0;
        }
      }
      f.finish(i, s, cand);
    }
  }

  // q: the queue, a pointer to the local array or (Shared) the shared slots.
  template <class Q>
  EJ_INLINE void flush(typename F::Sums& s, std::size_t i, Q q, int n) const {
    EJ_NO_UNROLL
    for (int k = 0; k < n; ++k) {
      const uint32_t j = q[k];
      const auto pos = f.nb.position(f.pv, j);
      f.pair(s, j == i, pos.x, [&] { return f.nb.rest(f.pv, j, pos); });
    }
  }

 private:
  // Phase 1 over one row's ranges: the candidates within the support pushed (push(j), then ++n) while
  // the queue has room; when it fills, full() empties it and the scan goes on from the candidate it
  // stopped at. Returns the row's candidates.
  template <class Push, class Full>
  EJ_INLINE uint32_t scan_row(const typename F::Sums& s, const typename decltype(F::grid)::RowRanges& rr, int& n,
                              Push&& push, Full&& full) const {
    EJ_NO_UNROLL
    for (int k = 0; k < 3; ++k) {
      uint32_t j = rr.begin(k);
      const uint32_t e = rr.end(k);
      for (;;) {
        // The distance test alone; i itself is queued too (the pair terms skip it, as the one loop's do).
        for (; j < e && n < Cap; ++j)
          if (f.within(s, f.nb.position(f.pv, j).x)) {
            push(j);
            ++n;
          }
        if (j == e) break;
        full();
      }
    }
    return rr.count();
  }

  // Warp (fluid.neighbour_batch = warp32 / warp48 / warp64): the queue is a ring the lanes of a warp
  // drain together. After each row (where the warp has reconverged) every lane runs the pair terms of
  // its m oldest entries, m the same for the whole warp: the least any lane holds (every lane busy), or
  // more where a lane would otherwise lack `room` for the next row, all of it after the last row. A lane
  // whose ring fills within a row stops there; the warp drains (at least Cap - room entries) and the
  // lane's scan goes on. The ring's read position (head) is the same in every lane (each drain moves it
  // by m, a lane with fewer entries left empty), so the lanes' reads of an entry fall on one line of
  // local memory. The lanes' queues fill at different rates row by row (a row's candidates depend on
  // where the particle sits in its cell), so per-row flushes run with about half the lanes busy.
  // Each particle's pairs keep their order (first in, first out): the same sums bit for bit as row32,
  // on the CPU (a group of one lane: m is its whole queue every row) and on the GPU.
  EJ_INLINE static int wrap(int k) { return k < Cap ? k : k - Cap; }
  EJ_INLINE void drain(typename F::Sums& s, std::size_t i, const uint32_t* q, int& head, int& n, int m) const {
    EJ_NO_UNROLL
    for (int t = 0; t < m; ++t)
      if (t < n) {
        const uint32_t j = q[wrap(head + t)];
        const auto pos = f.nb.position(f.pv, j);
        f.pair(s, j == i, pos.x, [&] { return f.nb.rest(f.pv, j, pos); });
      }
    head = wrap(head + m);
    n = n > m ? n - m : 0;
  }
  EJ_INLINE void warp_queue(std::size_t i) const {
    const LaneGroup g = LaneGroup::active();
    const bool live = f.pv.kind[i] == kFluid;  // the others join the warp's decisions with empty queues
    typename F::Sums s = f.begin(i);
    uint32_t q[Cap];
    int head = 0, n = 0;
    uint32_t cand = 0;
    const int rows = f.grid.rows();
    const auto around = f.grid.around(s.xi);
    EJ_NO_UNROLL
    for (int r = 0; r < rows; ++r) {
      typename decltype(F::grid)::RowRanges rr{0, 0, 0, 0, 0, 0};
      if (live) rr = f.grid.row_ranges(around, r);
      cand += rr.count();
      int k = 0;
      uint32_t j = rr.b0;
      for (;;) {
        // Phase 1 until the row ends or the ring is full (i itself is queued too: the pair terms skip it).
        EJ_NO_UNROLL
        for (; k < 3; j = rr.begin(k)) {
          const uint32_t e = rr.end(k);
          for (; j < e && n < Cap; ++j)
            if (f.within(s, f.nb.position(f.pv, j).x)) q[wrap(head + n++)] = j;
          if (j < e || ++k == 3) break;
        }
        // One reduction gives the fullest ring and whether any lane stopped within its row (+ 65536).
        const int top = g.max(n + (k < 3 ? 65536 : 0));
        const int most = top & 65535;
        const bool pending = top >= 65536;
        const int m = r + 1 == rows && !pending ? most : std::max(g.min(n), most - room);
        drain(s, i, q, head, n, m);
        if (!pending) break;
      }
    }
    if (live) f.finish(i, s, cand);
  }
};

}  // namespace ejecta
