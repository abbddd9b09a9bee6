#pragma once
// Cell multipoles of the Barnes-Hut tree up to the quadrupole, and their field at a point.
// The quadrupole is the traceless Q_ab = sum_j m_j (3 d_a d_b - |d|^2 delta_ab), d = x_j - com
// (Hernquist 1987, ApJS 64, 715, eqs. 2.3-2.5); it is shifted to a parent's centre of mass with the
// parallel-axis rule Q += M (3 s_a s_b - |s|^2 delta_ab), s = com_child - com_parent (the dipole about
// the centre of mass vanishes). Field of a cell at r = x - com:
//   phi(r) = -G [ M / |r| + (1/2) r.Q.r / |r|^5 ]
//   a(r)   = -grad phi = G [ -M r / |r|^3 + Q.r / |r|^5 - (5/2) (r.Q.r) r / |r|^7 ].
// Always three components: a 2D or 1D scene is a set of point masses in a plane or on a line with the
// 3D law (the 2D logarithmic potential is not meant).
#include "core/hd.h"
#include "gravity/gravity_softening.h"

namespace ejecta {

// Q stored as xx, yy, zz, xy, xz, yz.
template <class T>
struct Quadrupole {
  T q[6];
};

// Adds m (3 d d^T - |d|^2 I) to q.
template <class T>
EJ_INLINE void add_point_quadrupole(T* q, T m, const T* d) {
  const T d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  q[0] += m * (T(3) * d[0] * d[0] - d2);
  q[1] += m * (T(3) * d[1] * d[1] - d2);
  q[2] += m * (T(3) * d[2] * d[2] - d2);
  q[3] += m * T(3) * d[0] * d[1];
  q[4] += m * T(3) * d[0] * d[2];
  q[5] += m * T(3) * d[1] * d[2];
}

// Adds the monopole + quadrupole field of a cell (mass M, traceless q) at r = x - com, |r|^2 = r2,
// to acc and pot (without G).
template <class T>
EJ_INLINE void add_cell_field(const T* r, T r2, T M, const T* q, T* acc, T& pot) {
  T r_len, inv;
  sqrt_and_inverse(r2, r_len, inv);  // one rsqrt on a GPU (gravity_softening.h)
  const T inv2 = inv * inv;
  const T inv3 = inv * inv2;
  const T inv5 = inv3 * inv2;
  const T qr0 = q[0] * r[0] + q[3] * r[1] + q[4] * r[2];
  const T qr1 = q[3] * r[0] + q[1] * r[1] + q[5] * r[2];
  const T qr2 = q[4] * r[0] + q[5] * r[1] + q[2] * r[2];
  const T rqr = r[0] * qr0 + r[1] * qr1 + r[2] * qr2;
  const T radial = -M * inv3 - T(2.5) * rqr * inv5 * inv2;
  acc[0] += radial * r[0] + qr0 * inv5;
  acc[1] += radial * r[1] + qr1 * inv5;
  acc[2] += radial * r[2] + qr2 * inv5;
  pot -= M * inv + T(0.5) * rqr * inv5;
}

}  // namespace ejecta
