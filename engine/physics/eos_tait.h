#pragma once
// Tait equation of state for weakly compressible water (Monaghan 1994, J. Comput. Phys. 110, 399;
// Batchelor 1967): p = B ((rho/rho0)^gamma - 1), B = c0^2 rho0 / gamma.
#include "core/hd.h"

#include <cmath>

namespace ejecta {

template <class T>
struct TaitEos {
  T rho0, c0, gamma, B;

  static TaitEos make(double rho0, double c0, double gamma) {
    return TaitEos{T(rho0), T(c0), T(gamma), T(c0 * c0 * rho0 / gamma)};
  }
  EJ_INLINE T pressure(T rho) const { return B * (pow(rho / rho0, gamma) - T(1)); }
  // Inverse, used for wall particles whose pressure is extrapolated (Adami et al. 2012).
  EJ_INLINE T density(T p) const {
    T x = p / B + T(1);
    if (x < T(1e-6)) x = T(1e-6);
    return rho0 * pow(x, T(1) / gamma);
  }
  // Sound speed c = sqrt(dp/drho) = c0 (rho/rho0)^((gamma-1)/2).
  EJ_INLINE T sound_speed(T rho) const { return c0 * pow(rho / rho0, (gamma - T(1)) / T(2)); }
};

// Specific compression energy e(rho) = int_{rho0}^{rho} p(s)/s^2 ds of the Tait EOS (in double): the
// reversible energy stored by compressing a particle, part of the conserved total energy.
EJ_INLINE double tait_internal_energy(double rho, double rho0, double gamma, double B) {
  const double g1 = gamma - 1.0;
  return B * ((pow(rho, g1) / pow(rho0, gamma) - 1.0 / rho0) / g1 + 1.0 / rho - 1.0 / rho0);
}

}  // namespace ejecta
