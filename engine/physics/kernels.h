#pragma once
// SPH smoothing kernels with support radius 2h, normalised in 1, 2 and 3 dimensions.
//  - Cubic spline: Monaghan & Lattanzio (1985), A&A 149, 135, eq. (21); sigma = 2/3, 10/(7 pi), 1/pi.
//  - Wendland C2: Wendland (1995), Adv. Comput. Math. 4, 389; in the (1 - q/2) form with support 2h
//    (Dehnen & Aly 2012, MNRAS 425, 1068, table 1): 1D (1-q/2)^3 (1.5q+1) 5/(8h),
//    2D/3D (1-q/2)^4 (2q+1) with 7/(4 pi h^2) and 21/(16 pi h^3).
// The kernel choice is a run-time value (scene key particles.kernel); the branch is uniform over all
// particles, so it costs nothing measurable on either backend.
#include "core/hd.h"

namespace ejecta {

enum class KernelType : int { CubicSpline = 0, WendlandC2 = 1 };

template <class T, int D>
struct SmoothingKernel {
  KernelType type;
  T h, inv_h;
  T norm;  // sigma / h^D

  static SmoothingKernel make(KernelType type, double h) {
    const double pi = 3.14159265358979323846;
    double sigma = 0;
    if (type == KernelType::CubicSpline)
      sigma = D == 1 ? 2.0 / 3.0 : D == 2 ? 10.0 / (7.0 * pi) : 1.0 / pi;
    else
      sigma = D == 1 ? 5.0 / 8.0 : D == 2 ? 7.0 / (4.0 * pi) : 21.0 / (16.0 * pi);
    double hd = 1;
    for (int d = 0; d < D; ++d) hd *= h;
    return SmoothingKernel{type, T(h), T(1.0 / h), T(sigma / hd)};
  }

  EJ_INLINE T support() const { return T(2) * h; }

  EJ_INLINE T W(T r) const {
    const T q = r * inv_h;
    if (q >= T(2)) return T(0);
    if (type == KernelType::CubicSpline) {
      if (q < T(1)) return norm * (T(1) - T(1.5) * q * q + T(0.75) * q * q * q);
      const T s = T(2) - q;
      return norm * T(0.25) * s * s * s;
    }
    const T s = T(1) - T(0.5) * q;
    if (D == 1) return norm * s * s * s * (T(1.5) * q + T(1));
    return norm * s * s * s * s * (T(2) * q + T(1));
  }

  // F(r) = (dW/dr) / r, so that grad_i W_ij = (x_i - x_j) F(r_ij). F <= 0. Finite at r = 0 for
  // Wendland; the cubic spline's inner branch is regular too (-3/h^2 at r = 0).
  EJ_INLINE T F(T r) const {
    const T q = r * inv_h;
    if (q >= T(2)) return T(0);
    const T c = norm * inv_h * inv_h;
    if (type == KernelType::CubicSpline) {
      if (q < T(1)) return c * (T(-3) + T(2.25) * q);
      const T s = T(2) - q;
      return c * T(-0.75) * s * s / q;
    }
    return wendland_F(c, T(1) - T(0.5) * q);
  }

  // F of the Wendland C2 kernel (type must be it) without F's branches, for the force pass specialised
  // for the default options (forces_wcsph.h): the type known at compile time, and s = 1 - q/2 clamped
  // at 0 in place of the test q >= 2 (a pair at q >= 2 then gets -0, which adds nothing, where F gives
  // +0). The same arithmetic as F for q < 2, so the same value bit for bit.
  EJ_INLINE T F_wendland(T r) const {
    const T s = T(1) - T(0.5) * (r * inv_h);
    return wendland_F(norm * inv_h * inv_h, s < T(0) ? T(0) : s);
  }

 private:
  // The Wendland C2 F from c = norm / h^2 and s = 1 - q/2 (the one formula of F and F_wendland).
  EJ_INLINE static T wendland_F(T c, T s) {
    if (D == 1) return c * T(-3) * s * s;
    return c * T(-5) * s * s * s;
  }
};

}  // namespace ejecta
