#pragma once
// A solver's state seen by the generic integrators (staged_integrators.h): a list of variables, each
// a flat array of scalars (a Vec<T, D> field is D scalars per particle) with the array its rate is
// read from after an evaluation. A position's rate is the velocity state itself. The stage buffers
// (y0, k1..k3) are particle fields of the solver's store, so the per-evaluation sort carries them
// along with the particles. Written for the gas now and the solids (stress, damage) later: a new
// state variable is one more OdeVar.
#include "core/hd.h"

#include <cstddef>

namespace ejecta {

template <class T>
struct OdeVar {
  T* y = nullptr;           // the state
  const T* rate = nullptr;  // dy/dt after the last evaluation
  std::size_t count = 0;    // scalars (particles x components)
  bool position = false;    // drifted by leapfrog with the half-kicked velocity (var `drift_from`)
  int drift_from = -1;
  T* y0 = nullptr;          // stage buffers, those the scheme needs (others stay nullptr)
  T* k1 = nullptr;
  T* k2 = nullptr;
  T* k3 = nullptr;
};

// y = base + c1 k1 + c2 k2 + c3 k3 (null k with c = 0 skipped), element-wise.
template <class T>
struct StageCombine {
  T* y;
  const T* base;
  const T* k1;
  const T* k2;
  const T* k3;
  T c1, c2, c3;
  EJ_INLINE void operator()(std::size_t i) const {
    T s = base[i];
    if (k1) s += c1 * k1[i];
    if (k2) s += c2 * k2[i];
    if (k3) s += c3 * k3[i];
    y[i] = s;
  }
};

template <class T>
struct CopyFlat {
  T* dst;
  const T* src;
  EJ_INLINE void operator()(std::size_t i) const { dst[i] = src[i]; }
};

// Bogacki & Shampine (1989), Appl. Math. Lett. 2, 321: the difference of the third-order solution
// and the embedded second-order one, dt (-5/72 k1 + 1/12 k2 + 1/9 k3 - 1/8 k4), scaled by
// atol + rtol max(|y0|, |y|); the reduction takes the largest (the max norm).
template <class T>
struct Rk23ErrorRatio {
  const T* y0;
  const T* y;
  const T* k1;
  const T* k2;
  const T* k3;
  const T* k4;
  double dt, rtol, atol;
  EJ_INLINE double operator()(std::size_t i) const {
    const double e = dt * (-5.0 / 72.0 * double(k1[i]) + 1.0 / 12.0 * double(k2[i]) +
                           1.0 / 9.0 * double(k3[i]) - 1.0 / 8.0 * double(k4[i]));
    const double a = double(y0[i]) < 0 ? -double(y0[i]) : double(y0[i]);
    const double b = double(y[i]) < 0 ? -double(y[i]) : double(y[i]);
    const double sc = atol + rtol * (a > b ? a : b);
    const double r = (e < 0 ? -e : e) / sc;
    return r == r ? r : 1e300;  // NaN: reject
  }
};
struct MaxDouble {
  EJ_INLINE double operator()(double a, double b) const { return a > b ? a : b; }
};

}  // namespace ejecta
