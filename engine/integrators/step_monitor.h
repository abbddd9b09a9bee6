#pragma once
// Per-step reduction over the fluid: the extremes that set the next time step, and the first particle
// whose state is not finite or whose density ran away (blow-up detection, reported by the solver with
// step, time, particle id and field).
#include "physics/wcsph_model.h"

#include <cstdint>

namespace ejecta {

enum BadField : uint32_t { kBadNone = 0, kBadPosition, kBadVelocity, kBadDensity, kBadAcceleration };

template <class T>
struct StepExtremes {
  T max_v2, max_a2;
  uint32_t bad_index;  // smallest sorted index of a bad particle, 0xffffffff if none
  uint32_t bad_field;
};

template <class T>
struct CombineExtremes {
  EJ_INLINE StepExtremes<T> operator()(const StepExtremes<T>& a, const StepExtremes<T>& b) const {
    StepExtremes<T> r;
    r.max_v2 = a.max_v2 > b.max_v2 ? a.max_v2 : b.max_v2;
    r.max_a2 = a.max_a2 > b.max_a2 ? a.max_a2 : b.max_a2;
    const bool take_a = a.bad_index <= b.bad_index;
    r.bad_index = take_a ? a.bad_index : b.bad_index;
    r.bad_field = take_a ? a.bad_field : b.bad_field;
    return r;
  }
};

template <class T, int D>
struct MeasureExtremes {
  ParticleView<T, D> pv;
  T rho_lo, rho_hi;  // allowed fluid density range
  EJ_INLINE static bool finite_vec(const Vec<T, D>& v) {
    for (int d = 0; d < D; ++d)
      if (!isfinite(v[d])) return false;
    return true;
  }
  EJ_INLINE StepExtremes<T> operator()(std::size_t i) const {
    StepExtremes<T> e{T(0), T(0), 0xffffffffu, kBadNone};
    if (pv.kind[i] != kFluid) return e;
    uint32_t bad = kBadNone;
    if (!finite_vec(pv.x[i])) bad = kBadPosition;
    else if (!finite_vec(pv.v[i])) bad = kBadVelocity;
    else if (!finite_vec(pv.a[i])) bad = kBadAcceleration;
    else if (!(pv.rho[i] >= rho_lo && pv.rho[i] <= rho_hi)) bad = kBadDensity;
    if (bad != kBadNone) {
      e.bad_index = static_cast<uint32_t>(i);
      e.bad_field = bad;
      return e;
    }
    e.max_v2 = norm2(pv.v[i]);
    e.max_a2 = norm2(pv.a[i]);
    return e;
  }
};

}  // namespace ejecta
