#pragma once
// Per-step extremes of the gas (time-step limits, first bad particle) and the run's global sums, each
// one reduction on the device.
//  - CFL: dt <= C min_i h_i / v_sig,i with v_sig,i the largest signal speed over the neighbours
//    (Monaghan 1997, J. Comput. Phys. 136, 298, sec. 4; Springel 2005, MNRAS 364, 1105, eq. 16);
//  - force: dt <= f min_i sqrt(h_i / |a_i|) (Monaghan 1992, ARA&A 30, 543, sec. 10);
//  - decrease of the positive quantities: dt <= f min_i u_i / |du_i/dt| where du/dt < 0, and with
//    the continuity density dt <= f min_i rho_i / |drho_i/dt| where drho/dt < 0, so that an explicit
//    step cannot take u or rho below zero (at a free surface expanding into vacuum they fall fastest).
// Energies: kinetic 1/2 m v^2, internal m u, potential -m g.x.
#include "integrators/step_monitor.h"
#include "physics/diagnostic_sums.h"
#include "physics/gas_model.h"

namespace ejecta {

constexpr uint32_t kBadInternalEnergy = kBadAcceleration + 1;

template <class T>
using GasExtremes = RateExtremes<T>;
template <class T>
using CombineGasExtremes = CombineRateExtremes<T>;

template <class T, int D>
struct MeasureGasExtremes {
  GasView<T, D> pv;
  EJ_INLINE static GasExtremes<T> none() { return GasExtremes<T>::none(); }
  EJ_INLINE GasExtremes<T> operator()(std::size_t i) const {
    GasExtremes<T> e = none();
    const bool frozen = pv.kind[i] != kFluid;  // keeps its state, sets no time-step limit, but must be finite
    uint32_t bad = frozen ? first_bad_fixed_field<T, D>(pv.x[i], pv.v[i], pv.rho[i])
                          : first_bad_motion_field<T, D>(pv.x[i], pv.v[i], pv.a[i]);
    if (bad == kBadNone && !(pv.rho[i] > T(0) && isfinite(pv.rho[i]))) bad = kBadDensity;
    if (bad == kBadNone && !(pv.u[i] >= T(0) && isfinite(pv.u[i]))) bad = kBadInternalEnergy;
    if (bad != kBadNone) {
      e.bad_index = static_cast<uint32_t>(i);
      e.bad_field = bad;
      return e;
    }
    if (frozen) return e;
    if (pv.vsig[i] > T(0)) e.min_h_vsig = pv.h[i] / pv.vsig[i];
    const T a2 = norm2(pv.a[i]);
    if (a2 > T(0)) e.min_h_a = pv.h[i] / sqrt(a2);
    if (pv.du[i] < T(0)) e.min_decay = pv.u[i] / -pv.du[i];
    if (pv.drho[i] < T(0)) {
      const T d = pv.rho[i] / -pv.drho[i];
      if (d < e.min_decay) e.min_decay = d;
    }
    e.max_v2 = norm2(pv.v[i]);
    return e;
  }
};

// Mass, momenta and energies of one gas particle (kinetic, potential -m g.x, internal m u).
template <class T, int D>
using MeasureGasSums = MeasureMotionEnergySums<T, D, GasView<T, D>>;

}  // namespace ejecta
