#pragma once
// The epsilon-alpha compaction model (Wuennemann, Collins & Melosh 2006, Icarus 180, 514, sec. 2;
// improved by Collins, Melosh & Wuennemann 2011, Int. J. Impact Eng. 38, 434), plain functions of
// one particle. Numbers (E1)..(E4) are those of docs/physics.md ("Porous solids").
//
// Strains follow Wuennemann et al. 2006: the volumetric strain eps_V = ln(V/V_0) is negative in
// compression (the "eps_V < eps_X" is |eps_V| < |eps_X|). Parameters: the initial distention
// alpha_0, the elastic threshold eps_e <= 0, the end of the exponential branch eps_X <= eps_e and
// kappa in (0, 1]. The crush curve (Wuennemann et al. 2006, eqs. 6-8; Collins et al. 2011, eq. 5):
//   alpha(eps) = alpha_0                                           eps >= eps_e (elastic)
//              = alpha_0 exp(kappa (eps - eps_e))                  eps_X <= eps < eps_e
//              = 1 + (alpha_X - 1) ((eps_C - eps)/(eps_C - eps_X))^2  eps_C < eps < eps_X      (E1)
//              = 1                                                 eps <= eps_C
// with alpha_X = alpha_0 exp(kappa (eps_X - eps_e)) and eps_C = 2 (1 - alpha_X)/(kappa alpha_X) +
// eps_X, which makes alpha and d alpha/d eps (= kappa alpha_X from both sides) continuous at eps_X.
// The strain that drives compaction (Collins et al. 2011, sec. 3, the thermal correction): the bulk
// volume is V = alpha V_s, so while heating expands the matrix by (Gamma_s0 / c_s0^2) du (Gamma_s0 the
// matrix's Grueneisen parameter and c_s0 its bulk sound speed at the reference state) the pores must
// close by that much more than the bulk strain shows. That thermal strain is removed from the strain
// rate that drives compaction:
//   d eps_c / dt = d eps_V / dt - (Gamma_s0 / c_s0^2) du/dt,  d eps_V/dt = -(1/rho) drho/dt    (E2)
// Along a shock (V falling, u rising) eps_c = ln(V/V_0) - (Gamma_s0/c_s0^2) u falls monotonically, so
// the shocked state has alpha = alpha(eps_c) of its own V and u (tests/test_porous.cpp's Hugoniot).
// Irreversibility: alpha is the crush curve at the most compressive eps_c reached so far,
//   alpha = max(1, min(alpha_previous, alpha(eps_c)))                                       (E3)
// so that unloading (eps_c rising) leaves alpha, and alpha = 1 is exact. With the thermal
// correction off, eps_c = eps_V = ln(rho_0 / rho) along any path (rho_0 the initial bulk density).
#include "core/hd.h"

#include <cmath>

namespace ejecta {

template <class T>
struct EpsAlphaCrush {
  T alpha0, kappa, eps_e, eps_X;
  T alpha_X, eps_C;  // derived (make)
  T thermal;         // Gamma_s0 / c_s0^2 of the thermal correction (s^2/m^2; 0: off)

  static EpsAlphaCrush make(double alpha0, double kappa, double eps_e, double eps_X, double thermal) {
    const double ax = alpha0 * std::exp(kappa * (eps_X - eps_e));
    const double ec = alpha0 > 1 ? 2 * (1 - ax) / (kappa * ax) + eps_X : eps_X;
    return EpsAlphaCrush{T(alpha0), T(kappa), T(eps_e), T(eps_X), T(ax), T(ec), T(thermal)};
  }

  // (E1)
  EJ_INLINE T alpha(T eps) const {
    if (!(alpha0 > T(1)) || !(eps < eps_e)) return alpha0 > T(1) ? alpha0 : T(1);
    if (eps >= eps_X) return alpha0 * exp(kappa * (eps - eps_e));
    if (!(eps > eps_C)) return T(1);
    const T x = (eps_C - eps) / (eps_C - eps_X);
    return T(1) + (alpha_X - T(1)) * x * x;
  }
  // d alpha / d eps of (E1) (>= 0: alpha falls as eps falls).
  EJ_INLINE T dalpha_deps(T eps) const {
    if (!(alpha0 > T(1)) || !(eps < eps_e) || !(eps > eps_C)) return T(0);
    if (eps >= eps_X) return kappa * alpha0 * exp(kappa * (eps - eps_e));
    const T d = eps_C - eps_X;
    return -T(2) * (alpha_X - T(1)) * (eps_C - eps) / (d * d);
  }
  // (E2): the rate of the compaction strain from this evaluation's drho/dt and du/dt.
  EJ_INLINE T strain_rate(T rho, T drho, T du) const { return -drho / rho - thermal * du; }
};

// (E3): the distention after a state update, from its value at the stage's start and eps_c.
template <class T>
EJ_INLINE T epsalpha_update(const EpsAlphaCrush<T>& c, T alpha, T eps) {
  const T a = c.alpha(eps);
  const T m = a < alpha ? a : alpha;
  return m > T(1) ? m : T(1);
}

}  // namespace ejecta
