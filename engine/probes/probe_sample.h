#pragma once
// The probe and gauge functors, written once for both backends (definitions in probes/probe_layout.h):
// SampleProbePoints runs per sample point over the neighbour grid (the 3^D cells around the point, no
// scan over all particles); ReduceProbeInstruments runs per instrument and writes the column values,
// the only numbers that go back to the host.
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
  double start, step;
};

// Channel accumulators per point (a probe's values; kMaxProbeChannels in probes/probe_layout.h).
constexpr int kProbeChannelSlots = 16;

template <class T, int D>
struct SampleProbePoints {
  SmoothingKernel<T, D> kernel;
  CellGrid<T, D> grid;
  const Vec<T, D>* x;     // particles, sorted order
  const T* m;
  const T* rho;           // density at the force evaluation (walls: extrapolated)
  const uint8_t* kind;
  const Vec<T, D>* points;
  const uint32_t* owner;
  const ProbeInstrumentDev* inst;
  const ColourSource* channels;  // component = the component to read
  // Per point, `stride` values: [0] the kernel sum over fluid and walls (the colour of the gauges),
  // [1] the kernel sum over the fluid, [2 + c] the Shepard average of channel c (0 where dry).
  T* values;
  int stride;
  T dry_sum;

  EJ_INLINE void operator()(std::size_t i) const {
    const ProbeInstrumentDev in = inst[owner[i]];
    T acc[kProbeChannelSlots];
    for (int c = 0; c < kProbeChannelSlots; ++c) acc[c] = T(0);
    T all = T(0), fluid = T(0);
    const T r2max = kernel.support() * kernel.support();
    grid.for_each_neighbor(points[i], x, r2max, [&](uint32_t j, const Vec<T, D>&, T r2) {
      const T w = kernel.W(sqrt(r2)) * m[j] / rho[j];
      all += w;
      if (kind[j] != kFluid) return;
      fluid += w;
      for (uint32_t c = 0; c < in.num_channels; ++c) {
        const ColourSource& s = channels[in.first_channel + c];
        acc[c] += w * T(s.raw(std::size_t(j) * std::size_t(s.components) + std::size_t(s.component)));
      }
    });
    T* out = values + i * std::size_t(stride);
    out[0] = all;
    out[1] = fluid;
    const bool wet = fluid >= dry_sum;
    for (uint32_t c = 0; c < in.num_channels; ++c) out[2 + c] = wet ? acc[c] / fluid : T(0);
  }
};

template <class T>
struct ReduceProbeInstruments {
  const ProbeInstrumentDev* inst;
  const T* values;
  int stride;
  T level;       // gauge surface level of the colour
  double* columns;

  EJ_INLINE void operator()(std::size_t k) const {
    const ProbeInstrumentDev in = inst[k];
    if (in.gauge) {
      // First point going up with colour below the level, interpolated with the point below it.
      double z = in.start + double(in.num_points - 1) * in.step;  // wet to the top of the line
      for (uint32_t p = 0; p < in.num_points; ++p) {
        const double c = double(values[std::size_t(in.first_point + p) * std::size_t(stride)]);
        if (c >= double(level)) continue;
        if (p == 0) {
          z = in.start;
        } else {
          const double below = double(values[std::size_t(in.first_point + p - 1) * std::size_t(stride)]);
          z = in.start + in.step * (double(p - 1) + (below - double(level)) / (below - c));
        }
        break;
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
