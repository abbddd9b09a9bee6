#pragma once
// The warp-cooperative group walk of the Barnes-Hut tree (gravity.walk = warps): the scheme of Bonsai
// (Bedorf, Gaburov & Portegies Zwart 2012, J. Comput. Phys. 231, 2825, sec. 3.3) and of SPH-EXA's
// Ryoanji, on this project's level-ordered octree (octree_build.h). One warp per group of 32
// consecutive sorted particles (Morton order): the 32 lanes test 32 cells at a time against the
// group's bounding box (the opening test of octree_walk.h, accepts_cell), and by warp ballot and
// prefix count write
//   - the accepted cells into a cell list,
//   - the opened leaves into a list of particle ranges,
//   - the children of the other opened cells onto a stack of sibling ranges (first node, count),
// all in the warp's shared memory. When a list is nearly full (it grows by at most 32 a round), each
// lane evaluates its own particle against it (gravity_interactions.h) and the list is emptied. The
// cells and leaves met are those of the per-particle walk, so the forces are the same up to the
// order of summation.
//
// The stack holds ranges of siblings, encoded node << 3 | (count - 1). A round takes up to 32 nodes
// from its top (lane 0 the topmost) and pushes the children of the lanes it opens in reverse lane
// order, so the levels on the stack never decrease towards the top. A round that opens a node of
// level L has taken every entry of level > L (they lie above it), so the entries of any level come
// from one round: at most 32 per level, 32 (levels + 2) in all (SelfGravity sizes the stack so; a
// fuller stack would set `overflow`, which the host reports).
#include "core/hd.h"
#include "core/vec.h"
#include "exec/warp_exec.h"
#include "gravity/gravity_interactions.h"
#include "gravity/octree_build.h"

#include <cstddef>
#include <cstdint>

namespace ejecta {

// One lane's particles (NT targets a lane): position, softening and its inverse, accumulated field
// (without G), sorted index.
template <class T, int NT>
struct GravityWarpLane {
  T x[NT][3];
  T e[NT], ie[NT];
  T acc[NT][3];
  T pot[NT];
  uint32_t k[NT];
  bool valid[NT];
};

// NT: targets per lane, a group of 32 NT consecutive sorted particles per warp (lane l has particles
// l and 32 + l of its group, as Ryoanji's 64-particle targets). Staged: the lists are evaluated in
// chunks of 32 sources that the lanes first copy into shared memory together (lane l the l-th source:
// 32 independent loads in flight), with each source's inverse softening length, and then every lane
// reads from shared memory (a broadcast) and no pair divides (gravity_interactions.h, the _inv forms);
// without it every lane loads every source from global memory itself, one after another. The same
// sums in the same order either way. NT = 2 needs Staged.
//
// Packed (gravity.warp_nodes = packed; needs Staged): the traversal reads one GravityWalkNode per
// lane (octree_build.h: centre of mass, squared opening radius, children or particle range in 32
// bytes) instead of the node's centre and radius (two sectors of its 64 bytes), its link and its
// children count (a third and fourth load, after the test); the staged cells take 1 / eps from the
// node instead of dividing. The same decisions and the same sums.
template <class T, int D, int NT = 1, bool Staged = false, bool Packed = false>
struct GravityWarpWalk {
  static_assert(NT == 1 || (NT == 2 && Staged), "two targets a lane come with the staged evaluation");
  static_assert(!Packed || Staged, "packed nodes come with the staged evaluation");
  // Blocks of 4 warps per SM that ptxas must fit (warp_exec_cuda.cuh), measured with -Xptxas -v for
  // sm_90: float 3D 56 registers without spills at 8 (32 warps per SM); double 3D spilled 32 bytes at
  // 8, so 6 (85 registers at most). Two targets a lane hold 11 more values: 6 and 4.
  static constexpr int kCudaMinBlocks = sizeof(T) == sizeof(float) ? (NT == 1 ? 8 : 6) : (NT == 1 ? 6 : 4);
  static constexpr uint32_t kGroup = uint32_t(kWarpLanes) * NT;  // particles per group
  static constexpr uint32_t kCells = 128;  // cell list entries per warp
  static constexpr uint32_t kRanges = 64;  // leaf ranges per warp (2 words each)
  // The staging area (staged only), first in the warp's words so that it is 16-byte aligned: 32 nodes,
  // 32 bodies, 32 node inverse softenings, 32 body softenings and their inverses, 32 body indices.
  static constexpr std::size_t kStageBytes =
      Staged ? std::size_t(kWarpLanes) * (sizeof(GravityNode<T>) + sizeof(GravityBody<T>) + 3 * sizeof(T) + 4) : 0;
  static constexpr std::size_t kStageWords = (kStageBytes / 4 + 3) / 4 * 4;
  // Shared 32-bit words per warp for a stack of `stack_cap` entries (a multiple of 4: 16-byte aligned).
  static constexpr std::size_t words(uint32_t stack_cap) {
    return kStageWords + (std::size_t(stack_cap) + kCells + 2 * kRanges + 3) / 4 * 4;
  }

  const GravityLink* links;
  const uint32_t* nchild;
  const GravityNode<T>* nodes;
  const GravityBody<T>* body;
  const T* eps;
  const GravityGroup<T>* groups;  // groups of kGroup
  const uint32_t* perm;
  Vec<T, D>* a;  // += G * acceleration (store order)
  T* phi;        // = G * potential (store order); may be null
  T G;
  uint32_t n;
  uint32_t stack_cap;
  uint32_t* overflow;  // set to 1 if the stack would overflow (see above: it cannot)
  uint32_t* counts;    // per group: cells, particles met (the cost model); may be null
  // The groups as [begin, end) pairs of at most kGroup particles (gravity_groups.h); null: group g is
  // the kGroup particles from g kGroup on.
  const uint32_t* granges;
  const GravityWalkNode<T>* wnodes = nullptr;  // Packed: the traversal's nodes

  template <class W>
  EJ_INLINE void operator()(const W& w, std::size_t g) const {
    uint32_t* stage = w.shared();
    uint32_t* stack = stage + kStageWords;
    uint32_t* cells = stack + stack_cap;
    uint32_t* ranges = cells + kCells;
    const GravityGroup<T> grp = groups[g];
    std::size_t gb = g * kGroup, ge = gb + kGroup < n ? gb + kGroup : n;
    if (granges) {
      gb = granges[2 * g];
      ge = granges[2 * g + 1];
    }
    typename W::template Lane<GravityWarpLane<T, NT>> me;
    typename W::template Lane<uint32_t> node;
    typename W::template Lane<bool> take_cell, take_leaf, open;
    typename W::template Lane<uint32_t> pk_a, pk_b;  // Packed: child entry, or a leaf's [begin, end)
    w.each([&](int l) {
      GravityWarpLane<T, NT>& s = me[l];
      for (int t = 0; t < NT; ++t) {
        const std::size_t k = gb + std::size_t(t) * kWarpLanes + std::size_t(l);
        s.valid[t] = k < ge;
        s.k[t] = s.valid[t] ? uint32_t(k) : uint32_t(ge - 1);  // a spare lane repeats the group's last particle
        const GravityBody<T> b = body[s.k[t]];
        for (int c = 0; c < 3; ++c) {
          s.x[t][c] = b.x[c];
          s.acc[t][c] = T(0);
        }
        s.e[t] = eps[s.k[t]];
        s.ie[t] = Staged ? T(1) / s.e[t] : T(0);
        s.pot[t] = T(0);
      }
    });
    uint32_t top = 1, ncell = 0, nrange = 0, met_cells = 0, met_particles = 0;
    stack[0] = 0u;  // the root, one node
    w.sync();
    while (top > 0) {
      // Up to 32 nodes from the top of the stack, lane 0 the topmost; a range cut short keeps its rest.
      uint32_t taken = 0, rest = kGravityEnd;
      w.each([&](int l) { node[l] = kGravityEnd; });
      while (top > 0 && taken < uint32_t(kWarpLanes)) {
        const uint32_t e = stack[top - 1];
        const uint32_t first = e >> 3, cnt = (e & 7u) + 1u;
        const uint32_t room = uint32_t(kWarpLanes) - taken, take = cnt < room ? cnt : room;
        w.each([&](int l) {
          if (uint32_t(l) >= taken && uint32_t(l) < taken + take) node[l] = first + (uint32_t(l) - taken);
        });
        if (take < cnt)
          rest = ((first + take) << 3) | (cnt - take - 1u);
        else
          --top;
        taken += take;
      }
      w.sync();  // every lane has read the entries before any is written
      if (rest != kGravityEnd) stack[top - 1] = rest;
      w.each([&](int l) {
        take_cell[l] = take_leaf[l] = open[l] = false;
        if (node[l] == kGravityEnd) return;
        if constexpr (Packed) {
          const GravityWalkNode<T> wn = wnodes[node[l]];
          if (accepts_cell_at(grp, wn.com, wn.r_open2)) {
            take_cell[l] = true;
          } else if (wn.child == kGravityEnd) {
            take_leaf[l] = true;
            pk_a[l] = wn.begin;
            pk_b[l] = wn.end;
          } else {
            open[l] = true;
            pk_a[l] = wn.child;
          }
          return;
        }
        if (accepts_cell(grp, nodes[node[l]])) {
          take_cell[l] = true;
        } else if (links[node[l]].first < 0) {
          take_leaf[l] = true;
        } else {
          open[l] = true;
        }
      });
      const uint32_t mc = w.ballot(take_cell), ml = w.ballot(take_leaf), mo = w.ballot(open);
      const uint32_t nc = uint32_t(popcount32(mc)), nl = uint32_t(popcount32(ml)), no = uint32_t(popcount32(mo));
      if (top + no > stack_cap) {
        *overflow = 1u;
        return;
      }
      w.each([&](int l) {
        if (take_cell[l]) cells[ncell + uint32_t(below(mc, l))] = node[l];
        if constexpr (Packed) {
          if (take_leaf[l]) {
            const uint32_t q = nrange + uint32_t(below(ml, l));
            ranges[2 * q] = pk_a[l];
            ranges[2 * q + 1] = pk_b[l];
          }
          if (open[l]) stack[top + uint32_t(above(mo, l))] = pk_a[l];
          return;
        }
        if (take_leaf[l]) {
          const GravityLink lk = links[node[l]];
          const uint32_t q = nrange + uint32_t(below(ml, l));
          ranges[2 * q] = lk.begin;
          ranges[2 * q + 1] = lk.end;
        }
        if (open[l]) stack[top + uint32_t(above(mo, l))] = (uint32_t(links[node[l]].first) << 3) | (nchild[node[l]] - 1u);
      });
      ncell += nc;
      nrange += nl;
      top += no;
      w.sync();
      if (ncell > kCells - uint32_t(kWarpLanes)) {
        met_cells += ncell;
        eval_cells(w, me, cells, ncell, stage);
        ncell = 0;
        w.sync();
      }
      if (nrange > kRanges - uint32_t(kWarpLanes)) {
        met_particles += eval_ranges(w, me, ranges, nrange, stage);
        nrange = 0;
        w.sync();
      }
    }
    met_cells += ncell;
    eval_cells(w, me, cells, ncell, stage);
    met_particles += eval_ranges(w, me, ranges, nrange, stage);
    if (counts) {
      counts[2 * g] = met_cells;
      counts[2 * g + 1] = met_particles;
    }
    w.each([&](int l) {
      const GravityWarpLane<T, NT>& s = me[l];
      for (int t = 0; t < NT; ++t) {
        if (!s.valid[t]) continue;
        const uint32_t p = perm[s.k[t]];
        for (int c = 0; c < D; ++c) a[p][c] += G * s.acc[t][c];
        if (phi) phi[p] = G * s.pot[t];
      }
    });
  }

 private:
  // The staging area's arrays (Staged).
  struct Stage {
    GravityNode<T>* node;
    GravityBody<T>* body;
    T *node_ie, *body_e, *body_ie;
    uint32_t* body_k;
  };
  EJ_INLINE static Stage stage_of(uint32_t* words) {
    Stage st;
    st.node = reinterpret_cast<GravityNode<T>*>(words);
    st.body = reinterpret_cast<GravityBody<T>*>(st.node + kWarpLanes);
    st.node_ie = reinterpret_cast<T*>(st.body + kWarpLanes);
    st.body_e = st.node_ie + kWarpLanes;
    st.body_ie = st.body_e + kWarpLanes;
    st.body_k = reinterpret_cast<uint32_t*>(st.body_ie + kWarpLanes);
    return st;
  }

  template <class W, class L>
  EJ_INLINE void eval_cells(const W& w, L& me, const uint32_t* cells, uint32_t ncell, uint32_t* stage) const {
    if constexpr (!Staged) {
      w.each([&](int l) {
        GravityWarpLane<T, NT>& s = me[l];
        for (uint32_t c = 0; c < ncell; ++c) {
          const GravityNode<T> nd = nodes[cells[c]];  // one copy: 128-bit loads
          add_accepted_cell(s.x[0], s.e[0], nd, s.acc[0], s.pot[0]);
        }
      });
    } else {
      const Stage st = stage_of(stage);
      for (uint32_t c0 = 0; c0 < ncell; c0 += uint32_t(kWarpLanes)) {
        const uint32_t cnt = ncell - c0 < uint32_t(kWarpLanes) ? ncell - c0 : uint32_t(kWarpLanes);
        w.each([&](int l) {
          if (uint32_t(l) >= cnt) return;
          const GravityNode<T> nd = nodes[cells[c0 + uint32_t(l)]];
          st.node[l] = nd;
          st.node_ie[l] = Packed ? nd.ie : T(1) / nd.eps;
        });
        w.sync();
        w.each([&](int l) {
          GravityWarpLane<T, NT>& s = me[l];
          for (uint32_t c = 0; c < cnt; ++c)
            for (int t = 0; t < NT; ++t)
              add_accepted_cell_inv(s.x[t], s.e[t], s.ie[t], st.node[c], st.node_ie[c], s.acc[t], s.pot[t]);
        });
        w.sync();
      }
    }
  }

  // Returns the particles in the ranges (the self pair included, as the group walk counts).
  template <class W, class L>
  EJ_INLINE uint32_t eval_ranges(const W& w, L& me, const uint32_t* ranges, uint32_t nrange, uint32_t* stage) const {
    if constexpr (!Staged) {
      w.each([&](int l) {
        GravityWarpLane<T, NT>& s = me[l];
        for (uint32_t q = 0; q < nrange; ++q) {
          const uint32_t b = ranges[2 * q], e = ranges[2 * q + 1];
          for (uint32_t j = b; j < e; ++j) {
            if (j == s.k[0]) continue;
            const GravityBody<T> bj = body[j];
            add_particle(s.x[0], s.e[0], bj, eps[j], s.acc[0], s.pot[0]);
          }
        }
      });
    } else {
      // The ranges' particles 32 at a time: a warp-uniform cursor (range q, offset off) hands out the
      // lanes' indices, then each lane loads its source.
      const Stage st = stage_of(stage);
      typename W::template Lane<uint32_t> src;
      uint32_t q = 0, off = 0;
      while (q < nrange) {
        uint32_t fill = 0;
        while (q < nrange && fill < uint32_t(kWarpLanes)) {
          const uint32_t b = ranges[2 * q] + off, e = ranges[2 * q + 1];
          const uint32_t room = uint32_t(kWarpLanes) - fill, take = e - b < room ? e - b : room;
          w.each([&](int l) {
            if (uint32_t(l) >= fill && uint32_t(l) < fill + take) src[l] = b + (uint32_t(l) - fill);
          });
          fill += take;
          if (b + take == e) {
            ++q;
            off = 0;
          } else {
            off += take;
          }
        }
        w.each([&](int l) {
          if (uint32_t(l) >= fill) return;
          const uint32_t j = src[l];
          st.body[l] = body[j];
          const T ej = eps[j];
          st.body_e[l] = ej;
          st.body_ie[l] = T(1) / ej;
          st.body_k[l] = j;
        });
        w.sync();
        w.each([&](int l) {
          GravityWarpLane<T, NT>& s = me[l];
          for (uint32_t c = 0; c < fill; ++c)
            for (int t = 0; t < NT; ++t) {
              if (st.body_k[c] == s.k[t]) continue;
              add_particle_inv(s.x[t], s.e[t], s.ie[t], st.body[c], st.body_e[c], st.body_ie[c], s.acc[t], s.pot[t]);
            }
        });
        w.sync();
      }
    }
    uint32_t np = 0;
    for (uint32_t q = 0; q < nrange; ++q) np += ranges[2 * q + 1] - ranges[2 * q];
    return np;
  }
};

// The mean interactions of a walk from the per-group counts (cells, particles), weighted by the
// groups' particles, and the most of one group (cells + particles: the longest warp).
struct GravityWarpCounts {
  double cells, particles, most;
};
struct MeasureGravityWarpCounts {
  const uint32_t* counts;
  std::size_t n;
  std::size_t group;        // particles per group
  const uint32_t* granges;  // or the groups' ranges (gravity_groups.h)
  EJ_INLINE GravityWarpCounts operator()(std::size_t g) const {
    std::size_t b = g * group, e = b + group < n ? b + group : n;
    if (granges) {
      b = granges[2 * g];
      e = granges[2 * g + 1];
    }
    const double w = double(e - b);
    return GravityWarpCounts{w * double(counts[2 * g]), w * double(counts[2 * g + 1]),
                             double(counts[2 * g]) + double(counts[2 * g + 1])};
  }
};
struct AddGravityWarpCounts {
  EJ_INLINE GravityWarpCounts operator()(const GravityWarpCounts& x, const GravityWarpCounts& y) const {
    return GravityWarpCounts{x.cells + y.cells, x.particles + y.particles, x.most > y.most ? x.most : y.most};
  }
};

}  // namespace ejecta
