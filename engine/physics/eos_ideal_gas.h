#pragma once
// Ideal-gas equation of state, p = (gamma - 1) rho u, with the adiabatic sound speed
// c = sqrt(gamma p / rho) = sqrt(gamma (gamma - 1) u) (e.g. Toro 2009, "Riemann Solvers and
// Numerical Methods for Fluid Dynamics", 3rd ed., sec. 1.2, eq. 1.36 and 1.41).
#include "core/hd.h"

namespace ejecta {

template <class T>
struct IdealGasEos {
  T gamma;
  EJ_INLINE T pressure(T rho, T u) const { return (gamma - T(1)) * rho * u; }
  EJ_INLINE T sound_speed(T u) const {
    const T c2 = gamma * (gamma - T(1)) * u;
    return c2 > T(0) ? sqrt(c2) : T(0);
  }
};

}  // namespace ejecta
