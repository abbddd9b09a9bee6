#pragma once
// Grady-Kipp tensile damage with Weibull flaws, as in SPH by Benz & Asphaug (1994, Icarus 107, 98;
// 1995, Comput. Phys. Commun. 87, 253), after Grady & Kipp (1980, Int. J. Rock Mech. Min. Sci. 17,
// 147). Small functions; the solid solver calls them from physics/solid_damage.h and owns the
// per-particle arrays (the flaws are assigned by scene/solid_scene.cpp).
//
// Flaws: the number of flaws per unit volume active at tensile strain eps is n(eps) = k eps^m
// (Weibull 1939). For a body of volume V resolved by N particles, Benz & Asphaug (1995) draw flaws
// j = 1, 2, ... with activation strains eps_j = (j / (k V))^(1/m) (so that exactly floor(k V eps^m) of
// them activate below eps), give each to a particle chosen at random, and stop when every particle
// has at least one flaw, which takes about N ln N draws (coupon collector).
//
// Growth: a particle whose local tensile strain eps = sigma_t / ((1 - D) E) (sigma_t the largest
// principal tensile stress, E Young's modulus) exceeds n_act of its activation strains grows damage
// as d(D^(1/3))/dt = n_act c_g / R_s, c_g = 0.4 c_l, c_l = sqrt((K + 4/3 mu)/rho) the longitudinal
// sound speed, R_s the radius of the particle's volume (Benz & Asphaug 1994, sec. 3, with the
// multi-flaw rate of their 1995 paper). Damage is capped by the fraction of its flaws that are active,
// D <= n_act / n_tot (Benz & Asphaug 1995), and by 1.
//
// Weakening (Benz & Asphaug 1994, sec. 3.2): the deviatoric stress becomes (1 - D) S, and a tensile
// (negative) pressure becomes (1 - D) p; compression is transmitted undamaged.
#include "core/hd.h"
#include "physics/stress_tensor.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace ejecta {

using std::cbrt;

// Young's modulus from the bulk and shear moduli, E = 9 K mu / (3 K + mu).
template <class T>
EJ_INLINE T youngs_modulus(T K, T mu) {
  return T(9) * K * mu / (T(3) * K + mu);
}

// Longitudinal sound speed c_l = sqrt((K + 4/3 mu) / rho).
template <class T>
EJ_INLINE T longitudinal_sound_speed(T K, T mu, T rho) {
  return sqrt((K + T(4) / T(3) * mu) / rho);
}

// Crack growth speed c_g = 0.4 c_l (Benz & Asphaug 1994, after Grady & Kipp 1980).
template <class T>
EJ_INLINE T crack_growth_speed(T K, T mu, T rho) {
  return T(0.4) * longitudinal_sound_speed(K, mu, rho);
}

// Activation strain of flaw j (1-based) in a body of volume V: eps_j = (j / (k V))^(1/m).
template <class T>
EJ_INLINE T weibull_activation_strain(T j, T k, T m, T volume) {
  return pow(j / (k * volume), T(1) / m);
}

// Expected number of flaws active at strain eps in volume V: n = k V eps^m.
template <class T>
EJ_INLINE T weibull_flaw_count(T eps, T k, T m, T volume) {
  return k * volume * pow(eps, m);
}

// Local tensile strain eps = sigma_t / ((1 - D) E); 0 in compression. D < 1 is assumed (a fully
// damaged particle carries no tension and grows no further).
template <class T>
EJ_INLINE T local_tensile_strain(T sigma_t, T D, T E) {
  if (!(sigma_t > T(0))) return T(0);
  return sigma_t / ((T(1) - D) * E);
}

// Number of a particle's flaws active at strain eps; its activation strains ascend (as the
// assignment below makes them).
template <class T>
EJ_INLINE int active_flaw_count(const T* strains, int n, T eps) {
  int c = 0;
  while (c < n && strains[c] <= eps) ++c;
  return c;
}

// Rate of D^(1/3): n_act c_g / R_s.
template <class T>
EJ_INLINE T damage_cuberoot_rate(int n_active, T c_g, T r_s) {
  return T(n_active) * c_g / r_s;
}

// One explicit step of the growth law in D^(1/3), capped at (n_act / n_tot) and 1. Damage never
// decreases (no healing).
template <class T>
EJ_INLINE T advance_damage(T D, int n_active, int n_total, T c_g, T r_s, T dt) {
  if (n_active <= 0 || n_total <= 0) return D;
  T d3 = cbrt(D) + dt * damage_cuberoot_rate(n_active, c_g, r_s);
  T dn = d3 * d3 * d3;
  const T cap = T(n_active) / T(n_total);
  if (dn > cap) dn = cap;
  if (dn > T(1)) dn = T(1);
  return dn > D ? dn : D;
}

// Damage weakening of the pressure: tension (p < 0) is reduced to (1 - D) p.
template <class T>
EJ_INLINE T damaged_pressure(T p, T D) {
  return p < T(0) ? (T(1) - D) * p : p;
}

// Damage weakening of the deviatoric stress: S -> (1 - D) S.
template <class T, int D>
EJ_INLINE void damage_deviatoric(StressTensor<T, D>& s, T damage) {
  scale(s, T(1) - damage);
}

// Flaws per particle (host, at set-up): activation strains of particle i are
// strains[offset[i] .. offset[i+1]), ascending.
struct WeibullFlaws {
  std::vector<std::int64_t> offset;  // size N + 1
  std::vector<double> strains;
  std::int64_t count(std::size_t i) const { return offset[i + 1] - offset[i]; }
};

// Benz & Asphaug (1995) assignment for n particles filling a body of volume V: flaw j = 1, 2, ...
// with eps_j = (j / (k V))^(1/m) goes to a uniformly random particle (equal-volume particles) until
// every particle has at least one flaw. Deterministic for a given seed.
inline WeibullFlaws assign_weibull_flaws(std::size_t n, double k, double m, double volume,
                                         std::uint64_t seed) {
  if (n == 0) return WeibullFlaws{{0}, {}};
  if (!(k > 0) || !(m > 0) || !(volume > 0))
    throw std::invalid_argument("assign_weibull_flaws: k, m and the volume must be positive");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  std::vector<std::vector<double>> per(n);
  std::size_t empty = n;
  for (std::int64_t j = 1; empty > 0; ++j) {
    const std::size_t i = pick(rng);
    if (per[i].empty()) --empty;
    per[i].push_back(weibull_activation_strain(double(j), k, m, volume));
  }
  WeibullFlaws f;
  f.offset.resize(n + 1);
  f.offset[0] = 0;
  for (std::size_t i = 0; i < n; ++i) f.offset[i + 1] = f.offset[i] + std::int64_t(per[i].size());
  f.strains.reserve(std::size_t(f.offset[n]));
  for (auto& p : per) f.strains.insert(f.strains.end(), p.begin(), p.end());
  return f;
}

}  // namespace ejecta
