#pragma once
// Artificial stress against the tensile instability (Monaghan 2000, J. Comput. Phys. 159, 290,
// eqs. 4.5-4.7; Gray, Monaghan & Swift 2001, CMAME 190, 6641, sec. 4, eqs. 4.7-4.9): in the principal
// frame of the total stress sigma = -p I + S, each positive (tensile) principal stress sigma_k gives
// R_k = -eps sigma_k / rho^2 (0 for sigma_k <= 0), and R = sum_k R_k e_k e_k^T in the particle frame.
// 1D: sigma_xx itself. 2D: the rotation angle theta = atan2(2 sigma_xy, sigma_xx - sigma_yy) / 2
// (GMS01 eq. 4.8). 3D: the principal axes by Jacobi rotations (physics/sym_eigen3.h). R is a
// continuous function of sigma (the positive part of a symmetric tensor), so the order of the
// eigenvalues and the choice of axes within a repeated eigenvalue do not matter.
#include "core/vec.h"
#include "physics/sym_eigen3.h"

#include <cmath>

namespace ejecta {

// sig: the total stress in the SymTensor layout (xx, yy[, zz], then xy[, xz, yz]); q = -eps / rho^2.
template <class T, int D>
EJ_INLINE Vec<T, D*(D + 1) / 2> artificial_stress(const Vec<T, D*(D + 1) / 2>& sig, T q) {
  Vec<T, D*(D + 1) / 2> r;
  for (int k = 0; k < D * (D + 1) / 2; ++k) r[k] = T(0);
  if constexpr (D == 1) {
    if (sig[0] > T(0)) r[0] = q * sig[0];
  } else if constexpr (D == 2) {
    const T sxx = sig[0], syy = sig[1], sxy = sig[2];
    const T theta = T(0.5) * atan2(T(2) * sxy, sxx - syy);
    const T cs = cos(theta), sn = sin(theta);
    const T s1 = cs * cs * sxx + T(2) * cs * sn * sxy + sn * sn * syy;
    const T s2 = sn * sn * sxx - T(2) * cs * sn * sxy + cs * cs * syy;
    const T r1 = s1 > T(0) ? q * s1 : T(0), r2 = s2 > T(0) ? q * s2 : T(0);
    r[0] = cs * cs * r1 + sn * sn * r2;
    r[1] = sn * sn * r1 + cs * cs * r2;
    r[2] = cs * sn * (r1 - r2);
  } else {
    const T a[6] = {sig[0], sig[1], sig[2], sig[3], sig[4], sig[5]};
    T lam[3], V[3][3];
    sym_eigen3(a, lam, V);
    for (int k = 0; k < 3; ++k) {
      if (!(lam[k] > T(0))) continue;
      const T rk = q * lam[k];
      const T e0 = V[0][k], e1 = V[1][k], e2 = V[2][k];
      r[0] += rk * e0 * e0, r[1] += rk * e1 * e1, r[2] += rk * e2 * e2;
      r[3] += rk * e0 * e1, r[4] += rk * e0 * e2, r[5] += rk * e1 * e2;
    }
  }
  return r;
}

}  // namespace ejecta
