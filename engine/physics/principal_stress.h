#pragma once
// The largest principal value of a symmetric stress in the solids' component layout (SymIndex:
// xx, yy, zz, xy, xz, yz; 2D xx, yy, xy; 1D xx), host and device. 1D: sigma_xx. 2D: the larger
// in-plane eigenvalue (a + b)/2 + sqrt(((a - b)/2)^2 + c^2). 3D: the trigonometric closed form of the
// eigenvalues of a symmetric 3 x 3 matrix (Smith 1961, Commun. ACM 4, 168): with q = tr(A)/3,
// p = sqrt(tr((A - qI)^2)/6) and r = det((A - qI)/p)/2, the largest is q + 2 p cos(acos(r)/3).
#include "core/hd.h"
#include "core/vec.h"

#include <cmath>

namespace ejecta {

// sigma given as the D(D+1)/2 components of the full (not deviatoric) stress.
template <class T, int D>
EJ_INLINE T largest_principal_stress(const Vec<T, D*(D + 1) / 2>& s) {
  if (D == 1) return s[0];
  if (D == 2) {
    const T m = T(0.5) * (s[0] + s[1]), d = T(0.5) * (s[0] - s[1]);
    return m + sqrt(d * d + s[2] * s[2]);
  }
  const T xx = s[0], yy = s[1], zz = s[2 % (D * (D + 1) / 2)];
  const T xy = s[3 % (D * (D + 1) / 2)], xz = s[4 % (D * (D + 1) / 2)], yz = s[5 % (D * (D + 1) / 2)];
  const T off = xy * xy + xz * xz + yz * yz;
  const T q = (xx + yy + zz) / T(3);
  const T a = xx - q, b = yy - q, c = zz - q;
  const T p2 = (a * a + b * b + c * c + T(2) * off) / T(6);
  if (!(p2 > T(0))) return q;  // isotropic (or zero) stress
  const T p = sqrt(p2);
  // det(A - qI) / p^3 / 2
  const T det = a * (b * c - yz * yz) - xy * (xy * c - yz * xz) + xz * (xy * yz - b * xz);
  T r = det / (T(2) * p2 * p);
  if (r > T(1)) r = T(1);
  if (r < T(-1)) r = T(-1);
  return q + T(2) * p * cos(acos(r) / T(3));
}

}  // namespace ejecta
