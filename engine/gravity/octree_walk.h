#pragma once
// The Barnes-Hut walk (Barnes & Hut 1986, Nature 324, 446) of the threaded octree (octree_build.h):
// one thread per sorted particle. The opening test is made against the bounding box of the
// particle's group of `group` consecutive sorted particles rather than the particle itself (the
// group walk of Barnes 1990, J. Comput. Phys. 87, 161), so all threads of a warp take the same path
// through the tree; the box is at least as close to a cell as any of its particles, so the test is
// only stricter than the per-particle one. A cell is accepted when the box is outside its opening
// radius (octree_build.h, GravityMoments). Its field is then its monopole + quadrupole (multipole.h)
// when the target is farther than 2 max(eps_i, eps_cell) + rad from its centre of mass (no particle
// of the cell is within the softening), else its softened monopole with eps = max(eps_i, eps_cell),
// as GADGET-2 does for cells near the softening scale (Springel 2005, MNRAS 364, 1105, sec. 3.1).
// A leaf that is not accepted is summed particle by particle with the spline softening
// (gravity_softening.h) of eps_ij = max(eps_i, eps_j). The walk follows the skip pointers: no stack.
#include "core/hd.h"
#include "core/vec.h"
#include "gravity/gravity_interactions.h"
#include "gravity/octree_build.h"

#include <cstdint>

namespace ejecta {

template <class T, int D>
struct GravityWalk {
  const GravityLink* links;
  const GravityNode<T>* nodes;
  const GravityBody<T>* body;
  const T* eps;
  const GravityGroup<T>* groups;
  const uint32_t* perm;
  Vec<T, D>* a;  // += G * acceleration (store order)
  T* phi;        // = G * potential (store order); may be null
  T G;
  uint32_t group;  // particles per group
  EJ_INLINE void operator()(std::size_t k) const {
    const GravityGroup<T> grp = groups[k / group];
    const GravityBody<T> me = body[k];
    const T ei = eps[k];
    T acc[3] = {T(0), T(0), T(0)}, pot = T(0);
    uint32_t node = 0;
    while (node != kGravityEnd) {
      const GravityNode<T> nd = nodes[node];
      const GravityLink l = links[node];
      if (accepts_cell(grp, nd)) {
        add_accepted_cell(me.x, ei, nd, acc, pot);
        node = l.next;
      } else if (l.first < 0) {
        for (uint32_t j = l.begin; j < l.end; ++j) {
          if (j == uint32_t(k)) continue;
          add_particle(me.x, ei, body[j], eps[j], acc, pot);
        }
        node = l.next;
      } else {
        node = uint32_t(l.first);
      }
    }
    const uint32_t p = perm[k];
    for (int c = 0; c < D; ++c) a[p][c] += G * acc[c];
    if (phi) phi[p] = G * pot;
  }
};

}  // namespace ejecta
