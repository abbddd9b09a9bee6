#pragma once
// Softened Newtonian gravity between two particles: the cubic-spline (M4) kernel softening of
// Hernquist & Katz 1989 (ApJS 70, 419, eqs. A1-A2), the mass distribution of the SPH cubic spline
// with smoothing length eps (support 2 eps), as in Price & Monaghan 2007 (MNRAS 374, 1347, eqs. 8-11
// for fixed h; their grad-h correction terms are not included). Beyond 2 eps the law is exactly
// Newtonian. Not Plummer softening: a Plummer law never becomes Newtonian and biases every
// interaction. Units: the caller multiplies by G and by the source mass.
#include "core/hd.h"

namespace ejecta {

// r = sqrt(x) and inv = 1 / r for x >= 0 (x = 0: r = 0, inv = inf). On a GPU both come from one
// reciprocal square root (rsqrtf / rsqrt: one special-function instruction; 2 ulp in float, 1 ulp in
// double) instead of the IEEE-rounded sqrt and division nvcc emits without fast math (sqrt.rn and
// rcp.rn, a Newton step and a slow path each: they were most of the cost of an interaction in the
// walks' PTX). On the CPU the IEEE sqrt and division, as before.
template <class T>
EJ_INLINE void sqrt_and_inverse(T x, T& r, T& inv) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == sizeof(float))
    inv = rsqrtf(x);
  else
    inv = rsqrt(x);
  r = x > T(0) ? x * inv : T(0);
#else
  r = sqrt(x);
  inv = T(1) / r;
#endif
}

// The spline's inner part (r < 2 eps) from r, 1/r and 1/eps: eqs. A1-A2 of Hernquist & Katz 1989.
template <class T>
EJ_INLINE void spline_softened_inner(T r, T inv, T ie, T& g, T& f) {
  const T u = r * ie;
  const T u2 = u * u, u3 = u2 * u;
  if (u < T(1)) {
    // g = (1/eps^3)(4/3 - 6/5 u^2 + 1/2 u^3); f = (1/eps)(7/5 - 2/3 u^2 + 3/10 u^4 - 1/10 u^5)
    g = ie * ie * ie * (T(4) / T(3) - T(6) / T(5) * u2 + T(0.5) * u3);
    f = ie * (T(7) / T(5) - T(2) / T(3) * u2 + T(3) / T(10) * u2 * u2 - T(1) / T(10) * u2 * u3);
    return;
  }
  // 1 <= u < 2: g = (1/r^3)(-1/15 + 8/3 u^3 - 3 u^4 + 6/5 u^5 - 1/6 u^6)
  //             f = -1/(15 r) + (1/eps)(8/5 - 4/3 u^2 + u^3 - 3/10 u^4 + 1/30 u^5)
  g = inv * inv * inv *
      (T(-1) / T(15) + T(8) / T(3) * u3 - T(3) * u2 * u2 + T(6) / T(5) * u2 * u3 - T(1) / T(6) * u3 * u3);
  f = T(-1) / T(15) * inv +
      ie * (T(8) / T(5) - T(4) / T(3) * u2 + u3 - T(3) / T(10) * u2 * u2 + T(1) / T(30) * u2 * u3);
}

// The force factor g and the potential factor f of one pair at distance r (r2 = r^2) with softening
// length eps > 0: the acceleration of i from j is -G m_j g(r) (x_i - x_j) and the potential at i is
// -G m_j f(r). For r >= 2 eps, g = 1/r^3 and f = 1/r.
template <class T>
EJ_INLINE void spline_softened(T r2, T eps, T& g, T& f) {
  T r, inv;
  sqrt_and_inverse(r2, r, inv);
  if (r >= T(2) * eps) {
    f = inv;
    g = inv * inv * inv;
    return;
  }
  spline_softened_inner(r, inv, T(1) / eps, g, f);
}

// The same with ie = 1 / eps given (the staged warp walk divides once per source, not per pair):
// the same values, since 1 / max(a, b) = min(1 / a, 1 / b) in IEEE arithmetic.
template <class T>
EJ_INLINE void spline_softened_inv(T r2, T eps, T ie, T& g, T& f) {
  T r, inv;
  sqrt_and_inverse(r2, r, inv);
  if (r >= T(2) * eps) {
    f = inv;
    g = inv * inv * inv;
    return;
  }
  spline_softened_inner(r, inv, ie, g, f);
}

}  // namespace ejecta
