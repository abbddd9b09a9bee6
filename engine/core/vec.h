#pragma once
// Small fixed-size vector for 1D/2D/3D particle math, usable on host and device.
#include "core/hd.h"
#include <cmath>

namespace ejecta {

template <class T, int D>
struct Vec {
  T v[D];
  EJ_INLINE T& operator[](int i) { return v[i]; }
  EJ_INLINE const T& operator[](int i) const { return v[i]; }
  EJ_INLINE static Vec zero() {
    Vec r;
    for (int d = 0; d < D; ++d) r.v[d] = T(0);
    return r;
  }
  EJ_INLINE Vec& operator+=(const Vec& o) {
    for (int d = 0; d < D; ++d) v[d] += o.v[d];
    return *this;
  }
  EJ_INLINE Vec& operator-=(const Vec& o) {
    for (int d = 0; d < D; ++d) v[d] -= o.v[d];
    return *this;
  }
  EJ_INLINE Vec& operator*=(T s) {
    for (int d = 0; d < D; ++d) v[d] *= s;
    return *this;
  }
};

template <class T, int D>
EJ_INLINE Vec<T, D> operator+(Vec<T, D> a, const Vec<T, D>& b) { return a += b; }
template <class T, int D>
EJ_INLINE Vec<T, D> operator-(Vec<T, D> a, const Vec<T, D>& b) { return a -= b; }
template <class T, int D>
EJ_INLINE Vec<T, D> operator*(Vec<T, D> a, T s) { return a *= s; }
template <class T, int D>
EJ_INLINE Vec<T, D> operator*(T s, Vec<T, D> a) { return a *= s; }
template <class T, int D>
EJ_INLINE T dot(const Vec<T, D>& a, const Vec<T, D>& b) {
  T s = T(0);
  for (int d = 0; d < D; ++d) s += a.v[d] * b.v[d];
  return s;
}
template <class T, int D>
EJ_INLINE T norm2(const Vec<T, D>& a) { return dot(a, a); }

}  // namespace ejecta
