#pragma once
// DEM contact of two spheres (discs in 2D), the model of the cuda-samples `particles` demo (S. Green,
// "Particle Simulation using CUDA", NVIDIA 2010, collideSpheres): while the spheres overlap,
//   F_A = -k delta n + c (v_rel . n) n + k_s v_t + a (x_B - x_A),
// on sphere A, with n = (x_B - x_A)/|x_B - x_A|, the overlap delta = r_A + r_B - |x_B - x_A|, the
// relative velocity v_rel = v_B - v_A and its tangential part v_t = v_rel - (v_rel . n) n:
//   k  `spring`     linear normal spring [N/m] (Hooke),
//   c  `damping`    linear normal dashpot [N s/m] (on the normal relative velocity only; the demo
//                   damps the whole relative velocity, which adds c to the tangential coefficient),
//   k_s `shear`     tangential viscous friction on the relative tangential velocity [N s/m],
//   a  `attraction` short-range cohesion pulling the centres together while in contact [N/m].
// The force on B is -F_A (Newton's third law: the pair conserves momentum).
//
// For a head-on collision the overlap obeys the damped oscillator m* delta'' + c delta' + k delta = 0,
// m* = m_A m_B / (m_A + m_B), so with omega_0 = sqrt(k/m*) and zeta = c / (2 sqrt(k m*)) < 1 the contact
// lasts t_c = pi / omega_d, omega_d = omega_0 sqrt(1 - zeta^2), and the normal coefficient of
// restitution is e = exp(-pi zeta / sqrt(1 - zeta^2)) (e.g. Schwager & Poeschel 2007, Phys. Rev. E 75,
// 051304; the contact ends when the overlap returns to zero, the dashpot pulling slightly at the end).
// tests/test_dem_contact.cpp integrates two grains with it and checks both.
//
// Pure per-pair functions, EJ_HD: no state, no allocation; the grains become a material of the one
// particle engine next (docs/physics.md, "DEM grains").
#include "core/hd.h"
#include "core/vec.h"

namespace ejecta {

template <class T>
struct DemLinearParams {
  T spring = T(0);      // k [N/m]
  T damping = T(0);     // c [N s/m]
  T shear = T(0);       // k_s [N s/m]
  T attraction = T(0);  // a [N/m]
};

// The force on grain A from grain B (zero when they do not touch or coincide).
template <class T, int D>
EJ_INLINE Vec<T, D> dem_linear_force(const Vec<T, D>& xa, const Vec<T, D>& va, T ra, const Vec<T, D>& xb,
                                     const Vec<T, D>& vb, T rb, const DemLinearParams<T>& p) {
  const Vec<T, D> rel = xb - xa;
  const T dist = sqrt(norm2(rel));
  const T touch = ra + rb;
  if (!(dist < touch) || dist <= T(0)) return Vec<T, D>::zero();
  const Vec<T, D> n = rel * (T(1) / dist);
  const Vec<T, D> vrel = vb - va;
  const T vn = dot(vrel, n);
  const Vec<T, D> vt = vrel - n * vn;
  Vec<T, D> f = n * (-p.spring * (touch - dist) + p.damping * vn);
  f += vt * p.shear;
  f += rel * p.attraction;
  return f;
}

// The damping that gives restitution e (0 < e <= 1) to grains of reduced mass m* on a spring k: the
// inverse of e = exp(-pi zeta / sqrt(1 - zeta^2)), zeta = -ln e / sqrt(pi^2 + ln^2 e), c = 2 zeta sqrt(k m*).
template <class T>
EJ_INLINE T dem_linear_damping_for_restitution(T e, T k, T reduced_mass) {
  const T l = std::log(e);
  const T pi = T(3.14159265358979323846);
  const T zeta = -l / sqrt(pi * pi + l * l);
  return T(2) * zeta * sqrt(k * reduced_mass);
}

}  // namespace ejecta
