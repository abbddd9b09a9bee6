// The self-gravity octree built in one pass from the sorted keys (gravity.build = keys,
// engine/gravity/octree_from_keys.h) against the level-by-level build (octree_levels.h): the same
// nodes in the same order (level starts, particle ranges, first children, children counts, skip
// pointers), in 1D, 2D and 3D, for leaf sizes from 1 to 64, sets with repeated keys, a single
// particle and fewer particles than a leaf; and the same forces through SelfGravity.
#include "exec/exec_cpu.h"
#include "gravity/gravity_host.h"
#include "gravity/octree_levels.h"
#include "gravity_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace ejecta {
namespace {

using test::GravitySet;

// Sorted Morton keys of n points in D dimensions: a Plummer sphere (deep, uneven tree), or clumps of
// points that share their finest cell (runs of equal keys, leaves of more than `leaf` particles at
// the deepest level).
template <int D>
std::vector<uint64_t> sorted_keys(std::size_t n, bool clumped, unsigned seed) {
  GravitySet s = test::plummer_sphere(n, seed);
  std::vector<Vec<double, D>> x(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < D; ++d) x[i][d] = clumped && i % 7 != 0 ? s.x[3 * (i / 40 * 40) + d] : s.x[3 * i + d];
  CpuExec exec;
  std::vector<uint64_t> keys(n), alt(n);
  std::vector<uint32_t> perm(n), perm_alt(n);
  double side = 0;
  const GravityKeys<double, D> k = gravity_keys_in_box<double, D>(exec, x.data(), n, keys.data(), perm.data(), side);
  exec.for_each(n, k);
  uint64_t* kp = keys.data();
  uint32_t* pp = perm.data();
  uint64_t* ka = alt.data();
  uint32_t* pa = perm_alt.data();
  exec.sort_pairs64(kp, pp, ka, pa, n);
  return std::vector<uint64_t>(kp, kp + n);
}

template <int D>
void expect_same_tree(std::size_t n, bool clumped, uint32_t leaf) {
  const std::vector<uint64_t> keys = sorted_keys<D>(n, clumped, 5 + unsigned(n));
  CpuExec exec;
  OctreeLevels<CpuExec> a, b;
  // A small first capacity: the keys build must report it and succeed once enlarged.
  a.reserve(exec, n / 2 + 64, nullptr);
  b.reserve(exec, 2, nullptr);
  while (!a.template build<D>(exec, keys.data(), n, leaf)) a.reserve(exec, a.cap * 2, nullptr);
  bool grew = false;
  while (!b.template build_from_keys<D>(exec, keys.data(), n, leaf, nullptr)) {
    b.reserve(exec, b.cap * 2, nullptr);
    grew = true;
  }
  const std::string what = std::to_string(D) + "D, n " + std::to_string(n) + (clumped ? " clumped" : "") +
                           ", leaf " + std::to_string(leaf);
  if (a.nodes() > 2) EXPECT_TRUE(grew) << what;
  ASSERT_EQ(a.level_start, b.level_start) << what;
  std::size_t bad = 0;
  for (std::size_t k = 0; k < a.nodes(); ++k) {
    const GravityLink p = a.links.data()[k], q = b.links.data()[k];
    const bool same = p.first == q.first && p.next == q.next && p.begin == q.begin && p.end == q.end &&
                      a.nchild.data()[k] == b.nchild.data()[k];
    if (!same && bad++ < 5)
      ADD_FAILURE() << what << ": node " << k << " levels build (first " << p.first << ", next " << p.next << ", ["
                    << p.begin << ", " << p.end << "), " << a.nchild.data()[k] << " children), keys build (first "
                    << q.first << ", next " << q.next << ", [" << q.begin << ", " << q.end << "), "
                    << b.nchild.data()[k] << " children)";
  }
  EXPECT_EQ(bad, 0u) << what;
}

TEST(GravityTree, KeysBuildIsTheLevelsBuild) {
  for (uint32_t leaf : {1u, 8u, 16u, 64u}) {
    for (bool clumped : {false, true}) {
      expect_same_tree<3>(20000, clumped, leaf);
      expect_same_tree<2>(5000, clumped, leaf);
      expect_same_tree<1>(3000, clumped, leaf);
    }
    expect_same_tree<3>(1, false, leaf);
    expect_same_tree<3>(leaf, false, leaf);
    expect_same_tree<3>(leaf + 1, false, leaf);
    expect_same_tree<2>(3 * leaf + 2, true, leaf);
  }
}

// Through SelfGravity, the default warp walk (staged, tree groups) in 1D, 2D and 3D, float and double:
// the keys build (the same tree) and the packed traversal nodes (gravity.warp_nodes = packed: the same
// decisions, the same sums in the same order; both the defaults since 2026-12-03) give the forces and
// potentials of the levels build with split nodes, bit for bit.
TEST(GravityTree, KeysBuildAndPackedNodesGiveTheSameForces) {
  for (int dim = 1; dim <= 3; ++dim) {
    GravitySet s = test::plummer_sphere(6003, 3);
    if (dim < 3) {
      std::vector<double> xd;
      for (std::size_t i = 0; i < s.size(); ++i)
        for (int d = 0; d < dim; ++d) xd.push_back(s.x[3 * i + d]);
      s.x = xd;
    }
    s.h.assign(s.size(), 0.01);
    for (Precision p : {Precision::Float, Precision::Double}) {
      GravitySettings gs;
      gs.G = 1;
      gs.theta = 0.5;
      gs.group_walk = false;
      gs.warp_walk = gs.warp_staged = gs.warp_tree_groups = true;
      const GravityHostResult ref = self_gravity_on(Backend::Cpu, p, dim, s.x, s.m, s.h, gs);
      for (int v = 1; v < 4; ++v) {
        gs.keys_build = v & 1;
        gs.warp_packed = v & 2;
        const GravityHostResult r = self_gravity_on(Backend::Cpu, p, dim, s.x, s.m, s.h, gs);
        const std::string what = std::to_string(dim) + "D " + to_string(p) + (gs.keys_build ? ", keys build" : "") +
                                 (gs.warp_packed ? ", packed nodes" : "");
        EXPECT_EQ(r.stats.nodes, ref.stats.nodes) << what;
        EXPECT_EQ(r.stats.levels, ref.stats.levels) << what;
        EXPECT_TRUE(r.acc == ref.acc) << what;
        EXPECT_TRUE(r.phi == ref.phi) << what;
      }
    }
  }
}

}  // namespace
}  // namespace ejecta
