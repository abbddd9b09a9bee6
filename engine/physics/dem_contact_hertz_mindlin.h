#pragma once
// DEM contact of two elastic spheres (discs in 2D, with the same 3D contact law), Hertz-Mindlin with
// Coulomb friction (the "no-slip" Hertz-Mindlin model of DEM codes):
//  normal (Hertz 1882):     F_n = (4/3) E* sqrt(R* delta) delta  - 2 sqrt(5/6) beta sqrt(S_n m*) v_n,
//  tangential (Mindlin 1949 stiffness, Cundall & Strack 1979 spring and slider):
//                           xi += v_t dt,  F_t = -k_t xi - 2 sqrt(5/6) beta sqrt(S_t m*) v_t,
//                           |F_t| <= mu |F_n| (Coulomb; when it slides xi is cut back to |F_t| = mu |F_n|),
// with 1/E* = (1 - nu_A^2)/E_A + (1 - nu_B^2)/E_B, 1/G* = 2(2 - nu_A)(1 + nu_A)/E_A + 2(2 - nu_B)(1 + nu_B)/E_B,
// 1/R* = 1/r_A + 1/r_B, 1/m* = 1/m_A + 1/m_B, S_n = 2 E* sqrt(R* delta), k_t = S_t = 8 G* sqrt(R* delta),
// and beta = ln e / sqrt(ln^2 e + pi^2) from the restitution e (Tsuji, Tanaka & Ishida 1992, Powder
// Technol. 71, 239; the coefficient 2 sqrt(5/6) as in Antypov & Elliott 2011, EPL 94, 50004).
// v_n = (v_rel . n) and v_t its tangential remainder, v_rel the velocity of B's contact point relative
// to A's: v_B - v_A - (r_A w_A + r_B w_B) x n for rotating grains (physics/dem_grains_hertz_mindlin.h).
// The elastic head-on contact lasts t_c = 2.868 (m*^2 / (R* E*^2 v_0))^(1/5) (Hertz; Johnson 1985,
// Contact Mechanics, eq. 11.24), which tests/test_dem_contact.cpp checks.
//
// Pure per-pair function, EJ_HD. The tangential spring xi is the pair's one piece of state (kept per
// contact by the caller, zeroed when the contact ends).
#include "core/hd.h"
#include "core/vec.h"

#include <cmath>

namespace ejecta {

template <class T>
struct DemHertzMindlinParams {
  T youngs_a = T(0), poisson_a = T(0), youngs_b = T(0), poisson_b = T(0);  // [Pa], []
  T restitution = T(1);  // e in (0, 1]; 1 = no damping
  T friction = T(0);     // Coulomb mu
};

template <class T, int D>
struct DemContactForce {
  Vec<T, D> force;  // on grain A (B gets minus it)
  T normal = T(0);  // |F_n|, for the Coulomb cap and diagnostics
  bool touching = false;
  bool sliding = false;
};

// The constants of one pair of materials, computed once (not per contact): E*, G*, the dashpot factor
// -2 sqrt(5/6) beta >= 0 and mu.
template <class T>
struct DemHertzMindlinPair {
  T e_star = T(0), g_star = T(0), damp = T(0), friction = T(0);
};

template <class T>
EJ_INLINE DemHertzMindlinPair<T> dem_hertz_mindlin_pair(const DemHertzMindlinParams<T>& p) {
  DemHertzMindlinPair<T> c;
  c.e_star = T(1) / ((T(1) - p.poisson_a * p.poisson_a) / p.youngs_a + (T(1) - p.poisson_b * p.poisson_b) / p.youngs_b);
  c.g_star = T(1) / (T(2) * (T(2) - p.poisson_a) * (T(1) + p.poisson_a) / p.youngs_a +
                     T(2) * (T(2) - p.poisson_b) * (T(1) + p.poisson_b) / p.youngs_b);
  const T pi = T(3.14159265358979323846);
  const T le = std::log(p.restitution);
  const T beta = le / std::sqrt(le * le + pi * pi);  // <= 0
  c.damp = T(-2) * std::sqrt(T(5) / T(6)) * beta;   // >= 0
  c.friction = p.friction;
  return c;
}

// One contact in place: the unit normal n from A to B, the overlap delta > 0, the velocity of B's
// contact point relative to A's (with rotation: v_B - v_A - (r_A w_A + r_B w_B) x n), R* and m*.
// Advances the tangential spring xi by dt (kept in the tangent plane, cut back when it slides) and
// returns the force on A (B gets minus it).
template <class T, int D>
EJ_INLINE DemContactForce<T, D> dem_hertz_mindlin_contact(const Vec<T, D>& n, T delta, const Vec<T, D>& vrel,
                                                           T r_star, T m_star, const DemHertzMindlinPair<T>& c,
                                                           Vec<T, D>& xi, T dt) {
  DemContactForce<T, D> out;
  out.touching = true;
  const T vn = dot(vrel, n);
  const Vec<T, D> vt = vrel - n * vn;
  const T root = sqrt(r_star * delta);
  const T sn = T(2) * c.e_star * root, st = T(8) * c.g_star * root;
  // Normal: repulsion along -n on A, the dashpot opposing the approach (vn < 0 while approaching).
  const T fn = T(4) / T(3) * c.e_star * root * delta - c.damp * sqrt(sn * m_star) * vn;
  out.normal = fn > T(0) ? fn : -fn;
  out.force = n * (-fn);
  // Tangential: the spring stretched by the relative tangential motion, kept in the tangent plane.
  xi += vt * dt;
  xi -= n * dot(xi, n);
  Vec<T, D> ft = xi * (-st) - vt * (c.damp * sqrt(st * m_star));
  const T ft_norm = sqrt(norm2(ft));
  const T cap = c.friction * out.normal;
  if (ft_norm > cap) {
    out.sliding = true;
    const T scale = ft_norm > T(0) ? cap / ft_norm : T(0);
    ft *= scale;
    // The spring that would give the capped force (Cundall & Strack 1979: slip resets the spring).
    xi = st > T(0) ? ft * (T(-1) / st) : Vec<T, D>::zero();
  }
  // The force on A is minus the force on B: ft above acts on B (it opposes v_t = v_B - v_A).
  out.force -= ft;
  return out;
}

// Advances the tangential spring `xi` (in/out: zeroed when not touching) by dt and returns the force on A
// (no rotation: the grains' relative velocity at the contact is v_B - v_A).
template <class T, int D>
EJ_INLINE DemContactForce<T, D> dem_hertz_mindlin_force(const Vec<T, D>& xa, const Vec<T, D>& va, T ra, T ma,
                                                         const Vec<T, D>& xb, const Vec<T, D>& vb, T rb, T mb,
                                                         const DemHertzMindlinParams<T>& p, Vec<T, D>& xi, T dt) {
  const Vec<T, D> rel = xb - xa;
  const T dist = sqrt(norm2(rel));
  const T delta = ra + rb - dist;
  if (!(delta > T(0)) || dist <= T(0)) {
    xi = Vec<T, D>::zero();
    DemContactForce<T, D> out;
    out.force = Vec<T, D>::zero();
    return out;
  }
  return dem_hertz_mindlin_contact(rel * (T(1) / dist), delta, vb - va, ra * rb / (ra + rb), ma * mb / (ma + mb),
                                   dem_hertz_mindlin_pair(p), xi, dt);
}

}  // namespace ejecta
