#pragma once
// The octree's levels in one pass from the sorted Morton keys (gravity.build = keys), without the
// per-level count, scan and host round trip of octree_levels.h's top-down build. The same tree, node
// for node (level by level, key order within a level, children contiguous, the same skip pointers),
// so everything downstream is unchanged. After Cornerstone (Keller et al. 2023, PASC '23): a node is a
// run of sorted keys sharing a prefix of l digits (level l), and which runs are nodes follows from
// comparing keys at fixed offsets:
//   - particle i starts a run at level l exactly when l > s(i), s(i) the number of leading digits that
//     key[i - 1] and key[i] share (s = -1 for i = 0);
//   - a run that starts at i has more than `leaf` particles (an internal node, below the deepest level)
//     exactly when key[i + leaf] shares its l digits with key[i];
//   - the run at level s(i) containing i (the parent of i's shallowest node) is internal when at
//     least leaf + 1 keys of the window [i - leaf, i + leaf] share its prefix (a run is contiguous).
// So i starts the nodes of levels s(i) + 1 .. top(i) (nodes_at_start below). Each node is written as
// the 64-bit key level << 32 | begin; sorting those keys (exec.sort_pairs64) gives the level-by-level
// order, and each node then finds its end (a search from its first particle), its first child and
// the node after its subtree (through the slots of pass 2) and counts its children by digit
// (GravityLinksFromKeys). Host round trips: the node count, the sort's key span and the level starts
// (3, against one per level).
#include "core/hd.h"
#include "gravity/octree_build.h"

#include <cstddef>
#include <cstdint>

namespace ejecta {

// Leading digits (levels) that keys a and b share: 0 .. gravity_levels<D>() (equal keys).
template <int D>
EJ_INLINE int gravity_shared_levels(uint64_t a, uint64_t b) {
  const uint64_t x = a ^ b;
  if (x == 0) return gravity_levels<D>();
#if defined(__CUDA_ARCH__)
  const int hb = 63 - __clzll(static_cast<long long>(x));
#else
  const int hb = 63 - __builtin_clzll(x);
#endif
  return gravity_levels<D>() - 1 - hb / D;
}

// The prefix of level l (its l leading digits).
template <int D>
EJ_INLINE uint64_t gravity_prefix(uint64_t key, int level) {
  return key >> ((gravity_levels<D>() - level) * D);
}

// The nodes that begin at particle i: levels [first, first + count), written to `first`; count 0 when
// none begins there.
template <int D>
EJ_INLINE uint32_t gravity_nodes_at_start(const uint64_t* keys, uint32_t n, uint32_t leaf, uint32_t i, int& first) {
  constexpr int L = gravity_levels<D>();
  int s = -1;  // the level of the parent of i's shallowest node
  if (i > 0) {
    s = gravity_shared_levels<D>(keys[i - 1], keys[i]);
    if (s == L) return 0;  // the same finest cell as i - 1: no run begins here
    // Is the run of level s containing i internal (more than `leaf` particles)? Its extent within
    // [i - leaf, i + leaf] by two binary searches on the prefix (a run is contiguous).
    const uint64_t p = gravity_prefix<D>(keys[i], s);
    uint32_t lo = i > leaf ? i - leaf : 0, hi = i;  // first index with prefix p
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (gravity_prefix<D>(keys[mid], s) < p)
        lo = mid + 1;
      else
        hi = mid;
    }
    const uint32_t b = lo;
    lo = i + 1;
    hi = i + leaf + 1 < n ? i + leaf + 1 : n;  // first index past the prefix p
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (gravity_prefix<D>(keys[mid], s) == p)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo - b <= leaf) return 0;  // i lies in a leaf of level s
  }
  // The runs beginning at i are internal down to level c (and never at the deepest level).
  const int c = i + leaf < n ? gravity_shared_levels<D>(keys[i], keys[i + leaf]) : -1;
  const int deepest_internal = c < L - 1 ? c : L - 1;
  const int top = deepest_internal + 1 > s + 1 ? deepest_internal + 1 : s + 1;
  first = s + 1;
  return uint32_t(top - s);
}

// Pass 1: the number of nodes beginning at each particle.
template <int D>
struct GravityCountNodeStarts {
  const uint64_t* keys;
  uint32_t* count;
  uint32_t n, leaf;
  EJ_INLINE void operator()(std::size_t i) const {
    int first = 0;
    count[i] = gravity_nodes_at_start<D>(keys, n, leaf, uint32_t(i), first);
  }
};

// Pass 2: their keys level << 32 | begin at the scanned offsets (the values: the slot, unused).
template <int D>
struct GravityWriteNodeKeys {
  const uint64_t* keys;
  const uint32_t* offset;
  uint64_t* node_keys;
  uint32_t* node_vals;
  uint32_t n, leaf;
  EJ_INLINE void operator()(std::size_t i) const {
    int first = 0;
    const uint32_t c = gravity_nodes_at_start<D>(keys, n, leaf, uint32_t(i), first);
    const uint32_t o = offset[i];
    for (uint32_t k = 0; k < c; ++k) {
      node_keys[o + k] = (uint64_t(uint32_t(first) + k) << 32) | uint64_t(i);
      node_vals[o + k] = o + k;
    }
  }
};

// First position in the sorted node keys [0, m) whose key is >= v.
EJ_INLINE uint32_t gravity_node_lower_bound(const uint64_t* node_keys, uint32_t m, uint64_t v) {
  uint32_t lo = 0, hi = m;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (node_keys[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Between the sort and pass 4: pos[slot] = the sorted place of the node written at `slot` by pass 2.
struct GravityNodePlaces {
  const uint32_t* node_vals;  // the sorted nodes' slots
  uint32_t* pos;
  EJ_INLINE void operator()(std::size_t k) const { pos[node_vals[k]] = uint32_t(k); }
};

// Pass 4, per node (in sorted order): its link and children count, as GravityWriteChildren writes them.
// The node (level, b) ends at the first key past its prefix (an exponential search from b: a few steps
// for the many small nodes); its first child is the node (level + 1, b), written at slot
// offset[b] + level + 1 - (first level beginning at b); the node after its subtree is the shallowest
// node beginning at its end e, written at slot offset[e]; its children are counted by digit within
// [b, e) (GravityCountChildren's binary searches).
template <int D>
struct GravityLinksFromKeys {
  const uint64_t* keys;     // the particles' sorted keys
  const uint64_t* node_keys;  // the sorted node keys
  const uint32_t* offset;   // pass 2's slots of each particle's first node
  const uint32_t* pos;      // GravityNodePlaces
  GravityLink* links;
  uint32_t* nchild;
  uint32_t n, leaf;  // particles, leaf size
  EJ_INLINE void operator()(std::size_t k) const {
    constexpr int L = gravity_levels<D>();
    const uint64_t nk = node_keys[k];
    const int level = int(nk >> 32);
    const uint32_t b = uint32_t(nk);
    // The run's end: the first key past its prefix, by doubling steps and then bisection.
    const uint64_t p = gravity_prefix<D>(keys[b], level);
    uint32_t lo = b + 1, hi = n, step = 1;  // [b, lo) share the prefix; hi does not (or is n)
    while (lo < n) {
      const uint32_t probe = n - lo > step - 1 ? lo + step - 1 : n - 1;
      if (gravity_prefix<D>(keys[probe], level) != p) {
        hi = probe;
        break;
      }
      lo = probe + 1;
      step *= 2;
    }
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (gravity_prefix<D>(keys[mid], level) == p)
        lo = mid + 1;
      else
        hi = mid;
    }
    const uint32_t e = lo;
    GravityLink l;
    l.begin = b;
    l.end = e;
    l.first = -1;
    uint32_t c = 0;
    if (e - b > leaf && level < L) {
      const int first_level = b == 0 ? 0 : gravity_shared_levels<D>(keys[b - 1], keys[b]) + 1;
      l.first = int32_t(pos[offset[b] + uint32_t(level + 1 - first_level)]);
      uint32_t clo = b;
      for (uint32_t dgt = 1; dgt <= (1u << D); ++dgt) {
        const uint32_t chi = dgt == (1u << D) ? e : gravity_lower_bound<D>(keys, clo, e, level, dgt);
        if (chi > clo) ++c;
        clo = chi;
      }
    }
    l.next = e < n ? pos[offset[e]] : kGravityEnd;
    links[k] = l;
    nchild[k] = c;
  }
};

// The first node of each level 0 .. levels + 1 (the last: the node count) by binary search.
struct GravityLevelStartsFromKeys {
  const uint64_t* node_keys;
  uint32_t m;
  uint32_t* starts;
  EJ_INLINE void operator()(std::size_t l) const {
    starts[l] = gravity_node_lower_bound(node_keys, m, uint64_t(l) << 32);
  }
};

}  // namespace ejecta
