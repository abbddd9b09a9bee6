#pragma once
// DEM grains with friction (dem.contact = hertz_mindlin; docs/physics.md, "DEM grains"): the term
// contact_hertz_mindlin_tsuji1992 of the mixed engine. Every grain sums, in one gather pass over the step's
// grid, the Hertz-Mindlin contact of physics/dem_contact_hertz_mindlin.h (Hertz normal force, Mindlin
// tangential stiffness on a tangential spring with the Coulomb slider of Cundall & Strack 1979,
// Geotechnique 29, 47, eq. 4-6; dashpots of Tsuji, Tanaka & Ishida 1992) with every grain it overlaps
// and with the planes of the box dem.box_min .. max (a plane: a grain of the same material with
// infinite radius and mass, at rest), gravity and the drag dem.global_damping.
//
// Rotation. A grain carries an angular velocity w (a vector in 3D, its z component in 2D). The contact
// point is the middle of the overlap, at the lever arms l_A = r_A - delta/2 from A and l_B = r_B - delta/2
// from B (l_A + l_B = |x_B - x_A|, so the pair's torques balance the moment of its forces and the pair
// conserves angular momentum, orbital plus spin; the contact point at r_A n would not, by delta n x F);
// the velocity of B's contact point relative to A's is v_B - v_A - (l_A w_A + l_B w_B) x n (n from A to
// B), and the tangential force F_t on A gives the torque l_A n x F_t; dw/dt = torque / I, I = (2/5) m r^2
// for a sphere (3D) and (1/2) m r^2 for a disc (2D, whose mass is per unit thickness).
//
// Contact history. The tangential spring xi of each contact lives in a per-grain contact list of fixed
// capacity (kDemContactCapacity: 8 in 2D, 16 in 3D), slots of (the partner's particle id, xi), partners
// keyed by id (the planes by kDemWallKey + plane), so the list survives the per-step sort (both are
// persistent particle fields, reordered with the rest, and in every restart frame). Each grain rebuilds
// its own list in its own pass: a contact found again keeps its spring, a new one starts at zero, one
// that ended is dropped. A pair is evaluated from both sides with exactly mirrored inputs, so the two
// copies of its spring are mirror images and the pair forces cancel to the bit. The number of contacts
// of each grain is written to `contact_count`; the solver checks its maximum after the pass and stops
// with the particle and the capacity when a grain has more contacts than its list holds.
//
// The springs advance by the step's dt once per step: the term needs the leapfrog integrator (one
// evaluation per step), which the solver checks.
#include "physics/dem_contact_hertz_mindlin.h"
#include "physics/dem_grains.h"

#include <cstdint>

namespace ejecta {

template <int D>
struct DemContactCapacity {
  static constexpr int value = D == 3 ? 16 : 8;
};
constexpr uint32_t kDemNoContact = 0xffffffffu;
constexpr uint32_t kDemWallKey = 0xfffffff0u;  // + 2 axis + (0 lower, 1 upper plane); + 2 D: the collider

// The angular velocity: 3 components in 3D, the z component in 2D (and an unused one in 1D).
template <int D>
struct DemSpinDim {
  static constexpr int value = D == 3 ? 3 : 1;
};

// w x n.
template <class T>
EJ_INLINE Vec<T, 3> dem_spin_cross(const Vec<T, 3>& w, const Vec<T, 3>& n) {
  return Vec<T, 3>{{w[1] * n[2] - w[2] * n[1], w[2] * n[0] - w[0] * n[2], w[0] * n[1] - w[1] * n[0]}};
}
template <class T>
EJ_INLINE Vec<T, 2> dem_spin_cross(const Vec<T, 1>& w, const Vec<T, 2>& n) {
  return Vec<T, 2>{{-w[0] * n[1], w[0] * n[0]}};
}
template <class T>
EJ_INLINE Vec<T, 1> dem_spin_cross(const Vec<T, 1>&, const Vec<T, 1>&) {
  return Vec<T, 1>::zero();
}
// a x f, as an angular quantity.
template <class T>
EJ_INLINE Vec<T, 3> dem_torque(const Vec<T, 3>& a, const Vec<T, 3>& f) {
  return Vec<T, 3>{{a[1] * f[2] - a[2] * f[1], a[2] * f[0] - a[0] * f[2], a[0] * f[1] - a[1] * f[0]}};
}
template <class T>
EJ_INLINE Vec<T, 1> dem_torque(const Vec<T, 2>& a, const Vec<T, 2>& f) {
  return Vec<T, 1>{{a[0] * f[1] - a[1] * f[0]}};
}
template <class T>
EJ_INLINE Vec<T, 1> dem_torque(const Vec<T, 1>&, const Vec<T, 1>&) {
  return Vec<T, 1>::zero();
}

// The grains' rotation and contact lists (particle fields of the store).
template <class T, int D>
struct GrainHistoryView {
  static constexpr int C = DemContactCapacity<D>::value;
  using Spin = Vec<T, DemSpinDim<D>::value>;
  DevicePtr<Vec<uint32_t, C>> partner;   // contact_partner: ids of the partners (kDemNoContact: free slot)
  DevicePtr<Vec<T, D * C>> spring;       // contact_spring: xi of each slot, D components each
  DevicePtr<uint32_t> count;             // contact_count: contacts found in the last evaluation
  DevicePtr<const uint32_t> id;          // the particles' ids
  DevicePtr<Spin> w;                     // angular_velocity
  DevicePtr<Spin> dw;                    // angular_acceleration
};

// contact_hertz_mindlin_tsuji1992: acceleration, angular acceleration and the new contact list of every
// grain (zero rates for its density, energy and stress: a grain is rigid).
template <class T, int D>
struct GrainContacts_HertzMindlin {
  static constexpr int C = DemContactCapacity<D>::value;
  using Spin = Vec<T, DemSpinDim<D>::value>;
  GrainModel<T, D> gm;           // box, gravity, global damping, r_max
  DemHertzMindlinPair<T> hm;     // E*, G*, dashpot factor, mu (grains and walls: one material)
  T rolling;                     // mu_r, dem.rolling_friction (0: free rolling)
  T dt;                          // the step the springs advance by
  LevelGrid<T, D> grid;
  SolidView<T, D> s;
  DevicePtr<const T> radius;
  GrainHistoryView<T, D> h;

  EJ_INLINE void operator()(std::size_t i) const {
    if (s.phase[i] != kPhaseGrain) return;
    const Vec<T, D> xi = s.x[i], vi = s.v[i];
    const T ri = radius[i], mi = s.m[i];
    const Spin wi = h.w[i];
    const Vec<uint32_t, C> old_partner = h.partner[i];
    const Vec<T, D * C> old_spring = h.spring[i];
    Vec<uint32_t, C> partner;
    Vec<T, D * C> spring = Vec<T, D * C>::zero();
    for (int k = 0; k < C; ++k) partner[k] = kDemNoContact;
    uint32_t count = 0;
    Vec<T, D> f = Vec<T, D>::zero();
    Spin tau = Spin::zero();
    // One contact: its spring from the old list (or zero), the force and torque, the slot in the new list.
    const T shape = D == 3 ? T(0.4) : T(0.5);  // I / (m r^2): sphere, disc
    const T inv_inertia = T(1) / (shape * mi * ri * ri);
    // wrel = w_A - w_B and 1/I_A + 1/I_B of the pair (a wall: w_B = 0, 1/I_B = 0) for the rolling resistance.
    auto contact = [&](uint32_t key, const Vec<T, D>& n, T delta, const Vec<T, D>& vrel, T arm, T r_star, T m_star,
                       const Spin& wrel, T inv_inertia_sum) {
      Vec<T, D> sp = Vec<T, D>::zero();
      for (int k = 0; k < C; ++k)
        if (old_partner[k] == key) {
          for (int d = 0; d < D; ++d) sp[d] = old_spring[k * D + d];
          break;
        }
      const DemContactForce<T, D> c = dem_hertz_mindlin_contact(n, delta, vrel, r_star, m_star, hm, sp, dt);
      f += c.force;
      tau += dem_torque(n * arm, c.force);
      // Rolling resistance, type A of Ai, Chen, Rotter & Ooi 2011 (Powder Technol. 206, 269, eq. 5):
      // M = -mu_r R* |F_n| wrel / |wrel|, at most the torque that stops the relative rolling within the
      // step (|wrel| / (dt (1/I_A + 1/I_B))), so that it cannot reverse it.
      const T wn = sqrt(norm2(wrel));
      if (rolling > T(0) && wn > T(0)) {
        T moment = rolling * r_star * c.normal;
        if (dt > T(0)) {
          const T stop = wn / (dt * inv_inertia_sum);
          if (stop < moment) moment = stop;
        }
        tau -= wrel * (moment / wn);
      }
      if (count < uint32_t(C)) {
        partner[count] = key;
        for (int d = 0; d < D; ++d) spring[count * D + d] = sp[d];
      }
      ++count;
    };
    grid.for_each_neighbor(xi, s.x, ri + gm.r_max, false, [&](uint32_t j, const Vec<T, D>&, T) {
      if (j == i || s.phase[j] != kPhaseGrain) return;
      const Vec<T, D> rel = s.x[j] - xi;
      const T dist = sqrt(norm2(rel));
      const T rj = radius[j];
      const T delta = ri + rj - dist;
      if (!(delta > T(0)) || dist <= T(0)) return;
      const Vec<T, D> n = rel * (T(1) / dist);
      const T arm_i = ri - T(0.5) * delta, arm_j = rj - T(0.5) * delta;
      const Spin wsum = wi * arm_i + h.w[j] * arm_j;
      const Vec<T, D> vrel = s.v[j] - vi - dem_spin_cross(wsum, n);
      const T mj = s.m[j];
      contact(h.id[j], n, delta, vrel, arm_i, ri * rj / (ri + rj), mi * mj / (mi + mj), wi - h.w[j],
              inv_inertia + T(1) / (shape * mj * rj * rj));
    });
    // The planes of the box: B is the wall (at rest), n from the grain to the plane.
    for (int d = 0; d < D; ++d)
      for (int side = 0; side < 2; ++side) {
        const T delta = side == 0 ? ri - (xi[d] - gm.box_lo[d]) : ri - (gm.box_hi[d] - xi[d]);
        if (!(delta > T(0))) continue;
        Vec<T, D> n = Vec<T, D>::zero();
        n[d] = side == 0 ? T(-1) : T(1);
        const T arm = ri - T(0.5) * delta;
        const Vec<T, D> vrel = Vec<T, D>::zero() - vi - dem_spin_cross(wi * arm, n);
        contact(kDemWallKey + uint32_t(2 * d + side), n, delta, vrel, arm, ri, mi, wi, inv_inertia);
      }
    // The collider sphere (collider.*): a grain of the same material, of infinite mass, not spinning,
    // moving at collider_v; its contact keeps its spring under the key kDemWallKey + 2 D.
    if (gm.collider) {
      const Vec<T, D> rel = gm.collider_x - xi;
      const T dist = sqrt(norm2(rel));
      const T delta = ri + gm.collider_r - dist;
      if (delta > T(0) && dist > T(0)) {
        const Vec<T, D> n = rel * (T(1) / dist);
        const T arm = ri - T(0.5) * delta;
        const Vec<T, D> vrel = gm.collider_v - vi - dem_spin_cross(wi * arm, n);
        contact(kDemWallKey + uint32_t(2 * D), n, delta, vrel, arm, ri * gm.collider_r / (ri + gm.collider_r), mi, wi,
                inv_inertia);
      }
    }
    h.partner[i] = partner;
    h.spring[i] = spring;
    h.count[i] = count;
    const bool fixed = s.kind[i] != 0;  // grains.N.fixed: glued, their list kept for the partners' mirror
    h.dw[i] = fixed ? Spin::zero() : tau * inv_inertia;
    s.a[i] = fixed ? Vec<T, D>::zero() : f * (T(1) / mi) + gm.gravity - vi * gm.global_damping;
    s.drho[i] = T(0);
    s.du[i] = T(0);
    s.dS[i] = SymTensor<T, D>::zero();
    s.c[i] = T(0);
    s.vsig[i] = T(0);
  }
};

// The rotational kinetic energy 1/2 I |w|^2 of one grain (I = 2/5 m r^2, sphere; 1/2 m r^2, disc), for the
// diagnostics' energy budget (added to Diagnostics::kinetic and total); 0 for other phases.
template <class T, int D>
struct MeasureGrainSpinEnergy {
  DevicePtr<const uint8_t> phase;
  DevicePtr<const T> m;
  DevicePtr<const T> radius;
  DevicePtr<const Vec<T, DemSpinDim<D>::value>> w;
  EJ_INLINE double operator()(std::size_t i) const {
    if (phase[i] != kPhaseGrain) return 0.0;
    const double shape = D == 3 ? 0.4 : 0.5, r = double(radius[i]);
    return 0.5 * shape * double(m[i]) * r * r * double(norm2(w[i]));
  }
};
struct SumDoubles {
  EJ_INLINE double operator()(double a, double b) const { return a + b; }
};

// The grain with the most contacts (the first such index): the solver's overflow check.
struct DemMostContacts {
  uint32_t count, index;
};
struct MeasureDemContacts {
  DevicePtr<const uint32_t> count;
  DevicePtr<const uint8_t> phase;
  EJ_INLINE DemMostContacts operator()(std::size_t i) const {
    return DemMostContacts{phase[i] == kPhaseGrain ? count[i] : 0u, uint32_t(i)};
  }
};
struct CombineDemContacts {
  EJ_INLINE DemMostContacts operator()(const DemMostContacts& a, const DemMostContacts& b) const {
    if (a.count != b.count) return a.count > b.count ? a : b;
    return a.index <= b.index ? a : b;
  }
};

// The mixed step's extremes (the time-step limits and the first bad particle, as MeasureSolidExtremes
// finds them) and the grain with the most contacts in one reduction, so the overflow check costs no
// second pass and host sync (count == nullptr: no contact lists, the count stays 0). A flat struct:
// nvcc 12's cicc crashed (segfault) on the reduction of a struct nesting RateExtremes.
template <class T>
struct GrainStepExtremes {
  T min_h_vsig, min_h_a, min_decay, max_v2;
  uint32_t bad_index, bad_field, most_count, most_index;
  EJ_INLINE static GrainStepExtremes none() {
    const RateExtremes<T> e = RateExtremes<T>::none();
    return GrainStepExtremes{e.min_h_vsig, e.min_h_a, e.min_decay, e.max_v2, e.bad_index, e.bad_field, 0u, 0u};
  }
  RateExtremes<T> rates() const { return RateExtremes<T>{min_h_vsig, min_h_a, min_decay, max_v2, bad_index, bad_field}; }
};
template <class T, int D>
struct MeasureGrainStepExtremes {
  MeasureSolidExtremes<T, D> measure;
  MeasureDemContacts contacts;
  EJ_INLINE GrainStepExtremes<T> operator()(std::size_t i) const {
    const RateExtremes<T> e = measure(i);
    const DemMostContacts m = contacts.count ? contacts(i) : DemMostContacts{0u, uint32_t(i)};
    return GrainStepExtremes<T>{e.min_h_vsig, e.min_h_a, e.min_decay, e.max_v2, e.bad_index, e.bad_field, m.count, m.index};
  }
};
template <class T>
struct CombineGrainStepExtremes {
  EJ_INLINE GrainStepExtremes<T> operator()(const GrainStepExtremes<T>& a, const GrainStepExtremes<T>& b) const {
    GrainStepExtremes<T> r;
    r.min_h_vsig = a.min_h_vsig < b.min_h_vsig ? a.min_h_vsig : b.min_h_vsig;
    r.min_h_a = a.min_h_a < b.min_h_a ? a.min_h_a : b.min_h_a;
    r.min_decay = a.min_decay < b.min_decay ? a.min_decay : b.min_decay;
    r.max_v2 = a.max_v2 > b.max_v2 ? a.max_v2 : b.max_v2;
    const bool take_a = a.bad_index <= b.bad_index;
    r.bad_index = take_a ? a.bad_index : b.bad_index;
    r.bad_field = take_a ? a.bad_field : b.bad_field;
    const bool most_a = a.most_count != b.most_count ? a.most_count > b.most_count : a.most_index <= b.most_index;
    r.most_count = most_a ? a.most_count : b.most_count;
    r.most_index = most_a ? a.most_index : b.most_index;
    return r;
  }
};

}  // namespace ejecta
