#pragma once
// Constants and array views of the gas-dynamics functors (ideal gas with an energy equation and a
// smoothing length per particle). Plain structs, copied by value into CUDA kernels and OpenMP loops.
#include "core/types.h"
#include "core/vec.h"
#include "exec/device_ptr.h"
#include "neighbors/level_grid.h"
#include "physics/eos_ideal_gas.h"
#include "physics/kernel_varh.h"

#include <cstdint>

namespace ejecta {

template <class T, int D>
struct GasModel {
  VarKernel<T, D> kernel;
  IdealGasEos<T> eos;
  T eta;          // h = eta (m / rho)^(1/D)  (Price 2012, eq. 10 form)
  T h_max;        // cap on h (a particle alone in vacuum would grow h without bound)
  T h_tol;        // relative tolerance of the h iteration
  int h_iter;     // iteration limit of the h iteration
  bool summation; // summation density with h from rho (else continuity density, h from rho)
  bool fixed_h;   // h stays at its initial value (no grad-h terms: Omega = 1)
  T alpha, beta;  // artificial viscosity (Monaghan 1997), alpha = alpha_max when the switch is on
  T alpha_u;      // artificial conductivity (Price 2008), 0 = off
  bool switch_on; // Morris & Monaghan (1997) viscosity switch
  T alpha_min, switch_decay;  // floor of alpha and the decay constant C of tau = h / (C c)
  Vec<T, D> gravity;
};

template <class T, int D>
// Device memory only (DevicePtr, exec/device_ptr.h): a host array here is a compile error.
struct GasView {
  DevicePtr<Vec<T, D>> x;
  DevicePtr<Vec<T, D>> v;
  DevicePtr<T> u;        // specific internal energy
  DevicePtr<T> rho;      // density
  DevicePtr<T> h;        // smoothing length
  DevicePtr<T> omega;    // grad-h correction Omega_i (1 for fixed h)
  DevicePtr<T> p;        // pressure
  DevicePtr<T> c;        // sound speed
  DevicePtr<Vec<T, D>> a;  // acceleration
  DevicePtr<T> du;       // du/dt
  DevicePtr<T> drho;     // drho/dt (continuity density)
  DevicePtr<T> alpha;    // per-particle viscosity coefficient (switch on; else nullptr)
  DevicePtr<T> dalpha;   // its rate
  DevicePtr<T> vsig;     // largest signal speed over the neighbours (CFL)
  DevicePtr<T> divv;     // velocity divergence (switch source)
  DevicePtr<const T> m;
  DevicePtr<const uint8_t> kind;
};

}  // namespace ejecta
