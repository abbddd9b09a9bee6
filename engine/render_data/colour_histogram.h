#pragma once
// The legend's histogram (issue 13), measured where the particles are: one pass over the colour
// values of the particles with one functor for both backends (Exec::count_bins: per-thread counts on the
// CPU, a block's counts in shared memory on CUDA), so that only the kColourHistogramBins counts come back to
// the host, not the field (at 10^6 particles a host copy of the field cost ~20 ms, docs/benchmarks.md).
// Counts are integers: the same on both backends and for any thread count.
#include "render_data/fill_render_data.h"

#include <cstdint>

namespace ejecta {

constexpr int kColourHistogramBins = 32;

// The bin of value v among `bins` equal bins over [lo, hi]: values outside go to the end bins (as
// their colour does), a degenerate range (hi <= lo) puts every value in the middle bin, and a
// non-finite value (a blowing-up run) in none (-1). The viewer's host histogram of recorded frames
// (app/viewer/legend_scale.h) uses the same function.
EJ_INLINE int colour_bin(float v, float lo, float hi, int bins) {
  if (!isfinite(v)) return -1;
  const float span = hi - lo;
  if (!(span > 0.0f)) return bins / 2;
  const float t = (v - lo) / span * float(bins);
  if (!(t > 0.0f)) return 0;  // below lo (and -0)
  if (!(t < float(bins))) return bins - 1;
  const int b = int(floor(t));
  return b < bins - 1 ? b : bins - 1;
}

// Particle i's bin (-1, none, for walls when fluid_only or for a non-finite value): Exec::count_bins
// counts them (per-thread counts on the CPU, a block's counts in shared memory on CUDA).
struct BinOfColourValue {
  const uint8_t* kind;
  ColourSource colour;
  bool fluid_only;
  float lo, hi;
  EJ_INLINE int operator()(std::size_t i) const {
    if (fluid_only && kind[i] != kFluid) return -1;
    return colour_bin(colour.value(i), lo, hi, kColourHistogramBins);
  }
};

}  // namespace ejecta
