#pragma once
// Neighbour search on the Morton-ordered octree (gas.neighbour_search = tree), for smoothing lengths
// that vary widely and particles far from the rest: the tree of the self-gravity (octree_build.h,
// octree_levels.h: a node is a range of sorted particles sharing a key prefix, leaves of at most
// kTreeSearchLeaf) with, per node, the bounding box of its particles and their largest h, computed
// bottom-up (TreeNodeBounds; again after the density pass has moved h, as the level grid measures
// its levels' maxima). A search around x_i with reach R walks the threaded tree (skip pointers, no
// stack) and opens a node when its box is closer than R, or, in a symmetric search, than
// max(R, 2 hmax_node): the pairs within max(2 h_i, 2 h_j) that the gas forces need (Springel &
// Hernquist 2002; the kd-tree searches of GADGET-2, Springel 2005, sec. 3.3, test a node's
// largest h the same way). It visits the same particles as LevelGrid::for_each_neighbor:
//  - gather (symmetric = false): every j with r < R, exactly;
//  - symmetric: every j with r < max(R, 2 hmax of j's leaf), a superset of r < max(R, 2 h_j) that the
//    caller narrows (the level grid's superset is r < max(R, 2 hmax of j's level)).
// The box test cannot drop a particle the distance test would keep: for x_j in [lo, hi], the rounded
// |x_i - x_j| is at least the rounded distance to the box on every axis (rounding is monotone), and the
// node test's radius is widened by 1e-6 against a contracted (fused) sum on one side and not the other.
// The cost per particle is the depth of the tree plus the leaves near it, whatever the spread of h or
// of the positions (the tree adapts to both; the level grid's tables are sized once, at the start).
#include "core/hd.h"
#include "core/vec.h"
#include "exec/device_ptr.h"
#include "gravity/octree_build.h"

#include <cstdint>

namespace ejecta {

constexpr int kTreeSearchLeaf = 16;  // most particles in a leaf of the neighbour tree (gas.tree_leaf_size)

// A node's bounding box (axes beyond D are 0) and the largest h of its particles.
template <class T>
struct alignas(16) TreeSearchBox {
  T lo[3], hi[3];
  T hmax, pad;
};

// The boxes of one level's nodes, from their particles (leaves) or their children (the next level,
// done before). x and h in sorted order (the store reordered by the tree's permutation).
template <class T, int D>
struct TreeNodeBounds {
  const GravityLink* links;
  const uint32_t* nchild;
  const Vec<T, D>* x;
  const T* h;
  TreeSearchBox<T>* boxes;
  uint32_t level_start;
  EJ_INLINE void operator()(std::size_t k) const {
    const uint32_t me = level_start + uint32_t(k);
    const GravityLink l = links[me];
    TreeSearchBox<T> b;
    for (int a = 0; a < 3; ++a) b.lo[a] = b.hi[a] = T(0);
    b.hmax = b.pad = T(0);
    if (l.first < 0) {
      for (int a = 0; a < D; ++a) b.lo[a] = b.hi[a] = x[l.begin][a];
      for (uint32_t j = l.begin; j < l.end; ++j) {
        for (int a = 0; a < D; ++a) {
          const T v = x[j][a];
          if (v < b.lo[a]) b.lo[a] = v;
          if (v > b.hi[a]) b.hi[a] = v;
        }
        if (h[j] > b.hmax) b.hmax = h[j];
      }
    } else {
      const uint32_t c0 = uint32_t(l.first), c1 = c0 + nchild[me];
      b = boxes[c0];
      for (uint32_t c = c0 + 1; c < c1; ++c) {
        const TreeSearchBox<T> o = boxes[c];
        for (int a = 0; a < D; ++a) {
          if (o.lo[a] < b.lo[a]) b.lo[a] = o.lo[a];
          if (o.hi[a] > b.hi[a]) b.hi[a] = o.hi[a];
        }
        if (o.hmax > b.hmax) b.hmax = o.hmax;
      }
    }
    boxes[me] = b;
  }
};

// The search itself: a plain struct for functors (copied into CUDA kernels), like LevelGrid.
template <class T, int D>
struct NeighborTree {
  const GravityLink* links = nullptr;
  const TreeSearchBox<T>* boxes = nullptr;
  uint32_t n = 0;  // particles (no tree when 0)

  // f(j, x_i - x_j, r^2) for every sorted particle j with r < reach (gather) or r < max(reach, 2 hmax of
  // j's leaf) (symmetric); x_i itself included when it is a particle. Same signature as LevelGrid's.
  template <class F>
  EJ_INLINE void for_each_neighbor(const Vec<T, D>& xi, DevicePtr<const Vec<T, D>> x, T reach, bool symmetric,
                                   F&& f) const {
    for_each_neighbor(xi, x.get(), reach, symmetric, static_cast<F&&>(f));
  }
  template <class F>
  EJ_INLINE void for_each_neighbor(const Vec<T, D>& xi, const Vec<T, D>* x, T reach, bool symmetric, F&& f) const {
    uint32_t node = n ? 0u : kGravityEnd;
    while (node != kGravityEnd) {
      const TreeSearchBox<T> b = boxes[node];
      const GravityLink l = links[node];
      T R = reach;
      if (symmetric && T(2) * b.hmax > R) R = T(2) * b.hmax;
      const T R2 = R * R;
      T d2 = T(0);
      for (int a = 0; a < D; ++a) {
        const T d = xi[a] < b.lo[a] ? b.lo[a] - xi[a] : (xi[a] > b.hi[a] ? xi[a] - b.hi[a] : T(0));
        d2 += d * d;
      }
      if (!(d2 < R2 * T(1.000001))) {  // (NaN positions open nothing; the solver reports them)
        node = l.next;
      } else if (l.first < 0) {
        for (uint32_t j = l.begin; j < l.end; ++j) {
          const Vec<T, D> xij = xi - x[j];
          const T r2 = norm2(xij);
          if (r2 < R2) f(j, xij, r2);
        }
        node = l.next;
      } else {
        node = uint32_t(l.first);
      }
    }
  }
};

}  // namespace ejecta
