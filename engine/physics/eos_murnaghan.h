#pragma once
// Murnaghan equation of state (Murnaghan 1944, PNAS 30, 244; in SPH for solids e.g. Melosh 1989,
// "Impact Cratering", sec. 3.2, and Benz & Asphaug 1994, Icarus 107, 98):
//   p = K0/n ((rho/rho0)^n - 1),
// the integral of a bulk modulus that grows linearly with pressure, K = rho dp/drho = K0 + n p
// = K0 (rho/rho0)^n. n = 1 is the linear EOS p = c0^2 (rho - rho0) of Gray, Monaghan & Swift (2001).
// Barotropic: the sound speed is c = sqrt(dp/drho) = sqrt(K0/rho0) (rho/rho0)^((n-1)/2).
#include "core/hd.h"

namespace ejecta {

template <class T>
struct MurnaghanEos {
  T rho0, K0, n;

  static MurnaghanEos make(double rho0, double K0, double n) {
    return MurnaghanEos{T(rho0), T(K0), T(n)};
  }
  EJ_INLINE T pressure(T rho) const { return K0 / n * (pow(rho / rho0, n) - T(1)); }
  // Bulk modulus K = rho dp/drho = K0 (rho/rho0)^n.
  EJ_INLINE T bulk_modulus(T rho) const { return K0 * pow(rho / rho0, n); }
  EJ_INLINE T sound_speed(T rho) const {
    return sqrt(K0 / rho0) * pow(rho / rho0, (n - T(1)) / T(2));
  }
};

}  // namespace ejecta
