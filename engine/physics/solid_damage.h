#pragma once
// Grady-Kipp tensile damage of the solid solver, once per accepted step (Benz & Asphaug 1994,
// Icarus 107, 98, sec. 3; 1995, Comput. Phys. Commun. 87, 253, sec. 3.3). The helpers are those of
// damage_grady_kipp.h; this is the per-particle pass:
//   sigma   = -p_D I + (1 - D) S, p_D = (1 - D) p for p < 0 (the carried stress)
//   sigma_t = largest principal value of sigma (2D: the in-plane eigenvalues; principal_stress.h)
//   eps     = sigma_t / ((1 - D) E)                              (local tensile strain)
//   n_act   = number of the particle's flaws with eps_j <= eps
//   D^(1/3) += dt n_act c_g / R_s, c_g = 0.4 c_l, capped at n_act / n_tot and 1; never decreasing
// R_s is the radius of the particle's volume V = m / rho: (3V/(4 pi))^(1/3) in 3D, sqrt(V/pi) in 2D
// (per unit thickness), V/2 in 1D. c_l = sqrt((K + 4/3 mu)/rho) from the material's bulk and shear
// moduli.
//
// Flaws: particle with initial id k owns strains[offset[k] .. offset[k+1]) (ascending). The flat array
// is indexed by the initial id, which the particle carries through every reorder of the store, so it
// is never permuted and has no per-particle cap (about ln N flaws per particle on average, many more
// for a few: Benz & Asphaug 1995's assignment).
//
// The explicit update in D^(1/3) with the end-of-step stress is an operator split from the staged
// integrators: it runs after the integrator returns an accepted step (RK23's rejected tries never
// see it), so D is not an ODE variable and the error estimate of RK23 does not control it.
#include "physics/damage_grady_kipp.h"
#include "physics/principal_stress.h"
#include "physics/solid_model.h"

#include <cstdint>

namespace ejecta {

// Radius of the sphere (disc, segment) of volume V in D dimensions.
template <class T, int D>
EJ_INLINE T equal_volume_radius(T V) {
  if (D == 1) return T(0.5) * V;
  if (D == 2) return sqrt(V / T(3.14159265358979323846));
  return cbrt(T(3) * V / (T(4) * T(3.14159265358979323846)));
}

// The carried (damaged) stress sigma = -p_D I + (1 - D) S of particle i, full components.
template <class T, int D>
EJ_INLINE SymTensor<T, D> damaged_stress(const SolidMaterial<T>& mt, const SolidView<T, D>& pv, std::size_t i,
                                         T dmg) {
  const T p = damaged_pressure(solid_pressure_of(mt, pv, i), dmg);
  SymTensor<T, D> s;
  for (int k = 0; k < SymIndex<D>::N; ++k) s[k] = (T(1) - dmg) * pv.S[i][k] - (k < D ? p : T(0));
  return s;
}

template <class T, int D>
struct SolidDamageAdvance {
  SolidModel<T, D> model;
  SolidView<T, D> pv;
  DevicePtr<const uint32_t> id;
  DevicePtr<const std::int64_t> offset;  // size N + 1, by initial id
  DevicePtr<const T> strains;            // ascending per particle
  DevicePtr<uint32_t> n_active;          // out: n_act of this pass (a recorded field)
  T dt;
  EJ_INLINE void operator()(std::size_t i) const {
    const SolidMaterial<T>& mt = model.mat[pv.mat[i]];
    if (!mt.damage || !(mt.E > T(0))) return;
    const uint32_t k = id[i];
    const int n_tot = int(offset[k + 1] - offset[k]);
    const T dmg = pv.damage[i];
    if (n_tot <= 0 || !(dmg < T(1))) return;
    const T sigma_t = largest_principal_stress<T, D>(damaged_stress(mt, pv, i, dmg));
    const T eps = local_tensile_strain(sigma_t, dmg, mt.E);
    const int n_act = active_flaw_count(strains.get() + offset[k], n_tot, eps);
    n_active[i] = uint32_t(n_act);
    if (n_act == 0) return;
    const T rho = pv.rho[i];
    const T r_s = equal_volume_radius<T, D>(pv.m[i] / rho);
    pv.damage[i] = advance_damage(dmg, n_act, n_tot, crack_growth_speed(mt.K, mt.mu, rho), r_s, dt);
  }
};

}  // namespace ejecta
