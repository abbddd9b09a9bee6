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

// The groups a node makes, counted (out == nullptr) or written as [begin, end) pairs at out.
EJ_INLINE uint32_t gravity_node_groups(const GravityLink* links, const uint32_t* nchild, uint32_t k, uint32_t size,
                                       uint32_t* out) {
  const GravityLink l = links[k];
  const uint32_t np = l.end - l.begin;
  uint32_t c = 0;
  if (np <= size) {
    if (k != 0) return 0;  // made by its parent
    if (out) {
      out[0] = l.begin;
      out[1] = l.end;
    }
    return 1;
  }
  if (l.first < 0) {  // a large leaf: chunks of `size`
    for (uint32_t b = l.begin; b < l.end; b += size, ++c)
      if (out) {
        out[2 * c] = b;
        out[2 * c + 1] = b + size < l.end ? b + size : l.end;
      }
    return c;
  }
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

struct GravityCountTreeGroups {
  const GravityLink* links;
  const uint32_t* nchild;
  uint32_t* count;
  uint32_t size;
  EJ_INLINE void operator()(std::size_t k) const {
    count[k] = gravity_node_groups(links, nchild, uint32_t(k), size, nullptr);
  }
};

struct GravityWriteTreeGroups {
  const GravityLink* links;
  const uint32_t* nchild;
  const uint32_t* offset;
  uint32_t* ranges;  // [begin, end) per group
  uint32_t size;
  EJ_INLINE void operator()(std::size_t k) const {
    gravity_node_groups(links, nchild, uint32_t(k), size, ranges + 2 * std::size_t(offset[k]));
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
