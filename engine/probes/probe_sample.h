#pragma once
// The probe and gauge functors, written once for both backends (definitions in probes/probe_layout.h).
// Three launches per sample, each for every instrument together, all queued on the step's stream:
//  - SampleProbeRows runs per (lane, sample point, cell row): the 3^D cells around a point are 3^(D-1)
//    rows along x (for_each_candidate_in_row below), and kProbeLanes threads share one row, lane l
//    taking the row's candidates l, l + kProbeLanes, ... So a point's ~500 candidates (3D, h = 1.3 dp)
//    are spread over 9 x 4 threads of ~14 candidates each instead of 9 of ~55: the walk is a chain of
//    dependent loads (position, then mass, density and kind, then the channel), latency-bound with a
//    few thousand points, and its length is what a sample costs. The lanes are the slowest index, so
//    the threads of a warp share a lane and take or skip a candidate together. The partial kernel
//    sums go to scratch; no scan over all particles.
//  - CombineProbeRows runs per point: it adds the rows' and lanes' partials in a fixed order (the sums
//    do not depend on the thread schedule) and Shepard-normalises.
//  - ReduceProbeInstruments runs per instrument: it averages a sensor disc, walks a gauge line or adds a
//    load's partial sums (PartLoads and PartSums below, launched before it by the solver) and writes the
//    column values into one row of the sample ring (probes/probe_sampler.h). Only whole batches of rows
//    go back to the host.
#include "core/hd.h"
#include "core/types.h"
#include "core/vec.h"
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
// Gauge points whose colours one ReduceProbeInstruments thread loads at once while walking up a
// line: independent loads in flight instead of one dependent load per dp/4.
constexpr int kGaugeChunk = 64;
// Threads per (sample point, cell row) in SampleProbeRows (ProbeRing::set_lanes changes it; 1 is the
// walk of one thread per row).
constexpr int kProbeLanes = 4;

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

// Partial sums of one lane of one row of cells around one sample point. Item i = lane * num_rows +
// point * rows + row (rows = grid.rows(), num_rows = points x rows); lane l of `lanes` visits the row's
// candidates l, l + lanes, ... in the grid's order. Per item, `stride` values at partial[((point * rows + row) *
// lanes + lane) * stride]: [0] the kernel sum over fluid and walls (the colour of the gauges), [1] the kernel
// sum over the source (the fluid, or the walls for a probe with source = walls), [2 + c] the sum of
// channel c weighted by the source's kernel (channels of the point's instrument only).
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
  std::size_t num_rows;  // sample points x grid.rows()
  uint32_t lanes;        // threads per row (kProbeLanes)

  EJ_INLINE void operator()(std::size_t i) const {
    const uint32_t lane = uint32_t(i / num_rows);
    const std::size_t k = i % num_rows;  // point * rows + row
    const std::size_t rows = std::size_t(grid.rows());
    const std::size_t p = k / rows;
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
    for_each_candidate_in_row(grid, xp, int(k % rows), [&](uint32_t j) {
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
    T* out = partial + (k * std::size_t(lanes) + lane) * std::size_t(stride);
    out[0] = all;
    out[1] = fluid;
    for (uint32_t c = 0; c < in.num_channels; ++c) out[2 + c] = acc[c];
  }
};

// p[0] + p[stride] + ... (n values) in a fixed order, with eight running sums, value r into sum r % 8,
// added pairwise at the end: eight independent chains of loads instead of one (the 100 partials of a probe
// point in 3D with half cells and 4 lanes: 13 rounds of loads, where four sums took 25), and the same
// result on every backend.
template <class R, class U>
EJ_INLINE R fixed_order_sum(const U* p, std::size_t n, std::size_t stride) {
  constexpr int kChains = 8;
  R s[kChains];
  for (int q = 0; q < kChains; ++q) s[q] = R(0);
  std::size_t r = 0;
  for (; r + kChains <= n; r += kChains)
    for (int q = 0; q < kChains; ++q) s[q] += p[(r + std::size_t(q)) * stride];
  for (; r < n; ++r) s[0] += p[r * stride];
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// One sample point from its rows' and lanes' partials (`parts` = rows x lanes of them), added in a
// fixed order (so the sums do not depend on the backend's thread schedule). Per point, `stride`
// values: [0] the colour (kernel sum over fluid and walls), [1] the source's kernel sum, [2 + c] the
// Shepard average of channel c (0 where dry).
template <class T>
struct CombineProbeRows {
  const ProbeInstrumentDev* inst;
  const uint32_t* owner;
  const T* partial;  // SampleProbeRows' output
  T* values;
  int stride;
  int parts;  // partials per point
  T dry_sum;  // below this fluid kernel sum a point is dry and reads 0

  EJ_INLINE void operator()(std::size_t p) const {
    const uint32_t n = 2 + inst[owner[p]].num_channels;
    const T* in = partial + p * std::size_t(parts) * std::size_t(stride);
    T* out = values + p * std::size_t(stride);
    for (uint32_t v = 0; v < n; ++v) out[v] = fixed_order_sum<T>(in + v, std::size_t(parts), std::size_t(stride));
    const T fluid = out[1];
    const bool wet = fluid >= dry_sum;
    for (uint32_t v = 2; v < n; ++v) out[v] = wet ? out[v] / fluid : T(0);
  }
};

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

// One instrument's columns, into this sample's row of the ring.
template <class T>
struct ReduceProbeInstruments {
  const ProbeInstrumentDev* inst;
  const T* values;  // CombineProbeRows' output
  int stride;
  T level;          // gauge surface level of the colour
  double* columns;  // this sample's row of the ring
  const double* loads;   // the loads' last partial sums (PartSums): dim x kLoadParts2 per load
  int dim;
  bool with_loads;       // false: the loads were not computed for this sample (none due): their columns are
                         // left as they were, and the observer reads them as not sampled

  EJ_INLINE void operator()(std::size_t k) const {
    const ProbeInstrumentDev in = inst[k];
    if (in.load) {
      if (!with_loads) return;
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
      return;
    }
    if (in.gauge) {
      // First point going up with colour below the level, interpolated with the point below it;
      // wet to the top of the line when there is none. The colours are loaded kGaugeChunk at a time.
      double z = in.start + double(in.num_points - 1) * in.step;
      double below = 0;
      for (uint32_t base = 0; base < in.num_points; base += kGaugeChunk) {
        T c[kGaugeChunk];
        for (int q = 0; q < kGaugeChunk; ++q)
          c[q] = base + q < in.num_points ? values[std::size_t(in.first_point + base + q) * std::size_t(stride)] : T(0);
        bool found = false;
        for (int q = 0; q < kGaugeChunk && base + q < in.num_points; ++q) {
          const uint32_t p = base + q;
          const double cq = double(c[q]);
          if (cq >= double(level)) {
            below = cq;
            continue;
          }
          z = p == 0 ? in.start : in.start + in.step * (double(p - 1) + (below - double(level)) / (below - cq));
          found = true;
          break;
        }
        if (found) break;
      }
      columns[in.first_column] = z;
      return;
    }
    for (uint32_t c = 0; c < in.num_channels; ++c) {
      double s = 0;
      for (uint32_t p = 0; p < in.num_points; ++p)
        s += double(values[std::size_t(in.first_point + p) * std::size_t(stride) + 2 + c]);
      columns[in.first_column + c] = s / double(in.num_points);
    }
  }
};

}  // namespace ejecta
