#pragma once
// Rates of the weakly compressible fluid, one neighbour pass per fluid particle:
//  - momentum, symmetric pressure form with the artificial viscosity of Monaghan (1992), ARA&A 30,
//    543, eq. (3.3)-(3.5): dv_i/dt = -sum_j m_j (p_i/rho_i^2 + p_j/rho_j^2 + Pi_ij) grad_i W_ij + g,
//    Pi_ij = (-alpha c_ij mu_ij + beta mu_ij^2) / rho_ij for v_ij.x_ij < 0,
//    mu_ij = h v_ij.x_ij / (r_ij^2 + 0.01 h^2);
//  - continuity, drho_i/dt = sum_j m_j v_ij . grad_i W_ij (Monaghan 1992, eq. 2.9), walls moving
//    with their own velocity v_w (0, or a gate's: the record's wall velocity, wall_velocity in
//    wcsph_model.h; with no_slip, whose record holds the mirror, the wall at rest);
//  - delta-SPH density diffusion between fluid particles, Molteni & Colagrossi (2009), Comput. Phys.
//    Commun. 180, 861, eq. (9): + delta h c0 sum_j psi_ij . grad_i W_ij V_j,
//    psi_ij = 2 (rho_j - rho_i - rho^H_ji) x_ji / (r_ij^2 + eta^2), less the hydrostatic part
//    rho^H_ji = rho0 g.x_ji / c0^2 (linearised Tait) of Fourtakas et al. (2019), Comput. Fluids 190,
//    346, eq. (12): without it the diffusion slowly flattens a hydrostatic column's density profile;
//  - XSPH velocity correction, Monaghan (1989), J. Comput. Phys. 82, 1:
//    dx_i/dt = v_i + eps sum_j (m_j / rho_ij) (v_j - v_i) W_ij;
//  - particle shifting (option), physics/shifting_sun2017.h, added to the same drift correction.
// Options (WcsphModel): the pair pressure P* of Zhang, Hu & Adams (2017) in place of Monaghan's,
// dv_i/dt = -sum_j 2 m_j P*_ij / (rho_i rho_j) grad_i W_ij + g (physics/pressure_zhang2017.h: along
// e_ij for every pair, or along the wall normal against walls);
// the wall slip condition (WallSlip; wall_law's drag, physics/wall_friction.h); the delta-SPH term with
// or without its hydrostatic part, between fluid particles or against walls too (fluid.wall_diffusion).
// A wall particle keeps the volume V_w = m_w / rho0 it was built with (the lattice cell): its mass in
// the sums is rho_w V_w with the density extrapolated from the fluid (Adami et al. 2012 write the
// wall terms with volumes), so the wall pushes with its pressure, not a density-scaled one.
#include "core/pair_math.h"
#include "physics/forces_wcsph_neighbours.h"
#include "physics/pressure_zhang2017.h"
#include "physics/shifting_sun2017.h"
#include "physics/wall_friction.h"
#include "physics/wcsph_model.h"

#include <type_traits>

namespace ejecta {

// Shifting: the particle-shifting sums ride along (fluid.shifting > 0). A template flag, picked at run
// time by the solver, so that the default pass carries none of their seven accumulators: with them
// the fused pass held more registers and ran 15% slower on the H200 (docs/benchmarks.md).
// Nb: how a neighbour is read (forces_wcsph_neighbours.h), the store's arrays or the packed mirror;
// the arithmetic is the same.
// Defaults (fluid.force_specialised = defaults, issue 18): the pass compiled for the default options
// (wcsph_default_options: Monaghan's pressure, at_rest walls, Adami's walls, no wall diffusion, no
// XSPH, beta 0, Fourtakas's hydrostatic part, no shifting, the Wendland kernel), the other options'
// branches and sums left out;
// picked at run time by the solver when the model's options are those. The same arithmetic on the same
// pairs: the same results bit for bit on the CPU (tests/test_force_variants.cpp). Defaults = 2
// (fluid.force_specialised = fast): the same pass with the GPU's approximate reciprocal and square root
// (core/pair_math.h; in double refined by FMA steps); on the CPU the same instructions as Defaults = 1.
template <class T, int D, bool Shifting = false, class Nb = WcsphArrays<T, D>, int Defaults = 0>
struct Forces_WCSPH_Monaghan1992 {
  static_assert(!(Defaults && Shifting), "the default options have no shifting");
  static constexpr bool kFast = Defaults == 2;
  // CUDA blocks of 128 per SM to fit (exec_cuda.cuh): 7 in float (at most 72 registers, 28 warps).
  // Measured on the H200 (2026-12-03, 3D dam break at 1M, float): the force pass took 2.08 ms with
  // 84 registers (5 blocks), 2.08 ms with 6 blocks (80 registers), 1.91 ms with 7; at f3245af, before
  // issue 12's options, 1.92 ms with 80 registers. Shifting and double keep the default bound.
  static constexpr int kCudaMinBlocks = sizeof(T) == 4 && !Shifting ? 7 : 3;
  WcsphModel<T, D> model;
  CellGrid<T, D> grid;
  ParticleView<T, D> pv;
  bool count_pairs;
  Nb nb{};

  // What a particle i carries through its neighbour loop: its own values and its sums. The pass is
  // split into begin / pair / finish so that every way of visiting the neighbours (this functor's
  // cell scan, the cell-block pass of forces_wcsph_cells.h reading them from shared memory) runs the
  // same pair terms in the same order.
  struct Sums {
    Vec<T, D> xi, vi;
    T rhoi, p_i, pi_rho2;
    Vec<T, D> acc, xs;
    std::conditional_t<Shifting, ShiftingSums<T, D>, char> shift;
    T drho;
    uint32_t real;
  };
  EJ_INLINE Sums begin(std::size_t i) const {
    Sums s;
    s.xi = pv.x[i], s.vi = pv.vp[i];
    s.rhoi = pv.rhop[i], s.p_i = pv.p[i], s.pi_rho2 = s.p_i / (s.rhoi * s.rhoi);
    s.acc = Vec<T, D>::zero(), s.xs = Vec<T, D>::zero();
    if constexpr (Shifting) s.shift = ShiftingSums<T, D>{};
    s.drho = 0;
    s.real = 0;
    return s;
  }

  // pair()'s distance test alone (the same expression, without its self test: pair() skips i itself): the
  // first phase of the batched loop (forces_wcsph_batch.h, fluid.neighbour_batch), which queues the
  // candidates that pass it.
  EJ_INLINE bool within(const Sums& s, const Vec<T, D>& xj) const {
    const T r2max = model.kernel.support() * model.kernel.support();
    const T r2 = norm2(s.xi - xj);
    return r2 < r2max;
  }

  // One candidate j at xj (self: j is i itself); rest() reads the neighbour's other values
  // (WcsphNeighbour), called only within the support.
  template <class Rest>
  EJ_INLINE void pair(Sums& s, bool self, const Vec<T, D>& xj, Rest&& rest) const {
    const T h = model.kernel.h, r2max = model.kernel.support() * model.kernel.support();
    const Vec<T, D> xij = s.xi - xj;
    const T r2 = norm2(xij);
    if (!(r2 < r2max) || self) return;
    ++s.real;
    const WcsphNeighbour<T, D> n = rest();
    const T rhoi = s.rhoi;
    const T diffusion = model.delta * h * model.eos.c0;
    // rho^H_ji = rho0 g.(x_j - x_i) / c0^2 = -(rho0 / c0^2) g.x_ij
    const T rho_h = model.eos.rho0 / (model.eos.c0 * model.eos.c0);
    const T r = pair_sqrt<kFast>(r2);
    const T F = Defaults ? model.kernel.F_wendland(r) : model.kernel.F(r);  // grad_i W_ij = xij F
    const bool fluid_j = n.fluid;
    const T rhoj = n.rho;
    // Two reciprocals shared by the terms below (the pressure and the diffusion's volume; mu and
    // the diffusion's r^2 / (r^2 + eta^2)) in place of five divisions a pair, and 1 / rho0 (the same for
    // every pair) in the wall's mass (issue 18: an IEEE division is a multi-instruction sequence on the GPU).
    const T inv_rhoj = pair_rcp<kFast>(rhoj), inv_r2eta = pair_rcp<kFast>(r2 + model.eta2);
    // Adami's wall keeps its volume (mass rho_w V_w); a dynamic boundary particle its mass (Crespo 2007;
    // English et al. 2022's mDBC too).
    const T mj = fluid_j || (!Defaults && model.boundary != kBoundaryAdami2012) ? n.m : n.m * (rhoj * (T(1) / model.eos.rho0));
    const Vec<T, D> vij = s.vi - n.v;
    const T vx = dot(vij, xij);
    // The fluid's velocity relative to a wall, v_i - v_w, for the wall terms (continuity, wall law, the
    // wall-normal Riemann problem): the record's wall velocity is v_w except with no_slip (its mirror,
    // the walls then at rest).
    const Vec<T, D> vrel = fluid_j || Defaults || model.slip != kSlipNoSlip ? vij : s.vi;
    T visc = 0;
    const bool approaching = vx < T(0) && (fluid_j || Defaults || wall_slip_viscous(model.slip));
    // The fast pass computes the term for every pair and keeps it where the pair approaches: the same
    // values, without the branch and its convergence barrier (about half the pairs of a warp approach,
    // so the branch diverges and its lanes idle either way; the approximate reciprocal is one instruction).
    if (kFast || approaching) {
      const T mu = h * vx * inv_r2eta;
      // c_ij = c0: density varies by ~1% in a weakly compressible fluid, so does c.
      const T beta_term = Defaults ? T(0) : model.beta * mu * mu;
      T v = pair_div<kFast>(-model.alpha * model.eos.c0 * mu + beta_term, T(0.5) * (rhoi + rhoj));
      if (!fluid_j) v *= model.wall_visc;
      visc = approaching ? v : T(0);
    }
    T pij;
    if (!Defaults && model.pressure != kPressureMonaghan1992) {
      pij = zhang2017_pair_pressure(model, vrel, xj, xij, !fluid_j, vx, r, rhoi, rhoj, s.p_i, n.p);
    } else {
      pij = s.pi_rho2 + n.p * inv_rhoj * inv_rhoj;
    }
    s.acc += xij * (-mj * (pij + visc) * F);
    // boundary.slip = wall_law: the wall's shear stress, V_w = m_w / rho0 (physics/wall_friction.h).
    if (!Defaults && !fluid_j && model.slip == kSlipWallLaw)
      s.acc += wall_friction_accel(model.wall_geometry, model.wall_friction, vrel, xj, xij, F, n.m / model.eos.rho0);
    // Shifting's volume keeps its division: with mj * inv_rhoj the hydrostatic tank under shifting
    // (Hydrostatic2D.ShiftingKeepsTheTankAtRest) let a corner particle move at 0.11-0.15 m/s where the
    // division gives 0.08-0.09 (four round-off perturbations each, stop 36): the shifting term at a corner
    // is sensitive to this sum's rounding, not understood yet (the default pass has no shifting).
    if constexpr (Shifting) s.shift.add(mj / rhoj, model.kernel.W(r), xij * F, model.shift_inv_wdp);
    // Continuity uses the walls' true velocity (v_w), not the no-slip mirror velocity.
    s.drho += mj * F * dot(vrel, xij);
    // The diffusion against walls too with fluid.wall_diffusion: V_j = m_j / rho_j of the wall particle
    // and its density as the wall model gives it (mDBC's ghost node; hydrostatic at rest, so that the
    // hydrostatic part below cancels it in a still tank).
    if (diffusion > T(0) && (fluid_j || (!Defaults && model.wall_diffusion))) {
      const T rho_hydro = Defaults || model.diffusion_hydrostatic ? dot(model.gravity, xij) * rho_h : T(0);
      s.drho += diffusion * T(-2) * (rhoj - rhoi + rho_hydro) * F * (r2 * inv_r2eta) * (mj * inv_rhoj);
    }
    if (!Defaults && fluid_j && model.xsph > T(0)) s.xs += (n.v - s.vi) * (mj / (T(0.5) * (rhoi + rhoj)) * model.kernel.W(r));
  }

  EJ_INLINE void finish(std::size_t i, const Sums& s, uint32_t cand) const {
    pv.a[i] = s.acc + model.gravity;
    pv.drho[i] = model.summation ? T(0) : s.drho;
    if constexpr (Shifting)
      pv.xsph[i] = s.xs * model.xsph + s.shift.velocity(model.shift, pv.m[i] / s.rhoi * model.kernel.W(T(0)));
    else if (!Defaults && model.xsph > T(0))
      pv.xsph[i] = s.xs * model.xsph;
    if (count_pairs) {
      pv.pair_real[i] = s.real;
      pv.pair_cand[i] = cand;
    }
  }

  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) return;
    Sums s = begin(i);
    const uint32_t cand = grid.for_each_candidate(s.xi, [&](uint32_t j) {
      const auto pos = nb.position(pv, j);
      pair(s, j == i, pos.x, [&] { return nb.rest(pv, j, pos); });
    });
    finish(i, s, cand);
  }
};

// fluid.force_threads = fluid (issue 18): the pass launched over the fluid's sorted indices only, so
// that no lane of a warp idles on a wall particle (a wall returns at once from the particle pass, but
// where walls and fluid share buckets, at the floor and the tank's ends, they share warps). The list is
// rebuilt each pass after the sort (Exec::select_if with IsKind: the fluid's indices in sorted order, so
// consecutive lanes still read neighbouring cells); its length stays on the device (count), so the
// launch covers n lanes and those past the count return. MinBlocks: the CUDA launch bound
// (fluid.force_registers = 64 asks 8 blocks of 128 a SM, at most 64 registers, in float).
struct IsKind {
  const uint8_t* kind;
  uint8_t wanted;
  EJ_INLINE bool operator()(std::size_t i) const { return kind[i] == wanted; }
};
// The list's scatter after a flag pass and its exclusive scan (the wet walls' list, liquid_uniform_terms.h).
struct ScatterFlagged {
  const uint32_t* flag;
  const uint32_t* pos;  // exclusive scan of flag
  uint32_t* list;
  EJ_INLINE void operator()(std::size_t i) const {
    if (flag[i]) list[pos[i]] = static_cast<uint32_t>(i);
  }
};
template <class F, int MinBlocks = F::kCudaMinBlocks>
struct ForcesOverList {
  static constexpr int kCudaMinBlocks = MinBlocks;
  F f;
  const uint32_t* list;   // null: lane k is particle k
  const uint32_t* count;  // the list's length (device memory)
  EJ_INLINE void operator()(std::size_t k) const {
    if (!list) {
      f(k);
      return;
    }
    if (k >= *count) return;
    f(list[k]);
  }
};

}  // namespace ejecta
