#pragma once
// Stress invariants of the solid for colouring and output (not part of the state): the von Mises
// equivalent stress sigma_vM = sqrt(3 J2), J2 = 1/2 S:S of the full 3 x 3 deviator with the implied
// out-of-plane components of 1D and 2D (solid_j2 in solid_model.h). Uniaxial stress sigma gives
// sigma_vM = |sigma|, pure shear tau gives sqrt(3) |tau|. Computed after every update of the state.
#include "physics/solid_model.h"

namespace ejecta {

// With damage D (nullptr: none) the carried deviator is (1 - D) S (Benz & Asphaug 1994), and so is
// its invariant.
template <class T, int D>
struct SolidVonMisesStress {
  DevicePtr<const SymTensor<T, D>> S;
  DevicePtr<const T> damage;
  DevicePtr<T> out;
  EJ_INLINE void operator()(std::size_t i) const {
    const T s = sqrt(T(3) * solid_j2<T, D>(S[i]));
    out[i] = damage ? (T(1) - damage[i]) * s : s;
  }
};

}  // namespace ejecta
