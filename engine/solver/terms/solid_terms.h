#pragma once
// The solid's terms (model solid; the solid model's own functors of physics/solid_model.h), in the
// solid solver (physics.model = solid, porous materials included) and in a mixed store. In a mixed store
// (the context's `phased`) they are masked to the solid particles by OnPhase and their pair sums skip
// the other phases; in the solid solver they run over every particle, the functors compiled without
// the phase test (Phased = false). Porosity (physics/porous_model.h) and damage enter the same
// passes through the view's optional fields. Registered by register_solid_terms. The yield limit
// (and the porosity's return to alpha >= 1) runs after every integrator stage, not in the list
// (after_stage of the solvers).
#include "physics/coupling_adami2012.h"
#include "physics/solid_model.h"
#include "solver/term_registry.h"

namespace ejecta {

// The solid's optional fields: porosity (p-alpha, eps-alpha), Grady-Kipp damage, a mixed store's phase.
inline std::vector<std::string> solid_optional_fields() {
  return {"phase", "distention", "distention_rate", "compaction_work_rate", "compaction_strain",
          "compaction_strain_rate", "compaction_damage", "porosity", "damage"};
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
    if constexpr (C::phased)
      return [&c] {
        c.exec.for_each(c.n, OnPhase<SolidEosPass<T, C::D>>{{c.solid, c.sv}, c.sv.phase, kPhaseSolid});
      };
    else
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
    using T = typename C::T;
    if constexpr (C::phased)
      return [&c] {
        c.exec.for_each_balanced(c.n, OnPhase<SolidCorrection<T, C::D, true>>{{c.solid, c.grid, c.sv}, c.sv.phase,
                                                                               kPhaseSolid});
      };
    else
      return [&c] { c.exec.for_each_balanced(c.n, SolidCorrection<T, C::D>{c.solid, c.grid, c.sv}); };
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
    using T = typename C::T;
    if constexpr (C::phased)
      return [&c] {
        c.exec.for_each_balanced(c.n, OnPhase<SolidForces<T, C::D, true>>{{c.solid, c.grid, c.sv}, c.sv.phase,
                                                                           kPhaseSolid});
      };
    else
      return [&c] { c.exec.for_each_balanced(c.n, SolidForces<T, C::D>{c.solid, c.grid, c.sv}); };
  }
};

template <class Ctx>
void register_solid_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_EosSolid_BenzAsphaug1994>();
  r.template add<Term_Correction_RandlesLibersky1996>();
  r.template add<Term_ForcesSolid_Gray2001>();
}

}  // namespace ejecta
