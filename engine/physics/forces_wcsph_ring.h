#pragma once
// fluid.neighbour_batch = ring32, ring64 (issue 18): the fused liquid force pass (forces_wcsph.h) with the
// two phases of forces_wcsph_batch.h (the distance test queues the candidates within the support, the
// pair terms run over the queue), but the queue flushed when the warp's lanes all hold pairs, not at the
// end of each row of cells.
// Why: a row flush runs the pair terms as many times as the lane with the most pairs in that row, and how
// a particle's neighbours split among its rows depends on where it lies in its cell, which differs from
// lane to lane while the totals agree. A model of the benchmark's lattice at rest (interior warps of 32
// sorted particles, the clipped rows of cell_grid.h) has the per-row flushes run the pair terms 1.64 times
// per pair a lane holds at Ejecta's defaults (h/dp 1.5, half cells: 25 rows of about 4 pairs), 1.39 times at
// DualSPHysics's (h/dp 2); these flushes 1.04 and 1.00 times (docs/benchmarks.md).
// How: each lane scans its candidates as one sequence over its rows and ranges (a cursor), up to Chunk
// candidates a round while its queue, a ring of Cap entries, has room. Then the lanes vote (one minimum):
// K = the fewest pairs queued by a lane still scanning; when K >= kMinFlush (so also when every scanning
// lane's ring is full), every lane runs the pair terms on the first K of its queue (a lane that has
// finished scanning and holds fewer runs its own). When no lane scans any more (no K), each runs the rest
// of its queue. The queue is
// first in, first out, so every particle's pairs run in the order of the one loop: the same sums bit for
// bit (on the CPU a lane is its own warp and the votes are its own values: NeighbourBatch.* in
// tests/test_force_variants.cpp). The votes: exec/warp_vote.h.
// An earlier ring (warp32/48/64, 2026-12-06, reverted; docs/benchmarks.md, "the warp's ring") drained
// after every row by two reductions and was 7-30% slower than row32 on the H100 and H200: each lane read
// its ring at its own position (up to 32 local-memory lines a read), the row's resumed loop and the
// reductions cost the instructions saved, and ptxas spilled 88-92 bytes. Here the scan runs over the
// rows as one sequence (no resumed row loop), the lanes vote once a round of Chunk candidates, every
// scanning lane takes the same count so their read positions stay equal, nothing spills at 64 registers,
// and ring32_shared keeps the ring in shared memory laid out slot by lane (SharedSlots: no bank conflict
// at any position), the form that session left untried. Not yet measured on a GPU: not the default.
#include "exec/thread_slots.h"
#include "exec/warp_vote.h"
#include "physics/forces_wcsph.h"

namespace ejecta {

template <class F, int Cap, int Chunk = 32, bool Shared = false>
struct ForcesWarpRing {
  static_assert(Cap > 0 && (Cap & (Cap - 1)) == 0, "ForcesWarpRing: a ring of a power of two");
  static_assert(Cap >= 8, "ForcesWarpRing: full rings must pass the flush's threshold (kMinFlush)");
  static constexpr int kCudaMinBlocks = F::kCudaMinBlocks;
  static constexpr uint32_t kMask = Cap - 1, kMinFlush = 8, kNone = 0xffffffffu;
  F f;

  EJ_INLINE void operator()(std::size_t i) const {
    if (f.pv.kind[i] != kFluid) return;
    const uint32_t lanes = warp_lanes();
    typename F::Sums s = f.begin(i);
    std::conditional_t<Shared, SharedSlots<uint32_t, Cap>, uint32_t[Cap]> q;
    uint32_t head = 0, n = 0;  // the ring: q[(head + t) & kMask], t < n

    // The cursor: candidate j of range k (up to e) of row r. The row's later ranges are kept, not its
    // first (a row-major row has one range, two where it wraps), and the particle's cells (around) are
    // found again for each row rather than kept: with them kept and the candidates counted through the
    // loop, ptxas spilled 9 registers at the default bound of 64 (sm_90), none this way.
    const int rows = f.grid.rows();
    int r = 0, k = 0;
    auto rr = f.grid.row_ranges(f.grid.around(s.xi), 0);
    uint32_t j = rr.b0, e = rr.e0, b1 = rr.b1, e1 = rr.e1, b2 = rr.b2, e2 = rr.e2;
    // To the next candidate at or after the end of a range; false past the last row.
    const auto next_range = [&]() -> bool {
      while (j == e) {
        if (k == 0) {
          j = b1, e = e1, k = 1;
        } else if (k == 1) {
          j = b2, e = e2, k = 2;
        } else {
          if (++r == rows) return false;
          rr = f.grid.row_ranges(f.grid.around(s.xi), r);
          j = rr.b0, e = rr.e0, b1 = rr.b1, e1 = rr.e1, b2 = rr.b2, e2 = rr.e2, k = 0;
        }
      }
      return true;
    };
    bool scanning = next_range();

    EJ_NO_UNROLL
    for (;;) {
      // Up to Chunk candidates while the ring has room: each queues at most one entry, so the scan is
      // bounded by the smaller of the chunk's rest and the room, one test a candidate.
      uint32_t budget = Chunk;
      EJ_NO_UNROLL
      while (scanning && budget > 0 && n < uint32_t(Cap)) {
        const uint32_t room = budget < uint32_t(Cap) - n ? budget : uint32_t(Cap) - n;
        const uint32_t stop = e - j > room ? j + room : e;
        budget -= stop - j;
        for (; j < stop; ++j)
          if (f.within(s, f.nb.position(f.pv, j).x)) q[(head + n++) & kMask] = j;
        if (j == e) scanning = next_range();
      }
      // The fewest entries a scanning lane holds (at most Cap), or kNone where no lane scans any more.
      const uint32_t fewest = warp_min(lanes, scanning ? n : kNone);
      const bool last = fewest == kNone;
      const uint32_t take = last ? n : fewest >= kMinFlush ? (fewest < n ? fewest : n) : 0u;
      run_pairs(s, i, q, head, take);
      head += take, n -= take;
      if (last) break;
    }
    // The candidates visited (the pair counts of set_count_pairs; 0 unless they are counted), counted
    // again here rather than carried through the loop (a register fewer).
    uint32_t cand = 0;
    if (f.count_pairs)
      for (int row = 0; row < rows; ++row) cand += f.grid.row_ranges(f.grid.around(s.xi), row).count();
    f.finish(i, s, cand);
  }

  // The first `take` entries of the ring from head through the pair terms; the next entry's index read a
  // pair ahead (as ForcesBatched::flush).
  template <class Q>
  EJ_INLINE void run_pairs(typename F::Sums& s, std::size_t i, Q& q, uint32_t head, uint32_t take) const {
    if (take == 0) return;
    uint32_t j = q[head & kMask];
    EJ_NO_UNROLL
    for (uint32_t t = 0; t < take; ++t) {
      const uint32_t next = t + 1 < take ? q[(head + t + 1) & kMask] : j;
      const auto pos = f.nb.position(f.pv, j);
      f.pair(s, j == i, pos.x, [&] { return f.nb.rest(f.pv, j, pos); });
      j = next;
    }
  }
};

}  // namespace ejecta
