#pragma once
// Target groups aligned with the tree (gravity.warp_groups = tree), for the warp walk: 32 or 64
// consecutive sorted particles can straddle the boundary of two large cells far apart in space (Morton
// order jumps there), and such a group's bounding box, up to the whole domain, opens nearly every
// cell near it: on the benchmark's 10^6 lattice 6% of the groups of 32 span more than 10 dp and the
// largest 99 dp, and on a GPU the walk of such a warp outlasts the rest of the kernel. Here a group is
// a run of consecutive children of one node, each with at most `size` particles, packed greedily in
// child order up to `size` particles (Bedorf et al. 2012, sec. 3.2, build their groups from tree
// cells for the same reason); a leaf with more than `size` particles is cut into chunks of `size`.
// A group's box then lies within one cell whose parent has more than `size` particles. Every
// particle belongs to one group: a node of more than `size` particles makes the groups of its small
// children, and each of its large children is such a node itself (the root makes one group when it
// is small). Built per node: a count pass, an exclusive scan and a write pass (octree_build.h's way).
#include "core/hd.h"
#include "gravity/octree_build.h"

#include <cstdint>

namespace ejecta {

// The groups of a node whose children need no grouping, counted (out == nullptr) or written: a node of
// at most `size` particles is one group (made by the root only; elsewhere by a node above, so none
// here), a leaf of more is cut into chunks of `size`. Returns false for an inner node of more than `size`
// particles, whose children make its groups.
EJ_INLINE bool gravity_simple_groups(const GravityLink& l, uint32_t k, uint32_t size, uint32_t* out, uint32_t* count) {
  *count = 0;
  if (l.end - l.begin <= size) {
    if (k != 0) return true;
    if (out) {
      out[0] = l.begin;
      out[1] = l.end;
    }
    *count = 1;
    return true;
  }
  if (l.first >= 0) return false;
  uint32_t c = 0;
  for (uint32_t b = l.begin; b < l.end; b += size, ++c)
    if (out) {
      out[2 * c] = b;
      out[2 * c + 1] = b + size < l.end ? b + size : l.end;
    }
  *count = c;
  return true;
}

// The groups a node makes, counted (out == nullptr) or written as [begin, end) pairs at out.
EJ_INLINE uint32_t gravity_node_groups(const GravityLink* links, const uint32_t* nchild, uint32_t k, uint32_t size,
                                       uint32_t* out) {
  const GravityLink l = links[k];
  uint32_t c = 0;
  if (gravity_simple_groups(l, k, size, out, &c)) return c;
  uint32_t run_begin = 0, run = 0;  // the open group: its first particle, its particles
  const uint32_t first = uint32_t(l.first), last = first + nchild[k];
  for (uint32_t j = first; j < last; ++j) {
    const GravityLink ch = links[j];
    const uint32_t s = ch.end - ch.begin;
    if (run > 0 && (s > size || run + s > size)) {  // close the open group
      if (out) {
        out[2 * c] = run_begin;
        out[2 * c + 1] = run_begin + run;
      }
      ++c;
      run = 0;
    }
    if (s > size) continue;  // a large child makes its own groups
    if (run == 0) run_begin = ch.begin;
    run += s;
  }
  if (run > 0) {
    if (out) {
      out[2 * c] = run_begin;
      out[2 * c + 1] = run_begin + run;
    }
    ++c;
  }
  return c;
}

// gravity.warp_groups = cousins: the same atoms (a subtree of at most `size` particles whose parent has
// more; a large leaf's chunks as above), packed greedily in key order across the children of one
// grandparent, so the remainder of one cell shares a warp with the first atoms of the next: on the
// 100^3 lattice of the benchmark the tree groups fill 72% of the lanes (5,488 of the 43,584 groups hold
// 4 particles), since a cell of 36 particles makes a group of 32 and one of 4. A node G of more than
// `size` and at most kGravityCousinCap x `size` particles (a small, dense cell) emits the runs of the
// atoms among its grandchildren; a larger G leaves them to their parents (its children), as the tree
// groups do: without the cap the sparse outskirts of a Plummer sphere merged atoms across the root's
// children, and one group of 10^5 met every particle. A node groups its own atom children when it is
// the root or its parent does not (`parent_merges`, GravityMarkCousinMerges). A run closes at `size`
// particles and where a particle range that is not the node's intervenes. A group's box lies within
// G's cell, twice the side of the tree groups' cell: fewer warps, each meeting somewhat more cells.
constexpr uint32_t kGravityCousinCap = 16;

EJ_INLINE bool gravity_cousins_merge(const GravityLink& l, uint32_t size) {
  const uint32_t np = l.end - l.begin;
  return l.first >= 0 && np > size && np <= kGravityCousinCap * size;
}

// parent_merges[j] = 1 when node j's parent packs its grandchildren (every node but the root is written).
struct GravityMarkCousinMerges {
  const GravityLink* links;
  const uint32_t* nchild;
  uint32_t* parent_merges;
  uint32_t size;
  EJ_INLINE void operator()(std::size_t k) const {
    if (k == 0) parent_merges[0] = 0;
    const GravityLink l = links[k];
    if (l.first < 0) return;
    const uint32_t m = gravity_cousins_merge(l, size) ? 1u : 0u;
    for (uint32_t j = uint32_t(l.first); j < uint32_t(l.first) + nchild[k]; ++j) parent_merges[j] = m;
  }
};

EJ_INLINE uint32_t gravity_node_cousin_groups(const GravityLink* links, const uint32_t* nchild, const uint32_t* parent_merges,
                                              uint32_t k, uint32_t size, uint32_t* out) {
  const GravityLink l = links[k];
  uint32_t c = 0;
  if (gravity_simple_groups(l, k, size, out, &c)) return c;
  const bool merges = gravity_cousins_merge(l, size);  // packs its grandchildren's atoms
  const bool own = k == 0 || parent_merges[k] == 0;    // groups its own atom children
  uint32_t run_begin = 0, run = 0;                     // the open group: its first particle, its particles
  auto close = [&]() {
    if (run == 0) return;
    if (out) {
      out[2 * c] = run_begin;
      out[2 * c + 1] = run_begin + run;
    }
    ++c;
    run = 0;
  };
  auto add = [&](const GravityLink& a) {  // an atom, next in key order
    const uint32_t s = a.end - a.begin;
    if (run > 0 && (run + s > size || run_begin + run != a.begin)) close();
    if (run == 0) run_begin = a.begin;
    run += s;
  };
  const uint32_t first = uint32_t(l.first), last = first + nchild[k];
  for (uint32_t j = first; j < last; ++j) {
    const GravityLink ch = links[j];
    if (ch.end - ch.begin <= size) {  // an atom child
      if (own)
        add(ch);
      else
        close();
      continue;
    }
    if (ch.first < 0 || !merges) {  // a large leaf makes its chunks; a large child its own groups
      close();
      continue;
    }
    const uint32_t f2 = uint32_t(ch.first), l2 = f2 + nchild[j];
    for (uint32_t i = f2; i < l2; ++i) {
      const GravityLink g = links[i];
      if (g.end - g.begin <= size)
        add(g);
      else
        close();  // a large grandchild makes the groups below it
    }
  }
  close();
  return c;
}

struct GravityCountTreeGroups {
  const GravityLink* links;
  const uint32_t* nchild;
  uint32_t* count;
  uint32_t size;
  const uint32_t* parent_merges = nullptr;  // non-null: gravity_node_cousin_groups
  EJ_INLINE void operator()(std::size_t k) const {
    count[k] = parent_merges ? gravity_node_cousin_groups(links, nchild, parent_merges, uint32_t(k), size, nullptr)
                       : gravity_node_groups(links, nchild, uint32_t(k), size, nullptr);
  }
};

struct GravityWriteTreeGroups {
  const GravityLink* links;
  const uint32_t* nchild;
  const uint32_t* offset;
  uint32_t* ranges;  // [begin, end) per group
  uint32_t size;
  const uint32_t* parent_merges = nullptr;
  EJ_INLINE void operator()(std::size_t k) const {
    uint32_t* out = ranges + 2 * std::size_t(offset[k]);
    if (parent_merges)
      gravity_node_cousin_groups(links, nchild, parent_merges, uint32_t(k), size, out);
    else
      gravity_node_groups(links, nchild, uint32_t(k), size, out);
  }
};

// The bounding box of each group given as a [begin, end) range.
template <class T>
struct GravityRangeGroupBounds {
  const GravityBody<T>* body;
  const uint32_t* ranges;
  GravityGroup<T>* groups;
  EJ_INLINE void operator()(std::size_t g) const {
    groups[g] = gravity_group_box(body, ranges[2 * g], ranges[2 * g + 1]);
  }
};

}  // namespace ejecta
