#pragma once
// The octree's levels from sorted 64-bit Morton keys, top-down (octree_build.h's count, scan and write
// passes; Cornerstone's sorted-keys approach, Keller et al. 2023), on either backend. Shared by the
// self-gravity tree (self_gravity.h) and the tree neighbour search (neighbors/tree_index.h).
#include "exec/device_array.h"
#include "gravity/octree_build.h"
#include "gravity/octree_from_keys.h"

#include <algorithm>
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
    if (node_keys.size() != 0) reserve_keys(exec, tally);
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

  // The same levels in one pass from the keys (octree_from_keys.h; gravity.build = keys): a count
  // and a write pass over the particles, a scan, a sort of the node keys, a scatter of their places
  // and a link pass over the nodes.
  // Three values come back to the host (the node count, the sort's key span, the level starts).
  // False when the node array is too small.
  template <int D>
  bool build_from_keys(Exec& exec, const uint64_t* keys, std::size_t n, uint32_t leaf, std::size_t* tally) {
    constexpr int kStarts = gravity_levels<D>() + 2;  // level starts 0 .. levels + 1
    if (starts_n.size() < n || starts_off.size() < n + 1 || starts_off.size() < std::size_t(kStarts)) {
      starts_n.resize(exec, n, tally);
      starts_off.resize(exec, std::max<std::size_t>(n + 1, kStarts), tally);
    }
    if (node_keys.size() < cap) reserve_keys(exec, tally);
    const uint32_t nn = uint32_t(n);
    exec.for_each(n, GravityCountNodeStarts<D>{keys, starts_n.data(), nn, leaf});
    exec.exclusive_scan(starts_n.data(), starts_off.data(), n);
    uint32_t m = 0;
    exec.download(&m, starts_off.data() + n, sizeof m);
    if (m > cap) return false;
    exec.for_each(n, GravityWriteNodeKeys<D>{keys, starts_off.data(), node_keys.data(), node_vals.data(), nn, leaf});
    exec.sort_pairs64(node_keys.ptr(), node_vals.ptr(), node_keys_alt.ptr(), node_vals_alt.ptr(), m);
    exec.for_each(m, GravityNodePlaces{node_vals.data(), node_vals_alt.data()});  // the sort's scratch, free now
    exec.for_each(m, GravityLinksFromKeys<D>{keys, node_keys.data(), starts_off.data(), node_vals_alt.data(), links.data(),
                                             nchild.data(), nn, leaf});
    exec.for_each(kStarts, GravityLevelStartsFromKeys{node_keys.data(), m, starts_off.data()});
    uint32_t host[kStarts];
    exec.download(host, starts_off.data(), sizeof host);
    // As build(): the starts of the levels that have nodes, then the node count.
    level_start.assign({0u});
    for (int l = 1; l < kStarts && host[l - 1] < m; ++l) level_start.push_back(host[l]);
    return true;
  }

 private:
  void reserve_keys(Exec& exec, std::size_t* tally) {
    node_keys.resize(exec, cap, tally);
    node_keys_alt.resize(exec, cap, tally);
    node_vals.resize(exec, cap, tally);
    node_vals_alt.resize(exec, cap, tally);
  }
  // build_from_keys' scratch: nodes beginning at each particle and their offsets; the node keys.
  DeviceArray<uint32_t, Exec> starts_n, starts_off;
  DeviceArray<uint64_t, Exec> node_keys, node_keys_alt;
  DeviceArray<uint32_t, Exec> node_vals, node_vals_alt;
};

}  // namespace ejecta
