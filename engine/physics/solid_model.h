#pragma once
// The elastic(-plastic) solid of physics.model = solid: constants, array views and the functors of one
// evaluation (EOS pass, force pass, yield limit, extremes, sums). Plain structs, copied by value into
// CUDA kernels and OpenMP loops; the material table is read through a pointer (SolidModel::mat).
// Equations (docs/physics.md, "Solids: the elastic model"):
//  - continuity           drho_i/dt = sum_j m_j v_ij . grad_i W_ij
//  - velocity gradient    (dv^a/dx^b)_i = -sum_j (m_j/rho_j) v_ij^a grad_i^b W_ij
//  - momentum, sigma = -p I + S (Gray, Monaghan & Swift 2001, CMAME 190, 6641, eq. 2.5 form):
//      dv_i^a/dt = sum_j m_j (sigma_i^ab/rho_i^2 + sigma_j^ab/rho_j^2 - Pi_ij d^ab + f_ij^n (R_i^ab + R_j^ab))
//                  grad_i^b W_ij
//    with model.correct_force (solid.corrected_force; Bonet & Lok 1999) the stress term is instead
//      sum_j m_j (sigma_i^ab g_i^b + sigma_j^ab g_j^b) / (rho_i rho_j), g_k = M_k^-T grad_i W_ij, the
//      transpose of the corrected velocity gradient (momentum, angular momentum and energy conserved),
//      and the pressure work in du/dt is -p_i tr(grad v)_i / rho_i
//  - energy               du_i/dt = p_i/rho_i^2 sum_j m_j v_ij . grad_i W_ij
//                                   + 1/2 sum_j m_j Pi_ij v_ij . grad_i W_ij + S_i^ab eps_i^ab / rho_i
//                                   - 1/2 sum_j m_j f_ij^n (R_i^ab + R_j^ab) v_ij^a grad_i^b W_ij
//  - Hooke with the Jaumann rate (Libersky & Petschek 1991; Gray et al. 2001, eq. 2.7):
//      dS^ab/dt = 2 mu (eps^ab - 1/3 d^ab eps^cc) + S^ac Omega^bc + Omega^ac S^cb,
//      eps = (grad v + grad v^T)/2, Omega = (grad v - grad v^T)/2
//  - Monaghan (1992) viscosity Pi_ij = (-alpha c_ij mu_ij + beta mu_ij^2)/rho_ij for v_ij . x_ij < 0,
//      mu_ij = h v_ij . x_ij / (r^2 + 0.01 h^2)
//  - artificial stress (Monaghan 2000, J. Comput. Phys. 159, 290; Gray et al. 2001, sec. 4):
//      R^a'a' = -eps_s sigma^a'a'/rho^2 for each positive principal stress (0 otherwise), rotated back,
//      f_ij = W(r_ij)/W(dp), n = 4; the principal axes in physics/artificial_stress.h (1D, 2D, 3D).
//  - Grady-Kipp damage D (solid_damage.h): the stress carried is sigma = -p_D I + (1 - D) S with
//      p_D = (1 - D) p for p < 0 (Benz & Asphaug 1994, Icarus 107, 98, sec. 3.2); S stays undamaged.
//  - porosity (porous_model.h: p-alpha, epsilon-alpha): the EOS at the matrix density alpha rho with
//      p = p_s / alpha, the distention's rates after the force sums, its limits after each stage.
// Fixed smoothing lengths; a pair uses h_ij = (h_i + h_j)/2, so every pair term is antisymmetric and
// momentum is conserved to round-off. 1D and 2D carry the in-plane components of S with the 1/3 of the
// three-dimensional deviator: 2D is plane strain (eps_zz = 0) and 1D uniaxial strain, so the implied
// out-of-plane components are S_zz = -(S_xx + S_yy) (2D) and S_yy = S_zz = -S_xx/2 (1D); they enter J2.
// 2D plane stress (solid.plane = stress, model.plane_stress): sigma_zz = 0 fixes eps_zz (SolidForces);
// rho is then the three-dimensional density (continuity with the 3D volumetric rate), also used as
// the areal density in the kernel sums (the thickness change is not carried: relative error O(strain)).
#include "core/particle_phase.h"
#include "core/types.h"
#include "core/vec.h"
#include "exec/device_ptr.h"
#include "neighbors/level_grid.h"
#include "physics/artificial_stress.h"
#include "physics/damage_grady_kipp.h"
#include "physics/diagnostic_sums.h"
#include "physics/eos_murnaghan.h"
#include "physics/eos_tillotson.h"
#include "physics/kernel_varh.h"
#include "physics/porous_model.h"
#include "physics/yield_strength.h"
#include "integrators/step_monitor.h"

#include <cstdint>

namespace ejecta {

constexpr int kMaxSolidMaterials = 8;

template <int D>
struct SymIndex {
  static constexpr int N = D * (D + 1) / 2;
  // xx, yy, zz, then xy, xz, yz
  EJ_INLINE static int of(int a, int b) {
    if (a == b) return a;
    if (D == 2) return 2;
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    return lo == 0 ? (hi == 1 ? 3 : 4) : 5;
  }
};

template <class T, int D>
using SymTensor = Vec<T, SymIndex<D>::N>;

// J2 = 1/2 S:S of the full 3 x 3 deviator, with the implied out-of-plane components (see above).
template <class T, int D>
EJ_INLINE T solid_j2(const SymTensor<T, D>& s) {
  if (D == 1) return T(0.75) * s[0] * s[0];
  if (D == 2) {
    const T zz = -(s[0] + s[1]);
    return T(0.5) * (s[0] * s[0] + s[1] * s[1] + zz * zz) + s[2] * s[2];
  }
  return T(0.5) * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) + s[3] * s[3] + s[4] * s[4] + s[5] * s[5];
}

enum SolidEosKind : int { kSolidMurnaghan = 0, kSolidTillotson = 1 };
enum SolidYieldKind : int { kSolidNoLimit = 0, kSolidVonMises = 1, kSolidLundborg = 2 };

template <class T>
struct SolidMaterial {
  int eos;  // SolidEosKind
  MurnaghanEos<T> murnaghan;
  TillotsonEos<T> tillotson;
  T mu;     // shear modulus
  int yield;  // SolidYieldKind
  T Y0;
  LundborgStrength<T> lundborg;
  // Grady-Kipp tensile damage (physics/solid_damage.h): on with weibull.k, weibull.m (the flaws
  // themselves are the solver's); K the bulk modulus (crack speed 0.4 c_l), E Young's modulus.
  bool damage;
  T K, E;
  // Melt weakening of the yield strength, T = T_ref + u / c_v (physics/yield_strength.h).
  bool melt;
  T t_melt, melt_xi, cv;
  PorousMaterial<T> porous;  // compaction (porous_model.h); kind none for a non-porous material
  EJ_INLINE T pressure(T rho, T u) const {
    return eos == kSolidMurnaghan ? murnaghan.pressure(rho) : tillotson.pressure(rho, u);
  }
  EJ_INLINE T sound_speed(T rho, T u) const {
    return eos == kSolidMurnaghan ? murnaghan.sound_speed(rho) : tillotson.sound_speed(rho, u);
  }
  // (dp/drho)_u and (dp/du)_rho (Murnaghan: c^2 and 0).
  EJ_INLINE void derivatives(T rho, T u, T& dp_drho, T& dp_du) const {
    if (eos == kSolidMurnaghan) {
      const T c = murnaghan.sound_speed(rho);
      dp_drho = c * c, dp_du = T(0);
    } else {
      tillotson.derivatives(rho, u, dp_drho, dp_du);
    }
  }
  // The bulk pressure of a particle of distention alpha at bulk density rho: p_s(alpha rho, u) / alpha
  // (porous_model.h (P1); alpha = 1 without porosity, exactly the matrix pressure).
  EJ_INLINE T porous_pressure(T rho, T u, T alpha) const { return pressure(alpha * rho, u) / alpha; }
};

template <class T, int D>
struct SolidModel {
  VarKernel<T, D> kernel;
  T h_over_dp;
  T alpha, beta;     // Monaghan (1992) viscosity
  T art_eps;         // artificial stress epsilon (0: off); n = 4
  bool correct;      // kernel-gradient correction of the velocity gradient
  bool correct_force;  // also the corrected gradient in the stress divergence (Bonet & Lok 1999; needs correct)
  bool plane_stress; // 2D only: sigma_zz = 0 instead of eps_zz = 0 (see SolidForces)
  int n_materials;
  // The scene's materials, indexed by the particle's `mat`: a table in the execution layer's memory
  // (device memory on CUDA), owned by the solver (solver/solid_material_table.h), not a copy in
  // every kernel's parameters. A DevicePtr (exec/device_ptr.h): a host array here does not compile.
  DevicePtr<const SolidMaterial<T>> mat;
  Vec<T, D> gravity;
  T T_ref;  // temperature at u = 0 (solid.reference_temperature), for melt weakening
};

template <class T, int D>
struct SolidView {  // device memory only (DevicePtr, exec/device_ptr.h)
  DevicePtr<Vec<T, D>> x;
  DevicePtr<Vec<T, D>> v;
  DevicePtr<T> u;
  DevicePtr<T> rho;
  DevicePtr<SymTensor<T, D>> S;
  DevicePtr<T> p;
  DevicePtr<T> c;  // longitudinal sound speed sqrt(c_eos^2 + 4/3 mu/rho)
  DevicePtr<Vec<T, D>> a;
  DevicePtr<T> du;
  DevicePtr<T> drho;
  DevicePtr<SymTensor<T, D>> dS;
  DevicePtr<SymTensor<T, D>> R;  // artificial stress (nullptr when off)
  DevicePtr<Vec<T, D * D>> L;    // kernel-gradient correction matrix M^-1, row-major (nullptr when off)
  DevicePtr<T> vsig;
  DevicePtr<const T> h;
  DevicePtr<const T> m;
  DevicePtr<const uint8_t> mat;
  DevicePtr<const uint8_t> kind;
  DevicePtr<T> damage;       // Grady-Kipp damage D in [0, 1] (nullptr when no particle has flaws)
  DevicePtr<T> eps_p;        // accumulated equivalent plastic strain
  DevicePtr<T> eps_p_step;   // its value at the start of the current step
  PorousView<T> por;  // the porosity term's fields (all nullptr without a porous material)
  // Mixed scenes (solver/store_solver.h): the model of each particle (kPhaseSolid for solids); the
  // pair sums of SolidCorrection and SolidForces with Phased = true skip every other neighbour (the
  // coupling terms handle those pairs). nullptr in the solid solver, whose functors (Phased = false)
  // compile exactly as before.
  DevicePtr<const uint8_t> phase = nullptr;
};

// The model of a particle in a mixed scene's one store (the general store's `phase` field): ParticlePhase,
// core/particle_phase.h.

// The weakening of a damaged particle (Benz & Asphaug 1994, Icarus 107, 98, sec. 3.2): the stress
// carried is (1 - D) S and, for tension (p < 0), (1 - D) p. The stored S is the undamaged one.
template <class T, int D>
// With porosity (p-alpha), the compaction damage D_alpha adds: min(1, D + D_alpha) (porous_palpha.h).
EJ_INLINE T solid_damage_of(const SolidView<T, D>& pv, std::size_t i) {
  const T d = pv.damage ? pv.damage[i] : T(0);
  if (!pv.por.damage) return d;
  const T s = d + pv.por.damage[i];
  return s < T(1) ? s : T(1);
}

// The particle's (undamaged) pressure: the matrix EOS at alpha rho over alpha.
template <class T, int D>
EJ_INLINE T solid_pressure_of(const SolidMaterial<T>& mt, const SolidView<T, D>& pv, std::size_t i) {
  return mt.porous_pressure(pv.rho[i], pv.u[i], porous_alpha_of(pv.por, i));
}

// Pressure, longitudinal sound speed and the artificial stress of each particle.
template <class T, int D>
struct SolidEosPass {
  SolidModel<T, D> model;
  SolidView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    const SolidMaterial<T>& mt = model.mat[pv.mat[i]];
    const T rho = pv.rho[i];
    const T alpha = porous_alpha_of(pv.por, i);
    porous_eos(mt.porous, pv.por, i);  // D_alpha before the damage is read
    const T dmg = solid_damage_of(pv, i);
    const T p = damaged_pressure(mt.porous_pressure(rho, pv.u[i], alpha), dmg);
    const T c0 = porous_sound_speed(mt.porous, mt.sound_speed(alpha * rho, pv.u[i]), alpha);
    pv.p[i] = p;
    pv.c[i] = sqrt(c0 * c0 + T(4) / T(3) * mt.mu / rho);
    if (!pv.R) return;
    SymTensor<T, D> sig = pv.S[i];  // total carried stress -p_D I + (1 - D) S
    for (int k = 0; k < SymIndex<D>::N; ++k) sig[k] *= T(1) - dmg;
    for (int a = 0; a < D; ++a) sig[a] -= p;
    const SymTensor<T, D> r = artificial_stress<T, D>(sig, -model.art_eps / (rho * rho));
    pv.R[i] = r;
  }
};

// Kernel-gradient correction (Randles & Libersky 1996, CMAME 139, 375; Bonet & Lok 1999, CMAME 180,
// 97): M_i^ab = sum_j (m_j/rho_j) (x_j - x_i)^a grad_i^b W_ij, and the velocity gradient uses
// M_i^-T grad_i W_ij, which makes it exact for a linear velocity field, also at free surfaces.
// A singular M (det below 1e-6 of its scale, e.g. a particle with too few neighbours) keeps I.
template <class T, int D, bool Phased = false>
struct SolidCorrection {
  SolidModel<T, D> model;
  LevelGrid<T, D> grid;
  SolidView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    const Vec<T, D> xi = pv.x[i];
    const T hi = pv.h[i];
    T M[D][D];
    for (int a = 0; a < D; ++a)
      for (int b = 0; b < D; ++b) M[a][b] = T(0);
    grid.for_each_neighbor(xi, pv.x, T(2) * hi, true, [&](uint32_t j, const Vec<T, D>& xij, T r2) {
      if (j == i) return;
      if constexpr (Phased) {
        if (pv.phase[j] != kPhaseSolid) return;  // a mixed store: other models' pairs are the coupling's
      }
      const T hij = T(0.5) * (hi + pv.h[j]);
      if (r2 >= T(4) * hij * hij) return;
      const T F = model.kernel.at(hij).F(sqrt(r2));
      const T w = -pv.m[j] / pv.rho[j] * F;
      for (int a = 0; a < D; ++a)
        for (int b = 0; b < D; ++b) M[a][b] += w * xij[a] * xij[b];
    });
    Vec<T, D * D> L;
    for (int k = 0; k < D * D; ++k) L[k] = (k % (D + 1) == 0) ? T(1) : T(0);
    if (D == 1) {
      if (M[0][0] > T(1e-6)) L[0] = T(1) / M[0][0];
    } else if (D == 2) {
      const T det = M[0][0] * M[1][1] - M[0][1] * M[1][0];
      const T sc = M[0][0] * M[1][1];
      if (det > T(1e-6) * (sc > T(0) ? sc : -sc) && det > T(0)) {
        L[0] = M[1][1] / det, L[1] = -M[0][1] / det, L[2] = -M[1][0] / det, L[3] = M[0][0] / det;
      }
    } else {
      const T c00 = M[1][1] * M[2][2] - M[1][2] * M[2][1], c01 = M[1][2] * M[2][0] - M[1][0] * M[2][2],
              c02 = M[1][0] * M[2][1] - M[1][1] * M[2][0];
      const T det = M[0][0] * c00 + M[0][1] * c01 + M[0][2] * c02;
      const T sc = M[0][0] * M[1][1] * M[2][2];
      if (det > T(1e-6) * (sc > T(0) ? sc : -sc) && det > T(0)) {
        const T id = T(1) / det;
        L[0] = c00 * id, L[1] = (M[0][2] * M[2][1] - M[0][1] * M[2][2]) * id,
        L[2] = (M[0][1] * M[1][2] - M[0][2] * M[1][1]) * id;
        L[3] = c01 * id, L[4] = (M[0][0] * M[2][2] - M[0][2] * M[2][0]) * id,
        L[5] = (M[0][2] * M[1][0] - M[0][0] * M[1][2]) * id;
        L[6] = c02 * id, L[7] = (M[0][1] * M[2][0] - M[0][0] * M[2][1]) * id,
        L[8] = (M[0][0] * M[1][1] - M[0][1] * M[1][0]) * id;
      }
    }
    pv.L[i] = L;
  }
};

// GPU cost notes: the pair tensor sigma_i/rho_i^2 + sigma_j/rho_j^2 - Pi I + f^n (R_i + R_j) is built
// once per symmetric component (N = D(D+1)/2, not D^2) with one reciprocal of rho_j^2 instead of a
// division per component, and folded into the force at once (no pair tensor held); the kernel-gradient correction is applied once after
// the loop (grad v is linear in it: sum_j w_j v_ij (M^-T x_ij) = (sum_j w_j v_ij x_ij) M^-1), and
// f_ij = W(r)/W(dp) uses the dimensionless shape (the normalisation cancels; no second kernel at
// h_ij). Each changes the results by round-off only.

// M^-T x (L = M^-1 row-major): the corrected direction of grad W = F x.
template <class T, int D>
EJ_INLINE Vec<T, D> solid_corrected_dir(const Vec<T, D * D>& L, const Vec<T, D>& x) {
  Vec<T, D> g;
  for (int b = 0; b < D; ++b) {
    T sb = T(0);
    for (int d = 0; d < D; ++d) sb += L[d * D + b] * x[d];
    g[b] = sb;
  }
  return g;
}

template <class T, int D, bool Phased = false>
struct SolidForces {
  SolidModel<T, D> model;
  LevelGrid<T, D> grid;
  SolidView<T, D> pv;

  EJ_INLINE void operator()(std::size_t i) const {
    using S = SymIndex<D>;
    constexpr int N = S::N;
    const Vec<T, D> xi = pv.x[i], vi = pv.v[i];
    const T hi = pv.h[i], rhoi = pv.rho[i], ci = pv.c[i], pi = pv.p[i];
    const SymTensor<T, D> Si = pv.S[i];               // stored (undamaged): the Jaumann rotation acts on it
    const T keep_i = T(1) - solid_damage_of(pv, i);  // carried stress (1 - D) S (p is damaged already)
    const T irhoi2 = T(1) / (rhoi * rhoi);
    SymTensor<T, D> Ai;  // sigma_i / rho_i^2
    for (int k = 0; k < N; ++k) Ai[k] = (keep_i * Si[k] - (k < D ? pi : T(0))) * irhoi2;
    // f_ij = W(r; h_ij) / W(dp_ij; h_ij) with dp_ij = h_ij / h_over_dp: the ratio of the dimensionless
    // shapes w(q) / w(1 / h_over_dp), evaluated through the kernel at h = 1.
    const SmoothingKernel<T, D> unit = model.kernel.at(T(1));
    const T inv_wdp = pv.R ? T(1) / unit.W(T(1) / model.h_over_dp) : T(0);
    Vec<T, D> acc = Vec<T, D>::zero();
    T grad[D][D];  // sum_j w_j v_ij^a x_ij^b (the correction M^-1 is applied after the loop)
    for (int a = 0; a < D; ++a)
      for (int b = 0; b < D; ++b) grad[a][b] = T(0);
    T work = 0, visc = 0, art = 0, vsig_max = T(2) * ci;
    grid.for_each_neighbor(xi, pv.x, T(2) * hi, true, [&](uint32_t j, const Vec<T, D>& xij, T r2) {
      if (j == i) return;
      if constexpr (Phased) {
        if (pv.phase[j] != kPhaseSolid) return;  // a mixed store: other models' pairs are the coupling's
      }
      const T hj = pv.h[j];
      const T hij = T(0.5) * (hi + hj);
      if (r2 >= T(4) * hij * hij) return;
      const SmoothingKernel<T, D> k = model.kernel.at(hij);
      const T r = sqrt(r2);
      const T F = k.F(r);
      const T mj = pv.m[j], rhoj = pv.rho[j], pj = pv.p[j];
      const T cj = pv.c[j];
      const T keep_j = T(1) - solid_damage_of(pv, j);
      const Vec<T, D> vij = vi - pv.v[j];
      const T vx = dot(vij, xij);
      T Pi = T(0);
      if (vx < T(0)) {
        const T muij = hij * vx / (r2 + T(0.01) * hij * hij);
        const T cij = T(0.5) * (ci + cj);
        Pi = (-model.alpha * cij * muij + model.beta * muij * muij) / (T(0.5) * (rhoi + rhoj));
        const T vs = ci + cj - model.beta * (r > T(0) ? vx / r : T(0));
        if (vs > vsig_max) vsig_max = vs;
      }
      const T irhoj2 = T(1) / (rhoj * rhoj);
      T fn = T(0);
      if (pv.R) {
        const T f = unit.W(r * k.inv_h) * inv_wdp;
        const T f2 = f * f;
        fn = f2 * f2;
      }
      // s^a = sum_b tab^ab x_ij^b, each symmetric component tab^c (c = ab) computed once and used
      // for both (a, b) and (b, a); R_i is re-read per pair (an L1 hit) rather than held in registers.
      // The artificial stress's work, sum_ab v_ij^a R^ab x_ij^b, is gathered the same way.
      Vec<T, D> sv = Vec<T, D>::zero();
      if (model.correct_force) {
        // Corrected force (Bonet & Lok 1999, CMAME 180, 97, sec. 4): sigma_i/rho_i^2 pairs with
        // M_i^-T grad W (times rho_i/rho_j) and sigma_j/rho_j^2 with M_j^-T grad W (times rho_j/rho_i),
        // the transpose of the corrected strain rate; viscosity and artificial stress stay as they are.
        const Vec<T, D> gi = solid_corrected_dir<T, D>(pv.L[i], xij), gj = solid_corrected_dir<T, D>(pv.L[j], xij);
        const T fi = rhoi / rhoj, fj = rhoj / rhoi;
        const SymTensor<T, D> Sj = pv.S[j];
        for (int c = 0; c < N; ++c) {
          const T ai = fi * Ai[c], aj = fj * (keep_j * Sj[c] - (c < D ? pj : T(0))) * irhoj2;
          T t = c < D ? -Pi : T(0);
          T rc = T(0);
          if (pv.R) {
            rc = fn * (pv.R[i][c] + pv.R[j][c]);
            t += rc;
          }
          if (c < D) {
            sv[c] += t * xij[c] + ai * gi[c] + aj * gj[c];
            art += mj * F * rc * vij[c] * xij[c];
          } else if constexpr (D > 1) {
            const int a = D == 2 ? 0 : (c == 5 ? 1 : 0), b = D == 2 ? 1 : (c == 3 ? 1 : 2);
            sv[a] += t * xij[b] + ai * gi[b] + aj * gj[b];
            sv[b] += t * xij[a] + ai * gi[a] + aj * gj[a];
            art += mj * F * rc * (vij[a] * xij[b] + vij[b] * xij[a]);
          }
        }
      } else {
        const SymTensor<T, D> Sj = pv.S[j];
        for (int c = 0; c < N; ++c) {
          T t = Ai[c] + (keep_j * Sj[c] - (c < D ? pj : T(0))) * irhoj2;
          if (c < D) t -= Pi;
          T rc = T(0);
          if (pv.R) {
            rc = fn * (pv.R[i][c] + pv.R[j][c]);
            t += rc;
          }
          if (c < D) {
            sv[c] += t * xij[c];
            art += mj * F * rc * vij[c] * xij[c];
          } else if constexpr (D > 1) {  // off-diagonal slot c = (a, b): 2D xy (2); 3D xy, xz, yz (3, 4, 5)
            const int a = D == 2 ? 0 : (c == 5 ? 1 : 0), b = D == 2 ? 1 : (c == 3 ? 1 : 2);
            sv[a] += t * xij[b];
            sv[b] += t * xij[a];
            art += mj * F * rc * (vij[a] * xij[b] + vij[b] * xij[a]);
          }
        }
      }
      const T mF = mj * F;
      for (int a = 0; a < D; ++a) acc[a] += mF * sv[a];
      work += mF * vx;
      visc += T(0.5) * mF * Pi * vx;
      const T wj = -mF * rhoj * irhoj2;  // -m_j F / rho_j without a second division
      for (int a = 0; a < D; ++a)
        for (int b = 0; b < D; ++b) grad[a][b] += wj * vij[a] * xij[b];
    });
    if (pv.L) {  // grad v = (sum_j w_j v_ij x_ij^T) M^-1, i.e. each pair with M^-T x_ij
      const Vec<T, D * D> L = pv.L[i];
      for (int a = 0; a < D; ++a) {
        T row[D];
        for (int b = 0; b < D; ++b) {
          T sb = T(0);
          for (int d = 0; d < D; ++d) sb += grad[a][d] * L[d * D + b];
          row[b] = sb;
        }
        for (int b = 0; b < D; ++b) grad[a][b] = row[b];
      }
    }
    const SolidMaterial<T>& mt = model.mat[pv.mat[i]];
    T eps[D][D], om[D][D];
    T tr = T(0);
    for (int a = 0; a < D; ++a) {
      for (int b = 0; b < D; ++b) {
        eps[a][b] = T(0.5) * (grad[a][b] + grad[b][a]);
        om[a][b] = T(0.5) * (grad[a][b] - grad[b][a]);
      }
      tr += grad[a][a];
    }
    T sfull[D][D];
    for (int a = 0; a < D; ++a)
      for (int b = 0; b < D; ++b) sfull[a][b] = Si[S::of(a, b)];
    // Plane stress (2D, model.plane_stress): eps_zz follows from d sigma_zz/dt = 0 with sigma_zz =
    // -p - S_xx - S_yy: dp/dt = rho c_eos^2 tr3 and d(S_xx + S_yy)/dt = 2 mu (tr - 2/3 tr3) (the
    // Jaumann terms cancel in the in-plane trace) give tr3 = 2 mu tr / (rho c_l^2), rho c_l^2 =
    // K + 4/3 mu, the three-dimensional volumetric rate; linear elastic: eps_zz = -lambda/(lambda +
    // 2 mu) tr. Plane strain: tr3 = tr.
    const T fz = (D == 2 && model.plane_stress) ? T(2) * mt.mu / (rhoi * ci * ci) : T(1);
    const T tr3 = fz * tr;
    T seps = T(0);
    for (int a = 0; a < D; ++a)  // work of the carried deviatoric stress (1 - D) S
      for (int b = 0; b < D; ++b) seps += keep_i * sfull[a][b] * eps[a][b];
    if (D == 2 && model.plane_stress)  // S_zz eps_zz
      seps -= keep_i * (sfull[0][0] + sfull[D - 1][D - 1]) * (tr3 - tr);
    // Prescribed particles (kind 1: clamps, grips) keep their velocity; their stress still evolves.
    pv.a[i] = pv.kind[i] ? Vec<T, D>::zero() : acc + model.gravity;
    const T drho = pv.L ? -rhoi * tr3 : fz * work;  // corrected: -rho div v with the corrected gradient
    pv.drho[i] = drho;
    // The artificial stress does work like the pair term it adds to the momentum equation: -1/2 its
    // share, as for the viscosity, so that kinetic + internal energy is conserved (the energy equation
    // of Monaghan 2000 carries the artificial pressure term the same way).
    // With the corrected force the pressure work is that of the corrected divergence, -p tr3 / rho,
    // the transpose of the force (kinetic + internal energy then balance pair by pair).
    const T pwork = model.correct_force ? -pi * tr3 / rhoi : pi / (rhoi * rhoi) * fz * work;
    const T du = pwork + visc - T(0.5) * art + seps / rhoi;
    pv.du[i] = du;
    // Porosity: the rates of the distention and compaction strain from drho/dt and du/dt, and the
    // deviatoric factor f (porous_model.h, (P3), (P4), (E2)); the Hooke term below uses f mu.
    T mu = mt.mu;
    if (pv.por.alpha) {
      const T alpha = pv.por.alpha[i];
      T dps_drho, dps_du;
      mt.derivatives(alpha * rhoi, pv.u[i], dps_drho, dps_du);
      mu *= porous_rates(mt.porous, pv.por, i, rhoi, pi, dps_drho, dps_du, drho, du);
    }
    SymTensor<T, D> dS;
    for (int a = 0; a < D; ++a)
      for (int b = a; b < D; ++b) {
        T rot = T(0);
        for (int c = 0; c < D; ++c) rot += sfull[a][c] * om[b][c] + om[a][c] * sfull[c][b];
        dS[S::of(a, b)] = T(2) * mu * (eps[a][b] - (a == b ? tr3 / T(3) : T(0))) + rot;
      }
    if (!(mt.mu > T(0)))
      for (int k = 0; k < S::N; ++k) dS[k] = T(0);
    pv.dS[i] = dS;
    pv.vsig[i] = vsig_max;
  }
};

// The plastic limit, after every integrator stage: S -> f S with f = min(1, Y / sqrt(3 J2)).
// Y: von Mises Y0, or Lundborg Y(p, D) with its damaged branch (Collins, Melosh & Ivanov 2004, MAPS
// 39, 217, sec. 3; p the damaged pressure); times the melt factor tanh(xi (T_m/T - 1)) where the
// material has melt.T_melt, melt.xi, with T = T_ref + u / c_v.
// Equivalent plastic strain of the return (Wilkins 1964, Methods Comput. Phys. 3, 211): a trial
// stress sqrt(3 J2) beyond Y flows plastically by d eps_p = (sqrt(3 J2) - Y) / (3 mu)
// = (1 - f) sqrt(3 J2) / (3 mu). Every stage of every scheme starts the step from the state at its
// start (the returned S_n; see staged_integrators.h), so the step's plastic increment is that of the
// stage's return: eps_p = eps_p(step start) + d eps_p, the last stage's value standing (a rejected
// RK23 step is then forgotten with it).
template <class T, int D>
struct SolidYieldLimit {
  SolidModel<T, D> model;
  SolidView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const {
    const SolidMaterial<T>& mt = model.mat[pv.mat[i]];
    if (mt.yield == kSolidNoLimit) return;
    const T dmg = solid_damage_of(pv, i);
    T Y = mt.Y0;
    if (mt.yield == kSolidLundborg) Y = mt.lundborg.yield(damaged_pressure(solid_pressure_of(mt, pv, i), dmg), dmg);
    if (mt.melt) Y *= melt_weakening_factor(model.T_ref + pv.u[i] / mt.cv, mt.t_melt, mt.melt_xi);
    const T j2 = solid_j2<T, D>(pv.S[i]);
    const T f = von_mises_return_factor(j2, Y);
    if (f < T(1))
      for (int k = 0; k < SymIndex<D>::N; ++k) pv.S[i][k] *= f;
    if (pv.eps_p)
      pv.eps_p[i] = pv.eps_p_step[i] + (f < T(1) && mt.mu > T(0) ? (T(1) - f) * sqrt(T(3) * j2) / (T(3) * mt.mu) : T(0));
  }
};

// The porosity term after every state update (porous_model.h, (E3) and alpha >= 1).
template <class T, int D>
struct SolidPorousAfterStage {
  SolidModel<T, D> model;
  SolidView<T, D> pv;
  EJ_INLINE void operator()(std::size_t i) const { porous_after_stage(model.mat[pv.mat[i]].porous, pv.por, i); }
};

template <class T>
using SolidExtremes = RateExtremes<T>;  // min_decay unused (no decay limit for solids)
template <class T>
using CombineSolidExtremes = CombineRateExtremes<T>;

// CFL dt <= C h / v_sig with v_sig >= 2 c_l (c_l the longitudinal speed), force dt <= f sqrt(h/|a|).
template <class T, int D>
struct MeasureSolidExtremes {
  SolidView<T, D> pv;
  EJ_INLINE static SolidExtremes<T> none() { return SolidExtremes<T>::none(); }
  EJ_INLINE SolidExtremes<T> operator()(std::size_t i) const {
    SolidExtremes<T> e = none();
    uint32_t bad = first_bad_motion_field<T, D>(pv.x[i], pv.v[i], pv.a[i]);
    if (bad == kBadNone && !(pv.rho[i] > T(0) && isfinite(pv.rho[i]))) bad = kBadDensity;
    if (bad != kBadNone) {
      e.bad_index = static_cast<uint32_t>(i);
      e.bad_field = bad;
      return e;
    }
    if (pv.vsig[i] > T(0)) e.min_h_vsig = pv.h[i] / pv.vsig[i];
    const T a2 = norm2(pv.a[i]);
    if (a2 > T(0)) e.min_h_a = pv.h[i] / sqrt(a2);
    e.max_v2 = norm2(pv.v[i]);
    return e;
  }
};

// Mass, momenta and energies of one solid particle, as for the gas.
template <class T, int D>
using MeasureSolidSums = MeasureMotionEnergySums<T, D, SolidView<T, D>>;

}  // namespace ejecta
