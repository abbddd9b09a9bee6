#pragma once
// Summation density with a smoothing length per particle, h_i = eta (m_i / rho_i)^(1/D), solved
// together with rho_i = sum_j m_j W(r_ij, h_i) (self included) by a safeguarded Newton iteration on
//   f(h) = sum_j m_j W(r_ij, h) - m_i (eta / h)^D,
//   f'(h) = sum_j m_j dW/dh + D m_i (eta / h)^D / h = (D rho / h) Omega,
// and the grad-h term Omega_i = 1 + h_i / (D rho_i) sum_j m_j dW_ij(h_i)/dh_i
// (Springel & Hernquist 2002, MNRAS 333, 649, sec. 2, the f_i factor; Price 2012, J. Comput. Phys.
// 231, 759, sec. 2.6, eqs. for rho(h) and Omega and the Newton-Raphson iteration of sec. 2.6.1).
// Each particle iterates on its own (only its own h enters its density): a gather loop, no
// communication between particles. f < 0 means h is too small, f > 0 too large, so the iteration
// keeps a bracket [lo, hi] and bisects when a Newton step leaves it. h is capped at model.h_max (the
// smoothing length of a particle alone in vacuum would grow without bound); a capped particle keeps h_max, its summed density and its Omega.
// Then the equation of state (pressure, sound speed).
#include "physics/gas_model.h"

namespace ejecta {

// Grid: the neighbour search, LevelGrid or NeighborTree (gas.neighbour_search).
template <class T, int D, class Grid = LevelGrid<T, D>>
struct DensityGradH_Price2012 {
  GasModel<T, D> model;
  Grid grid;
  GasView<T, D> pv;

  // Density sum and its h-derivative at smoothing length h.
  EJ_INLINE void sums(std::size_t i, T h, T& rho, T& drho_dh) const {
    const SmoothingKernel<T, D> k = model.kernel.at(h);
    rho = T(0);
    drho_dh = T(0);
    grid.for_each_neighbor(pv.x[i], pv.x.get(), T(2) * h, false, [&](uint32_t j, const Vec<T, D>&, T r2) {
      const T r = sqrt(r2);
      const T W = k.W(r);
      rho += pv.m[j] * W;
      drho_dh -= pv.m[j] * (T(D) * W + r2 * k.F(r)) * k.inv_h;  // dW/dh = -(D W + r dW/dr) / h
    });
  }

  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) {  // frozen boundary particle: keeps rho, u, h; only its EOS
      pv.omega[i] = T(1);
      pv.p[i] = model.eos.pressure(pv.rho[i], pv.u[i]);
      pv.c[i] = model.eos.sound_speed(pv.u[i]);
      return;
    }
    T h = pv.h[i];
    T rho = 0, dsum = 0;
    if (model.fixed_h || !model.summation) {
      if (!model.fixed_h) {  // continuity density: h follows the integrated density
        h = model.eta * pow(pv.m[i] / pv.rho[i], T(1) / T(D));
        if (h > model.h_max) h = model.h_max;
        pv.h[i] = h;
      }
      if (model.summation) {
        sums(i, h, rho, dsum);
        pv.rho[i] = rho;
      }
      pv.omega[i] = T(1);
    } else {
      const T mi = pv.m[i];
      T lo = T(0), hi = T(0);  // bracket; hi = 0: no upper bound known yet
      bool done = false;
      for (int it = 0; it < model.h_iter && !done; ++it) {
        sums(i, h, rho, dsum);
        T rho_h = mi;
        const T s = model.eta / h;
        for (int d = 0; d < D; ++d) rho_h *= s;
        const T f = rho - rho_h;
        const T fp = dsum + T(D) * rho_h / h;
        if (f < T(0)) lo = h; else hi = h;
        T hn = fp > T(0) ? h - f / fp : T(0);
        const bool bracketed = hi > T(0);
        if (!(hn > lo && (!bracketed || hn < hi)))  // the Newton step left the bracket: bisect
          hn = bracketed ? T(0.5) * (lo + hi) : T(2) * h;
        if (hn > model.h_max) hn = model.h_max;
        const T dh = hn > h ? hn - h : h - hn;
        done = dh <= model.h_tol * h;  // converged (or capped): keep (h, rho(h), Omega(h))
        if (!done) h = hn;
      }
      if (!done) sums(i, h, rho, dsum);  // out of iterations: density and Omega at the last h
      pv.h[i] = h;
      pv.rho[i] = rho;
      pv.omega[i] = T(1) + h / (T(D) * rho) * dsum;
      if (!(pv.omega[i] > T(0.1))) pv.omega[i] = T(0.1);  // a particle with almost no neighbours
    }
    pv.p[i] = model.eos.pressure(pv.rho[i], pv.u[i]);
    pv.c[i] = model.eos.sound_speed(pv.u[i]);
  }
};

}  // namespace ejecta
