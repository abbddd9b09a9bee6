#pragma once
// The probe and gauge functors, written once for both backends (definitions in probes/probe_layout.h).
// Two launches per sample, each for every instrument together, both queued on the step's stream:
//  - SampleProbeRows runs per (lane, cell row, sample point): the 3^D cells around a point are 3^(D-1)
//    rows along x (for_each_candidate_in_row below), and kProbeLanes threads share one row, lane l
//    taking the row's candidates l, l + kProbeLanes, ... So a point's candidates (3D, h = 1.3 dp, the
//    default half cells: 25 rows of ~11) are spread over 25 x 2 threads of ~6 each: the walk is a chain of
//    dependent loads (position, then mass, density and kind, then the channel), latency-bound with a
//    few thousand points, and its length is what a sample costs. The lanes are the slowest index, so
//    the threads of a warp share a lane and take or skip a candidate together. The partial kernel
//    sums go to scratch; no scan over all particles.
//  - ReduceProbeInstruments runs a block per instrument: a thread a point adds the point's rows' and
//    lanes' partials in a fixed order (the sums do not depend on the thread schedule); then one thread
//    Shepard-normalises and averages a probe's points (a sensor disc), the block finds a gauge line's
//    surface (a tree over its threads), or one thread adds a load's partial sums (PartLoads and PartSums
//    below, launched before it by the solver); the column values go into one row of the sample ring
//    (probes/probe_sampler.h). Only whole batches of rows go back to the host.
#include "core/hd.h"
#include "core/types.h"
#include "core/vec.h"
#include "exec/block_exec.h"
#include "neighbors/cell_grid.h"
#include "physics/kernels.h"
#include "render_data/fill_render_data.h"

#include <cstdint>

namespace ejecta {

// Device copy of a ProbeInstrument (plain values).
struct ProbeInstrumentDev {
  uint32_t first_point, num_points;
  uint32_t first_channel, num_channels;
  uint32_t first_column;
  uint32_t gauge;  // 1: a gauge line
  uint32_t walls;  // 1: a probe averaging over wall particles (probe.N.source = walls)
  uint32_t load;   // 1: a load ([force.N]), its force from the partial sums of its shares (physics/fluid_wall_load.h)
  uint32_t load_index;  // its place among the loads
  double start, step;
  double area;          // a load read as a pressure sensor's (> 0): its face's area and unit normal
  double normal[3];
};

// Channel accumulators per point (a probe's values; kMaxProbeChannels in probes/probe_layout.h).
constexpr int kProbeChannelSlots = 16;
// Threads per (sample point, cell row) in SampleProbeRows (ProbeRing::set_lanes changes it; 1 is the
// walk of one thread per row). Two since 2026-12-06: with the reduction in one block an instrument, 4
// lanes' longer walks-in-parallel cost more in the reduction (twice the partials a point) than they saved
// (H100, SPHERIC 2 at dp = 0.01: the two kernels 19.2 us a sample against 22.0; docs/benchmarks.md).
constexpr int kProbeLanes = 2;

// The rows along x of the cells around a point: CellGrid::rows() of them, at most kCellRows
// ((2 reach + 1)^(D-1)). for_each_candidate_in_row calls f(j) for every candidate of row r alone,
// through the grid's own row walk, which knows the bucket order (neighbors/bucket_order.h); together
// the rows visit the candidates of CellGrid::for_each_candidate, in its order.
template <int D>
constexpr int kCellRows = CellGrid<double, D>::kMaxRows;

template <class T, int D, class F>
EJ_INLINE void for_each_candidate_in_row(const CellGrid<T, D>& g, const Vec<T, D>& x, int r, F&& f) {
  g.for_each_candidate_in_row(x, r, f);
}

// Partial sums of one lane of one row of cells around one sample point. Item i = (lane * rows + row) *
// points + point (rows = grid.rows(), points = num_points): the point is the fastest index, so a
// warp's threads take neighbouring points (a gauge line's, dp / 4 apart, walk the same cells) and write
// neighbouring words; lane l of `lanes` visits the row's candidates l, l + lanes, ... in the grid's
// order. The point's partial r = row * lanes + lane holds `stride` values, value v at partial[(r * stride +
// v) * points + point] (point fastest, so that ReduceProbeInstruments' threads, a point each, read
// neighbouring words): [0] the kernel sum over fluid and walls (the colour of the gauges), [1] the kernel
// sum over the source (the fluid, or the walls for a probe with source = walls), [2 + c] the sum of
// channel c weighted by the source's kernel (channels of the point's instrument only). Until 2026-12-06
// a point's partials were adjacent (the point the slowest index): each thread of the reduction then read
// its own cache line at every load, 32 lines a warp's load, about 29 us a sample on the H100.
template <class T, int D>
struct SampleProbeRows {
  SmoothingKernel<T, D> kernel;
  CellGrid<T, D> grid;
  const Vec<T, D>* x;  // particles, sorted order
  const T* m;
  const T* rho;  // density at the force evaluation (walls: extrapolated)
  const uint8_t* kind;
  const Vec<T, D>* points;
  const uint32_t* owner;
  const ProbeInstrumentDev* inst;
  const ColourSource* channels;  // component = the component to read
  T* partial;
  int stride;
  std::size_t num_points;  // sample points (of all instruments)
  uint32_t lanes;        // threads per row (kProbeLanes)

  EJ_INLINE void operator()(std::size_t i) const {
    const std::size_t rows = std::size_t(grid.rows()), np = num_points;
    const std::size_t p = i % np, lr = i / np;  // lr = lane * rows + row
    const std::size_t row = lr % rows;
    const uint32_t lane = uint32_t(lr / rows);
    const ProbeInstrumentDev in = inst[owner[p]];
    const Vec<T, D> xp = points[p];
    T acc[kProbeChannelSlots];
    for (int c = 0; c < kProbeChannelSlots; ++c) acc[c] = T(0);
    T all = T(0), fluid = T(0);
    const T r2max = kernel.support() * kernel.support();
    const uint8_t source = in.walls ? uint8_t(kWall) : uint8_t(kFluid);
    // The first channel's source is loaded once (a probe has one channel unless told otherwise).
    const ColourSource first = in.num_channels > 0 ? channels[in.first_channel] : ColourSource{};
    uint32_t n = 0;  // the candidate's position in the row, modulo lanes
    for_each_candidate_in_row(grid, xp, int(row), [&](uint32_t j) {
      const bool mine = n == lane;
      n = n + 1 == lanes ? 0u : n + 1;
      if (!mine) return;
      // All of j's loads issued together: one latency, not three in a row.
      const Vec<T, D> xj = x[j];
      const T mj = m[j], rhoj = rho[j];
      const uint8_t kj = kind[j];
      const T r2 = norm2(xp - xj);
      if (!(r2 < r2max)) return;
      const T w = kernel.W(sqrt(r2)) * mj / rhoj;
      all += w;
      if (kj != source) return;
      fluid += w;
      for (uint32_t c = 0; c < in.num_channels; ++c) {
        const ColourSource& s = c == 0 ? first : channels[in.first_channel + c];
        acc[c] += w * T(s.raw(std::size_t(j) * std::size_t(s.components) + std::size_t(s.component)));
      }
    });
    const std::size_t r = row * std::size_t(lanes) + lane;  // the point's partial
    T* out = partial + r * std::size_t(stride) * np + p;  // value v at out[v * np]
    out[0] = all;
    out[np] = fluid;
    for (uint32_t c = 0; c < in.num_channels; ++c) out[(2 + c) * np] = acc[c];
  }
};

// p[0] + p[stride] + ... (n values) in a fixed order, with eight running sums, value r into sum r % 8
// (the values past the last whole round of eight into sum 0, in order), added pairwise at the end: eight
// independent chains instead of one, and the same result on every backend. The values are loaded
// kSumBlock at a time before any is added (EJ_UNROLL, so all of a block's loads are in flight together:
// one latency a block; a point's 50 partials in 3D with half cells and 2 lanes take two, where the
// rolled loop took one a round of eight and one a value of the remainder, eight).
constexpr int kSumBlock = 32;
template <class R, class U>
EJ_INLINE R fixed_order_sum(const U* p, std::size_t n, std::size_t stride) {
  constexpr int kChains = 8;
  static_assert(kSumBlock % kChains == 0, "a block is whole rounds of the chains");
  R s[kChains];
  for (int q = 0; q < kChains; ++q) s[q] = R(0);
  const std::size_t whole = n - n % kChains;  // values in whole rounds
  for (std::size_t base = 0; base < n; base += kSumBlock) {
    U v[kSumBlock];
    EJ_UNROLL
    for (int q = 0; q < kSumBlock; ++q) v[q] = base + q < n ? p[(base + std::size_t(q)) * stride] : U(0);
    EJ_UNROLL
    for (int q = 0; q < kSumBlock; ++q) {
      const std::size_t r = base + std::size_t(q);
      if (r < whole) s[q % kChains] += v[q];
      else if (r < n) s[0] += v[q];
    }
  }
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// The loads (physics/fluid_wall_load.h): the n particles' shares of a load added in double (so that a
// load of a million particles keeps its digits) in a fixed order, in two levels of partial sums, so that
// the result does not depend on the thread schedule and is the same on every backend. Level one
// (PartLoads): part k sums the shares k, k + kLoadParts, k + 2 kLoadParts, ... (neighbouring threads read
// neighbouring shares); level two (PartSums): part q sums level one's parts q, q + kLoadParts2, ...; the
// instrument (ReduceProbeInstruments) adds the kLoadParts2 parts in order. Each level's parts lie
// component by component (sum[d * parts + k]). Until 2026-12-06 one thread a chunk of 256 consecutive
// shares, and one thread adding all the chunks: 0.44 ms a sample at 1M particles on the H100, a quarter
// of SPHERIC 2's step with the probes sampled every step (docs/benchmarks.md).
constexpr std::size_t kLoadParts = 4096, kLoadParts2 = 64;
template <class T, int D>
struct PartLoads {
  const Vec<T, D>* share;
  std::size_t n;
  double* sum;  // D x kLoadParts
  EJ_INLINE void operator()(std::size_t k) const {
    double s[D];
    for (int d = 0; d < D; ++d) s[d] = 0;
    for (std::size_t i = k; i < n; i += kLoadParts)
      for (int d = 0; d < D; ++d) s[d] += double(share[i][d]);
    for (int d = 0; d < D; ++d) sum[std::size_t(d) * kLoadParts + k] = s[d];
  }
};
struct PartSums {
  const double* in;  // D x kLoadParts (PartLoads)
  double* out;       // D x kLoadParts2
  int dim;
  EJ_INLINE void operator()(std::size_t q) const {
    for (int d = 0; d < dim; ++d) {
      const double* c = in + std::size_t(d) * kLoadParts;
      double s = 0;
      for (std::size_t k = q; k < kLoadParts; k += kLoadParts2) s += c[k];
      out[std::size_t(d) * kLoadParts2 + q] = s;
    }
  }
};

// One instrument's columns, into this sample's row of the ring: one block of kBlockThreads threads an
// instrument (for_each_block, exec/block_exec.h), a thread a sample point, kBlockThreads points at a
// time. Each thread adds its point's rows' and lanes' partials (SampleProbeRows' output, `parts` = rows x
// lanes of them) in a fixed order (fixed_order_sum: the sums do not depend on the thread schedule) into the
// block's shared buffer; then:
//  - a probe (one thread): the Shepard average of each channel, sum_f q_j V_j W / sum_f V_j W (0 where the source's
//    kernel sum is below dry_sum), averaged over the points (a sensor disc) in point order;
//  - a gauge: the first point going up with colour (the kernel sum over fluid and walls) below the level
//    (the least index of the points below it, by a tree over the block's threads), interpolated with the
//    point below it by one thread; wet to the top of the line when there is none;
//  - a load (one thread): the last kLoadParts2 partial sums of its shares (PartSums) in order.
// Until 2026-12-06 this was two launches (a thread a point adding its partials into an array of values,
// then a thread an instrument walking the gauge's points one at a time): 15 + 21 us a sample on the H100.
template <class T>
struct ReduceProbeInstruments {
  const ProbeInstrumentDev* inst;
  const T* partial;  // SampleProbeRows' output
  int stride;        // values a partial
  int parts;         // partials a point
  std::size_t points;  // sample points (of all instruments)
  T level;           // gauge surface level of the colour
  T dry_sum;         // below this source kernel sum a point is dry and reads 0
  double* columns;   // this sample's row of the ring
  const double* loads;  // the loads' last partial sums (PartSums): dim x kLoadParts2 per load
  int dim;
  bool with_loads;   // false: the loads were not computed for this sample (none due): their columns are
                     // left as they were, and the observer reads them as not sampled

  // The block's shared buffer: a flag, then kBlockThreads indices (a gauge's search), then kBlockThreads
  // points' values (a probe: its channels' averages).
  static constexpr std::size_t kIndex = 4, kFirst = kIndex + std::size_t(kBlockThreads);  // kFirst: 16-byte aligned
  static std::size_t words(int channels) {
    return kFirst + std::size_t(kBlockThreads) * std::size_t(channels > 1 ? channels : 1) * ((sizeof(T) + 3) / 4);
  }

  // Partial sum v of point p (v = 0: the colour; 1: the source's kernel sum; 2 + c: channel c's weighted
  // sum), its partials r = 0 .. parts - 1 in order (SampleProbeRows' layout: value v of partial r at
  // (r * stride + v) * points + p).
  EJ_INLINE T point_sum(std::size_t p, int v) const {
    return fixed_order_sum<T>(partial + std::size_t(v) * points + p, std::size_t(parts), std::size_t(stride) * points);
  }

  template <class B>
  EJ_INLINE void operator()(const B& b, std::size_t k) const {
    const ProbeInstrumentDev in = inst[k];
    if (in.load) {
      if (with_loads) b.single([&] { load_columns(in); });
      return;
    }
    uint32_t* done = b.shared();
    uint32_t* index = b.shared() + kIndex;
    T* buf = reinterpret_cast<T*>(b.shared() + kFirst);
    constexpr uint32_t kChunk = uint32_t(kBlockThreads);
    if (in.gauge) {
      double z = in.start + double(in.num_points - 1) * in.step;  // thread 0's: wet to the top
      double below = 0;  // thread 0's: the colour of the last point at or above the level
      for (uint32_t base = 0; base < in.num_points; base += kChunk) {
        const uint32_t m = in.num_points - base < kChunk ? in.num_points - base : kChunk;
        // The chunk's colours, and per point its own index where its colour is below the level (kChunk
        // where not); then the first such point as the least index, a tree of kChunk / 2, ..., 1 threads.
        b.each([&](int t) {
          const uint32_t p = base + uint32_t(t);
          const T c = p < in.num_points ? point_sum(in.first_point + p, 0) : level;
          buf[t] = c;
          index[t] = c < level ? uint32_t(t) : kChunk;
        });
        b.sync();
        for (uint32_t half = kChunk / 2; half > 0; half /= 2) {
          b.each([&](int t) {
            if (uint32_t(t) < half && index[t + half] < index[t]) index[t] = index[t + half];
          });
          b.sync();
        }
        b.single([&] {
          const uint32_t first = index[0];
          done[0] = first < kChunk ? 1u : 0u;
          if (first < kChunk) {
            if (first > 0) below = double(buf[first - 1]);
            const uint32_t p = base + first;
            z = p == 0 ? in.start
                       : in.start + in.step * (double(p - 1) + (below - double(level)) / (below - double(buf[first])));
          } else {
            below = double(buf[m - 1]);
          }
        });
        b.sync();
        if (done[0]) break;  // block-uniform: every thread reads the flag after the sync
      }
      b.single([&] { columns[in.first_column] = z; });
      return;
    }
    const uint32_t nc = in.num_channels;
    double acc[kProbeChannelSlots];  // thread 0's
    for (int c = 0; c < kProbeChannelSlots; ++c) acc[c] = 0;
    for (uint32_t base = 0; base < in.num_points; base += kChunk) {
      b.each([&](int t) {
        const uint32_t p = base + uint32_t(t);
        if (p >= in.num_points) return;
        const T fluid = point_sum(in.first_point + p, 1);
        for (uint32_t c = 0; c < nc; ++c) {
          const T s = point_sum(in.first_point + p, 2 + int(c));
          buf[std::size_t(t) * nc + c] = fluid >= dry_sum ? s / fluid : T(0);
        }
      });
      b.sync();
      b.single([&] {
        const uint32_t m = in.num_points - base < kChunk ? in.num_points - base : kChunk;
        for (uint32_t q = 0; q < m; ++q)
          for (uint32_t c = 0; c < nc; ++c) acc[c] += double(buf[std::size_t(q) * nc + c]);
      });
      b.sync();
    }
    b.single([&] {
      for (uint32_t c = 0; c < nc; ++c) columns[in.first_column + c] = acc[c] / double(in.num_points);
    });
  }

  EJ_INLINE void load_columns(const ProbeInstrumentDev& in) const {
    const double* c = loads + std::size_t(in.load_index) * kLoadParts2 * std::size_t(dim);
    for (int d = 0; d < dim; ++d) {  // the last 64 parts in order (a short, fixed sum)
      double f = 0;
      for (std::size_t q = 0; q < kLoadParts2; ++q) f += c[std::size_t(d) * kLoadParts2 + q];
      columns[in.first_column + d] = f;
    }
    // The mean normal stress on the sensor's face: the walls receive F, the fluid presses along -n.
    if (in.area > 0) {
      double fn = 0;
      for (int d = 0; d < dim; ++d) fn += columns[in.first_column + d] * in.normal[d];
      columns[in.first_column + dim] = -fn / in.area;
    }
  }
};

}  // namespace ejecta
