#pragma once
// Summation density rho_i = sum_j m_j W_ij over fluid and wall neighbours, self included
// (Monaghan 1992, ARA&A 30, 543, eq. 2.3), followed by the EOS.
#include "physics/wcsph_model.h"

namespace ejecta {

template <class T, int D>
struct DensitySummation {
  WcsphModel<T, D> model;
  CellGrid<T, D> grid;
  ParticleView<T, D> pv;

  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) return;
    const Vec<T, D> xi = pv.x[i];
    const T r2max = model.kernel.support() * model.kernel.support();
    T rho = 0;
    grid.for_each_neighbor(xi, pv.x, r2max, [&](uint32_t j, const Vec<T, D>&, T r2) {
      rho += pv.m[j] * model.kernel.W(sqrt(r2));
    });
    pv.rhop[i] = rho;
  }
};

// Pressure of fluid particles from their density at the force evaluation time. With summation
// density, particles at a free surface miss part of their kernel support and read a density below
// rho0 although nothing stretches them; the negative pressure that follows would pull the surface
// layer into the bulk and shake it, so summation clips pressure at zero (a liquid's free-surface
// pressure), as in Monaghan (1994), J. Comput. Phys. 110, 399.
template <class T, int D>
struct FluidPressure {
  WcsphModel<T, D> model;
  ParticleView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) return;
    const T p = model.eos.pressure(pv.rhop[i]);
    pv.p[i] = model.summation && p < T(0) ? T(0) : p;
  }
};

}  // namespace ejecta
