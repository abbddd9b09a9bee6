#pragma once
// Wall boundary of Adami, Hu & Adams (2012), J. Comput. Phys. 231, 7057: fixed wall particles take a
// pressure extrapolated from the fluid around them, eq. (27),
//   p_w = (sum_f p_f W_wf + (g - a_w) . sum_f rho_f r_wf W_wf) / sum_f W_wf,   r_wf = x_w - x_f,
// (a_w = 0: walls at rest or moving at a constant velocity, a gate), and a density from the inverted
// EOS, eq. (28). Option (boundary.wall_pressure = fluid_acceleration): the hydrostatic-like term taken
// with each fluid particle's own acceleration, sum_f rho_f (g - a_f) . r_wf W_wf, the pressure gradient the fluid's
// momentum equation implies (grad p = rho (g - a)), so a wall under a decelerating front reads the
// pressure the deceleration needs (a_f of the last force evaluation). Negative wall pressure
// is cut to zero so water does not stick to walls. For no-slip the wall velocity used in viscous terms
// is 2 v_w - v~_f, eq. (22-23), with v~_f the kernel-weighted fluid velocity; otherwise v_w (free
// slip leaves the viscous term with walls out altogether, see WallSlip). v_w is the wall particle's own
// velocity, 0 for a fixed wall and the gate's for a [gate.N] (integrators/leapfrog_kdk.h moves it); the
// record's wall velocity is then v_w for the continuity, wall-law and wall-normal terms (forces_wcsph.h).
#include "exec/warp_exec.h"
#include "physics/wcsph_model.h"

namespace ejecta {

template <class T, int D>
struct WallPressure_Adami2012 {
  WcsphModel<T, D> model;
  CellGrid<T, D> grid;
  ParticleView<T, D> pv;

  // A dry wall (no bucket holding fluid around it) skips the scan: most of a tank's walls are dry.
  EJ_INLINE bool wet(const Vec<T, D>& xi) const { return !grid.marked || grid.any_marked_around(xi); }
  // The values of a wall with no fluid neighbour.
  EJ_INLINE void dry(std::size_t i) const {
    pv.p[i] = T(0);
    pv.rhop[i] = model.eos.rho0;
    pv.vp[i] = pv.v[i];
  }

  // One wall's sums over its fluid neighbours f: sum W, sum p_f W, sum rho_f r_wf W (or, with the
  // fluid's acceleration, sum rho_f (g - a_f) . r_wf W) and, for no slip, sum v~_f W.
  struct Sums {
    T w = 0, pw = 0, acc = 0;
    Vec<T, D> rho_r = Vec<T, D>::zero(), vw = Vec<T, D>::zero();
    EJ_INLINE Sums operator+(const Sums& b) const {
      Sums s;
      s.w = w + b.w;
      s.pw = pw + b.pw;
      s.acc = acc + b.acc;
      s.rho_r = rho_r + b.rho_r;
      s.vw = vw + b.vw;
      return s;
    }
  };
  EJ_INLINE void add(Sums& s, uint32_t j, const Vec<T, D>& r, T r2) const {
    const T w = model.kernel.W(sqrt(r2));
    s.w += w;
    s.pw += pv.p[j] * w;
    s.rho_r += r * (pv.rhop[j] * w);
    if (model.wall_fluid_accel) s.acc += dot(model.gravity - pv.a[j], r) * (pv.rhop[j] * w);
    if (model.slip == kSlipNoSlip) s.vw += pv.vp[j] * w;  // the mirror's average: no slip only
  }
  // Wall i's pressure (eq. 27, cut at 0), density (eq. 28) and velocity from its sums.
  EJ_INLINE void finish(std::size_t i, const Sums& s) const {
    if (s.w > T(0)) {
      T pw = (s.pw + (model.wall_fluid_accel ? s.acc : dot(model.gravity, s.rho_r))) / s.w;
      if (pw < T(0)) pw = T(0);
      pv.p[i] = pw;
      pv.rhop[i] = model.eos.density(pw);
      pv.vp[i] = wall_velocity(model.slip, pv.v[i], s.vw, s.w);
    } else {
      dry(i);
    }
  }

  // Candidates a chunk at a time (issue 18): the chunk's kinds are loaded together, then the fluid
  // candidates' positions, before any is used, so each thread has several loads in flight where one
  // candidate at a time waited on each (the pass runs about one wave of wet walls at a quarter of the
  // SM's warps, latency-bound: Nsight Compute on the H100, 2026-12-06). A wall candidate, about half of a
  // wet wall's, costs no position load nor distance. The rows, ranges and candidates in for_each_candidate's
  // order: the same pairs in the same order, the same sums.
  static constexpr int kChunk = 4;
  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kWall) return;
    const Vec<T, D> xi = pv.x[i];
    const T r2max = model.kernel.support() * model.kernel.support();
    Sums s;
    if (wet(xi)) {
      const auto around = grid.around(xi);
      const int rows = grid.rows();
      EJ_NO_UNROLL
      for (int row = 0; row < rows; ++row) {
        const auto rr = grid.row_ranges(around, row);
        EJ_NO_UNROLL
        for (int k = 0; k < 3; ++k) {
          const uint32_t e = rr.end(k);
          EJ_NO_UNROLL
          for (uint32_t j = rr.begin(k); j < e; j += kChunk) {
            bool fluid[kChunk];
            Vec<T, D> xj[kChunk];
            EJ_UNROLL
            for (int u = 0; u < kChunk; ++u) fluid[u] = j + u < e && pv.kind[j + u] == kFluid;
            EJ_UNROLL
            for (int u = 0; u < kChunk; ++u) xj[u] = fluid[u] ? pv.x[j + u] : xi;
            EJ_UNROLL
            for (int u = 0; u < kChunk; ++u) {
              if (!fluid[u]) continue;
              const Vec<T, D> r = xi - xj[u];
              const T r2 = norm2(r);
              if (r2 < r2max) add(s, j + u, r, r2);
            }
          }
        }
      }
    }
    finish(i, s);
  }
};

// boundary.wall_threads = warp (issue 18): a warp per wet wall (exec/warp_exec.h, for_each_warp_counted
// over the wet walls' list), its 32 lanes over the wall's candidates: the rows' ranges taken as one
// sequence, lane l the candidates l, l + 32, ... of it, so consecutive lanes load consecutive kinds and
// positions and a wall's ~420 candidates make some 13 rounds of the warp instead of 420 of one thread
// (the one-thread pass runs about one wave of wet walls, latency-bound). Each lane sums its candidates
// as the thread pass does (WallPressure_Adami2012::add), then the warp adds the 32 partial sums in the
// butterfly order of its shuffles (the CPU's emulated warp in the same order), and lane 0 writes the
// wall's values (finish). The same pairs as the thread pass, summed in another order: the results differ
// from it by rounding.
template <class T, int D>
struct WallPressureWarp_Adami2012 {
  WallPressure_Adami2012<T, D> f;
  const uint32_t* list;  // the wet walls (FlagWetWalls), in sorted order
  using Sums = typename WallPressure_Adami2012<T, D>::Sums;
  template <class W>
  EJ_INLINE void operator()(const W& w, std::size_t k) const {
    const uint32_t i = list[k];
    const Vec<T, D> xi = f.pv.x[i];
    const T r2max = f.model.kernel.support() * f.model.kernel.support();
    typename W::template Lane<Sums> s;
    w.each([&](int lane) { s[lane] = Sums{}; });
    const auto around = f.grid.around(xi);
    const int rows = f.grid.rows();
    uint32_t seen = 0;  // candidates of the ranges before this one: lane l takes those at seen + l (mod 32)
    EJ_NO_UNROLL
    for (int row = 0; row < rows; ++row) {
      const auto rr = f.grid.row_ranges(around, row);
      EJ_NO_UNROLL
      for (int c = 0; c < 3; ++c) {
        const uint32_t b = rr.begin(c), e = rr.end(c);
        if (b >= e) continue;
        w.each([&](int lane) {
          EJ_NO_UNROLL
          for (uint32_t j = b + ((uint32_t(lane) - seen) & (kWarpLanes - 1)); j < e; j += kWarpLanes) {
            if (f.pv.kind[j] != kFluid) continue;
            const Vec<T, D> r = xi - f.pv.x[j];
            const T r2 = norm2(r);
            if (r2 < r2max) f.add(s[lane], j, r, r2);
          }
        });
        seen += e - b;
      }
    }
    const Sums total = w.reduce(s, [](const Sums& a, const Sums& b) { return a + b; });
    w.each([&](int lane) {
      if (lane == 0) f.finish(i, total);
    });
  }
};

// boundary.wall_threads = wet (issue 18): the pass over a list of the wet walls, so that no lane of a warp
// idles on a fluid particle or a dry wall. The H200's inventory (2026-12-04, 1M particles) has this pass
// at 267 us, 15% of the force pass: in the row-major order the tank's end wall shares each row of cells,
// and so a warp, with the fluid in front of it (a few wall lanes of 32 busy). flag[i] = 1 for a wet wall;
// a dry wall takes its values here, as the pass would give it. Then a scan and ScatterFlagged
// (forces_wcsph.h) list the wet walls in sorted order, and the pass runs over the list
// (Term_WallPressure_Adami2012): each wall's sums as before, the same results bit for bit.
template <class T, int D>
struct FlagWetWalls {
  WallPressure_Adami2012<T, D> f;
  uint32_t* flag;
  EJ_INLINE void operator()(std::size_t i) const {
    uint32_t wet = 0;
    if (f.pv.kind[i] == kWall) {
      if (f.wet(f.pv.x[i])) wet = 1;
      else f.dry(i);
    }
    flag[i] = wet;
  }
};

}  // namespace ejecta
