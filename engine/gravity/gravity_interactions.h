#pragma once
// The opening test and the two interactions of a Barnes-Hut walk at a particle x with softening ei, written once for both
// walks (octree_walk.h, octree_group_walk.h): an accepted cell and a particle of an opened leaf. Each
// adds to the acceleration acc (without G) and to the potential pot (without G).
#include "core/hd.h"
#include "gravity/gravity_softening.h"
#include "gravity/multipole.h"
#include "gravity/octree_build.h"

namespace ejecta {

// The opening test of both walks: a cell is accepted for a group of particles when the group's box is
// farther from the cell's centre of mass than sqrt(r_open2) (l / theta + |com - centre|, octree_build.h).
template <class T>
EJ_INLINE bool accepts_cell_at(const GravityGroup<T>& grp, const T* com, T r_open2) {
  T d2 = T(0);
  for (int c = 0; c < 3; ++c) {
    const T x = com[c];
    const T dd = x < grp.lo[c] ? grp.lo[c] - x : (x > grp.hi[c] ? x - grp.hi[c] : T(0));
    d2 += dd * dd;
  }
  return d2 > r_open2;
}
template <class T>
EJ_INLINE bool accepts_cell(const GravityGroup<T>& grp, const GravityNode<T>& nd) {
  return accepts_cell_at(grp, nd.com, nd.r_open2);
}

// An accepted cell: its monopole + quadrupole field (multipole.h) when x is farther from its centre of
// mass than 2 max(eps_i, eps_cell) + its radius, else its softened monopole (GADGET-2's treatment,
// Springel 2005, MNRAS 364, 1105, sec. 3.1).
template <class T>
EJ_INLINE void add_accepted_cell(const T* x, T ei, const GravityNode<T>& nd, T* acc, T& pot) {
  const T r[3] = {x[0] - nd.com[0], x[1] - nd.com[1], x[2] - nd.com[2]};
  const T r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const T e = nd.eps > ei ? nd.eps : ei;
  const T lim = T(2) * e + nd.rad;
  if (r2 > lim * lim) {
    add_cell_field(r, r2, nd.m, nd.q, acc, pot);
  } else {
    T g, f;
    spline_softened(r2, e, g, f);
    for (int c = 0; c < 3; ++c) acc[c] -= nd.m * g * r[c];
    pot -= nd.m * f;
  }
}

// A particle b with softening ej: the spline-softened point mass with eps_ij = max(eps_i, eps_j)
// (gravity_softening.h).
template <class T>
EJ_INLINE void add_particle(const T* x, T ei, const GravityBody<T>& b, T ej, T* acc, T& pot) {
  const T r[3] = {x[0] - b.x[0], x[1] - b.x[1], x[2] - b.x[2]};
  const T r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const T e = ej > ei ? ej : ei;
  T g, f;
  spline_softened(r2, e, g, f);
  for (int c = 0; c < 3; ++c) acc[c] -= b.m * g * r[c];
  pot -= b.m * f;
}

// The two interactions with the inverse softening lengths given (iei = 1 / ei, 1 / eps of the cell or
// particle): the staged warp walk computes each source's inverse once per chunk, so no pair divides.
// The same values as above (gravity_softening.h, spline_softened_inv).
template <class T>
EJ_INLINE void add_accepted_cell_inv(const T* x, T ei, T iei, const GravityNode<T>& nd, T iecell, T* acc, T& pot) {
  const T r[3] = {x[0] - nd.com[0], x[1] - nd.com[1], x[2] - nd.com[2]};
  const T r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const bool cell_larger = nd.eps > ei;
  const T e = cell_larger ? nd.eps : ei;
  const T lim = T(2) * e + nd.rad;
  if (r2 > lim * lim) {
    add_cell_field(r, r2, nd.m, nd.q, acc, pot);
  } else {
    T g, f;
    spline_softened_inv(r2, e, cell_larger ? iecell : iei, g, f);
    for (int c = 0; c < 3; ++c) acc[c] -= nd.m * g * r[c];
    pot -= nd.m * f;
  }
}

template <class T>
EJ_INLINE void add_particle_inv(const T* x, T ei, T iei, const GravityBody<T>& b, T ej, T iej, T* acc, T& pot) {
  const T r[3] = {x[0] - b.x[0], x[1] - b.x[1], x[2] - b.x[2]};
  const T r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const bool j_larger = ej > ei;
  T g, f;
  spline_softened_inv(r2, j_larger ? ej : ei, j_larger ? iej : iei, g, f);
  for (int c = 0; c < 3; ++c) acc[c] -= b.m * g * r[c];
  pot -= b.m * f;
}

}  // namespace ejecta
