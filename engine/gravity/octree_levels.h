#pragma once
// The octree's levels from sorted 64-bit Morton keys, top-down (octree_build.h's count, scan and write
// passes; Cornerstone's sorted-keys approach, Keller et al. 2023), on either backend. Shared by the
// self-gravity tree (self_gravity.h) and the tree neighbour search (neighbors/tree_index.h).
#include "exec/device_array.h"
#include "gravity/octree_build.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ejecta {

// The node arrays of one tree: links (children, skip pointer, particle range), the children counts,
// and the per-level count and offset scratch; cap() nodes each.
template <class Exec>
struct OctreeLevels {
  DeviceArray<GravityLink, Exec> links;
  DeviceArray<uint32_t, Exec> nchild, count, offset;
  std::vector<uint32_t> level_start;  // first node of each level and, last, the node count
  std::size_t cap = 0;

  void reserve(Exec& exec, std::size_t c, std::size_t* tally) {
    cap = c;
    links.resize(exec, c, tally);
    nchild.resize(exec, c, tally);
    count.resize(exec, c, tally);
    offset.resize(exec, c + 1, tally);
  }
  std::size_t nodes() const { return level_start.empty() ? 0 : level_start.back(); }
  int levels() const { return int(level_start.size()) - 2; }  // levels below the root that have nodes

  // The levels of the tree over the n sorted keys; leaves of at most `leaf` particles. False when the
  // node array is too small (reserve more and call again). One integer per level comes back to the host.
  template <int D>
  bool build(Exec& exec, const uint64_t* keys, std::size_t n, uint32_t leaf) {
    const GravityLink root{-1, kGravityEnd, 0, uint32_t(n)};
    exec.upload(links.data(), &root, sizeof root);
    level_start.assign({0u, 1u});
    for (int l = 0; l <= gravity_levels<D>(); ++l) {
      const uint32_t s = level_start[l], e = level_start[l + 1], cnt = e - s;
      exec.for_each(cnt, GravityCountChildren<D>{keys, links.data() + s, count.data(), l, leaf});
      exec.exclusive_scan(count.data(), offset.data(), cnt);
      uint32_t total = 0;
      exec.download(&total, offset.data() + cnt, sizeof total);
      if (std::size_t(e) + total > cap) return false;
      exec.for_each(cnt, GravityWriteChildren<D>{keys, links.data(), nchild.data(), count.data(), offset.data(), s, e, l});
      if (total == 0) break;
      level_start.push_back(e + total);
    }
    return true;
  }
};

}  // namespace ejecta
