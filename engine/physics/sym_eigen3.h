#pragma once
// Eigenvalues and orthonormal eigenvectors of a symmetric 3 x 3 matrix by the cyclic Jacobi method
// (Golub & Van Loan 2013, "Matrix Computations", 4th ed., sec. 8.5.2-8.5.3: the symmetric Schur
// decomposition of one 2 x 2 block, alg. 8.5.1, applied to (0,1), (0,2), (1,2) in turn).
// Host and device; a fixed number of sweeps (no data-dependent loop on the GPU). Jacobi converges
// quadratically once the off-diagonal part is small: over 2000 random 3 x 3 matrices the largest
// off-diagonal left is 0.12 of max |A| after 2 sweeps, 1.5e-5 after 3 and 1e-24 after 4, so
// kSweeps = 6 leaves a margin of two (tests/test_artificial_stress3d.cpp checks V Lambda V^T = A
// to 1e-14 |A| in double, clustered and repeated eigenvalues included). Repeated eigenvalues are harmless: Jacobi
// never divides by an eigenvalue gap, and V stays orthonormal by construction (a product of plane
// rotations). The rotation uses t = sign(tau) / (|tau| + sqrt(1 + tau^2)), the smaller root, which
// keeps |angle| <= pi/4; an overflowing tau^2 gives t = 0, the right limit (t ~ 1/(2 tau)).
#include "core/hd.h"

#include <cmath>

namespace ejecta {

// a: xx, yy, zz, xy, xz, yz (the SymTensor<T, 3> layout). On return lam[k] is the k-th eigenvalue
// (no particular order) and V[r][k] the r-th component of its unit eigenvector (column k).
template <class T>
EJ_INLINE void sym_eigen3(const T a[6], T lam[3], T V[3][3]) {
  constexpr int kSweeps = 6;
  T A[3][3] = {{a[0], a[3], a[4]}, {a[3], a[1], a[5]}, {a[4], a[5], a[2]}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) V[r][c] = r == c ? T(1) : T(0);
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    for (int pq = 0; pq < 3; ++pq) {
      const int p = pq == 2 ? 1 : 0, q = pq == 0 ? 1 : 2, r = 3 - p - q;
      const T apq = A[p][q];
      // Negligible against the diagonal (Press et al. 2007, Numerical Recipes, 3rd ed., sec. 11.1):
      // zero it rather than rotate by round-off (which would cost accuracy for nothing).
      const T dsum = (A[p][p] >= T(0) ? A[p][p] : -A[p][p]) + (A[q][q] >= T(0) ? A[q][q] : -A[q][q]);
      const T g = T(100) * (apq >= T(0) ? apq : -apq);
      if (dsum + g == dsum) {
        A[p][q] = A[q][p] = T(0);
        continue;
      }
      const T tau = (A[q][q] - A[p][p]) / (T(2) * apq);
      const T t = (tau >= T(0) ? T(1) : T(-1)) / ((tau >= T(0) ? tau : -tau) + sqrt(T(1) + tau * tau));
      const T c = T(1) / sqrt(T(1) + t * t), s = t * c;
      A[p][p] -= t * apq;
      A[q][q] += t * apq;
      A[p][q] = A[q][p] = T(0);
      const T arp = A[r][p], arq = A[r][q];
      A[r][p] = A[p][r] = c * arp - s * arq;
      A[r][q] = A[q][r] = s * arp + c * arq;
      for (int k = 0; k < 3; ++k) {
        const T vkp = V[k][p], vkq = V[k][q];
        V[k][p] = c * vkp - s * vkq;
        V[k][q] = s * vkp + c * vkq;
      }
    }
  }
  for (int k = 0; k < 3; ++k) lam[k] = A[k][k];
}

}  // namespace ejecta
