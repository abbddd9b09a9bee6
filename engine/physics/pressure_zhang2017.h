#pragma once
// The pair pressure of Zhang, Hu & Adams (2017), "A weakly compressible SPH method based on a
// low-dissipation Riemann solver", J. Comput. Phys. 335, 605-620, in place of Monaghan's
// p_i/rho_i^2 + p_j/rho_j^2 (fluid.pressure_term, forces_wcsph.h): the momentum equation takes
// dv_i/dt = -sum_j 2 m_j P*_ij / (rho_i rho_j) grad_i W_ij with the linearised (acoustic) Riemann
// solution between the left state L = i and the right state R = j (sec. 3.1-3.2, eq. 14-16),
//    P* = (rho_R p_L + rho_L p_R + rho_L rho_R beta (U_L - U_R)) / (rho_L + rho_R),
//    beta = min(3 max(U_L - U_R, 0), c0)   (the low-dissipation limiter, eq. 16: dissipation only
//                                           where the states approach each other).
//  - zhang2017: U = v . e_ij along the pair's line for every pair, walls included (the walls' velocity
//    the one the viscous term sees).
//  - zhang2017_wall_normal: the same between fluid particles; against a wall particle the one-sided
//    Riemann problem of sec. 3.3 along the wall's normal n_w (into the fluid): U_L = -n_w . v_i,
//    the wall's state the fluid's mirrored, U_R = -U_L (a wall at rest), so U_L - U_R = -2 n_w . v_i.
//    Flow along the wall then carries no dissipation (the e_ij form brakes it wherever e_ij has a
//    component along the flow). The wall's pressure and density are the wall model's own (Adami's
//    extrapolation or mDBC's ghost node; the paper takes p_L + rho_L g . r_iw, Adami's form). n_w at a
//    wall particle x_w is the direction to its ghost node (physics/boundary_mdbc_geometry.h, the scene's
//    tank and obstacle boxes): an edge or corner particle's normal is the diagonal through the edge or
//    corner; a particle no fluid reaches (its own ghost) takes no dissipation.
#include "physics/boundary_mdbc_geometry.h"
#include "physics/wcsph_model.h"

namespace ejecta {

// 2 P*_ij / (rho_i rho_j) for the pair i, j at distance r; vx = v_ij . x_ij (v_ij = v_i - v_j), vi the
// fluid particle's velocity relative to the wall (v_i - v_w: a gate's wall moves; forces_wcsph.h), xj the
// neighbour's position, xij = x_i - x_j, wall_j whether it is a wall particle.
// The wall's normal problem holds only for a fluid particle in front of the wall particle's face
// (n_w . x_ij > 0): beyond a convex edge (water running over the box's top past its front face's
// particles) the face's normal would push the particle up and off the edge, where the SPHERIC 2 runs
// lost a third of a particle's kernel sum and stopped on the density check (docs/physics.md, tenth
// session); there the pair takes the pair-line problem, as zhang2017 does.
template <class T, int D>
EJ_INLINE T zhang2017_pair_pressure(const WcsphModel<T, D>& model, const Vec<T, D>& vi, const Vec<T, D>& xj,
                                    const Vec<T, D>& xij, bool wall_j, T vx, T r, T rhoi, T rhoj, T p_i, T p_j) {
  // U_L - U_R = (v_i - v_j) . e_ij = -v_ij . x_ij / r (positive when approaching).
  T du = r > T(0) ? -vx / r : T(0);
  if (wall_j && model.pressure == kPressureZhang2017WallNormal) {
    const Vec<T, D> n = model.wall_geometry.ghost(xj) - xj;
    const T len = sqrt(norm2(n));
    if (len <= T(0)) du = T(0);  // a wall particle no fluid reaches: no dissipation
    else if (dot(n, xij) > T(0)) du = T(-2) * dot(vi, n) / len;
  }
  const T beta = fmin(T(3) * fmax(du, T(0)), model.eos.c0);
  const T pstar = (rhoj * p_i + rhoi * p_j + rhoi * rhoj * beta * du) / (rhoi + rhoj);
  return T(2) * pstar / (rhoi * rhoj);
}

}  // namespace ejecta
