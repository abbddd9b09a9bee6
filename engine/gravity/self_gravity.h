#pragma once
// Self-gravity by a Barnes-Hut octree, rebuilt at every call, on either backend (one source):
//   bounding box (one reduction) -> 64-bit Morton keys -> sort_pairs64 with the permutation ->
//   gather positions, masses, softening lengths in key order -> the tree level by level (count,
//   exclusive_scan, write; octree_build.h) -> multipoles bottom-up -> group boxes -> the walk, which
//   adds G a to the caller's acceleration and writes G phi, in the caller's order: by default the
//   group walk (octree_group_walk.h: one walk per group of 32 sorted particles into interaction lists,
//   then one pass per particle over its group's lists, in batches of groups), the per-particle walk
//   (octree_walk.h; gravity.walk = particles) or the warp-cooperative walk (octree_warp_walk.h;
//   gravity.walk = warps), all with the same opening decisions.
// Cost O(N log N): the sort and the build are linear per level, the walk visits O(log N) cells per
// particle at a fixed opening angle. The particles themselves are not reordered: the tree works on
// its own sorted copies (20 bytes per particle in float) and scatters its results back.
// Host round trips: the bounding box, and one integer per tree level (the next level's size).
#include "exec/device_array.h"
#include "gravity/gravity_groups.h"
#include "gravity/gravity_phase_times.h"
#include "gravity/octree_build.h"
#include "gravity/octree_group_walk.h"
#include "gravity/octree_levels.h"
#include "gravity/octree_walk.h"
#include "gravity/octree_warp_walk.h"
#include "render_data/render_request.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

struct GravitySettings {
  double G = 6.674e-11;  // m^3 / (kg s^2)
  double theta = 0.5;    // Barnes-Hut opening angle
  double softening = 0;  // spline softening length (m); 0: each particle's smoothing length h
  bool group_walk = true;  // interaction lists per group (octree_group_walk.h); false: octree_walk.h
  bool warp_walk = false;  // the warp-cooperative walk (octree_warp_walk.h; groups of 32), before group_walk
  int group = 0;           // particles per group; 0: kGravityGroup (32); the warp walk has 32 warp_targets
  int leaf = 0;            // most particles in a leaf; 0: kGravityLeaf (16)
  // Warp walk: stage the lists' sources in shared memory (octree_warp_walk.h), and the targets per
  // lane (1 or 2; 2 stages).
  bool warp_staged = false;
  int warp_targets = 1;
  bool warp_tree_groups = false;  // warp walk: groups from the tree (gravity_groups.h), not consecutive
  bool warp_cousins = false;      // with warp_tree_groups: packed across a grandparent's children (gravity_groups.h)
  bool keys_build = false;   // the levels in one pass from the keys (octree_from_keys.h), not level by level
  bool warp_packed = false;  // warp walk, staged: the traversal reads packed 32-byte nodes (GravityWalkNode, octree_build.h)
  bool count = false;      // warp walk: count the interactions (stats' cells/particles_per_particle)
  // Initial list capacities per group (cells, particle ranges); they grow when a group finds more.
  // Small values in a test exercise the growth.
  uint32_t list_cells = 2048, list_ranges = 128;
};

struct GravityTreeStats {
  std::size_t nodes = 0;
  int levels = 0;  // levels below the root that have nodes
  // Group walk: the largest list lengths of the last evaluation and how often a batch was walked
  // again with larger lists.
  uint32_t max_cells = 0, max_ranges = 0;
  int list_regrowths = 0;
  // Group walk, and warp walk with settings.count: mean particle-cell and particle-particle
  // interactions per particle (a group's counts weighted by its particles; the self pair included).
  double cells_per_particle = 0, particles_per_particle = 0;
  bool sort_skipped = false;  // the last build found the particles in key order (hint_sorted) and did not sort
  double most_per_group = 0;  // warp walk with counts: the most interactions (cells + particles) of one group
};

template <class T, int D, class Exec>
class SelfGravity {
 public:
  SelfGravity(Exec& exec, std::size_t n, std::size_t* tally) : exec_(exec), n_(n), tally_(tally) {
    keys_.resize(exec, n, tally);
    keys_alt_.resize(exec, n, tally);
    perm_.resize(exec, n, tally);
    perm_alt_.resize(exec, n, tally);
    body_.resize(exec, n, tally);
    eps_.resize(exec, n, tally);
    reserve_nodes(n / 2 + 64);
    set(settings_);
  }

  void set(const GravitySettings& s) {
    settings_ = s;
    group_ = uint32_t(s.warp_walk ? kWarpLanes * (s.warp_targets == 2 ? 2 : 1) : (s.group > 0 ? s.group : kGravityGroup));
    const std::size_t ng = (n_ + group_ - 1) / group_;
    if (groups_.size() != ng) groups_.resize(exec_, ng, tally_);
  }

  // The cells of the tree's levels 0 .. `levels` - 1 as built by the last accumulate() (empty
  // before the first), for drawing; one pass per level and one download.
  std::vector<TreeCellBox> cells(int levels) {
    std::vector<TreeCellBox> out;
    if (lv_.level_start.size() < 2) return out;
    const int have = int(lv_.level_start.size()) - 1;
    const int nl = std::min(levels, have);
    if (nl <= 0) return out;
    const uint32_t count = lv_.level_start[nl];
    DeviceArray<GravityCellBox<T>, Exec> boxes(exec_, count);
    for (int l = 0; l < nl; ++l)
      exec_.for_each(lv_.level_start[l + 1] - lv_.level_start[l],
                     GravityCellBoxes<T, D>{keys_.data(), lv_.links.data(), boxes.data(), lv_.level_start[l], l,
                                            {key_lo_[0], key_lo_[1], key_lo_[2]}, side_});
    std::vector<GravityCellBox<T>> host(count);
    exec_.download(host.data(), boxes.data(), sizeof(GravityCellBox<T>) * count);
    out.resize(count);
    for (int l = 0; l < nl; ++l)
      for (uint32_t k = lv_.level_start[l]; k < lv_.level_start[l + 1]; ++k) {
        for (int a = 0; a < 3; ++a) {
          out[k].lo[a] = double(host[k].lo[a]);
          out[k].hi[a] = double(host[k].hi[a]);
        }
        out[k].level = l;
      }
    return out;
  }
  const GravitySettings& settings() const { return settings_; }
  // The caller's particles are probably in Morton order already (checked at each build; see build()).
  void hint_sorted(bool b) { maybe_sorted_ = b; }
  const GravityTreeStats& stats() const { return stats_; }

  // a[i] += G sum_j ...; phi[i] = G phi_i (phi may be null). h: smoothing lengths, read when
  // settings().softening == 0. With `times` (the benchmark), the device is waited for at each phase
  // boundary and the phases' seconds are added there (gravity_phase_times.h).
  void accumulate(const Vec<T, D>* x, const T* m, const T* h, Vec<T, D>* a, T* phi,
                  GravityPhaseTimes* times = nullptr) {
    if (n_ == 0) return;
    times_ = times;
    build(x, m, h);
    if (settings_.warp_walk) {
      warp_walk(a, phi);
    } else if (settings_.group_walk) {
      group_walk(a, phi);
    } else {
      exec_.for_each_balanced(n_, GravityWalk<T, D>{lv_.links.data(), nodes_.data(), body_.data(), eps_.data(),
                                                    groups_.data(), perm_.data(), a, phi, T(settings_.G), group_});
    }
    lap(times_ ? &times_->walk : nullptr);
    times_ = nullptr;
  }

 private:
  void reserve_nodes(std::size_t cap) {
    lv_.reserve(exec_, cap, tally_);
    nodes_.resize(exec_, cap, tally_);
  }

  // Phase timing: adds the seconds since the last lap to *slot (nothing without timing).
  void lap(double* slot) {
    if (!times_) return;
    exec_.synchronize();
    const auto now = std::chrono::steady_clock::now();
    if (slot) *slot += std::chrono::duration<double>(now - lap_).count();
    lap_ = now;
  }

  // The warp walk (octree_warp_walk.h): one warp per group of 32 or 64, its stack sized by the tree's
  // depth.
  void warp_walk(Vec<T, D>* a, T* phi) {
    if (settings_.warp_targets == 2)
      warp_walk_as<2, true>(a, phi);
    else if (settings_.warp_staged && settings_.warp_packed)
      warp_walk_as<1, true, true>(a, phi);
    else if (settings_.warp_staged)
      warp_walk_as<1, true>(a, phi);
    else
      warp_walk_as<1, false>(a, phi);
  }
  template <int NT, bool Staged, bool Packed = false>
  void warp_walk_as(Vec<T, D>* a, T* phi) {
    using Walk = GravityWarpWalk<T, D, NT, Staged, Packed>;
    std::size_t ngroups = (n_ + Walk::kGroup - 1) / Walk::kGroup;
    const uint32_t* granges = nullptr;
    if (settings_.warp_tree_groups) {  // gravity_groups.h: count, scan, write, boxes
      const std::size_t nodes = stats_.nodes;
      const uint32_t* merges = nullptr;
      if (settings_.warp_cousins) {
        if (cousin_flags_.size() < nodes) cousin_flags_.resize(exec_, lv_.cap, tally_);
        exec_.for_each(nodes, GravityMarkCousinMerges{lv_.links.data(), lv_.nchild.data(), cousin_flags_.data(), Walk::kGroup});
        merges = cousin_flags_.data();
      }
      exec_.for_each(nodes, GravityCountTreeGroups{lv_.links.data(), lv_.nchild.data(), lv_.count.data(), Walk::kGroup,
                                                          merges});
      exec_.exclusive_scan(lv_.count.data(), lv_.offset.data(), nodes);
      uint32_t total = 0;
      exec_.download(&total, lv_.offset.data() + nodes, sizeof total);
      ngroups = total;
      if (granges_.size() < 2 * ngroups) granges_.resize(exec_, 2 * ngroups, tally_);
      if (groups_.size() < ngroups) groups_.resize(exec_, ngroups, tally_);
      exec_.for_each(nodes, GravityWriteTreeGroups{lv_.links.data(), lv_.nchild.data(), lv_.offset.data(), granges_.data(),
                                                   Walk::kGroup, merges});
      exec_.for_each(ngroups, GravityRangeGroupBounds<T>{body_.data(), granges_.data(), groups_.data()});
      granges = granges_.data();
    }
    if (stats_.nodes >= (std::size_t(1) << 29))
      throw std::runtime_error("gravity.walk = warps: the tree has " + std::to_string(stats_.nodes) +
                               " nodes, more than its stack encoding holds (2^29); use gravity.walk = particles");
    const bool count = settings_.count || times_;
    if (count && warp_counts_.size() < 2 * ngroups) warp_counts_.resize(exec_, 2 * ngroups, tally_);
    if (overflow_.size() == 0) overflow_.resize(exec_, 1, tally_);
    const uint32_t zero = 0;
    exec_.upload(overflow_.data(), &zero, sizeof zero);
    const uint32_t stack_cap = uint32_t(kWarpLanes) * uint32_t(stats_.levels + 2);
    const Walk walk{lv_.links.data(), lv_.nchild.data(), nodes_.data(), body_.data(), eps_.data(),
                                     groups_.data(), perm_.data(), a, phi, T(settings_.G), uint32_t(n_), stack_cap,
                                     overflow_.data(), count ? warp_counts_.data() : nullptr, granges,
                                     Packed ? wnodes_.data() : nullptr};
    for_each_warp(exec_, ngroups, Walk::words(stack_cap), walk);
    uint32_t overflow = 0;
    exec_.download(&overflow, overflow_.data(), sizeof overflow);
    if (overflow)  // the stack bound of octree_warp_walk.h was wrong: a bug, never a scene's fault
      throw std::logic_error("self-gravity warp walk: the stack of " + std::to_string(stack_cap) +
                             " entries overflowed (tree levels " + std::to_string(stats_.levels) + ")");
    if (count) {
      const GravityWarpCounts c = exec_.transform_reduce(ngroups, GravityWarpCounts{0, 0, 0},
                                                         MeasureGravityWarpCounts{warp_counts_.data(), n_, Walk::kGroup, granges},
                                                         AddGravityWarpCounts{});
      stats_.cells_per_particle = c.cells / double(n_);
      stats_.particles_per_particle = c.particles / double(n_);
      stats_.most_per_group = c.most;
    }
  }

  // The group walk in batches of groups, so the lists stay within a memory budget (8 MiB on the CPU,
  // where a batch's lists are read back from cache; 512 MiB on a GPU, enough groups per batch to
  // fill it). A batch whose lists overflow is walked again with capacities raised to the counts.
  void group_walk(Vec<T, D>* a, T* phi) {
    const std::size_t ngroups = (n_ + group_ - 1) / group_;
    const std::size_t budget = Exec::kBackend == Backend::Cpu ? (std::size_t(8) << 20) : (std::size_t(512) << 20);
    if (cell_cap_ == 0) {
      cell_cap_ = std::max<uint32_t>(1, settings_.list_cells);
      range_cap_ = std::max<uint32_t>(1, settings_.list_ranges);
    }
    stats_.max_cells = stats_.max_ranges = 0;
    stats_.list_regrowths = 0;
    double sum_cells = 0, sum_particles = 0;
    std::size_t g0 = 0;
    while (g0 < ngroups) {
      const std::size_t per_group = (std::size_t(cell_cap_) + 2 * std::size_t(range_cap_)) * sizeof(uint32_t);
      const std::size_t batch = std::min(ngroups - g0, std::max<std::size_t>(1, budget / per_group));
      reserve_lists(batch);
      exec_.for_each(batch, GravityGroupLists<T>{lv_.links.data(), nodes_.data(), groups_.data(), uint32_t(g0), cell_cap_,
                                                 range_cap_, cells_.data(), ranges_.data(), list_counts_.data()});
      const GravityListCounts most = exec_.transform_reduce(batch, GravityListCounts{0, 0, 0, 0},
                                                            MeasureGravityLists{list_counts_.data(), g0, group_, n_}, MaxGravityLists{});
      if (most.cells > cell_cap_ || most.ranges > range_cap_) {  // walk this batch again, nothing dropped
        // A quarter more than found, so the next steps' slightly longer lists fit.
        cell_cap_ = std::max(cell_cap_, most.cells + most.cells / 4);
        range_cap_ = std::max(range_cap_, most.ranges + most.ranges / 4);
        ++stats_.list_regrowths;
        continue;
      }
      stats_.max_cells = std::max(stats_.max_cells, most.cells);
      stats_.max_ranges = std::max(stats_.max_ranges, most.ranges);
      sum_cells += most.sum_cells;
      sum_particles += most.sum_particles;
      const std::size_t k0 = g0 * group_, kn = std::min(n_, (g0 + batch) * group_) - k0;
      exec_.for_each_balanced(kn, GravityGroupEval<T, D>{nodes_.data(), body_.data(), eps_.data(), perm_.data(),
                                                         cells_.data(), ranges_.data(), list_counts_.data(),
                                                         uint32_t(k0), group_, cell_cap_, range_cap_, a, phi, T(settings_.G)});
      g0 += batch;
    }
    stats_.cells_per_particle = sum_cells / double(n_);
    stats_.particles_per_particle = sum_particles / double(n_);
  }

  // List buffers for `batch` groups at the current capacities (kept between calls, only grown).
  void reserve_lists(std::size_t batch) {
    const std::size_t nc = batch * cell_cap_, nr = batch * range_cap_ * 2;
    if (cells_.size() < nc) cells_.resize(exec_, nc, tally_);
    if (ranges_.size() < nr) ranges_.resize(exec_, nr, tally_);
    if (list_counts_.size() < 3 * batch) list_counts_.resize(exec_, 3 * batch, tally_);
  }

  void build(const Vec<T, D>* x, const T* m, const T* h) {
    lap(nullptr);
    T side;
    const GravityKeys<T, D> keys = gravity_keys_in_box<T, D>(exec_, x, n_, keys_.data(), perm_.data(), side);
    for (int d = 0; d < 3; ++d) key_lo_[d] = keys.lo[d];
    side_ = side;
    exec_.for_each(n_, keys);
    // Particles already in the keys' order (hint_sorted: the gas's tree search sorted them by the same
    // keys of the same box) need no sort: one pass checks, and the identity permutation stays.
    stats_.sort_skipped = maybe_sorted_ && n_ > 1 &&
                          exec_.transform_reduce(n_ - 1, 0u, GravityKeyDescents{keys_.data()}, AddGravityCounts{}) == 0u;
    if (!stats_.sort_skipped) exec_.sort_pairs64(keys_.ptr(), perm_.ptr(), keys_alt_.ptr(), perm_alt_.ptr(), n_);
    exec_.for_each(n_, GravityGather<T, D>{x, m, h, perm_.data(), body_.data(), eps_.data(), T(settings_.softening)});
    lap(times_ ? &times_->keys : nullptr);

    // Levels, top-down; a too small node array is enlarged and the levels built again.
    while (!build_levels()) reserve_nodes(lv_.cap * 2);
    lap(times_ ? &times_->build : nullptr);
    // Multipoles, bottom-up (and the packed traversal nodes, when the walk reads them).
    const bool packed = settings_.warp_walk && settings_.warp_staged && settings_.warp_packed && settings_.warp_targets != 2;
    if (packed && wnodes_.size() < lv_.cap) wnodes_.resize(exec_, lv_.cap, tally_);
    for (int l = int(lv_.level_start.size()) - 2; l >= 0; --l) {
      GravityMoments<T, D> mo{keys_.data(), body_.data(), eps_.data(), lv_.links.data(), lv_.nchild.data(),
                              nodes_.data(), lv_.level_start[l], l,
                              {keys.lo[0], keys.lo[1], keys.lo[2]}, side, T(1.0 / settings_.theta),
                              packed ? wnodes_.data() : nullptr};
      exec_.for_each(lv_.level_start[l + 1] - lv_.level_start[l], mo);
    }
    if (!(settings_.warp_walk && settings_.warp_tree_groups))  // those are made by the warp walk
      exec_.for_each((n_ + group_ - 1) / group_, GravityGroupBounds<T>{body_.data(), groups_.data(), n_, group_});
    lap(times_ ? &times_->moments : nullptr);
  }

  // The levels (octree_levels.h). False when the node array is too small.
  bool build_levels() {
    const uint32_t leaf = uint32_t(settings_.leaf > 0 ? settings_.leaf : kGravityLeaf);
    const bool ok = settings_.keys_build ? lv_.template build_from_keys<D>(exec_, keys_.data(), n_, leaf, tally_)
                                         : lv_.template build<D>(exec_, keys_.data(), n_, leaf);
    if (!ok) return false;
    stats_.nodes = lv_.nodes();
    stats_.levels = lv_.levels();
    return true;
  }

  Exec& exec_;
  std::size_t n_;
  std::size_t* tally_;
  GravitySettings settings_;
  GravityTreeStats stats_;
  OctreeLevels<Exec> lv_;  // links, children counts, level starts (octree_levels.h)
  DeviceArray<uint64_t, Exec> keys_, keys_alt_;
  DeviceArray<uint32_t, Exec> perm_, perm_alt_;
  DeviceArray<GravityBody<T>, Exec> body_;
  DeviceArray<T, Exec> eps_;
  DeviceArray<GravityGroup<T>, Exec> groups_;
  DeviceArray<GravityNode<T>, Exec> nodes_;
  DeviceArray<GravityWalkNode<T>, Exec> wnodes_;  // gravity.warp_nodes = packed
  DeviceArray<uint32_t, Exec> cousin_flags_;      // gravity.warp_groups = cousins (GravityMarkCousinMerges)
  T key_lo_[3] = {T(0), T(0), T(0)}, side_ = T(1);  // the keys' box of the last build
  uint32_t group_ = kGravityGroup;         // particles per group (set())
  uint32_t cell_cap_ = 0, range_cap_ = 0;  // group-walk list capacities (grown as needed)
  DeviceArray<uint32_t, Exec> cells_, ranges_, list_counts_;
  DeviceArray<uint32_t, Exec> warp_counts_, overflow_, granges_;  // warp walk: interactions per group, stack overflow
  bool maybe_sorted_ = false;                           // hint_sorted()
  GravityPhaseTimes* times_ = nullptr;                  // phase timing of the current accumulate()
  std::chrono::steady_clock::time_point lap_;
};

}  // namespace ejecta
