#pragma once
// The solid's terms (model solid; the solid model's own functors of physics/solid_model.h), in the
// general store (solver/store_solver.h: solids alone, porous materials included, or a store of several
// models). In a store of several models (the context's `phased`) they are masked to the solid
// particles by OnPhase and their pair sums skip the other phases; with solids alone they run over
// every particle, the functors compiled without the phase test (Phased = false). Porosity
// (physics/porous_model.h) and damage enter the same passes through the view's optional fields. Registered by register_solid_terms. The integrator's
// hooks are terms too, of stages after_stage (the porosity's return to alpha >= 1, the yield limit)
// and after_step (damage), in the solvers' hook recipes (solid_hook_recipes), run by run_hooks.
#include "physics/coupling_adami2012.h"
#include "physics/solid_damage.h"
#include "physics/solid_model.h"
#include "solver/term_registry.h"

namespace ejecta {

// The solid's optional fields: porosity (p-alpha, eps-alpha), Grady-Kipp damage, a mixed store's phase.
inline std::vector<std::string> solid_optional_fields() {
  return {"phase", "distention", "distention_rate", "compaction_work_rate", "compaction_strain",
          "compaction_strain_rate", "compaction_damage", "porosity", "damage"};
}

// A solid neighbour pass F<T, D, Phased> over the solid particles, load-balanced: in a store of several
// models (the context's `phased`, known when the term is bound) only the particles of phase solid
// (OnPhase), else every particle.
template <template <class, int, bool> class F, class C>
std::function<void()> bind_solid_pass(C& c) {
  using T = typename C::T;
  if (c.phased)
    return [&c] {
      c.exec.for_each_balanced(c.n, OnPhase<F<T, C::D, true>>{{c.solid, c.grid, c.sv}, c.sv.phase, kPhaseSolid});
    };
  return [&c] { c.exec.for_each_balanced(c.n, F<T, C::D, false>{c.solid, c.grid, c.sv}); };
}

// The material's EOS (Tillotson 1962 or Murnaghan; with pores at the matrix density alpha rho), the
// damaged pressure (Benz & Asphaug 1994, Icarus 107, 98, sec. 3.2), the longitudinal sound speed and
// the artificial stress (Monaghan 2000).
struct Term_EosSolid_BenzAsphaug1994 {
  static constexpr unsigned needs = kTermNeedsSolid;
  static TermInfo info() {
    return {"eos_solid_benz_asphaug1994", "solid", TermStage::State,
            "solid EOS (Tillotson, Murnaghan; porous: P_s(alpha rho) / alpha, porous_model.h P1, P5, P6), damaged pressure "
            "(Benz & Asphaug 1994 sec. 3.2), longitudinal speed, artificial stress (Monaghan 2000)",
            {"density", "internal_energy", "deviatoric_stress", "material"},
            {"pressure", "sound_speed"}, {"solid.artificial_stress", "solid.materials"},
            solid_optional_fields()};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    if (c.phased)
      return [&c] {
        c.exec.for_each(c.n, OnPhase<SolidEosPass<T, C::D>>{{c.solid, c.sv}, c.sv.phase, kPhaseSolid});
      };
    return [&c] { c.exec.for_each(c.n, SolidEosPass<T, C::D>{c.solid, c.sv}); };
  }
};

// Kernel-gradient correction M^-1 (Randles & Libersky 1996, CMAME 139, 375; Bonet & Lok 1999).
struct Term_Correction_RandlesLibersky1996 {
  static constexpr unsigned needs = kTermNeedsSolid;
  static TermInfo info() {
    return {"correction_randles_libersky1996", "solid", TermStage::State,
            "kernel-gradient correction (Randles & Libersky 1996; Bonet & Lok 1999)",
            {"position", "mass", "density", "smoothing_length"}, {"gradient_correction"},
            {"solid.gradient_correction"}, {"phase"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return bind_solid_pass<SolidCorrection>(c);
  }
};

// Momentum, continuity, energy and Hooke's law with the Jaumann rate (Gray, Monaghan & Swift 2001,
// CMAME 190, 6641, eq. 2.5, 2.7); with pores the distention's rate (porous_model.h).
struct Term_ForcesSolid_Gray2001 {
  static constexpr unsigned needs = kTermNeedsSolid;
  static TermInfo info() {
    return {"forces_solid_gray2001", "solid", TermStage::Forces,
            "Gray, Monaghan & Swift 2001 eq. 2.5, 2.7 (solid_model.h); porous: the distention rate (porous_model.h)",
            {"position", "velocity", "density", "pressure", "sound_speed", "deviatoric_stress", "mass",
             "smoothing_length", "material", "kind"},
            {"acceleration", "density_rate", "energy_rate", "stress_rate", "signal_speed"},
            {"viscosity.solid.alpha", "viscosity.solid.beta", "solid.plane", "solid.corrected_force", "physics.gravity"},
            solid_optional_fields()};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return bind_solid_pass<SolidForces>(c);
  }
};

// After every state update, porous materials: (E3) of epsilon-alpha (Wuennemann, Collins & Melosh
// 2006; Collins, Melosh & Wuennemann 2011) and alpha >= 1 for every porous particle (porous_model.h).
struct Term_DistentionReturn_Wuennemann2006 {
  static constexpr unsigned needs = kTermNeedsSolid;
  static TermInfo info() {
    return {"distention_return_wuennemann2006", "solid", TermStage::AfterStage,
            "alpha = max(1, min(alpha, alpha(eps_c))) (Wuennemann et al. 2006 eq. 6-8, Collins et al. 2011 eq. 5; "
            "porous_model.h (E3)); p-alpha: alpha >= 1",
            {"distention", "material"}, {"distention"}, {"solid.materials"}, {"compaction_strain", "phase"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    if (c.phased)
      return [&c] {
        c.exec.for_each(c.n, OnPhase<SolidPorousAfterStage<T, C::D>>{{c.solid, c.sv}, c.sv.phase, kPhaseSolid});
      };
    return [&c] { c.exec.for_each(c.n, SolidPorousAfterStage<T, C::D>{c.solid, c.sv}); };
  }
};

// After every state update: the plastic limit S -> min(1, Y / sqrt(3 J2)) S, Y von Mises or Lundborg
// with its damaged branch (Collins, Melosh & Ivanov 2004, MAPS 39, 217, sec. 3), the melt factor, and
// the plastic strain of the radial return (Wilkins 1964) (solid_model.h, SolidYieldLimit).
struct Term_YieldLimit_Collins2004 {
  static constexpr unsigned needs = kTermNeedsSolid;
  static TermInfo info() {
    return {"yield_limit_collins2004", "solid", TermStage::AfterStage,
            "von Mises or Lundborg yield with the damaged branch (Collins, Melosh & Ivanov 2004 sec. 3), melt factor, "
            "radial return (Wilkins 1964)",
            {"deviatoric_stress", "pressure", "internal_energy", "material"},
            {"deviatoric_stress", "plastic_strain"}, {"solid.materials", "solid.reference_temperature"},
            {"damage", "plastic_strain_step_start", "phase"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    if (c.phased)
      return [&c] {
        c.exec.for_each(c.n, OnPhase<SolidYieldLimit<T, C::D>>{{c.solid, c.sv}, c.sv.phase, kPhaseSolid});
      };
    return [&c] { c.exec.for_each(c.n, SolidYieldLimit<T, C::D>{c.solid, c.sv}); };
  }
};

// Once per accepted step: Grady-Kipp tensile damage from the Weibull flaws (Benz & Asphaug 1994,
// Icarus 107, 98; physics/solid_damage.h), with the step taken; rejected RK23 tries never touch it.
struct Term_Damage_BenzAsphaug1994 {
  static constexpr unsigned needs = kTermNeedsSolid | kTermNeedsDamage;
  static TermInfo info() {
    return {"damage_benz_asphaug1994", "solid", TermStage::AfterStep,
            "Grady-Kipp damage growth dD^(1/3)/dt = c_g / R_s from the active Weibull flaws (Benz & Asphaug 1994)",
            {"deviatoric_stress", "pressure", "id", "material"}, {"damage", "active_flaws"},
            {"solid.damage", "solid.damage_seed"}, {}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    return [&c] {
      c.exec.for_each(c.n, SolidDamageAdvance<T, C::D>{c.solid, c.sv, c.id, c.flaw_offset.device(),
                                                       c.flaw_strain.device(), c.active_flaws, c.dt_taken});
    };
  }
};

template <class Ctx>
void register_solid_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_EosSolid_BenzAsphaug1994>();
  r.template add<Term_Correction_RandlesLibersky1996>();
  r.template add<Term_ForcesSolid_Gray2001>();
  r.template add<Term_DistentionReturn_Wuennemann2006>();
  r.template add<Term_YieldLimit_Collins2004>();
  r.template add<Term_Damage_BenzAsphaug1994>();
}

}  // namespace ejecta
