#pragma once
// The run's global sums (mass, energies, momenta, extremes) as one reduction on the device, so that
// diagnostics cost a kernel and a few bytes back, not a download of every particle. Accumulated in
// double whatever the precision. Energies: kinetic 1/2 m v^2 and potential -m g.x of the fluid (walls
// are fixed), internal m e(rho) with the Tait compression energy of the pressure actually used.
#include "physics/eos_tait.h"
#include "physics/wcsph_model.h"

namespace ejecta {

struct DiagnosticSums {
  double mass, kinetic, potential, internal;
  double momentum[3], angular[3];
  double max_v2, max_density_error;
  double self_potential;  // 1/2 m phi of the self-gravity (0 without it)
};

struct CombineDiagnosticSums {
  EJ_INLINE DiagnosticSums operator()(const DiagnosticSums& a, const DiagnosticSums& b) const {
    DiagnosticSums r;
    r.mass = a.mass + b.mass;
    r.kinetic = a.kinetic + b.kinetic;
    r.potential = a.potential + b.potential;
    r.internal = a.internal + b.internal;
    for (int d = 0; d < 3; ++d) {
      r.momentum[d] = a.momentum[d] + b.momentum[d];
      r.angular[d] = a.angular[d] + b.angular[d];
    }
    r.max_v2 = a.max_v2 > b.max_v2 ? a.max_v2 : b.max_v2;
    r.max_density_error = a.max_density_error > b.max_density_error ? a.max_density_error : b.max_density_error;
    r.self_potential = a.self_potential + b.self_potential;
    return r;
  }
};

template <class T, int D>
struct MeasureDiagnosticSums {
  ParticleView<T, D> pv;
  double gravity[3];
  double rho0, gamma, B;
  bool clip_below_rho0;  // summation density: no stored energy below rho0 (pressure clipped at 0)

  EJ_INLINE static DiagnosticSums zero() {
    return DiagnosticSums{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0, 0};
  }
  EJ_INLINE DiagnosticSums operator()(std::size_t i) const {
    DiagnosticSums s = zero();
    const double m = double(pv.m[i]);
    s.mass = m;
    if (pv.kind[i] != kFluid) return s;
    double x[3] = {0, 0, 0}, v[3] = {0, 0, 0}, v2 = 0;
    for (int d = 0; d < D; ++d) {
      x[d] = double(pv.x[i][d]);
      v[d] = double(pv.v[i][d]);
      v2 += v[d] * v[d];
      s.momentum[d] = m * v[d];
      s.potential -= m * gravity[d] * x[d];
    }
    s.kinetic = 0.5 * m * v2;
    s.angular[0] = m * (x[1] * v[2] - x[2] * v[1]);
    s.angular[1] = m * (x[2] * v[0] - x[0] * v[2]);
    s.angular[2] = m * (x[0] * v[1] - x[1] * v[0]);
    double rho = double(pv.rho[i]);
    const double err = rho / rho0 - 1.0;
    s.max_density_error = err < 0 ? -err : err;
    if (clip_below_rho0 && rho < rho0) rho = rho0;
    s.internal = m * tait_internal_energy(rho, rho0, gamma, B);
    s.max_v2 = v2;
    return s;
  }
};

// The sums of one particle of a model whose view has x, v, m and a specific internal energy u
// (the gas and the solids): mass, momentum, angular momentum, kinetic, potential (-m g.x) and
// internal energy, and v^2 for the largest speed. With self-gravity (phi, G included, from the last
// evaluation) the pair energy -G m_i m_j f(r_ij) counted once: 1/2 m_i phi_i.
template <class T, int D, class View>
struct MeasureMotionEnergySums {
  View pv;
  double gravity[3];
  const T* phi = nullptr;
  EJ_INLINE DiagnosticSums operator()(std::size_t i) const {
    DiagnosticSums s{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0, 0};
    const double m = double(pv.m[i]);
    s.mass = m;
    double x[3] = {0, 0, 0}, v[3] = {0, 0, 0}, v2 = 0;
    for (int d = 0; d < D; ++d) {
      x[d] = double(pv.x[i][d]);
      v[d] = double(pv.v[i][d]);
      v2 += v[d] * v[d];
      s.momentum[d] = m * v[d];
      s.potential -= m * gravity[d] * x[d];
    }
    s.kinetic = 0.5 * m * v2;
    s.internal = m * double(pv.u[i]);
    s.angular[0] = m * (x[1] * v[2] - x[2] * v[1]);
    s.angular[1] = m * (x[2] * v[0] - x[0] * v[2]);
    s.angular[2] = m * (x[0] * v[1] - x[1] * v[0]);
    s.max_v2 = v2;
    if (phi) s.self_potential = 0.5 * m * double(phi[i]);
    return s;
  }
};

}  // namespace ejecta
