#pragma once
// Constants and array views of the gas-dynamics functors (ideal gas with an energy equation and a
// smoothing length per particle). Plain structs, copied by value into CUDA kernels and OpenMP loops.
#include "core/types.h"
#include "core/vec.h"
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
struct GasView {
  Vec<T, D>* x;
  Vec<T, D>* v;
  T* u;        // specific internal energy
  T* rho;      // density
  T* h;        // smoothing length
  T* omega;    // grad-h correction Omega_i (1 for fixed h)
  T* p;        // pressure
  T* c;        // sound speed
  Vec<T, D>* a;  // acceleration
  T* du;       // du/dt
  T* drho;     // drho/dt (continuity density)
  T* alpha;    // per-particle viscosity coefficient (switch on; else nullptr)
  T* dalpha;   // its rate
  T* vsig;     // largest signal speed over the neighbours (CFL)
  T* divv;     // velocity divergence (switch source)
  const T* m;
  const uint8_t* kind;
};

}  // namespace ejecta
