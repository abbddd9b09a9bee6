#pragma once
// Yield strength models and the plastic return of the deviatoric stress.
//
// von Mises (Libersky & Petschek 1991, in "Advances in the Free-Lagrange Method", Springer LNP 395,
// p. 248; Benz & Asphaug 1994, Icarus 107, 98, sec. 2.3; Gray, Monaghan & Swift 2001, CMAME 190,
// 6641): a trial deviatoric stress S with J2 = 1/2 S:S beyond the yield surface sqrt(3 J2) = Y is
// brought back radially. The literature writes the factor f = min(1, Y^2 / (3 J2)); that is the factor
// on J2 (a quadratic invariant). The deviatoric stress itself is scaled by sqrt(f) = min(1, Y /
// sqrt(3 J2)), which puts it on the surface exactly (sqrt(3 J2') = Y); scaling S by f itself would
// leave it inside, at sqrt(3 J2') = Y^2 / sqrt(3 J2).
//
// Lundborg pressure-dependent strength with a damaged branch (Lundborg 1968, Int. J. Rock Mech. Min.
// Sci. 5, 427; Collins, Melosh & Ivanov 2004, MAPS 39, 217, sec. 3):
//   intact   Y_i = Y0 + mu_i P / (1 + mu_i P / (Y_M - Y0))
//   damaged  Y_d = min(Y_d0 + mu_d P, Y_i)
//   Y = (1 - D) Y_i + D Y_d
// For P < 0 (tension) the Lundborg form has a pole at P = -(Y_M - Y0)/mu_i; here it is replaced by its
// tangent at P = 0, Y_i = max(0, Y0 + mu_i P) (value and slope continuous at P = 0, zero strength from
// P = -Y0/mu_i on), and Y_d = max(0, min(Y_d0 + mu_d P, Y_i)). This tensile choice is ours; tensile
// failure itself is the damage model's (damage_grady_kipp.h).
//
// Melt weakening (Collins, Melosh & Ivanov 2004, after Ohnaka 1995): Y -> Y tanh(xi (T_m/T - 1))
// for T < T_m, 0 at and above T_m; xi is a material constant (1.2 in Collins et al.'s examples).
#include "core/hd.h"
#include "physics/stress_tensor.h"

#include <cmath>

namespace ejecta {

using std::tanh;

// Factor on the deviatoric stress that returns it to a von Mises surface of radius Y (S -> f S).
template <class T>
EJ_INLINE T von_mises_return_factor(T j2, T yield) {
  if (!(yield > T(0))) return T(0);
  const T y2 = yield * yield;
  const T three_j2 = T(3) * j2;
  if (three_j2 <= y2) return T(1);  // inside or on the surface: untouched
  return yield / sqrt(three_j2);
}

// Radial return in place; returns the factor applied (1 when the stress was inside).
template <class T, int D>
EJ_INLINE T von_mises_return(StressTensor<T, D>& s, T yield) {
  const T f = von_mises_return_factor(second_invariant_j2(s), yield);
  if (f < T(1)) scale(s, f);
  return f;
}

template <class T>
struct VonMisesStrength {
  T Y0;
  EJ_INLINE T yield(T /*P*/, T /*D*/) const { return Y0; }
};

template <class T>
struct LundborgStrength {
  T Y0;    // cohesion, intact strength at P = 0 (Pa)
  T mu_i;  // intact internal friction coefficient
  T Y_M;   // limiting strength at high pressure (von Mises plateau, Pa)
  T Y_d0;  // damaged cohesion (Pa)
  T mu_d;  // damaged friction coefficient

  EJ_INLINE T intact(T P) const {
    if (P < T(0)) {
      const T y = Y0 + mu_i * P;
      return y > T(0) ? y : T(0);
    }
    return Y0 + mu_i * P / (T(1) + mu_i * P / (Y_M - Y0));
  }
  EJ_INLINE T damaged(T P) const {
    const T yi = intact(P);
    T y = Y_d0 + mu_d * P;
    if (y > yi) y = yi;
    return y > T(0) ? y : T(0);
  }
  EJ_INLINE T yield(T P, T D) const { return (T(1) - D) * intact(P) + D * damaged(P); }
};

// Factor tanh(xi (T_m/T - 1)) in [0, 1]; 1 for T <= 0 (the limit T -> 0+), 0 for T >= T_m.
template <class T>
EJ_INLINE T melt_weakening_factor(T temperature, T t_melt, T xi) {
  if (!(temperature > T(0))) return T(1);
  if (temperature >= t_melt) return T(0);
  return tanh(xi * (t_melt / temperature - T(1)));
}

}  // namespace ejecta
