#pragma once
// The group walk of the Barnes-Hut tree (Barnes 1990, J. Comput. Phys. 87, 161; the interaction
// lists of Bonsai, Bedorf et al. 2012, J. Comput. Phys. 231, 2825, and of Ryoanji in SPH-EXA): a
// group of consecutive sorted particles (gravity.group, by default 32: a warp) walks the tree once, opening cells against the
// group's bounding box (the test of octree_walk.h), and records
//   - the accepted cells (node indices), and
//   - the leaves it had to open, as ranges of sorted particles (a leaf that starts where the last
//     range ends extends it: leaves next in the walk are mostly next in Morton order);
// then each particle of the group evaluates the two lists (pass 2). The per-particle walk
// (octree_walk.h) makes the same opening decisions 32 times over; the lists make them once. Both
// passes are functors over the execution layer (one source, CPU and CUDA); pass 1 runs one item per
// group, pass 2 one item per particle (the 32 threads of a warp read the same list entries).
//
// The lists have a fixed capacity per group. A group that finds more entries keeps counting but
// stops writing; the caller reads the largest count back (one reduction) and, when it exceeds the
// capacity, enlarges the lists and walks that batch again (self_gravity.h): nothing is dropped.
// The result equals the per-particle walk's up to the order of summation (cells first, then leaves).
#include "core/hd.h"
#include "core/vec.h"
#include "gravity/gravity_interactions.h"
#include "gravity/octree_build.h"

#include <cstdint>

namespace ejecta {

// Pass 1: the lists of the groups [g0, g0 + item) (the item-th group of a batch).
template <class T>
struct GravityGroupLists {
  const GravityLink* links;
  const GravityNode<T>* nodes;
  const GravityGroup<T>* groups;
  uint32_t g0;            // first group of the batch
  uint32_t cell_cap;      // cell entries per group
  uint32_t range_cap;     // particle ranges per group
  uint32_t* cells;        // batch size * cell_cap
  uint32_t* ranges;       // batch size * range_cap * 2 (begin, end)
  uint32_t* counts;       // batch size * 3: cells found, ranges found (may exceed the capacities),
                          // particles in the ranges
  EJ_INLINE void operator()(std::size_t item) const {
    const GravityGroup<T> grp = groups[g0 + item];
    uint32_t* my_cells = cells + item * std::size_t(cell_cap);
    uint32_t* my_ranges = ranges + item * std::size_t(range_cap) * 2;
    uint32_t nc = 0, nr = 0, np = 0;
    uint32_t node = 0;
    while (node != kGravityEnd) {
      const GravityLink l = links[node];
      const GravityNode<T> nd = nodes[node];
      if (accepts_cell(grp, nd)) {
        if (nc < cell_cap) my_cells[nc] = node;
        ++nc;
        node = l.next;
      } else if (l.first < 0) {
        np += l.end - l.begin;
        if (nr > 0 && nr <= range_cap && my_ranges[2 * (nr - 1) + 1] == l.begin) {
          my_ranges[2 * (nr - 1) + 1] = l.end;
        } else {
          if (nr < range_cap) {
            my_ranges[2 * nr] = l.begin;
            my_ranges[2 * nr + 1] = l.end;
          }
          ++nr;
        }
        node = l.next;
      } else {
        node = uint32_t(l.first);
      }
    }
    counts[3 * item] = nc;
    counts[3 * item + 1] = nr;
    counts[3 * item + 2] = np;
  }
};

// The largest cell and range counts of a batch (the overflow check) and the sums of the cell and
// particle counts weighted by the group's particles (the interactions, statistics), as one reduction.
struct GravityListCounts {
  uint32_t cells, ranges;
  double sum_cells, sum_particles;
};
struct MeasureGravityLists {
  const uint32_t* counts;
  std::size_t g0, group, n;  // the batch's first group, particles per group, all particles
  EJ_INLINE GravityListCounts operator()(std::size_t item) const {
    const std::size_t b = (g0 + item) * group, e = b + group < n ? b + group : n;
    const double w = double(e - b);
    return GravityListCounts{counts[3 * item], counts[3 * item + 1], w * double(counts[3 * item]),
                             w * double(counts[3 * item + 2])};
  }
};
struct MaxGravityLists {
  EJ_INLINE GravityListCounts operator()(const GravityListCounts& a, const GravityListCounts& b) const {
    return GravityListCounts{a.cells > b.cells ? a.cells : b.cells, a.ranges > b.ranges ? a.ranges : b.ranges,
                             a.sum_cells + b.sum_cells, a.sum_particles + b.sum_particles};
  }
};

// Pass 2: particle k0 + item evaluates its group's lists (the cell field of octree_walk.h: monopole +
// quadrupole, or the softened monopole within 2 max(eps_i, eps_cell) + rad; leaves particle by
// particle with eps_ij = max(eps_i, eps_j)).
template <class T, int D>
struct GravityGroupEval {
  const GravityNode<T>* nodes;
  const GravityBody<T>* body;
  const T* eps;
  const uint32_t* perm;
  const uint32_t* cells;
  const uint32_t* ranges;
  const uint32_t* counts;
  uint32_t k0;  // first particle of the batch (a multiple of group)
  uint32_t group;  // particles per group
  uint32_t cell_cap, range_cap;
  Vec<T, D>* a;  // += G * acceleration (store order)
  T* phi;        // = G * potential (store order); may be null
  T G;
  EJ_INLINE void operator()(std::size_t item) const {
    const std::size_t k = k0 + item;
    const std::size_t g = item / group;  // the group within the batch
    const GravityBody<T> me = body[k];
    const T ei = eps[k];
    T acc[3] = {T(0), T(0), T(0)}, pot = T(0);
    const uint32_t nc = counts[3 * g], nr = counts[3 * g + 1];
    const uint32_t* my_cells = cells + g * cell_cap;
    for (uint32_t c = 0; c < nc; ++c) {
      add_accepted_cell(me.x, ei, nodes[my_cells[c]], acc, pot);
    }
    const uint32_t* my_ranges = ranges + g * std::size_t(range_cap) * 2;
    for (uint32_t q = 0; q < nr; ++q) {
      const uint32_t b = my_ranges[2 * q], e_ = my_ranges[2 * q + 1];
      for (uint32_t j = b; j < e_; ++j) {
        if (j == uint32_t(k)) continue;
        add_particle(me.x, ei, body[j], eps[j], acc, pot);
      }
    }
    const uint32_t p = perm[k];
    for (int d = 0; d < D; ++d) a[p][d] += G * acc[d];
    if (phi) phi[p] = G * pot;
  }
};

}  // namespace ejecta
