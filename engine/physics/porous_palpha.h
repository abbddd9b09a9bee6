#pragma once
// The p-alpha compaction model (Herrmann 1969, J. Appl. Phys. 40, 2490; in SPH: Jutzi, Benz &
// Michel 2008, Icarus 198, 242, sec. 2), plain functions of one particle. Numbers (P1)..(P7) are
// those of docs/physics.md ("Porous solids").
//
// The distention alpha = rho_s / rho >= 1 (rho the bulk density that SPH's continuity carries, rho_s
// the density of the solid matrix) enters the pressure through the matrix EOS (porous_model.h):
//   P = P_s(rho_s, u) / alpha,  rho_s = alpha rho                                          (P1)
// Crush curve, quadratic between the elastic limit P_e (alpha_e) and full compaction at P_s
// (Jutzi et al. 2008, sec. 2.2):
//   alpha(P) = alpha_e                                         P <= P_e
//            = 1 + (alpha_e - 1) (P_s - P)^2 / (P_s - P_e)^2   P_e < P < P_s               (P2)
//            = 1                                               P >= P_s
// Non-iterative rate (Jutzi et al. 2008, sec. 2.2): on the curve alpha = alpha(P), so dalpha/dt =
// alpha'(P) dP/dt. With (P1), dP/dt = [dP_s/dt - P dalpha/dt] / alpha and dP_s/dt = (dP_s/drho_s)
// (alpha drho/dt + rho dalpha/dt) + (dP_s/du) du/dt; solving the linear relation for dalpha/dt gives
//   dalpha/dt = alpha'(P) [alpha (dP_s/drho_s) drho/dt + (dP_s/du) du/dt]
//               / [alpha + alpha'(P) (P - rho dP_s/drho_s)]                                 (P3)
// (dP_s/drho_s at constant u, dP_s/du at constant rho_s). It acts only while the state is on the
// curve (alpha >= alpha(P)) and loading (the bracket in the numerator > 0); otherwise alpha stays:
// compaction is irreversible, dalpha/dt <= 0 always (the elastic, reversible part of Jutzi's
// elastic regime is left out so that alpha never grows on unloading).
// The same relation along the adiabat du = P/rho^2 drho gives dalpha/drho, and the deviatoric
// stress rate is scaled by (Jutzi et al. 2008, sec. 2.3)
//   f = 1 + (dalpha/drho) rho / alpha, clamped to [0, 1]                                   (P4)
// Sound speed, linear in alpha between the porous c_e (alpha = alpha_e) and the matrix c_s
// (alpha = 1) (Jutzi et al. 2008, sec. 2.2):
//   c = c_s + (c_e - c_s) (alpha - 1) / (alpha_e - 1)                                       (P5)
// Damage from compaction (Jutzi et al. 2008, sec. 2.4): crushing the pores damages the matrix,
//   D_alpha = 1 - ((alpha - 1) / (alpha_0 - 1))^(1/3)  for alpha_0 > 1, else 0               (P6)
// and the carried stress uses min(1, D + D_alpha) (D the Grady-Kipp tensile damage). A material
// without porosity (alpha_0 = 1) gets D_alpha = 0 exactly: no instant damage.
#include "core/hd.h"

#include <cmath>

namespace ejecta {

using std::cbrt;

template <class T>
struct PAlphaCrush {
  T alpha_e;   // distention at the elastic limit (the initial alpha_0 of the material)
  T P_e, P_s;  // elastic limit and full-compaction pressures (P_s > P_e)

  // (P2)
  EJ_INLINE T alpha(T P) const {
    if (!(P > P_e)) return alpha_e;
    if (!(P < P_s)) return T(1);
    const T x = (P_s - P) / (P_s - P_e);
    return T(1) + (alpha_e - T(1)) * x * x;
  }
  // d alpha / dP of (P2): 0 outside (P_e, P_s).
  EJ_INLINE T dalpha_dP(T P) const {
    if (!(P > P_e) || !(P < P_s)) return T(0);
    const T d = P_s - P_e;
    return -T(2) * (alpha_e - T(1)) * (P_s - P) / (d * d);
  }
};

// (P3): the compaction rate of a particle at bulk density rho, bulk pressure P and distention alpha,
// with the matrix EOS derivatives at (rho_s, u) and the rates drho/dt, du/dt of this evaluation.
// Returns 0 off the curve (alpha below alpha(P): compacted further before, now elastic), when
// unloading, and where the denominator is not positive (never for a stable matrix, rho dP_s/drho_s
// > P); never positive.
template <class T>
EJ_INLINE T palpha_rate(const PAlphaCrush<T>& c, T alpha, T rho, T P, T dPs_drhos, T dPs_du, T drho, T du) {
  const T dadp = c.dalpha_dP(P);
  if (!(dadp < T(0)) || alpha < c.alpha(P)) return T(0);
  const T load = alpha * dPs_drhos * drho + dPs_du * du;
  if (!(load > T(0))) return T(0);
  const T den = alpha + dadp * (P - rho * dPs_drhos);
  if (!(den > T(0))) return T(0);
  const T r = dadp * load / den;
  return r < T(0) ? r : T(0);
}

// (P4): the deviatoric scale f = 1 + (dalpha/drho) rho / alpha along the adiabat du = P/rho^2 drho,
// while compacting (palpha_rate's conditions with drho > 0); 1 otherwise.
template <class T>
EJ_INLINE T palpha_deviatoric_factor(const PAlphaCrush<T>& c, T alpha, T rho, T P, T dPs_drhos, T dPs_du) {
  const T dadrho = palpha_rate(c, alpha, rho, P, dPs_drhos, dPs_du, T(1), P / (rho * rho));
  const T f = T(1) + dadrho * rho / alpha;
  return f < T(0) ? T(0) : (f > T(1) ? T(1) : f);
}

// (P5): the sound speed between the matrix's c_s (alpha = 1) and the porous c_e (alpha = alpha_e);
// c_s itself where c_e is not given (c_e <= 0) or alpha_e = 1.
template <class T>
EJ_INLINE T palpha_sound_speed(T c_s, T c_e, T alpha, T alpha_e) {
  if (!(c_e > T(0)) || !(alpha_e > T(1)) || !(alpha > T(1))) return c_s;
  const T w = alpha < alpha_e ? (alpha - T(1)) / (alpha_e - T(1)) : T(1);
  return c_s + (c_e - c_s) * w;
}

// (P6): the damage of compaction, 0 for alpha_0 = 1 (no porosity) and for alpha >= alpha_0.
template <class T>
EJ_INLINE T palpha_damage(T alpha, T alpha0) {
  if (!(alpha0 > T(1)) || !(alpha < alpha0)) return T(0);
  const T x = alpha > T(1) ? (alpha - T(1)) / (alpha0 - T(1)) : T(0);
  const T d = T(1) - cbrt(x);
  return d < T(0) ? T(0) : (d > T(1) ? T(1) : d);
}

}  // namespace ejecta
