#pragma once
// Modified dynamic boundary conditions (boundary.model = mdbc_english2022): English, Dominguez,
// Vacondio, Crespo, Stansby, Lind, Chiapponi & Gomez-Gesteira (2022), "Modified dynamic boundary
// conditions (mDBC) for general-purpose smoothed particle hydrodynamics (SPH): application to tank
// sloshing, dam break and fish pass problems", Comput. Part. Mech. 9, 1-15; DualSPHysics's wall since
// v5.0. The wall particles are the dynamic boundary particles of Crespo et al. (2007)
// (physics/boundary_dbc_crespo2007.h: they push on the fluid with their pressure and constant mass in
// the fluid's own momentum equation), but their density is not integrated: each step it is taken from
// the fluid at a ghost node x_g, the wall particle x_b mirrored across the boundary interface into the
// fluid (English et al. 2022, sec. 3, fig. 2):
//  - x_g = 2 x_s - x_b with x_s the point of the interface nearest x_b. The interface is the scene's
//    geometry (MdbcGeometry, physics/boundary_mdbc_geometry.h, from scene_builder.cpp's wall_geometry: a tank's inner box, an
//    obstacle's faces that meet the fluid), the plane dp/2 outside the first layer of fluid. For a
//    wall particle in a tank's corner or edge the nearest point is the corner or edge itself, so its
//    ghost is mirrored through that point, as the paper mirrors corner particles.
//  - density and its gradient at x_g by the first-order corrected kernel interpolation of Liu & Liu
//    (2006), Appl. Numer. Math. 56, 19 (English et al. 2022, eq. 10-11), over the fluid alone:
//      [ sum V_j W_gj         sum V_j (x_j - x_g)^T W_gj          ] [ rho_g      ]   [ sum m_j W_gj      ]
//      [ sum V_j grad W_gj    sum V_j grad W_gj (x) (x_j - x_g)^T ] [ grad rho_g ] = [ sum m_j grad W_gj ]
//    (V_j = m_j / rho_j, grad = grad_g), a 3x3 system in 2D, 4x4 in 3D. Where its determinant is
//    below boundary.mdbc_det_threshold (a ghost near a free surface or a corner of the fluid: the
//    matrix is ill-conditioned; the system is dimensionless, so the threshold is too) the Shepard
//    value rho_g = sum m_j W_gj / sum V_j W_gj with no gradient, as the paper does.
//  - extrapolated to the wall particle, rho_b = rho_g + (x_b - x_g) . grad rho_g (eq. 12), kept
//    >= rho0 when boundary.mdbc_min_density = rho0 (as DualSPHysics: a wall never pulls the fluid in),
//    and the pressure p_b the fluid's Tait EOS of rho_b.
//  - a wall whose ghost has no fluid around it takes rho0 (p = 0).
// Velocity (boundary.slip): at_rest (default) and free as with the other wall models (the wall's own
// velocity v_w in the viscous term, 0 for a fixed wall and the gate's for a [gate.N], or no viscous term
// against walls); no_slip gives the wall particle the velocity 2 v_w - v_g with v_g the Shepard
// interpolation of the fluid's velocity at the ghost node (English et al. 2022, sec. 3.2, the no-slip
// variant; wall_velocity, wcsph_model.h). A gate's ghost nodes move with it: its box in the geometry is
// lo + v_w t, hi + v_w t at the evaluation's time t (solver/uniform_liquid.h, move_gates).
// No state of its own: the walls' density is recomputed from the fluid each evaluation, so a restart
// (from any wall model's frame) continues exactly.
#include "physics/boundary_mdbc_geometry.h"
#include "physics/wcsph_model.h"

#include <cstdint>

namespace ejecta {

// The model's settings: the geometry, the determinant below which the Shepard value is taken, and the
// floor on the walls' density.
template <class T, int D>
struct MdbcWalls {
  MdbcGeometry<T, D> geometry{};
  T det_min = T(1e-3);
  bool clamp_rho0 = true;
};

// Solves the (N x N) system a y = b in place by Gaussian elimination with partial pivoting; returns
// the determinant of a (0 when a pivot vanishes; y is then not set).
template <class T, int N>
EJ_INLINE T mdbc_solve(T (&a)[N][N], T (&b)[N]) {
  T det = T(1);
  for (int c = 0; c < N; ++c) {
    int piv = c;
    for (int r = c + 1; r < N; ++r)
      if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
    if (a[piv][c] == T(0)) return T(0);
    if (piv != c) {
      for (int k = 0; k < N; ++k) {
        const T t = a[c][k];
        a[c][k] = a[piv][k];
        a[piv][k] = t;
      }
      const T t = b[c];
      b[c] = b[piv];
      b[piv] = t;
      det = -det;
    }
    det *= a[c][c];
    const T inv = T(1) / a[c][c];
    for (int r = c + 1; r < N; ++r) {
      const T f = a[r][c] * inv;
      for (int k = c; k < N; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int c = N - 1; c >= 0; --c) {
    T s = b[c];
    for (int k = c + 1; k < N; ++k) s -= a[c][k] * b[k];
    b[c] = s / a[c][c];
  }
  return det;
}

// The walls' pass (in place of Adami's extrapolation): each wall particle's density, pressure and the
// velocity the viscous term sees, from the fluid at its ghost node, at the state the step's forces are
// evaluated at.
template <class T, int D>
struct WallDensity_English2022 {
  WcsphModel<T, D> model;
  CellGrid<T, D> grid;
  ParticleView<T, D> pv;
  MdbcWalls<T, D> walls;

  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kWall) return;
    constexpr int N = D + 1;
    const Vec<T, D> xb = pv.x[i];
    const Vec<T, D> xg = walls.geometry.ghost(xb);
    const T r2max = model.kernel.support() * model.kernel.support();
    // a[0][0] = sum V W, a[0][1+b] = sum V W (x_j - x_g)_b, a[1+a][0] = sum V (grad W)_a,
    // a[1+a][1+b] = sum V (grad W)_a (x_j - x_g)_b; rhs = sum m W, sum m grad W. With r = x_g - x_j,
    // grad_g W_gj = r F(|r|) (kernels.h) and x_j - x_g = -r.
    T a[N][N], rhs[N];
    for (int r = 0; r < N; ++r) {
      rhs[r] = T(0);
      for (int c = 0; c < N; ++c) a[r][c] = T(0);
    }
    Vec<T, D> sum_vw = Vec<T, D>::zero();
    const bool wet = !grid.marked || grid.any_marked_around(xg);
    if (wet) grid.for_each_neighbor(xg, pv.x, r2max, [&](uint32_t j, const Vec<T, D>& r, T r2) {
      if (pv.kind[j] != kFluid) return;
      const T rr = sqrt(r2);
      const T w = model.kernel.W(rr), f = model.kernel.F(rr);
      const T m = pv.m[j], vol = m / pv.rhop[j];
      a[0][0] += vol * w;
      rhs[0] += m * w;
      for (int c = 0; c < D; ++c) {
        a[0][1 + c] -= vol * w * r[c];
        a[1 + c][0] += vol * f * r[c];
        rhs[1 + c] += m * f * r[c];
        for (int k = 0; k < D; ++k) a[1 + c][1 + k] -= vol * f * r[c] * r[k];
      }
      if (model.slip == kSlipNoSlip) sum_vw += pv.vp[j] * (vol * w);
    });
    const T shepard = a[0][0];
    if (!(shepard > T(0))) {
      pv.rhop[i] = model.eos.rho0;
      pv.p[i] = T(0);
      pv.vp[i] = pv.v[i];
      return;
    }
    const T rho_shepard = rhs[0] / shepard;
    T rho = rho_shepard;
    const T det = mdbc_solve<T, N>(a, rhs);
    if (fabs(det) >= walls.det_min) {
      // rhs now holds (rho_g, grad rho_g): extrapolate to the wall particle (eq. 12).
      rho = rhs[0];
      for (int c = 0; c < D; ++c) rho += (xb[c] - xg[c]) * rhs[1 + c];
    }
    if (walls.clamp_rho0 && rho < model.eos.rho0) rho = model.eos.rho0;
    pv.rhop[i] = rho;
    pv.p[i] = model.eos.pressure(rho);
    // no_slip: the mirror of the fluid's velocity at the ghost node, 2 v_w - v_g; else v_w.
    pv.vp[i] = wall_velocity(model.slip, pv.v[i], sum_vw, shepard);
  }
};

}  // namespace ejecta
