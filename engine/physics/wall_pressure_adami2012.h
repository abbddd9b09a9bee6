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
    T sum_w = 0, sum_pw = 0, sum_acc = 0;
    Vec<T, D> sum_rho_r = Vec<T, D>::zero(), sum_vw = Vec<T, D>::zero();
    const auto add = [&](uint32_t j, const Vec<T, D>& r, T r2) {
      const T w = model.kernel.W(sqrt(r2));
      sum_w += w;
      sum_pw += pv.p[j] * w;
      sum_rho_r += r * (pv.rhop[j] * w);
      if (model.wall_fluid_accel) sum_acc += dot(model.gravity - pv.a[j], r) * (pv.rhop[j] * w);
      if (model.slip == kSlipNoSlip) sum_vw += pv.vp[j] * w;  // the mirror's average: no slip only
    };
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
              if (r2 < r2max) add(j + u, r, r2);
            }
          }
        }
      }
    }
    if (sum_w > T(0)) {
      T pw = (sum_pw + (model.wall_fluid_accel ? sum_acc : dot(model.gravity, sum_rho_r))) / sum_w;
      if (pw < T(0)) pw = T(0);
      pv.p[i] = pw;
      pv.rhop[i] = model.eos.density(pw);
      pv.vp[i] = wall_velocity(model.slip, pv.v[i], sum_vw, sum_w);
    } else {
      dry(i);
    }
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
