#pragma once
// Which particles are gravitationally bound (the viewer's colour field `bound`, 0 or 1, issue 16): particle i
// is bound when its specific energy relative to the centre of mass of all particles is negative,
//   e_i = 1/2 |v_i - v_cm|^2 + phi_i < 0,   v_cm = sum_j m_j v_j / sum_j m_j,
// with phi_i the self-gravity potential of the last tree evaluation (G included; the uniform
// physics.gravity and the internal energy are not counted). The usual criterion of reaccumulation
// studies (e.g. Benz & Asphaug 1999, Icarus 142, 5, sec. 4, who iterate it on the largest remnant; here
// one pass, relative to the whole set). One reduction and one pass over the execution layer, run only
// when the field is asked for (a colour request, a captured frame: needs_gravity_bound), not at every
// evaluation; phi is then the last evaluation's and v the current velocity.
#include "core/hd.h"
#include "core/vec.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

struct GravityMomentum {
  double p[3];
  double m;
};

template <class T, int D>
struct MeasureGravityMomentum {
  const Vec<T, D>* v;
  const T* m;
  EJ_INLINE GravityMomentum operator()(std::size_t i) const {
    GravityMomentum r{{0, 0, 0}, double(m[i])};
    for (int d = 0; d < D; ++d) r.p[d] = double(m[i]) * double(v[i][d]);
    return r;
  }
};

struct AddGravityMomentum {
  EJ_INLINE GravityMomentum operator()(const GravityMomentum& a, const GravityMomentum& b) const {
    return GravityMomentum{{a.p[0] + b.p[0], a.p[1] + b.p[1], a.p[2] + b.p[2]}, a.m + b.m};
  }
};

template <class T, int D>
struct MarkGravityBound {
  const Vec<T, D>* v;
  const T* phi;
  T vcm[3];
  uint8_t* bound;  // 1 bound, 0 not
  EJ_INLINE void operator()(std::size_t i) const {
    T k = T(0);
    for (int d = 0; d < D; ++d) {
      const T u = v[i][d] - vcm[d];
      k += u * u;
    }
    bound[i] = T(0.5) * k + phi[i] < T(0) ? uint8_t(1) : uint8_t(0);
  }
};

// Whether a colour request for `field`, or a capture of `names` (empty: every field), reads `bound`.
inline bool needs_gravity_bound(const std::string& field) { return field == "bound"; }
inline bool needs_gravity_bound(const std::vector<std::string>& names) {
  return names.empty() || std::find(names.begin(), names.end(), std::string("bound")) != names.end();
}

// bound[i] = 1 where e_i < 0, else 0 (n particles; velocities, masses and G phi in the same order).
template <class T, int D, class Exec>
void mark_gravity_bound(Exec& exec, std::size_t n, const Vec<T, D>* v, const T* m, const T* phi, uint8_t* bound) {
  if (n == 0) return;
  const GravityMomentum s =
      exec.transform_reduce(n, GravityMomentum{{0, 0, 0}, 0}, MeasureGravityMomentum<T, D>{v, m}, AddGravityMomentum{});
  MarkGravityBound<T, D> f{v, phi, {T(0), T(0), T(0)}, bound};
  if (s.m > 0)
    for (int d = 0; d < D; ++d) f.vcm[d] = T(s.p[d] / s.m);
  exec.for_each(n, f);
}

}  // namespace ejecta
