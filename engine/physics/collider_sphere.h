#pragma once
// A rigid sphere that pushes the fluid (the viewer drags it with the mouse; a scene can place one with
// the collider.* keys). It acts on fluid particles near its surface through the repulsive boundary
// force of Monaghan (1994), J. Comput. Phys. 110, 399, eq. (4.1), a Lennard-Jones-like force along
// the surface normal n at distance s from the surface:
//   a = D [ (r0/s)^p1 - (r0/s)^p2 ] / s n   for s < r0, p1 = 12, p2 = 4, r0 = dp,
// with D "of the order of the square of the largest velocity" (Monaghan): D = strength (c0/10)^2,
// because c0 is chosen as ten times the largest expected speed. s is clamped to >= r0/2 (and
// particles already inside, which a fast drag can leave there, get the same capped push), so the force
// stays bounded and the force time-step limit keeps the step finite. Approaching fluid inside the
// layer is also damped towards the sphere's surface velocity along n (a dashpot, as in the collider of
// CUDA's "particles" sample), so that a dragged sphere pushes fluid instead of bouncing it; the rate
// c0/(4 r0) keeps dt * rate below ~0.1 at the CFL step.
#include "physics/wcsph_model.h"

namespace ejecta {

template <class T, int D>
struct ColliderSphereState {
  bool enabled = false;
  Vec<T, D> center = Vec<T, D>::zero();
  Vec<T, D> velocity = Vec<T, D>::zero();
  T radius = T(0);
  T D_lj = T(0);     // Monaghan's D [m^2/s^2]
  T r0 = T(0);       // range of the force (the particle spacing)
  T damping = T(0);  // [1/s]
};

template <class T, int D>
struct ColliderForce_Monaghan1994 {
  ColliderSphereState<T, D> c;
  ParticleView<T, D> pv;

  EJ_INLINE void operator()(std::size_t i) const {
    if (pv.kind[i] != kFluid) return;
    const Vec<T, D> rel = pv.x[i] - c.center;
    const T dist = sqrt(norm2(rel));
    const T s_raw = dist - c.radius;
    if (s_raw >= c.r0) return;
    Vec<T, D> n = Vec<T, D>::zero();
    if (dist > T(0)) n = rel * (T(1) / dist);
    else n[D - 1] = T(1);  // at the very centre: push up
    const T s = s_raw > T(0.5) * c.r0 ? s_raw : T(0.5) * c.r0;
    const T q = c.r0 / s, q2 = q * q, q4 = q2 * q2;
    const T mag = c.D_lj * (q4 * q4 * q4 - q4) / s;
    Vec<T, D> a = n * mag;
    const T vn = dot(pv.vp[i] - c.velocity, n);
    if (vn < T(0)) a += n * (-c.damping * vn);
    pv.a[i] += a;
  }
};

}  // namespace ejecta
