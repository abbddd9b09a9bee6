#pragma once
// Leapfrog kick-drift-kick for the fluid particles (walls keep their velocity: a gate's, [gate.N], moves
// it by x += v_w dt until the gate stops, StopGate; a fixed wall's is 0 and it stays put, untouched):
//   v_{n+1/2} = v_n + dt/2 a_n,  rho_{n+1/2} = rho_n + dt/2 D_n,  x_{n+1} = x_n + dt v_{n+1/2} (+ XSPH)
//   rates a_{n+1}, D_{n+1} from x_{n+1} and the predicted v_{n+1/2} + dt/2 a_n, rho_{n+1/2} + dt/2 D_n
//   (the predicted values enter only the velocity- and density-dependent terms, as in GADGET-2,
//   Springel 2005, MNRAS 364, 1105, sec. 4)
//   v_{n+1} = v_{n+1/2} + dt/2 a_{n+1},  rho_{n+1} = rho_{n+1/2} + dt/2 D_{n+1}.
#include "physics/wcsph_model.h"

namespace ejecta {

template <class T, int D>
struct KickDrift {
  ParticleView<T, D> pv;
  T dt;
  bool xsph, summation;
  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) {
      const Vec<T, D> vw = pv.v[i];
      if (norm2(vw) > T(0)) pv.x[i] += vw * dt;
      return;
    }
    const T half = T(0.5) * dt;
    Vec<T, D> v = pv.v[i] + pv.a[i] * half;
    pv.v[i] = v;
    Vec<T, D> drift = v;
    if (xsph) drift += pv.xsph[i];
    pv.x[i] += drift * dt;
    pv.vp[i] = v + pv.a[i] * half;
    if (!summation) {
      const T rho = pv.rho[i] + pv.drho[i] * half;
      pv.rho[i] = rho;
      pv.rhop[i] = rho + pv.drho[i] * half;
    }
  }
};

// The stop of a gate with a travel ([gate.N] travel, scene_builder.cpp), run once in the step whose end t
// reaches the gate's stop time t_s = travel / |v_w|: its particles (the walls moving at v_w inside its box at
// t, lo + v_w t .. hi + v_w t) are drifted back by v_w (t - t_s), so that they end at x0 + v_w t_s, where
// the uninterrupted motion puts them at t_s (not a fraction of dt past it), and their velocity becomes 0:
// the drift leaves them there and a restart from any later frame continues them at rest. A particle
// already at rest is not one of them, so the pass is idempotent.
template <class T, int D>
struct StopGate {
  ParticleView<T, D> pv;
  Vec<T, D> vw, lo, hi;
  T overshoot;  // t - t_s >= 0
  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] == kFluid) return;
    const Vec<T, D> v = pv.v[i], x = pv.x[i];
    bool mine = true;
    for (int d = 0; d < D; ++d) mine = mine && v[d] == vw[d] && x[d] >= lo[d] && x[d] <= hi[d];
    if (!mine) return;
    pv.x[i] = x - vw * overshoot;
    pv.v[i] = Vec<T, D>::zero();
  }
};

template <class T, int D>
struct Kick {
  ParticleView<T, D> pv;
  T dt;
  bool summation;
  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) return;
    const T half = T(0.5) * dt;
    pv.v[i] += pv.a[i] * half;
    pv.rho[i] = summation ? pv.rhop[i] : pv.rho[i] + pv.drho[i] * half;
  }
};

// f(i), then g(i) with its value, one particle at a time: two per-particle passes in one (each reads and
// writes particle i alone, so the result is that of f over every particle followed by g). With a measure
// as g, the map of a transform_reduce: the closing kick and the step's extremes (step_monitor.h) in one
// pass, the kicked fields read once (solver/uniform_liquid.h, kick_and_extremes); the execution layers
// call the map once per index (an OpenMP loop; CUB's reduction over a transform iterator loads each item
// once).
template <class F, class G>
struct Then {
  F f;
  G g;
  EJ_INLINE auto operator()(std::size_t i) const {
    f(i);
    return g(i);
  }
};

}  // namespace ejecta
