#pragma once
// Tillotson equation of state for solids under impact (Tillotson 1962, General Atomic report GA-3216;
// Melosh 1989, "Impact Cratering", Oxford, appendix II; Benz & Asphaug 1999, Icarus 142, 5,
// sec. 2). With eta = rho/rho0, mu = eta - 1 and u the specific internal energy:
//
//   compressed (rho >= rho0) or cold (u <= E_iv):
//     p_c = [a + b / (1 + u/(E0 eta^2))] rho u + A mu + B mu^2
//   expanded (rho < rho0 and u >= E_cv):
//     p_e = a rho u + [b rho u / (1 + u/(E0 eta^2)) + A mu exp(-beta (rho0/rho - 1))]
//                     exp(-alpha (rho0/rho - 1)^2)
//   in between (rho < rho0 and E_iv < u < E_cv): linear interpolation in u,
//     p = (1 - s) p_c + s p_e,  s = (u - E_iv) / (E_cv - E_iv)        (Melosh 1989, app. II)
//
// The interpolation is written so that s = 0 gives p_c and s = 1 gives p_e bit for bit, hence p is
// continuous at u = E_iv and u = E_cv. At rho = rho0 both branches agree (mu = 0, the exponentials
// are 1), so p is continuous across rho = rho0 too. p_c may be negative (tension of a cold solid);
// limiting tension is the job of the strength and damage models, not of the EOS.
//
// Sound speed: the adiabatic c^2 = (dp/drho)_s = (dp/drho)_u + (p / rho^2) (dp/du)_rho, with the
// partial derivatives of the active branch (and of the interpolation) in closed form below; checked
// against finite differences in tests/test_materials.cpp. It can be negative or tiny in the expanded
// and tensile states, so it is floored at cs_min (make() sets cs_min = cs_min_frac sqrt(A/rho0),
// 10% of the bulk sound speed at the reference state by default): the floor keeps c real for the
// artificial viscosity and the time step, and is a deliberately safe (larger than physical) value in
// hot vapour only.
#include "core/hd.h"

#include <cmath>

namespace ejecta {

using std::exp;

template <class T>
struct TillotsonEos {
  T rho0, A, B, E0, E_iv, E_cv, a, b, alpha, beta;
  T cs_min;  // floor of the sound speed (m/s)

  static TillotsonEos make(double rho0, double A, double B, double E0, double E_iv, double E_cv,
                           double a, double b, double alpha, double beta,
                           double cs_min_frac = 0.1) {
    return TillotsonEos{T(rho0), T(A), T(B),     T(E0),   T(E_iv),
                        T(E_cv), T(a), T(b),     T(alpha), T(beta),
                        T(cs_min_frac * std::sqrt(A / rho0))};
  }

  // Compressed / cold branch p_c (Melosh 1989, app. II), for any rho > 0 and u.
  EJ_INLINE T pressure_compressed(T rho, T u) const {
    const T eta = rho / rho0, mu = eta - T(1);
    const T w = T(1) + u / (E0 * eta * eta);
    return (a + b / w) * rho * u + A * mu + B * mu * mu;
  }
  // Expanded branch p_e (Melosh 1989, app. II), for any rho > 0 and u.
  EJ_INLINE T pressure_expanded(T rho, T u) const {
    const T eta = rho / rho0, mu = eta - T(1);
    const T w = T(1) + u / (E0 * eta * eta);
    const T z = rho0 / rho - T(1);
    return a * rho * u + (b * rho * u / w + A * mu * exp(-beta * z)) * exp(-alpha * z * z);
  }
  // Weight of the expanded branch: 0 on the compressed/cold side, 1 on the expanded side.
  EJ_INLINE T expanded_weight(T rho, T u) const {
    if (rho >= rho0 || u <= E_iv) return T(0);
    if (u >= E_cv) return T(1);
    return (u - E_iv) / (E_cv - E_iv);
  }
  EJ_INLINE T pressure(T rho, T u) const {
    if (!(rho > T(0))) return T(0);
    const T s = expanded_weight(rho, u);
    if (s == T(0)) return pressure_compressed(rho, u);
    if (s == T(1)) return pressure_expanded(rho, u);
    return (T(1) - s) * pressure_compressed(rho, u) + s * pressure_expanded(rho, u);
  }

  // Partial derivatives (dp/drho)_u and (dp/du)_rho of the active branch, in closed form.
  // With w = 1 + u/(E0 eta^2): d(rho u / w)/drho = u/w + 2 u (w - 1)/w^2, d(rho u / w)/du = rho/w^2.
  EJ_INLINE void derivatives(T rho, T u, T& dp_drho, T& dp_du) const {
    const T eta = rho / rho0, mu = eta - T(1);
    const T w = T(1) + u / (E0 * eta * eta);
    const T q_rho = u / w + T(2) * u * (w - T(1)) / (w * w);  // d(rho u / w)/drho
    const T q_u = rho / (w * w);                              // d(rho u / w)/du
    const T s = expanded_weight(rho, u);
    T dc_rho = T(0), dc_u = T(0), de_rho = T(0), de_u = T(0);
    if (s < T(1)) {
      dc_rho = a * u + b * q_rho + A / rho0 + T(2) * B * mu / rho0;
      dc_u = a * rho + b * q_u;
    }
    if (s > T(0)) {
      const T z = rho0 / rho - T(1), dz = -rho0 / (rho * rho);  // dz/drho
      const T G = exp(-alpha * z * z), H = exp(-beta * z);
      const T Q = b * rho * u / w + A * mu * H;
      const T dQ = b * q_rho + A * H / rho0 - A * mu * H * beta * dz;
      de_rho = a * u + dQ * G - Q * G * T(2) * alpha * z * dz;
      de_u = a * rho + b * q_u * G;
    }
    if (s == T(0)) {
      dp_drho = dc_rho, dp_du = dc_u;
    } else if (s == T(1)) {
      dp_drho = de_rho, dp_du = de_u;
    } else {
      dp_drho = (T(1) - s) * dc_rho + s * de_rho;
      dp_du = (T(1) - s) * dc_u + s * de_u +
              (pressure_expanded(rho, u) - pressure_compressed(rho, u)) / (E_cv - E_iv);
    }
  }
  // Adiabatic c^2 = (dp/drho)_u + p/rho^2 (dp/du)_rho, unfloored (may be <= 0).
  EJ_INLINE T sound_speed2_adiabatic(T rho, T u) const {
    if (!(rho > T(0))) return T(0);
    T dr, du;
    derivatives(rho, u, dr, du);
    return dr + pressure(rho, u) / (rho * rho) * du;
  }
  EJ_INLINE T sound_speed(T rho, T u) const {
    const T c2 = sound_speed2_adiabatic(rho, u);
    return c2 > cs_min * cs_min ? sqrt(c2) : cs_min;
  }
};

}  // namespace ejecta
