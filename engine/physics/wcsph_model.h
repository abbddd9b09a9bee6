#pragma once
// Constants and array views shared by the weakly compressible SPH functors. Plain structs of values
// and typed device pointers, copied by value into CUDA kernels and OpenMP loops alike.
#include "core/types.h"
#include "core/vec.h"
#include "exec/device_ptr.h"
#include "neighbors/cell_grid.h"
#include "physics/boundary_mdbc_geometry.h"
#include "physics/eos_tait.h"
#include "physics/kernels.h"

#include <cstdint>
#include <string>

namespace ejecta {

template <class T, int D>
struct WcsphModel {
  SmoothingKernel<T, D> kernel;
  TaitEos<T> eos;
  Vec<T, D> gravity;
  T alpha, beta;   // Monaghan (1992) artificial viscosity
  T wall_visc;     // factor on alpha and beta between fluid and walls (viscosity.wall_factor)
  T delta;         // delta-SPH coefficient (Molteni & Colagrossi 2009), 0 = off
  T xsph;          // XSPH epsilon (Monaghan 1989), 0 = off
  T shift;         // particle shifting A h c0 (fluid.shifting, physics/shifting_sun2017.h), 0 = off
  T shift_inv_wdp; // 1 / W(dp), for the anti-clumping term of the shifting
  T eta2;          // 0.01 h^2, keeps 1/r^2 terms finite
  int slip;        // WallSlip: how walls enter the viscous term
  T wall_friction = 0;  // boundary.friction: C_f of the wall law (slip = wall_law, physics/wall_friction.h)
  int pressure;    // PressureTerm: the pair pressure of the momentum equation
  bool diffusion_hydrostatic;  // delta-SPH less its hydrostatic part (Fourtakas et al. 2019)
  bool wall_diffusion = false;  // fluid.wall_diffusion: the delta-SPH term against wall particles too
  bool summation;  // summation density instead of the continuity equation
  // boundary.wall_pressure = fluid_acceleration: the wall pressure extrapolated with each fluid
  // particle's own (g - a_f) instead of g (physics/wall_pressure_adami2012.h)
  bool wall_fluid_accel = false;
  int boundary = 0;  // BoundaryModel (boundary.model)
  // The walls' interface (the scene's tank and obstacle boxes): the wall normals of
  // fluid.pressure_term = zhang2017_wall_normal (physics/pressure_zhang2017.h).
  MdbcGeometry<T, D> wall_geometry{};
};

// boundary.model. Adami2012: wall pressure extrapolated from the fluid each step, the wall's mass in the
// sums its density times its cell (physics/wall_pressure_adami2012.h). DbcCrespo2007: dynamic boundary
// particles, the wall's density integrated by continuity, its pressure from the EOS, its mass constant
// (physics/boundary_dbc_crespo2007.h).
// MdbcEnglish2022: modified dynamic boundary particles, the DBC wall with its density taken from the fluid
// at a ghost node each step (physics/boundary_mdbc_english2022.h), its mass constant as DBC's.
enum BoundaryModel : int { kBoundaryAdami2012 = 0, kBoundaryDbcCrespo2007 = 1, kBoundaryMdbcEnglish2022 = 2 };

// boundary.slip. Free: no viscous interaction between fluid and walls (a free-slip wall exerts no
// shear stress). NoSlip: the wall velocity seen by viscosity is the mirror 2 v_w - v~_f
// of the fluid's (Adami et al. 2012, eq. 22-23). AtRest: viscosity against the walls' own (zero)
// velocity, a partial slip whose friction grows with alpha c0 h. WallLaw: free slip for the viscous
// term, and the quadratic drag tau_w = rho C_f |u_t| u_t along the wall (physics/wall_friction.h).
enum WallSlip : int { kSlipFree = 0, kSlipNoSlip = 1, kSlipAtRest = 2, kSlipWallLaw = 3 };

// Whether the artificial viscosity acts between fluid and wall particles.
EJ_INLINE bool wall_slip_viscous(int slip) { return slip == kSlipNoSlip || slip == kSlipAtRest; }

// The velocity a wall particle of velocity vw (0 for a fixed wall, a gate's own) shows the fluid's pair
// terms (the neighbour record's velocity): no_slip the mirror 2 v_w - v~_f of the fluid's Shepard velocity
// v~_f = sum_vw / sum_w (Adami et al. 2012, eq. 22-23; v_w where no fluid is near), else v_w. The
// continuity, wall-law and wall-normal terms take it as the wall's own velocity (forces_wcsph.h), which
// with no_slip is only right for a wall at rest (the scene builder refuses a moving gate with no_slip).
template <class T, int D>
EJ_INLINE Vec<T, D> wall_velocity(int slip, const Vec<T, D>& vw, const Vec<T, D>& sum_vw, T sum_w) {
  if (slip != kSlipNoSlip || !(sum_w > T(0))) return vw;
  return vw * T(2) + sum_vw * (T(-1) / sum_w);
}

// boundary.slip's text.
inline int wall_slip_from(const std::string& slip) {
  return slip == "no_slip"    ? kSlipNoSlip
         : slip == "at_rest"  ? kSlipAtRest
         : slip == "wall_law" ? kSlipWallLaw
                              : kSlipFree;
}

// fluid.pressure_term. Monaghan1992: p_i/rho_i^2 + p_j/rho_j^2 (Monaghan 1992, eq. 3.3). Zhang2017: the
// pair pressure P* of the acoustic Riemann problem along x_ij with the low-dissipation limiter of
// Zhang, Hu & Adams (2017), J. Comput. Phys. 335, 605 (sec. 3). Zhang2017WallNormal: the same between
// fluid particles, against walls the one-sided Riemann problem along the wall normal (sec. 3.3;
// physics/pressure_zhang2017.h).
enum PressureTerm : int { kPressureMonaghan1992 = 0, kPressureZhang2017 = 1, kPressureZhang2017WallNormal = 2 };

// Whether a model's options are the defaults that the force pass's specialised kernel is compiled for
// (Forces_WCSPH_Monaghan1992's Defaults; fluid.force_specialised): Monaghan's pair pressure, viscosity
// against walls at rest, Adami's walls, the density diffusion with its hydrostatic part between fluid
// particles only, no XSPH, no beta, no shifting. Any other value of these runs the general kernel.
template <class T, int D>
bool wcsph_default_options(const WcsphModel<T, D>& m) {
  return m.pressure == kPressureMonaghan1992 && m.slip == kSlipAtRest && m.boundary == kBoundaryAdami2012 && !m.wall_diffusion &&
         m.diffusion_hydrostatic && m.xsph == T(0) && m.beta == T(0) && m.shift == T(0) &&
         m.kernel.type == KernelType::WendlandC2;
}

// Device memory only (DevicePtr, exec/device_ptr.h): a host array here is a compile error.
template <class T, int D>
struct ParticleView {
  DevicePtr<Vec<T, D>> x;
  DevicePtr<Vec<T, D>> v;     // velocity (at n, or n+1/2 between the kicks)
  DevicePtr<T> rho;           // density state (continuity: integrated like v)
  DevicePtr<Vec<T, D>> vp;    // velocity predicted at the force evaluation time (walls: velocity for viscosity)
  DevicePtr<T> rhop;          // density at the force evaluation time (walls: extrapolated)
  DevicePtr<T> p;             // pressure at the force evaluation time
  DevicePtr<Vec<T, D>> a;     // acceleration
  DevicePtr<T> drho;          // density rate
  DevicePtr<Vec<T, D>> xsph;  // drift correction, XSPH + shifting (only when model.xsph > 0 or model.shift > 0)
  DevicePtr<const T> m;
  DevicePtr<const uint8_t> kind;
  DevicePtr<uint32_t> pair_real;  // per-particle neighbour counts (only when counting is on)
  DevicePtr<uint32_t> pair_cand;
};

}  // namespace ejecta
