#pragma once
// The solid's terms in a mixed scene (model solid; the solid model's own functors of
// physics/solid_model.h, masked to the solid particles by OnPhase; their pair sums skip the other
// phases). Registered by register_solid_terms. The yield limit runs after every integrator stage, not
// in the list (MixedSolver::after_stage).
#include "physics/coupling_adami2012.h"
#include "physics/solid_model.h"
#include "solver/term_registry.h"

namespace ejecta {

// The material's EOS (Tillotson 1962 or Murnaghan), the damaged pressure (Benz & Asphaug 1994, Icarus
// 107, 98, sec. 3.2), the longitudinal sound speed and the artificial stress (Monaghan 2000).
struct Term_EosSolid_BenzAsphaug1994 {
  static TermInfo info() {
    return {"eos_solid_benz_asphaug1994", "solid", TermStage::State,
            "solid EOS (Tillotson, Murnaghan), damaged pressure (Benz & Asphaug 1994 sec. 3.2), longitudinal speed, "
            "artificial stress (Monaghan 2000)",
            {"density", "internal_energy", "deviatoric_stress", "material", "phase"},
            {"pressure", "sound_speed"}, {"solid.artificial_stress", "solid.materials"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    return [&c] {
      c.exec.for_each(c.n, OnPhase<SolidEosPass<T, C::D>>{{c.solid, c.pv.s}, c.pv.s.phase, kPhaseSolid});
    };
  }
};

// Kernel-gradient correction M^-1 (Randles & Libersky 1996, CMAME 139, 375; Bonet & Lok 1999).
struct Term_Correction_RandlesLibersky1996 {
  static TermInfo info() {
    return {"correction_randles_libersky1996", "solid", TermStage::State,
            "kernel-gradient correction (Randles & Libersky 1996; Bonet & Lok 1999)",
            {"position", "mass", "density", "smoothing_length", "phase"}, {"gradient_correction"},
            {"solid.gradient_correction"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    return [&c] {
      c.exec.for_each_balanced(c.n, OnPhase<SolidCorrection<T, C::D, true>>{{c.solid, c.grid, c.pv.s}, c.pv.s.phase,
                                                                             kPhaseSolid});
    };
  }
};

// Momentum, continuity, energy and Hooke's law with the Jaumann rate (Gray, Monaghan & Swift 2001,
// CMAME 190, 6641, eq. 2.5, 2.7).
struct Term_ForcesSolid_Gray2001 {
  static TermInfo info() {
    return {"forces_solid_gray2001", "solid", TermStage::Forces,
            "Gray, Monaghan & Swift 2001 eq. 2.5, 2.7 (solid_model.h)",
            {"position", "velocity", "density", "pressure", "sound_speed", "deviatoric_stress", "mass",
             "smoothing_length", "material", "kind", "phase"},
            {"acceleration", "density_rate", "energy_rate", "stress_rate", "signal_speed"},
            {"viscosity.solid.alpha", "viscosity.solid.beta", "solid.plane", "solid.corrected_force", "physics.gravity"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    return [&c] {
      c.exec.for_each_balanced(c.n, OnPhase<SolidForces<T, C::D, true>>{{c.solid, c.grid, c.pv.s}, c.pv.s.phase,
                                                                         kPhaseSolid});
    };
  }
};

template <class Ctx>
void register_solid_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_EosSolid_BenzAsphaug1994>();
  r.template add<Term_Correction_RandlesLibersky1996>();
  r.template add<Term_ForcesSolid_Gray2001>();
}

}  // namespace ejecta
