#pragma once
// How the fused liquid force pass (forces_wcsph.h) reads a neighbour j: two steps, the position first
// (every candidate of the cell scan needs it for the distance test) and the rest only for neighbours
// within the support. Two readers, the same values and so the same arithmetic:
//  - WcsphArrays: the store's arrays, x, vp, rhop, p, m, kind (six loads a neighbour, ten scalar
//    loads in 3D);
//  - WcsphPacked (3D): a read-only mirror of the sorted particles, packed after the densities by
//    PackWcsphNeighbours: (x, y, z, p) and (vx, vy, vz, +-rho), the density's sign for the kind
//    (negative for a wall; a wall's density is the inverted EOS of its pressure, always positive; a
//    fluid density at or below zero, a blow-up, would read as a wall), the mass read from the store,
//    or (Eos) with the pressure of the fluid derived in the loop. 16-byte loads, as DualSPHysics reads
//    (position + cell, velocity + density). The fluid's masses differ (hydrostatic start, scene_builder),
//    so the mass cannot be a constant; the walls' is one. Results bit-identical to WcsphArrays on the
//    CPU (the same values and expressions; the test is test_packed_neighbours.cpp).
#include "physics/wcsph_model.h"

namespace ejecta {

// What the pair terms read of a neighbour within the support.
template <class T, int D>
struct WcsphNeighbour {
  Vec<T, D> v;  // predicted velocity (walls: the velocity viscosity sees)
  T rho, p, m;  // m: the mass as stored (walls: scaled by rho / rho0 in the pass)
  bool fluid;
};

template <class T, int D>
struct WcsphArrays {
  struct Position {
    Vec<T, D> x;
  };
  EJ_INLINE Position position(const ParticleView<T, D>& pv, uint32_t j) const { return {pv.x[j]}; }
  EJ_INLINE WcsphNeighbour<T, D> rest(const ParticleView<T, D>& pv, uint32_t j, const Position&) const {
    return {pv.vp[j], pv.rhop[j], pv.p[j], pv.m[j], pv.kind[j] == kFluid};
  }
};

template <class T>
struct alignas(4 * sizeof(T)) Packed4 {
  T x, y, z, w;
};

// One 16-byte load in float (ld.global.nc.v4), two in double.
template <class T>
EJ_INLINE Packed4<T> load_packed(const Packed4<T>* p) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 4) {
    const float4 a = __ldg(reinterpret_cast<const float4*>(p));
    return {a.x, a.y, a.z, a.w};
  } else {
    const double2 a = __ldg(reinterpret_cast<const double2*>(p)), b = __ldg(reinterpret_cast<const double2*>(p) + 1);
    return {a.x, a.y, b.x, b.y};
  }
#else
  return *p;
#endif
}

// Eos = false: (x, y, z, p) and (vx, vy, vz, +-rho), the mass from the store (three loads a
// neighbour, the mass only within the support). Eos = true: two loads; a fluid particle packs its mass
// in place of its pressure, which the pass derives from its density with the Tait EOS exactly as
// FluidPressure does, and a wall packs its extrapolated pressure and takes the walls' one mass.
template <class T, int D, bool Eos = false>
struct WcsphPacked;

template <class T, bool Eos>
struct WcsphPacked<T, 3, Eos> {
  const Packed4<T>* xp;  // x, y, z, pressure (Eos: a fluid particle's mass)
  const Packed4<T>* vr;  // vx, vy, vz, density (negative for a wall)
  TaitEos<T> eos;
  T m_wall;        // Eos: the mass of every wall particle
  bool summation;  // Eos: summation density cuts negative fluid pressure to zero (FluidPressure)
  struct Position {
    Vec<T, 3> x;
    T w;
  };
  EJ_INLINE Position position(const ParticleView<T, 3>&, uint32_t j) const {
    const Packed4<T> a = load_packed(xp + j);
    return {Vec<T, 3>{{a.x, a.y, a.z}}, a.w};
  }
  EJ_INLINE WcsphNeighbour<T, 3> rest(const ParticleView<T, 3>& pv, uint32_t j, const Position& pos) const {
    const Packed4<T> b = load_packed(vr + j);
    const bool fluid = b.w > T(0);
    const T rho = fluid ? b.w : -b.w;
    if constexpr (Eos) {
      T p = pos.w;
      if (fluid) {
        p = eos.pressure(rho);
        if (summation && p < T(0)) p = T(0);
      }
      return {Vec<T, 3>{{b.x, b.y, b.z}}, rho, p, fluid ? pos.w : m_wall, fluid};
    } else {
      return {Vec<T, 3>{{b.x, b.y, b.z}}, rho, pos.w, pv.m[j], fluid};
    }
  }
};

// Fills the packed mirror from the sorted arrays, after the densities and pressures of the step.
template <class T, bool Eos = false>
struct PackWcsphNeighbours {
  ParticleView<T, 3> pv;
  Packed4<T>* xp;
  Packed4<T>* vr;
  EJ_INLINE void operator()(std::size_t i) const {
    const Vec<T, 3> x = pv.x[i], v = pv.vp[i];
    const T rho = pv.rhop[i];
    const bool fluid = pv.kind[i] == kFluid;
    xp[i] = Packed4<T>{x[0], x[1], x[2], Eos && fluid ? pv.m[i] : pv.p[i]};
    vr[i] = Packed4<T>{v[0], v[1], v[2], fluid ? rho : -rho};
  }
};

}  // namespace ejecta
