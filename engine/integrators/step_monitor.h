#pragma once
// Per-step reduction over every particle: the extremes of the fluid that set the next time step, and
// the first particle whose state is not finite or whose density ran away (blow-up detection, reported
// by the solver with step, time, particle id and field). Particles that do not move (walls, frozen gas
// particles) are checked too: they enter their neighbours' sums, so a NaN there is a blow-up as well.
#include "physics/wcsph_model.h"

#include <cstdint>

namespace ejecta {

enum BadField : uint32_t { kBadNone = 0, kBadPosition, kBadVelocity, kBadDensity, kBadAcceleration };

// The first of position, velocity and acceleration with a component that is not finite, or kBadNone:
// the blow-up check every solver's reduction starts with.
template <class T, int D>
EJ_INLINE bool all_finite(const Vec<T, D>& w) {
  for (int d = 0; d < D; ++d)
    if (!isfinite(w[d])) return false;
  return true;
}

template <class T, int D>
EJ_INLINE uint32_t first_bad_motion_field(const Vec<T, D>& x, const Vec<T, D>& v, const Vec<T, D>& a) {
  if (!all_finite<T, D>(x)) return kBadPosition;
  if (!all_finite<T, D>(v)) return kBadVelocity;
  if (!all_finite<T, D>(a)) return kBadAcceleration;
  return kBadNone;
}

// The same for a particle that does not move (a wall, a frozen gas particle): its acceleration is not
// used, but its position, velocity and density enter its neighbours' sums.
template <class T, int D>
EJ_INLINE uint32_t first_bad_fixed_field(const Vec<T, D>& x, const Vec<T, D>& v, T rho) {
  if (!all_finite<T, D>(x)) return kBadPosition;
  if (!all_finite<T, D>(v)) return kBadVelocity;
  if (!isfinite(rho)) return kBadDensity;
  return kBadNone;
}

// The time-step limits of the staged-integrator solvers (gas, solid) and their first bad particle:
// min h / v_sig (CFL), min h / |a| (force), min u / |du| and rho / |drho| over decaying particles
// (the gas; none for solids), max |v|^2.
template <class T>
struct RateExtremes {
  T min_h_vsig, min_h_a, min_decay, max_v2;
  uint32_t bad_index, bad_field;  // smallest sorted index of a bad particle, 0xffffffff if none
  EJ_INLINE static RateExtremes none() { return RateExtremes{T(1e30), T(1e30), T(1e30), T(0), 0xffffffffu, kBadNone}; }
};

template <class T>
struct CombineRateExtremes {
  EJ_INLINE RateExtremes<T> operator()(const RateExtremes<T>& a, const RateExtremes<T>& b) const {
    RateExtremes<T> r;
    r.min_h_vsig = a.min_h_vsig < b.min_h_vsig ? a.min_h_vsig : b.min_h_vsig;
    r.min_h_a = a.min_h_a < b.min_h_a ? a.min_h_a : b.min_h_a;
    r.min_decay = a.min_decay < b.min_decay ? a.min_decay : b.min_decay;
    r.max_v2 = a.max_v2 > b.max_v2 ? a.max_v2 : b.max_v2;
    const bool take_a = a.bad_index <= b.bad_index;
    r.bad_index = take_a ? a.bad_index : b.bad_index;
    r.bad_field = take_a ? a.bad_field : b.bad_field;
    return r;
  }
};

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
  EJ_INLINE StepExtremes<T> operator()(std::size_t i) const {
    StepExtremes<T> e{T(0), T(0), 0xffffffffu, kBadNone};
    if (pv.kind[i] != kFluid) {  // a wall: only finite, it sets no time-step limit
      const uint32_t bad = first_bad_fixed_field<T, D>(pv.x[i], pv.v[i], pv.rho[i]);
      if (bad != kBadNone) e.bad_index = static_cast<uint32_t>(i), e.bad_field = bad;
      return e;
    }
    uint32_t bad = first_bad_motion_field<T, D>(pv.x[i], pv.v[i], pv.a[i]);
    if (bad == kBadNone && !(pv.rho[i] >= rho_lo && pv.rho[i] <= rho_hi)) bad = kBadDensity;
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
