#pragma once
// Particle shifting (option fluid.shifting), after Sun, Colagrossi, Marrone & Zhang (2017), Comput.
// Methods Appl. Mech. Engrg. 315, 25 (delta-plus-SPH), which refines Lind, Xu, Stansby & Rogers
// (2012), J. Comput. Phys. 231, 1499:
//   delta r_i = -CFL Ma (2h)^2 sum_j [1 + R (W_ij / W(dp))^n] grad_i W_ij V_j,  R = 0.2, n = 4,
// the anti-clumping term of Monaghan (2000) inside the concentration gradient. Written here as a
// drift velocity, delta r_i / dt with the acoustic step dt = CFL h / c0:
//   u_i = -A h c0 sum_j [1 + R (W_ij / W(dp))^4] grad_i W_ij V_j,   A = 4 Ma (0.4 at Ma = 0.1),
// so that it does not depend on the step. Walls enter the sums with their cell volume (they fill
// space: a fluid particle is not drawn into them). Near a free surface the truncated kernel makes
// grad C point into the fluid: a shift along it would push the particles out through the surface.
// With the colour C_i = sum_j V_j W_ij (self included), a particle on the surface (C < 0.8) is not
// shifted and one in the band below it (C < 0.995) only tangentially, (I - n n) u with
// n = grad C / |grad C| (Sun et al. 2017 find the band and the normal from the renormalisation
// matrix, which needs a second neighbour pass). On a lattice at h = 1.5 dp, C is 0.75 on the top
// row, 0.986 one row down and 1.005 (2D) / 1.003 (3D) inside; at h = 2 dp 0.69, 0.93 and 0.997.
#include "core/vec.h"

namespace ejecta {

template <class T, int D>
struct ShiftingSums {
  T colour = 0;                         // C_i = sum_j V_j W_ij
  Vec<T, D> grad = Vec<T, D>::zero();   // sum_j V_j grad_i W_ij
  Vec<T, D> gradr = Vec<T, D>::zero();  // sum_j [1 + R (W_ij / W(dp))^4] V_j grad_i W_ij

  // One neighbour j: volume Vj, kernel value w, kernel gradient gw = grad_i W_ij, 1 / W(dp).
  EJ_INLINE void add(T Vj, T w, const Vec<T, D>& gw, T inv_wdp) {
    const T f = w * inv_wdp, f2 = f * f;
    colour += Vj * w;
    grad += gw * Vj;
    gradr += gw * (Vj * (T(1) + T(0.2) * f2 * f2));
  }

  // The shifting velocity; coef = A h c0, self = V_i W(0).
  EJ_INLINE Vec<T, D> velocity(T coef, T self) const {
    const T c = colour + self;
    if (c < T(0.8)) return Vec<T, D>::zero();
    Vec<T, D> u = gradr * (-coef);
    const T g2 = dot(grad, grad);
    if (c < T(0.995) && g2 > T(0)) u -= grad * (dot(u, grad) / g2);
    return u;
  }
};

}  // namespace ejecta
