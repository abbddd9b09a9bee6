#pragma once
// DEM grains as a material of the mixed engine (solver/store_solver.h, phase kPhaseGrain): every grain
// is one particle of the store, a sphere (a disc in 2D) of radius `grain_radius`, and the term
// contact_linear_green2010 sums on it, in one gather pass over the step's grid,
//  - the linear contact law of the cuda-samples `particles` demo with every other grain it overlaps
//    (physics/dem_contact_linear.h: spring, normal dashpot, tangential viscous shear, attraction);
//  - the same spring-dashpot with the planes of the box dem.box_min .. dem.box_max (the walls of the
//    grains: a plane is a grain of infinite mass at rest, so the normal force is k delta - c_w v_n
//    with the overlap delta = r - distance to the plane, c_w = dem.boundary_damping, and the shear
//    -k_s v_t; the cuda-samples demo reflects the velocity instead);
//  - gravity, and a global drag -gamma v (dem.global_damping, the rate form of the demo's
//    per-step velocity factor);
//  - the collider sphere (collider.*, moved by the viewer), as in the demo: the grains' spring, dashpot
//    and shear with a sphere of radius collider.radius moving at collider.velocity, without attraction
//    (cuda-samples particles_kernel_impl.cuh, collideD: collideSpheres(..., colliderRadius, 0)).
// The liquid of the scene sees the grains as moving walls and pushes them back, by the coupling the
// solid bodies use (physics/coupling_adami2012.h, Adami, Hu & Adams 2012): a grain is one boundary
// particle of volume m / rho.
// The time step resolves a contact: dt <= t_c / dem.steps_per_contact, t_c = pi sqrt(m / k) the
// contact time of the lightest grain on a wall (undamped), which is longer than a grain-grain one
// by sqrt(2) (m* = m / 2).
#include "physics/dem_contact_linear.h"
#include "physics/solid_model.h"

namespace ejecta {

template <class T, int D>
struct GrainModel {
  DemLinearParams<T> contact;  // dem.spring, dem.damping, dem.shear, dem.attraction
  T wall_damping;              // c_w, dem.boundary_damping [N s/m]
  T global_damping;            // gamma, dem.global_damping [1/s]
  T r_max;                     // the largest grain radius (the reach of the pair search)
  Vec<T, D> box_lo, box_hi;    // dem.box_min, dem.box_max
  Vec<T, D> gravity;
  bool collider = false;           // collider.enabled: the sphere pushes the grains
  T collider_r = T(0);             // collider.radius
  Vec<T, D> collider_x, collider_v;  // its centre and velocity (the viewer moves it)
};

// The force on a grain from the collider sphere with the linear contact (zero when off or apart): the
// sphere is a grain of infinite mass, without the attraction (as in the cuda-samples demo).
template <class T, int D>
EJ_INLINE Vec<T, D> dem_linear_collider_force(const GrainModel<T, D>& gm, const Vec<T, D>& x, const Vec<T, D>& v, T r) {
  if (!gm.collider) return Vec<T, D>::zero();
  DemLinearParams<T> p = gm.contact;
  p.attraction = T(0);
  return dem_linear_force(x, v, r, gm.collider_x, gm.collider_v, gm.collider_r, p);
}

// The force on a grain at x, velocity v, radius r from the planes of the box (zero away from them).
template <class T, int D>
EJ_INLINE Vec<T, D> dem_linear_box_force(const GrainModel<T, D>& gm, const Vec<T, D>& x, const Vec<T, D>& v, T r) {
  Vec<T, D> f = Vec<T, D>::zero();
  for (int d = 0; d < D; ++d) {
    T n = T(0), delta = T(0);
    const T lo = r - (x[d] - gm.box_lo[d]), hi = r - (gm.box_hi[d] - x[d]);
    if (lo > T(0)) n = T(1), delta = lo;        // the lower plane pushes along +e_d
    else if (hi > T(0)) n = T(-1), delta = hi;  // the upper one along -e_d
    else continue;
    const T vn = v[d] * n;  // the grain's speed away from the plane
    f[d] += n * (gm.contact.spring * delta - gm.wall_damping * vn);
    for (int e = 0; e < D; ++e)
      if (e != d) f[e] -= gm.contact.shear * v[e];  // wall at rest: v_t is the grain's tangential velocity
  }
  return f;
}

// contact_linear_green2010: the acceleration of every grain (and zero rates for its density, energy and
// stress: a grain is rigid); the coupling's reaction adds the liquid's push afterwards.
template <class T, int D>
struct GrainContacts_Linear {
  GrainModel<T, D> gm;
  LevelGrid<T, D> grid;
  SolidView<T, D> s;
  DevicePtr<const T> radius;
  EJ_INLINE void operator()(std::size_t i) const {
    if (s.phase[i] != kPhaseGrain) return;
    const Vec<T, D> xi = s.x[i], vi = s.v[i];
    const T ri = radius[i];
    Vec<T, D> f = Vec<T, D>::zero();
    grid.for_each_neighbor(xi, s.x, ri + gm.r_max, false, [&](uint32_t j, const Vec<T, D>&, T) {
      if (j == i || s.phase[j] != kPhaseGrain) return;
      f += dem_linear_force(xi, vi, ri, s.x[j], s.v[j], radius[j], gm.contact);
    });
    f += dem_linear_box_force(gm, xi, vi, ri);
    f += dem_linear_collider_force(gm, xi, vi, ri);
    s.a[i] = s.kind[i] != 0 ? Vec<T, D>::zero()  // grains.N.fixed: glued
                            : f * (T(1) / s.m[i]) + gm.gravity - vi * gm.global_damping;
    s.drho[i] = T(0);
    s.du[i] = T(0);
    s.dS[i] = SymTensor<T, D>::zero();
    s.c[i] = T(0);
    s.vsig[i] = T(0);
  }
};

}  // namespace ejecta
