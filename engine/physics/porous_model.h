#pragma once
// The porosity term of the solid model: its per-material constants, its fields and what it adds to
// the solid solver's passes (docs/physics.md, "Porous solids"). One term, two compaction models:
// p-alpha (porous_palpha.h) and epsilon-alpha (porous_epsalpha.h). Hooks, in pass order:
//  - EOS pass: the matrix EOS at rho_s = alpha rho, P = P_s / alpha (P1), the sound speed (P5), and
//    the compaction damage D_alpha (P6) and porosity 1 - 1/alpha of each particle (porous_eos()).
//  - force pass, after drho/dt and du/dt: the rates of alpha (P3), of the compaction strain (E2) and
//    of the compaction work, and the deviatoric factor (P4) (porous_rates()).
//  - after every state update of the integrator: (E3) for epsilon-alpha, alpha >= 1 for both
//    (porous_after_stage()).
// Fields (the solver registers them only when a material of the scene is porous): distention alpha
// (integrated), compaction_strain eps_c (integrated, epsilon-alpha), compaction_work (integrated:
// the work of pore collapse, -P dalpha/dt / (alpha rho) per unit mass, J/kg), porosity 1 - 1/alpha and
// compaction_damage D_alpha (derived). A material without porosity, or with alpha_0 = 1, computes
// exactly what the non-porous solid computes (x * 1, x / 1 and x + 0 are exact).
#include "core/hd.h"
#include "exec/device_ptr.h"
#include "physics/porous_epsalpha.h"
#include "physics/porous_palpha.h"

#include <cstddef>

namespace ejecta {

enum PorousKind : int { kPorousNone = 0, kPorousPAlpha = 1, kPorousEpsAlpha = 2 };

template <class T>
struct PorousMaterial {
  int kind = kPorousNone;  // PorousKind
  T alpha0 = T(1);         // initial distention
  PAlphaCrush<T> palpha{};  // kind p_alpha
  T c_e = T(0);             // p_alpha: porous sound speed at alpha_e (0: the matrix's)
  EpsAlphaCrush<T> eps{};   // kind eps_alpha

  template <class U>
  PorousMaterial<U> cast() const {
    PorousMaterial<U> p;
    p.kind = kind;
    p.alpha0 = U(alpha0);
    p.palpha = PAlphaCrush<U>{U(palpha.alpha_e), U(palpha.P_e), U(palpha.P_s)};
    p.c_e = U(c_e);
    p.eps = EpsAlphaCrush<U>{U(eps.alpha0), U(eps.kappa), U(eps.eps_e), U(eps.eps_X),
                             U(eps.alpha_X), U(eps.eps_C), U(eps.thermal)};
    return p;
  }
};

// The term's fields; every pointer is nullptr when the scene has no porous material (and eps_c when
// it has no epsilon-alpha material, damage when it has no p-alpha one).
template <class T>
struct PorousView {
  DevicePtr<T> alpha = nullptr;   // distention (integrated)
  DevicePtr<T> dalpha = nullptr;  // its rate
  DevicePtr<T> eps = nullptr;     // compaction strain eps_c (integrated)
  DevicePtr<T> deps = nullptr;
  DevicePtr<T> work = nullptr;    // compaction work per unit mass (integrated)
  DevicePtr<T> dwork = nullptr;
  DevicePtr<T> porosity = nullptr;  // 1 - 1/alpha (derived)
  DevicePtr<T> damage = nullptr;    // D_alpha (derived, p-alpha)
};

template <class T>
EJ_INLINE T porous_alpha_of(const PorousView<T>& v, std::size_t i) {
  return v.alpha ? v.alpha[i] : T(1);
}

// EOS-pass hook: (P6) and the porosity of particle i.
template <class T>
EJ_INLINE void porous_eos(const PorousMaterial<T>& pm, const PorousView<T>& v, std::size_t i) {
  if (!v.alpha) return;
  const T a = v.alpha[i];
  v.porosity[i] = T(1) - T(1) / a;
  if (v.damage) v.damage[i] = pm.kind == kPorousPAlpha ? palpha_damage(a, pm.alpha0) : T(0);
}

// (P5) for p-alpha; the matrix's c_s otherwise.
template <class T>
EJ_INLINE T porous_sound_speed(const PorousMaterial<T>& pm, T c_s, T alpha) {
  return pm.kind == kPorousPAlpha ? palpha_sound_speed(c_s, pm.c_e, alpha, pm.palpha.alpha_e) : c_s;
}

// Force-pass hook: the rates of particle i from this evaluation's drho/dt and du/dt (bulk density rho,
// bulk pressure P, matrix EOS derivatives at rho_s = alpha rho); returns the deviatoric factor (P4).
template <class T>
EJ_INLINE T porous_rates(const PorousMaterial<T>& pm, const PorousView<T>& v, std::size_t i, T rho, T P,
                         T dPs_drhos, T dPs_du, T drho, T du) {
  const T a = v.alpha[i];
  T da = T(0), f = T(1);
  if (pm.kind == kPorousPAlpha) {
    da = palpha_rate(pm.palpha, a, rho, P, dPs_drhos, dPs_du, drho, du);
    f = palpha_deviatoric_factor(pm.palpha, a, rho, P, dPs_drhos, dPs_du);
  }
  if (v.eps) {
    const T de = pm.kind == kPorousEpsAlpha ? pm.eps.strain_rate(rho, drho, du) : T(0);
    v.deps[i] = de;
    // alpha itself follows (E3) after each stage; its rate here is that of the curve, for the work.
    if (pm.kind == kPorousEpsAlpha && de < T(0) && !(pm.eps.alpha(v.eps[i]) > a)) da = pm.eps.dalpha_deps(v.eps[i]) * de;
  }
  v.dalpha[i] = pm.kind == kPorousEpsAlpha ? T(0) : da;
  v.dwork[i] = -P * da / (a * rho);
  return f;
}

// After every state update: (E3) for epsilon-alpha and alpha >= 1 (exact) for every porous particle.
template <class T>
EJ_INLINE void porous_after_stage(const PorousMaterial<T>& pm, const PorousView<T>& v, std::size_t i) {
  T a = v.alpha[i];
  if (pm.kind == kPorousEpsAlpha) a = epsalpha_update(pm.eps, a, v.eps[i]);
  v.alpha[i] = a > T(1) ? a : T(1);
}

}  // namespace ejecta
