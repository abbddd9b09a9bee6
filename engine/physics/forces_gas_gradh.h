#pragma once
// Rates of the ideal gas with a smoothing length per particle, one neighbour pass per particle
// (pairs closer than 2 max(h_i, h_j)):
//  - momentum with grad-h terms (Springel & Hernquist 2002, MNRAS 333, 649, eq. 12; Price 2012,
//    J. Comput. Phys. 231, 759, sec. 3.2):
//      dv_i/dt = -sum_j m_j [P_i/(Omega_i rho_i^2) grad_i W_ij(h_i) + P_j/(Omega_j rho_j^2) grad_i W_ij(h_j)]
//  - internal energy, pdV work (same references):
//      du_i/dt = P_i/(Omega_i rho_i^2) sum_j m_j v_ij . grad_i W_ij(h_i)
//  - continuity (continuity density only): drho_i/dt = (1/Omega_i) sum_j m_j v_ij . grad_i W_ij(h_i)
//  - artificial viscosity with the signal velocity of Monaghan (1997), J. Comput. Phys. 136, 298,
//    sec. 4 (in the form of Price 2012, sec. 4.2), for approaching pairs (w_ij = v_ij . r^_ij < 0):
//      Pi_ij = -1/2 alpha_ij v_sig w_ij / rho_ij,  v_sig = c_i + c_j - beta w_ij,
//      dv_i/dt += -sum_j m_j Pi_ij grad_i Wbar_ij,  du_i/dt += 1/2 sum_j m_j Pi_ij v_ij . grad_i Wbar_ij
//    (rho_ij and Wbar_ij the averages of the pair; the heating is exactly the work the viscous force
//    removes, so total energy is conserved pair by pair);
//  - artificial conductivity (Price 2008, J. Comput. Phys. 227, 10040, sec. 4, with the signal
//    speed v_sig^u = sqrt(|P_i - P_j| / rho_ij)), when alpha_u > 0:
//      du_i/dt += sum_j m_j alpha_u v_sig^u (u_i - u_j) / rho_ij  r^_ij . grad_i Wbar_ij
//    (antisymmetric in i, j: conserves energy; smooths the pressure blip at contact discontinuities);
//  - the velocity divergence div v_i = -1/(Omega_i rho_i) sum_j m_j v_ij . grad_i W_ij(h_i) and the
//    viscosity switch of Morris & Monaghan (1997), J. Comput. Phys. 136, 41, eq. (6)-(9), with the
//    source factor (alpha_max - alpha) of Rosswog, Davies, Thielemann & Piran (2000), A&A 360, 171:
//      dalpha_i/dt = -(alpha_i - alpha_min) / tau_i + max(-div v_i, 0) (alpha_max - alpha_i),
//      tau_i = h_i / (C c_i);
//  - the largest signal speed over the neighbours, max_j (c_i + c_j - beta min(w_ij, 0)), for the
//    time step (Monaghan 1997; Springel 2005, MNRAS 364, 1105, eq. 16).
#include "physics/gas_model.h"

namespace ejecta {

// Grid: the neighbour search, LevelGrid or NeighborTree (gas.neighbour_search).
template <class T, int D, class Grid = LevelGrid<T, D>>
struct Forces_Gas_GradH {
  GasModel<T, D> model;
  Grid grid;
  GasView<T, D> pv;

  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) {  // frozen boundary particle: no rates
      pv.a[i] = Vec<T, D>::zero();
      pv.du[i] = T(0);
      pv.drho[i] = T(0);
      pv.vsig[i] = T(0);
      pv.divv[i] = T(0);
      if (model.switch_on) pv.dalpha[i] = T(0);
      return;
    }
    const Vec<T, D> xi = pv.x[i], vi = pv.v[i];
    const T hi = pv.h[i], rhoi = pv.rho[i], ci = pv.c[i], ui = pv.u[i], pi = pv.p[i];
    const T qi = pi / (pv.omega[i] * rhoi * rhoi);
    const T alphai = model.switch_on ? pv.alpha[i] : model.alpha;
    const SmoothingKernel<T, D> ki = model.kernel.at(hi);
    Vec<T, D> acc = Vec<T, D>::zero();
    T du = 0, work = 0, vsig_max = T(2) * ci;
    grid.for_each_neighbor(xi, pv.x.get(), T(2) * hi, true, [&](uint32_t j, const Vec<T, D>& xij, T r2) {
      if (j == i) return;
      const T hj = pv.h[j];
      const T reach = T(2) * (hi > hj ? hi : hj);
      if (r2 >= reach * reach) return;
      const T r = sqrt(r2);
      const SmoothingKernel<T, D> kj = model.kernel.at(hj);
      const T Fi = ki.F(r), Fj = kj.F(r);  // grad_i W_ij(h) = x_ij F(r, h)
      const T mj = pv.m[j], rhoj = pv.rho[j], cj = pv.c[j];
      const T qj = pv.p[j] / (pv.omega[j] * rhoj * rhoj);
      const Vec<T, D> vij = vi - pv.v[j];
      const T vx = dot(vij, xij);
      acc += xij * (-mj * (qi * Fi + qj * Fj));
      work += mj * vx * Fi;
      const T Fbar = T(0.5) * (Fi + Fj);
      const T rho_bar = T(0.5) * (rhoi + rhoj);
      const T w = r > T(0) ? vx / r : T(0);
      const T vsig = ci + cj - model.beta * (w < T(0) ? w : T(0));
      if (vsig > vsig_max) vsig_max = vsig;
      if (w < T(0)) {
        const T alphaij = model.switch_on ? T(0.5) * (alphai + pv.alpha[j]) : model.alpha;
        const T Pi = T(-0.5) * alphaij * vsig * w / rho_bar;
        acc += xij * (-mj * Pi * Fbar);
        du += T(0.5) * mj * Pi * vx * Fbar;
      }
      if (model.alpha_u > T(0)) {
        const T dp = pi - pv.p[j];
        const T vsu = sqrt((dp < T(0) ? -dp : dp) / rho_bar);
        du += mj * model.alpha_u * vsu * (ui - pv.u[j]) / rho_bar * r * Fbar;
      }
    });
    pv.a[i] = acc + model.gravity;
    pv.du[i] = du + qi * work;
    pv.drho[i] = model.summation ? T(0) : work / pv.omega[i];
    pv.vsig[i] = vsig_max;
    const T divv = -work / (pv.omega[i] * rhoi);
    pv.divv[i] = divv;
    if (model.switch_on) {
      const T tau_inv = ci > T(0) ? model.switch_decay * ci / hi : T(0);
      const T source = (divv < T(0) ? -divv : T(0)) * (model.alpha - alphai);
      pv.dalpha[i] = -(alphai - model.alpha_min) * tau_inv + source;
    }
  }
};

}  // namespace ejecta
