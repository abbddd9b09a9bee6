#pragma once
// A small D x D tensor for the solids' stresses and strain rates, with the invariants the yield models
// need. Plain aggregate (copied into CUDA kernels as is). In 2D the components are the in-plane ones
// (the convention of Gray, Monaghan & Swift 2001: the out-of-plane deviatoric component is not
// carried), so J2 = 1/2 S_ij S_ij runs over the D x D components.
#include "core/hd.h"

namespace ejecta {

template <class T, int D>
struct StressTensor {
  T a[D][D];

  EJ_INLINE T& operator()(int i, int j) { return a[i][j]; }
  EJ_INLINE const T& operator()(int i, int j) const { return a[i][j]; }
  static EJ_INLINE StressTensor zero() {
    StressTensor t{};
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) t.a[i][j] = T(0);
    return t;
  }
};

template <class T, int D>
EJ_INLINE T trace(const StressTensor<T, D>& s) {
  T t = T(0);
  for (int i = 0; i < D; ++i) t += s.a[i][i];
  return t;
}

// Deviatoric part s - tr(s)/D I.
template <class T, int D>
EJ_INLINE StressTensor<T, D> deviator(const StressTensor<T, D>& s) {
  StressTensor<T, D> d = s;
  const T m = trace(s) / T(D);
  for (int i = 0; i < D; ++i) d.a[i][i] -= m;
  return d;
}

// Second invariant of a deviatoric tensor, J2 = 1/2 S_ij S_ij; the von Mises equivalent stress is
// sqrt(3 J2).
template <class T, int D>
EJ_INLINE T second_invariant_j2(const StressTensor<T, D>& s) {
  T j = T(0);
  for (int i = 0; i < D; ++i)
    for (int k = 0; k < D; ++k) j += s.a[i][k] * s.a[i][k];
  return T(0.5) * j;
}

template <class T, int D>
EJ_INLINE void scale(StressTensor<T, D>& s, T f) {
  for (int i = 0; i < D; ++i)
    for (int k = 0; k < D; ++k) s.a[i][k] *= f;
}

}  // namespace ejecta
