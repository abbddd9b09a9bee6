#pragma once
// boundary.slip = wall_law: a wall that is free slip along its normal (no artificial viscosity against
// wall particles; the pressure, e.g. the wall-normal Riemann problem of pressure_zhang2017.h, does the
// normal part) and applies a shear stress along the wall, the quadratic drag law of open-channel and
// bottom-boundary-layer hydraulics (Chezy's law, tau_w = rho g u^2 / C^2 = rho C_f u^2; Chow 1959,
// "Open-Channel Hydraulics", ch. 5), on the fluid particle's own velocity:
//    tau_w = -rho_i C_f |u_t| u_t,   u_t = v_i - (n_w . v_i) n_w,
// u_t the fluid particle's velocity along the wall relative to it (v_i - v_w for a moving gate, [gate.N];
// vi below is that relative velocity), n_w the wall particle's unit
// normal, the direction to its ghost node (physics/boundary_mdbc_geometry.h, as the wall-normal Riemann
// problem takes it), C_f = boundary.friction, a constant (0.008 by default; the smooth-wall log law, u_t / u_tau =
// ln(z u_tau / nu) / 0.41 + 5.2 with C_f = (u_tau / u_t)^2, gives 0.003-0.005 at z = 1-5 mm from the wall
// for water at 1-2 m/s, the lab dam breaks' first particles; one constant keeps one coefficient to fit
// against Martin & Moyce, docs/physics.md, eleventh session).
//
// The stress acts on the wetted area. It is spread over the fluid next to the wall through the wall
// particles' kernel sum, as a surface delta function: with gamma_w(x) = sum_w V_w W(x - x_w) (V_w = m_w /
// rho0, the wall's lattice cell), a flat wall's gamma_w falls from 1/2 at the boundary interface to 0 a
// support away (the wall is half of a full kernel sum at its own face), so
//    delta_w(x) = -2 n_w . grad gamma_w = -2 sum_w V_w n_w . grad_i W_iw
// integrates to 1 along the normal: sum_i V_i delta_w(x_i) over a column of fluid is the floor's area
// under it. (The semi-analytical walls of Ferrand et al. 2013, Int. J. Numer. Meth. Fluids 71, 446, carry
// their wall terms, the wall-function shear stress of their k-epsilon model among them, through the
// same gradient of the wall's kernel integral, grad gamma; Violeau & Issa 2007, ibid. 53, 277, review
// SPH wall functions.) The force density tau_w delta_w on particle i:
//    dv_i/dt = tau_w delta_w / rho_i = 2 C_f |u_t| u_t sum_w V_w (n_w . x_iw) F(r_iw),
// grad_i W_iw = x_iw F (F < 0), only for wall particles whose face i is in front of (n_w . x_iw > 0, the
// wall-normal Riemann problem's condition: past a convex edge a face is no wall to the particle).
// Checked in WallFriction.* (test_wall_friction.cpp): on a uniform flow over a floor the force on the
// layer is tau_w times the floor's area.
#include "physics/boundary_mdbc_geometry.h"
#include "physics/wcsph_model.h"

namespace ejecta {

// The acceleration of fluid particle i (velocity vi) from wall particle j at xj (x_ij = x_i - x_j, F
// the kernel's grad_i W_ij = x_ij F, vol_j the wall particle's volume m_j / rho0), friction coefficient cf.
template <class T, int D>
EJ_INLINE Vec<T, D> wall_friction_accel(const MdbcGeometry<T, D>& walls, T cf, const Vec<T, D>& vi,
                                        const Vec<T, D>& xj, const Vec<T, D>& xij, T F, T vol_j) {
  const Vec<T, D> n = walls.ghost(xj) - xj;
  const T len2 = norm2(n), nx = dot(n, xij);
  // A wall particle no fluid reaches (its own ghost), or a face the particle is not in front of.
  if (!(len2 > T(0)) || !(nx > T(0))) return Vec<T, D>::zero();
  const T inv_len2 = T(1) / len2;
  const Vec<T, D> ut = vi - n * (dot(vi, n) * inv_len2);
  // n_w . x_iw with the unit normal: nx / |n|.
  return ut * (T(2) * cf * sqrt(norm2(ut)) * vol_j * nx * sqrt(inv_len2) * F);
}

}  // namespace ejecta
