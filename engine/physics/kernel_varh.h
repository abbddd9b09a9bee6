#pragma once
// The smoothing kernels of kernels.h evaluated with a per-particle smoothing length h (variable-h
// SPH), plus the derivative with respect to h that the grad-h terms need:
//   dW/dh = -(D W + r dW/dr) / h   (W = sigma h^-D w(r/h); Price 2012, J. Comput. Phys. 231, 759,
//   sec. 2.6, the Omega term).
#include "physics/kernels.h"

namespace ejecta {

template <class T, int D>
struct VarKernel {
  KernelType type;
  T sigma;  // normalisation constant without the h^-D

  static VarKernel make(KernelType type) {
    const SmoothingKernel<double, D> k = SmoothingKernel<double, D>::make(type, 1.0);
    return VarKernel{type, T(k.norm)};
  }
  EJ_INLINE SmoothingKernel<T, D> at(T h) const {
    const T ih = T(1) / h;
    T n = sigma;
    for (int d = 0; d < D; ++d) n *= ih;
    return SmoothingKernel<T, D>{type, h, ih, n};
  }
};

}  // namespace ejecta
