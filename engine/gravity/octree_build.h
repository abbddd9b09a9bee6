#pragma once
// The functors that build the self-gravity octree (quadtree in 2D, binary tree in 1D) from the
// particles' 64-bit Morton keys, on either backend. The tree is built top-down one level at a time
// from the sorted keys (the approach of Cornerstone, Keller et al. 2023, PASC '23: a node is a range
// of sorted keys sharing a prefix; its children are the sub-ranges of the next D key bits, found by
// binary search): a count pass, an exclusive scan of the counts (the children's places in the next
// level) and a write pass per level. A node with at most kGravityLeaf (gravity.leaf_size) particles, or at the deepest
// level, is a leaf. Nodes are stored level by level, a node's children contiguous, and each node
// knows the node that follows its subtree in depth-first order (`next`, a skip pointer), so the
// traversal needs no stack (a "threaded" tree) and cannot overflow one.
// Multipoles are computed bottom-up one level at a time (multipole.h). Plain structs for EJ_HD use.
#include "core/hd.h"
#include "core/vec.h"
#include "gravity/multipole.h"
#include "neighbors/morton.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ejecta {

constexpr int kGravityLeaf = 16;   // most particles in a leaf by default (gravity.leaf_size)
// Consecutive sorted particles sharing one opening test (gravity.group = 0 picks this): a warp on a
// GPU, and the same on the CPU so that both backends make the same opening decisions. Smaller groups
// mean fewer interactions and somewhat larger errors (docs/physics.md, "Cost").
constexpr int kGravityGroup = 32;
constexpr uint32_t kGravityEnd = 0xffffffffu;

// Tree levels below the root: the Morton key bits per dimension (21 in 3D, 31 in 2D and 1D).
template <int D>
constexpr int gravity_levels() {
  return D == 3 ? 21 : 31;
}

template <class T>
struct GravityBox {
  T lo[3], hi[3];
};

template <class T>
struct CombineGravityBox {
  EJ_INLINE GravityBox<T> operator()(const GravityBox<T>& a, const GravityBox<T>& b) const {
    GravityBox<T> r;
    for (int d = 0; d < 3; ++d) {
      r.lo[d] = a.lo[d] < b.lo[d] ? a.lo[d] : b.lo[d];
      r.hi[d] = a.hi[d] > b.hi[d] ? a.hi[d] : b.hi[d];
    }
    return r;
  }
};

template <class T, int D>
struct MeasureGravityBox {
  const Vec<T, D>* x;
  EJ_INLINE GravityBox<T> operator()(std::size_t i) const {
    GravityBox<T> b;
    for (int d = 0; d < 3; ++d) b.lo[d] = b.hi[d] = d < D ? x[i][d] : T(0);
    return b;
  }
};

// The Morton key of each particle's cell of the finest level, and the identity permutation.
template <class T, int D>
struct GravityKeys {
  const Vec<T, D>* x;
  uint64_t* keys;
  uint32_t* perm;
  T lo[3];
  T scale;  // cells per metre at the finest level
  EJ_INLINE void operator()(std::size_t i) const {
    const uint32_t top = (1u << gravity_levels<D>()) - 1u;
    uint32_t c[3] = {0, 0, 0};
    for (int d = 0; d < D; ++d) {
      const T s = (x[i][d] - lo[d]) * scale;
      c[d] = s >= T(0) ? (s < T(top) ? uint32_t(s) : top) : 0u;  // NaN -> 0; the solver reports it
    }
    keys[i] = morton_code<D>(c);
    perm[i] = uint32_t(i);
  }
};

// The keys' functor for the particles x[0..n): the cube over their bounding box (one reduction comes
// back), its side padded by 16 eps so the largest coordinate stays inside, split into 2^levels cells a
// side. `side` receives the cube's side. Shared by the self-gravity's tree and the gas's tree search, so
// both sort by the same keys of the same box.
template <class T, int D, class Exec>
GravityKeys<T, D> gravity_keys_in_box(Exec& exec, const Vec<T, D>* x, std::size_t n, uint64_t* keys, uint32_t* perm,
                                      T& side) {
  GravityBox<T> none;
  for (int d = 0; d < 3; ++d) {
    none.lo[d] = std::numeric_limits<T>::max();
    none.hi[d] = -std::numeric_limits<T>::max();
  }
  const GravityBox<T> box = exec.transform_reduce(n, none, MeasureGravityBox<T, D>{x}, CombineGravityBox<T>{});
  side = T(0);
  for (int d = 0; d < D; ++d) side = std::max(side, box.hi[d] - box.lo[d]);
  if (!(side > T(0)) || !std::isfinite(double(side))) side = T(1);  // one point, or NaN (reported later)
  side *= T(1) + T(16) * std::numeric_limits<T>::epsilon();
  const T cells = T(double(uint64_t(1) << gravity_levels<D>()));
  GravityKeys<T, D> k{x, keys, perm, {box.lo[0], box.lo[1], box.lo[2]}, cells / side};
  for (int d = D; d < 3; ++d) k.lo[d] = T(0);
  for (int d = 0; d < D; ++d)
    if (!std::isfinite(double(k.lo[d]))) k.lo[d] = T(0);
  return k;
}

// 1 where the keys descend between i and i + 1 (summed: 0 when the keys are already in order, as when
// the particles were sorted by the same keys before, by the gas's tree neighbour search).
struct GravityKeyDescents {
  const uint64_t* keys;
  EJ_INLINE uint32_t operator()(std::size_t i) const { return keys[i] > keys[i + 1] ? 1u : 0u; }
};
struct AddGravityCounts {
  EJ_INLINE uint32_t operator()(uint32_t a, uint32_t b) const { return a + b; }
};

// A particle in sorted order: position (3 components), mass. 16-byte aligned, so a GPU thread reads a
// float body with one 128-bit load (the walks read every body of an opened leaf).
template <class T>
struct alignas(16) GravityBody {
  T x[3];
  T m;
};

template <class T, int D>
struct GravityGather {
  const Vec<T, D>* x;
  const T* m;
  const T* h;  // smoothing lengths, used as softening when softening == 0
  const uint32_t* perm;
  GravityBody<T>* body;
  T* eps;
  T softening;
  EJ_INLINE void operator()(std::size_t k) const {
    const uint32_t p = perm[k];
    GravityBody<T> b;
    for (int d = 0; d < 3; ++d) b.x[d] = d < D ? x[p][d] : T(0);
    b.m = m[p];
    body[k] = b;
    eps[k] = softening > T(0) ? softening : h[p];
  }
};

// first: the first child (-1 for a leaf); next: the node after this subtree in depth-first order;
// [begin, end): the node's particles in sorted order.
struct GravityLink {
  int32_t first;
  uint32_t next;
  uint32_t begin, end;
};

// The child digit of a key at tree level l (the D bits below the level's prefix).
template <int D>
EJ_INLINE uint32_t gravity_digit(uint64_t key, int level) {
  const int shift = (gravity_levels<D>() - 1 - level) * D;
  return uint32_t(key >> shift) & ((1u << D) - 1u);
}

// First index in [b, e) whose digit is >= c (digits ascend within a node).
template <int D>
EJ_INLINE uint32_t gravity_lower_bound(const uint64_t* keys, uint32_t b, uint32_t e, int level, uint32_t c) {
  while (b < e) {
    const uint32_t mid = b + (e - b) / 2;
    if (gravity_digit<D>(keys[mid], level) < c)
      b = mid + 1;
    else
      e = mid;
  }
  return b;
}

// Pass 1 of a level: the number of non-empty children of each node of the level (0: a leaf).
template <int D>
struct GravityCountChildren {
  const uint64_t* keys;
  const GravityLink* links;  // the level's first node
  uint32_t* count;
  int level;
  uint32_t leaf;  // most particles in a leaf (gravity.leaf_size)
  EJ_INLINE void operator()(std::size_t k) const {
    const GravityLink l = links[k];
    uint32_t c = 0;
    if (l.end - l.begin > leaf && level < gravity_levels<D>()) {
      uint32_t lo = l.begin;
      for (uint32_t dgt = 1; dgt <= (1u << D); ++dgt) {
        const uint32_t hi = dgt == (1u << D) ? l.end : gravity_lower_bound<D>(keys, lo, l.end, level, dgt);
        if (hi > lo) ++c;
        lo = hi;
      }
    }
    count[k] = c;
  }
};

// Pass 2 of a level: links of the children, placed at child_base + offset[k] in the next level.
template <int D>
struct GravityWriteChildren {
  const uint64_t* keys;
  GravityLink* links;  // the whole node array
  uint32_t* nchild;    // the whole node array
  const uint32_t* count;
  const uint32_t* offset;
  uint32_t level_start, child_base;
  int level;
  EJ_INLINE void operator()(std::size_t k) const {
    GravityLink& parent = links[level_start + k];
    const uint32_t c = count[k];
    nchild[level_start + k] = c;
    if (c == 0) {
      parent.first = -1;
      return;
    }
    const uint32_t first = child_base + offset[k];
    parent.first = int32_t(first);
    uint32_t lo = parent.begin, out = first;
    for (uint32_t dgt = 1; dgt <= (1u << D); ++dgt) {
      const uint32_t hi = dgt == (1u << D) ? parent.end : gravity_lower_bound<D>(keys, lo, parent.end, level, dgt);
      if (hi > lo) {
        GravityLink ch;
        ch.first = -1;
        ch.begin = lo;
        ch.end = hi;
        ch.next = out + 1 < first + c ? out + 1 : parent.next;
        links[out] = ch;
        nchild[out] = 0;
        ++out;
      }
      lo = hi;
    }
  }
};

// What the traversal reads of a node: centre of mass, mass, traceless quadrupole, the squared
// opening radius, the radius of the sphere about the centre of mass that holds its particles and the
// largest softening length of its particles. 16-byte aligned (a float node is padded from 56 to 64
// bytes), so a GPU thread reads it with four 128-bit loads instead of fourteen 32-bit ones.
template <class T>
struct alignas(16) GravityNode {
  T com[3];
  T m;
  T q[6];
  T r_open2;
  T rad;
  T eps;
  T ie;  // 1 / eps (in the padding: the staged warp walk with packed nodes reads it instead of dividing)
};

// What the warp walk's traversal reads of a node, in one 32-byte sector (float; 48 bytes in double):
// the opening test's centre of mass and squared radius, and where to go next: `child` = first child
// << 3 | (children - 1) (the walk's stack encoding) or kGravityEnd for a leaf, whose particles are
// [begin, end). gravity.warp_nodes = packed (octree_warp_walk.h), written by GravityMoments. The
// opening test of Bonsai and Ryoanji reads its node data so (one load of the cell's centre and
// squared opening radius, Bedorf et al. 2012, sec. 3.3).
template <class T>
struct alignas(16) GravityWalkNode {
  T com[3];
  T r_open2;
  uint32_t child, begin, end, pad;
};

// The Morton key's coordinates back (the inverse of morton_spread3 / morton_spread2).
EJ_INLINE uint32_t morton_compact3(uint64_t v) {
  v &= 0x1249249249249249ull;
  v = (v | v >> 2) & 0x10c30c30c30c30c3ull;
  v = (v | v >> 4) & 0x100f00f00f00f00full;
  v = (v | v >> 8) & 0x1f0000ff0000ffull;
  v = (v | v >> 16) & 0x1f00000000ffffull;
  v = (v | v >> 32) & 0x1fffffull;
  return uint32_t(v);
}
EJ_INLINE uint32_t morton_compact2(uint64_t v) {
  v &= 0x5555555555555555ull;
  v = (v | v >> 1) & 0x3333333333333333ull;
  v = (v | v >> 2) & 0x0f0f0f0f0f0f0f0full;
  v = (v | v >> 4) & 0x00ff00ff00ff00ffull;
  v = (v | v >> 8) & 0x0000ffff0000ffffull;
  v = (v | v >> 16) & 0x00000000ffffffffull;
  return uint32_t(v);
}
template <int D>
EJ_INLINE void morton_decode(uint64_t key, uint32_t* c) {
  c[0] = c[1] = c[2] = 0;
  if (D == 1) {
    c[0] = uint32_t(key);
  } else if (D == 2) {
    c[0] = morton_compact2(key);
    c[1] = morton_compact2(key >> 1);
  } else {
    c[0] = morton_compact3(key);
    c[1] = morton_compact3(key >> 1);
    c[2] = morton_compact3(key >> 2);
  }
}

// Multipoles of the nodes of one level, from their particles (leaves) or their children (the next
// level, done before). The opening radius is the Barnes-Hut l / theta (l the cell side) plus the
// offset of the centre of mass from the cell's centre (Barnes 1994, in "Computational Astrophysics",
// p. 33; the remedy of Salmon & Warren 1994, J. Comput. Phys. 111, 136, for cells whose mass sits in
// a corner). The softening is the walk's business (octree_walk.h).
template <class T, int D>
struct GravityMoments {
  const uint64_t* keys;
  const GravityBody<T>* body;
  const T* eps;
  const GravityLink* links;
  const uint32_t* nchild;
  GravityNode<T>* nodes;
  uint32_t level_start;
  int level;
  T lo[3], side0, inv_theta;
  GravityWalkNode<T>* walk = nullptr;  // the packed traversal nodes, or null (gravity.warp_nodes = split)
  EJ_INLINE void operator()(std::size_t k) const {
    const uint32_t me = level_start + uint32_t(k);
    const GravityLink l = links[me];
    GravityNode<T> nd;
    T M = T(0), c[3] = {T(0), T(0), T(0)}, emax = T(0), rad = T(0);
    for (int a = 0; a < 6; ++a) nd.q[a] = T(0);
    if (l.first < 0) {
      for (uint32_t j = l.begin; j < l.end; ++j) {
        const GravityBody<T> b = body[j];
        M += b.m;
        for (int a = 0; a < 3; ++a) c[a] += b.m * b.x[a];
        if (eps[j] > emax) emax = eps[j];
      }
    } else {
      for (uint32_t j = uint32_t(l.first); j < uint32_t(l.first) + nchild[me]; ++j) {
        const GravityNode<T>& ch = nodes[j];
        M += ch.m;
        for (int a = 0; a < 3; ++a) c[a] += ch.m * ch.com[a];
        if (ch.eps > emax) emax = ch.eps;
      }
    }
    // The cell's geometry from the key of its first particle.
    uint32_t cell[3];
    morton_decode<D>(keys[l.begin], cell);
    const T side = side0 / T(uint64_t(1) << level);
    T centre[3] = {T(0), T(0), T(0)};
    for (int a = 0; a < D; ++a) centre[a] = lo[a] + (T(cell[a] >> (gravity_levels<D>() - level)) + T(0.5)) * side;
    for (int a = 0; a < 3; ++a) c[a] = M > T(0) ? c[a] / M : centre[a];
    if (l.first < 0) {
      for (uint32_t j = l.begin; j < l.end; ++j) {
        const GravityBody<T> b = body[j];
        const T d[3] = {b.x[0] - c[0], b.x[1] - c[1], b.x[2] - c[2]};
        add_point_quadrupole(nd.q, b.m, d);
        const T r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (r > rad) rad = r;
      }
    } else {
      for (uint32_t j = uint32_t(l.first); j < uint32_t(l.first) + nchild[me]; ++j) {
        const GravityNode<T>& ch = nodes[j];
        const T s[3] = {ch.com[0] - c[0], ch.com[1] - c[1], ch.com[2] - c[2]};
        for (int a = 0; a < 6; ++a) nd.q[a] += ch.q[a];
        add_point_quadrupole(nd.q, ch.m, s);
        const T r = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) + ch.rad;
        if (r > rad) rad = r;
      }
    }
    T off2 = T(0);
    for (int a = 0; a < 3; ++a) off2 += (c[a] - centre[a]) * (c[a] - centre[a]);
    const T off = sqrt(off2);
    const T geo = T(0.5) * sqrt(T(D)) * side + off;  // the cell's corners seen from the centre of mass
    if (geo < rad) rad = geo;
    const T r_open = side * inv_theta + off;
    for (int a = 0; a < 3; ++a) nd.com[a] = c[a];
    nd.m = M;
    nd.r_open2 = r_open * r_open;
    nd.rad = rad;
    nd.eps = emax;
    nd.ie = T(1) / emax;
    nodes[me] = nd;
    if (walk) {
      GravityWalkNode<T> w;
      for (int a = 0; a < 3; ++a) w.com[a] = c[a];
      w.r_open2 = nd.r_open2;
      w.child = l.first < 0 ? kGravityEnd : (uint32_t(l.first) << 3) | (nchild[me] - 1u);
      w.begin = l.begin;
      w.end = l.end;
      w.pad = 0;
      walk[me] = w;
    }
  }
};

// The cell box of each node of one level (the viewer draws the top levels): from the key of the
// node's first particle, as GravityMoments finds the cell centre.
template <class T>
struct GravityCellBox {
  T lo[3], hi[3];
};

template <class T, int D>
struct GravityCellBoxes {
  const uint64_t* keys;
  const GravityLink* links;
  GravityCellBox<T>* out;
  uint32_t level_start;
  int level;
  T lo[3], side0;
  EJ_INLINE void operator()(std::size_t k) const {
    const uint32_t me = level_start + uint32_t(k);
    uint32_t cell[3];
    morton_decode<D>(keys[links[me].begin], cell);
    const T side = side0 / T(uint64_t(1) << level);
    GravityCellBox<T> b;
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = a < D ? lo[a] + T(cell[a] >> (gravity_levels<D>() - level)) * side : T(0);
      b.hi[a] = a < D ? b.lo[a] + side : T(0);
    }
    out[me] = b;
  }
};

// The bounding box of each group of `size` consecutive sorted particles.
template <class T>
struct GravityGroup {
  T lo[3], hi[3];
};

// The bounding box of the sorted bodies [b, e), e > b.
template <class T, class I>
EJ_INLINE GravityGroup<T> gravity_group_box(const GravityBody<T>* body, I b, I e) {
  GravityGroup<T> out;
  for (int a = 0; a < 3; ++a) out.lo[a] = out.hi[a] = body[b].x[a];
  for (I j = b + 1; j < e; ++j) {
    for (int a = 0; a < 3; ++a) {
      const T v = body[j].x[a];
      if (v < out.lo[a]) out.lo[a] = v;
      if (v > out.hi[a]) out.hi[a] = v;
    }
  }
  return out;
}

template <class T>
struct GravityGroupBounds {
  const GravityBody<T>* body;
  GravityGroup<T>* groups;
  std::size_t n;
  uint32_t size;
  EJ_INLINE void operator()(std::size_t g) const {
    const std::size_t b = g * size;
    const std::size_t e = b + size < n ? b + size : n;
    groups[g] = gravity_group_box(body, b, e);
  }
};

}  // namespace ejecta
