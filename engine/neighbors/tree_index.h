#pragma once
// Owns the octree of the tree neighbour search (tree_search.h) on one backend: the LevelIndex
// counterpart for gas.neighbour_search = tree. sort() keys each particle by the 64-bit Morton code of
// its position in the particles' bounding box (measured every call, so particles flying away never
// fold onto others as in a fixed table) and sorts; the caller reorders its particle data by
// permutation(); build() makes the levels from the sorted keys (octree_levels.h) and the node boxes;
// refit() recomputes the boxes and largest h after h has moved (the density pass).
#include "exec/device_array.h"
#include "gravity/octree_build.h"
#include "gravity/octree_levels.h"
#include "neighbors/tree_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ejecta {

template <class T, int D, class Exec>
class TreeIndex {
 public:
  TreeIndex(Exec& exec, std::size_t n, std::size_t* tally, int leaf = kTreeSearchLeaf)
      : exec_(exec), n_(n), tally_(tally), leaf_(uint32_t(leaf > 0 ? leaf : kTreeSearchLeaf)) {
    keys_.resize(exec, n, tally);
    keys_alt_.resize(exec, n, tally);
    perm_.resize(exec, n, tally);
    perm_alt_.resize(exec, n, tally);
    reserve(n / 2 + 64);
  }

  // Morton keys in the bounding box of x, sorted with the permutation (one reduction comes back).
  void sort(const Vec<T, D>* x) {
    if (n_ == 0) return;
    T side;
    const GravityKeys<T, D> keys = gravity_keys_in_box<T, D>(exec_, x, n_, keys_.data(), perm_.data(), side);
    exec_.for_each(n_, keys);
    exec_.sort_pairs64(keys_.ptr(), perm_.ptr(), keys_alt_.ptr(), perm_alt_.ptr(), n_);
  }
  const uint32_t* permutation() const { return perm_.data(); }

  // The tree over the sorted keys and its boxes; x and h in sorted order (after the caller's reorder).
  void build(const Vec<T, D>* x, const T* h) {
    if (n_ == 0) return;
    while (!lv_.template build<D>(exec_, keys_.data(), n_, leaf_)) reserve(lv_.cap * 2);
    refit(x, h);
  }

  // Boxes and largest h per node, bottom-up, one level at a time.
  void refit(const Vec<T, D>* x, const T* h) {
    if (n_ == 0) return;
    for (int l = int(lv_.level_start.size()) - 2; l >= 0; --l)
      exec_.for_each(lv_.level_start[l + 1] - lv_.level_start[l],
                     TreeNodeBounds<T, D>{lv_.links.data(), lv_.nchild.data(), x, h, boxes_.data(), lv_.level_start[l]});
  }

  NeighborTree<T, D> tree() const { return NeighborTree<T, D>{lv_.links.data(), boxes_.data(), uint32_t(n_)}; }
  std::size_t nodes() const { return lv_.nodes(); }
  int levels() const { return lv_.levels(); }

 private:
  void reserve(std::size_t cap) {
    lv_.reserve(exec_, cap, tally_);
    boxes_.resize(exec_, cap, tally_);
  }

  Exec& exec_;
  std::size_t n_;
  std::size_t* tally_;
  uint32_t leaf_;
  DeviceArray<uint64_t, Exec> keys_, keys_alt_;
  DeviceArray<uint32_t, Exec> perm_, perm_alt_;
  OctreeLevels<Exec> lv_;
  DeviceArray<TreeSearchBox<T>, Exec> boxes_;
};

}  // namespace ejecta
