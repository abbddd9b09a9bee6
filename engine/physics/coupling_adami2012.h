#pragma once
// The terms of a mixed scene (solver/store_solver.h) that are not the solid's own: the liquid's
// recipe on a variable-h store (Tait EOS, momentum, continuity, delta-SPH) and its coupling to the
// other particles of the store, tank walls and solid bodies alike, as moving walls:
//  - boundary state, Adami, Hu & Adams (2012), J. Comput. Phys. 231, 7057, eq. (27)-(28): a wall or
//    solid particle b takes the pressure extrapolated from the liquid around it, with its own
//    acceleration a_b (0 for tank walls, the last evaluation's for a solid),
//      p_b = (sum_f p_f W_bf + (g - a_b) . sum_f rho_f r_bf W_bf) / sum_f W_bf,   r_bf = x_b - x_f,
//    cut at 0 (no suction), and the density rho_b = rho_Tait(p_b); for viscosity its velocity is
//    2 v_b - v~_f with no-slip (eq. 22-23), v_b otherwise;
//  - the pair force between a liquid particle f and a boundary particle b of volume V_b = m_b / rho_b0
//    (walls: the lattice cell; solids: their current m / rho), weighted as mass V_b rho_b (the wall
//    terms of Adami et al. are written with volumes):
//      dv_f/dt += -V_b rho_b (p_f / rho_f^2 + p_b / rho_b^2 + Pi_fb) grad_f W_fb     (Monaghan 1992),
//    and the solid particle feels the opposite force, m_b dv_b/dt += -m_f (that term): the pair force
//    is equal and opposite, so the momentum of liquid plus solid is conserved (tank walls, fixed,
//    take no reaction); continuity of the liquid uses the boundary's true velocity v_b, and the
//    boundary's share of the pair work goes into the solid's internal energy (LiquidBoundaryPair).
// The pair factor is one function (liquid_boundary_pair) evaluated by both sides, so both see the
// same number. Monaghan's viscosity Pi (alpha, beta of the liquid, times viscosity.wall_factor) acts
// between liquid and boundary unless boundary.slip = free or wall_law, as in forces_wcsph.h (the wall
// law's drag, physics/wall_friction.h, acts in the liquid's own pass only: here wall_law is free slip).
#include "physics/eos_tait.h"
#include "physics/solid_model.h"

namespace ejecta {

template <class T, int D>
struct LiquidModel {
  VarKernel<T, D> kernel;
  TaitEos<T> eos;
  Vec<T, D> gravity;
  T alpha, beta;   // Monaghan (1992) viscosity of the liquid (viscosity.alpha, viscosity.beta)
  T wall_visc;     // factor on alpha and beta between liquid and boundary (viscosity.wall_factor)
  T delta;         // delta-SPH (Molteni & Colagrossi 2009), 0 = off
  int slip;        // WallSlip (wcsph_model.h)
  bool diffusion_hydrostatic;  // delta-SPH less its hydrostatic part (Fourtakas et al. 2019)
};

// The store of a mixed scene: the solid's view (every field of every particle; phase tells the
// model) plus the boundary state the liquid sees.
template <class T, int D>
struct MixedView {
  SolidView<T, D> s;
  DevicePtr<T> pb;          // boundary pressure (walls, solids; eq. 27)
  DevicePtr<T> rhob;        // boundary density (eq. 28)
  DevicePtr<Vec<T, D>> vb;  // boundary velocity in the viscous term
};

// The pair factors of liquid particle f and boundary particle b: its acceleration is x_fb k, the
// solid particle b's -(m_f / m_b) x_fb k (equal and opposite), xfb = x_f - x_b, vfb_visc = v_f - vb_b.
// k_b is the boundary's share of k (its pressure and the viscosity): the pair's work
// -m_f k x_fb . v_fb that the liquid's continuity does not store as Tait energy (that is the p_f
// share), put into the solid's internal energy, du_b = -(m_f / m_b) k_b x_fb . v_fb, so that the
// coupled system conserves energy (as the symmetric SPH energy equation does between two materials).
template <class T>
struct LiquidBoundaryPair {
  T k, k_b;
};
template <class T, int D>
EJ_INLINE LiquidBoundaryPair<T> liquid_boundary_pair(const LiquidModel<T, D>& lm, T pf_rhof2, T rhof, T pb, T rhob,
                                                     T vol_b, const Vec<T, D>& xfb, const Vec<T, D>& vfb_visc, T r2,
                                                     T hfb, T F) {
  const T mb_eff = vol_b * rhob;
  T visc = T(0);
  const T vx = dot(vfb_visc, xfb);
  if (vx < T(0) && wall_slip_viscous(lm.slip)) {
    const T mu = hfb * vx / (r2 + T(0.01) * hfb * hfb);
    visc = lm.wall_visc * (-lm.alpha * lm.eos.c0 * mu + lm.beta * mu * mu) / (T(0.5) * (rhof + rhob));
  }
  const T kb = -mb_eff * (pb / (rhob * rhob) + visc) * F;
  return {-mb_eff * pf_rhof2 * F + kb, kb};
}

// The volume a boundary particle lends the liquid's sums: its mass over its density state (tank
// walls keep rho0: the lattice cell; solids their current density).
template <class T, int D>
EJ_INLINE T boundary_volume(const SolidView<T, D>& s, std::size_t b) {
  return s.m[b] / s.rho[b];
}

// Solids and DEM grains (physics/dem_grains.h) are moving walls to the liquid and feel its reaction.
EJ_INLINE bool is_moving_boundary(uint8_t phase) { return phase == kPhaseSolid || phase == kPhaseGrain; }

// Runs `f` on the particles of one model only (a term's mask).
template <class F>
struct OnPhase {
  F f;
  DevicePtr<const uint8_t> phase;
  uint8_t which;
  EJ_INLINE void operator()(std::size_t i) const {
    if (phase[i] == which) f(i);
  }
};

// Liquid EOS (Tait) and the rates of particles without a model of their own: tank walls get zero
// rates (they do not move); the liquid's internal energy and stress rates are zero (it has none).
template <class T, int D>
struct MixedLiquidEos {
  LiquidModel<T, D> lm;
  MixedView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint8_t ph = pv.s.phase[i];
    if (is_moving_boundary(ph)) return;  // their own terms set their rates
    pv.s.du[i] = T(0);
    pv.s.dS[i] = SymTensor<T, D>::zero();
    if (ph == kPhaseLiquid) {
      pv.s.p[i] = lm.eos.pressure(pv.s.rho[i]);
      pv.s.c[i] = lm.eos.c0;
      return;
    }
    pv.s.a[i] = Vec<T, D>::zero();
    pv.s.drho[i] = T(0);
    pv.s.vsig[i] = T(0);
    pv.s.c[i] = T(0);
  }
};

// Adami et al. (2012), eq. (22)-(23), (27)-(28), for every tank wall and solid particle.
template <class T, int D>
struct MixedBoundary_Adami2012 {
  LiquidModel<T, D> lm;
  LevelGrid<T, D> grid;
  MixedView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    const uint8_t ph = pv.s.phase[i];
    if (ph == kPhaseLiquid) {  // not a boundary: defined values for output only
      pv.pb[i] = T(0);
      pv.rhob[i] = T(0);
      pv.vb[i] = Vec<T, D>::zero();
      return;
    }
    const Vec<T, D> xi = pv.s.x[i];
    const T hi = pv.s.h[i];
    T sum_w = 0, sum_pw = 0;
    Vec<T, D> sum_rho_r = Vec<T, D>::zero(), sum_vw = Vec<T, D>::zero();
    grid.for_each_neighbor(xi, pv.s.x, T(2) * hi, true, [&](uint32_t j, const Vec<T, D>& r, T r2) {
      if (pv.s.phase[j] != kPhaseLiquid) return;
      const T hij = T(0.5) * (hi + pv.s.h[j]);
      if (r2 >= T(4) * hij * hij) return;
      const T w = lm.kernel.at(hij).W(sqrt(r2));
      sum_w += w;
      sum_pw += pv.s.p[j] * w;
      sum_rho_r += r * (pv.s.rho[j] * w);
      sum_vw += pv.s.v[j] * w;
    });
    const Vec<T, D> vw = is_moving_boundary(ph) ? pv.s.v[i] : Vec<T, D>::zero();
    // The wall's acceleration: a solid's from the last evaluation (its state moves with it), none for
    // tank walls and prescribed solids.
    const Vec<T, D> aw = (is_moving_boundary(ph) && !pv.s.kind[i]) ? pv.s.a[i] : Vec<T, D>::zero();
    if (sum_w > T(0)) {
      T pw = (sum_pw + dot(lm.gravity - aw, sum_rho_r)) / sum_w;
      if (pw < T(0)) pw = T(0);
      pv.pb[i] = pw;
      pv.rhob[i] = lm.eos.density(pw);
      pv.vb[i] = lm.slip == kSlipNoSlip ? vw * T(2) - sum_vw * (T(1) / sum_w) : vw;
    } else {
      pv.pb[i] = T(0);
      pv.rhob[i] = lm.eos.rho0;
      pv.vb[i] = vw;
    }
    if (ph == kPhaseWall) pv.s.p[i] = pv.pb[i];  // a tank wall's pressure is the extrapolated one
  }
};

// The liquid's rates: momentum (Monaghan 1992, eq. 3.3-3.5), continuity, delta-SPH between liquid
// particles (Molteni & Colagrossi 2009, eq. 9, with the hydrostatic part of Fourtakas et al. 2019,
// eq. 12, as in forces_wcsph.h), and the boundary pairs above.
template <class T, int D>
struct MixedLiquidForces {
  LiquidModel<T, D> lm;
  LevelGrid<T, D> grid;
  MixedView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    const SolidView<T, D>& s = pv.s;
    if (s.phase[i] != kPhaseLiquid) return;
    const Vec<T, D> xi = s.x[i], vi = s.v[i];
    const T hi = s.h[i], rhoi = s.rho[i], pi_rho2 = s.p[i] / (rhoi * rhoi);
    const T rho_h = lm.eos.rho0 / (lm.eos.c0 * lm.eos.c0);
    Vec<T, D> acc = Vec<T, D>::zero();
    T drho = 0;
    grid.for_each_neighbor(xi, s.x, T(2) * hi, true, [&](uint32_t j, const Vec<T, D>& xij, T r2) {
      if (j == i) return;
      const T hij = T(0.5) * (hi + s.h[j]);
      if (r2 >= T(4) * hij * hij) return;
      const T r = sqrt(r2);
      const T F = lm.kernel.at(hij).F(r);
      const Vec<T, D> vij = vi - s.v[j];
      if (s.phase[j] == kPhaseLiquid) {
        const T mj = s.m[j], rhoj = s.rho[j];
        const T vx = dot(vij, xij);
        T visc = 0;
        if (vx < T(0)) {
          const T mu = hij * vx / (r2 + T(0.01) * hij * hij);
          visc = (-lm.alpha * lm.eos.c0 * mu + lm.beta * mu * mu) / (T(0.5) * (rhoi + rhoj));
        }
        acc += xij * (-mj * (pi_rho2 + s.p[j] / (rhoj * rhoj) + visc) * F);
        drho += mj * F * vx;
        if (lm.delta > T(0)) {
          const T rho_hydro = lm.diffusion_hydrostatic ? dot(lm.gravity, xij) * rho_h : T(0);
          const T eta2 = T(0.01) * hij * hij;
          drho += lm.delta * hij * lm.eos.c0 * T(-2) * (rhoj - rhoi + rho_hydro) * F * (r2 / (r2 + eta2)) * (mj / rhoj);
        }
        return;
      }
      const T vol = boundary_volume(s, j);
      const T k = liquid_boundary_pair(lm, pi_rho2, rhoi, pv.pb[j], pv.rhob[j], vol, xij, vi - pv.vb[j], r2,
                                       hij, F).k;
      acc += xij * k;
      drho += vol * pv.rhob[j] * F * dot(vij, xij);  // the boundary's true velocity
    });
    s.a[i] = acc + lm.gravity;
    s.drho[i] = drho;
    s.vsig[i] = lm.eos.c0 * (T(1) + T(0.6) * lm.alpha) + sqrt(norm2(vi));
  }
};

// The liquid's push on the solid: for each free solid particle b the opposite of every liquid pair
// force of MixedLiquidForces, added to the acceleration of its own model's pass.
template <class T, int D>
struct MixedCouplingReaction {
  LiquidModel<T, D> lm;
  LevelGrid<T, D> grid;
  MixedView<T, D> pv;
  EJ_INLINE void operator()(std::size_t b) const {
    const SolidView<T, D>& s = pv.s;
    if (!is_moving_boundary(s.phase[b]) || s.kind[b]) return;
    const Vec<T, D> xb = s.x[b];
    const T hb = s.h[b], mb = s.m[b], pb = pv.pb[b], rhob = pv.rhob[b];
    const Vec<T, D> vbb = pv.vb[b];
    const T vol = boundary_volume(s, b);
    Vec<T, D> force = Vec<T, D>::zero();
    T work = T(0);
    bool any = false;
    grid.for_each_neighbor(xb, s.x, T(2) * hb, true, [&](uint32_t f, const Vec<T, D>& xbf, T r2) {
      if (s.phase[f] != kPhaseLiquid) return;
      const T hfb = T(0.5) * (s.h[f] + hb);
      if (r2 >= T(4) * hfb * hfb) return;
      const T F = lm.kernel.at(hfb).F(sqrt(r2));
      const T rhof = s.rho[f];
      const Vec<T, D> xfb = xbf * T(-1);  // exact negation: the same bits as x_f - x_b
      const LiquidBoundaryPair<T> k =
          liquid_boundary_pair(lm, s.p[f] / (rhof * rhof), rhof, pb, rhob, vol, xfb, s.v[f] - vbb, r2, hfb, F);
      force += xfb * (-s.m[f] * k.k);
      work -= s.m[f] * k.k_b * dot(xfb, s.v[f] - s.v[b]);
      any = true;
    });
    if (any) {
      s.a[b] += force * (T(1) / mb);
      s.du[b] += work / mb;
    }
  }
};

// Mass, momenta and energies of a mixed store: the liquid with the Tait compression energy as its
// internal energy (diagnostic_sums.h), the solids with their u, tank walls with their mass only.
template <class T, int D>
struct MeasureMixedSums {
  SolidView<T, D> pv;
  double gravity[3];
  double rho0, gamma, B;
  EJ_INLINE DiagnosticSums operator()(std::size_t i) const {
    DiagnosticSums s{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0};
    const double m = double(pv.m[i]);
    s.mass = m;
    const uint8_t ph = pv.phase[i];
    if (ph == kPhaseWall) return s;
    double x[3] = {0, 0, 0}, v[3] = {0, 0, 0}, v2 = 0;
    for (int d = 0; d < D; ++d) {
      x[d] = double(pv.x[i][d]);
      v[d] = double(pv.v[i][d]);
      v2 += v[d] * v[d];
      s.momentum[d] = m * v[d];
      s.potential -= m * gravity[d] * x[d];
    }
    s.kinetic = 0.5 * m * v2;
    s.angular[0] = m * (x[1] * v[2] - x[2] * v[1]);
    s.angular[1] = m * (x[2] * v[0] - x[0] * v[2]);
    s.angular[2] = m * (x[0] * v[1] - x[1] * v[0]);
    if (ph == kPhaseLiquid) {
      const double rho = double(pv.rho[i]);
      const double err = rho / rho0 - 1.0;
      s.max_density_error = err < 0 ? -err : err;
      s.internal = m * tait_internal_energy(rho, rho0, gamma, B);
    } else {
      s.internal = m * double(pv.u[i]);
    }
    s.max_v2 = v2;
    return s;
  }
};

}  // namespace ejecta
