#pragma once
// The liquid's terms (model liquid). In a mixed scene (physics/coupling_adami2012.h): the Tait EOS and
// the Monaghan (1992) momentum, continuity and delta-SPH pass; the liquid alone (physics.model = wcsph)
// runs its uniform-h variants (terms/liquid_uniform_terms.h). Registered by register_liquid_terms.
#include "physics/coupling_adami2012.h"
#include "solver/term_registry.h"
#include "solver/terms/liquid_uniform_terms.h"

namespace ejecta {

// p = B ((rho/rho0)^gamma - 1) (Monaghan 1994, J. Comput. Phys. 110, 399, eq. 3.3); the tank walls'
// rates are zeroed here (they do not move).
struct Term_EosTait_Monaghan1994 {
  static constexpr unsigned needs = kTermNeedsMixedLiquid;
  static TermInfo info() {
    return {"eos_tait_monaghan1994", "liquid", TermStage::State,
            "Tait EOS (Monaghan 1994, eq. 3.3); walls' rates zeroed",
            {"density", "phase"}, {"pressure", "sound_speed", "energy_rate", "stress_rate"},
            {"fluid.c0", "fluid.gamma", "fluid.rho0"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each(c.n, MixedLiquidEos<typename C::T, C::D>{c.liquid, c.pv}); };
  }
};

// Momentum with Monaghan's viscosity (Monaghan 1992, Annu. Rev. Astron. Astrophys. 30, 543, eq. 3.3-3.5),
// continuity (eq. 2.9) and delta-SPH (Molteni & Colagrossi 2009), with the walls and solids as moving
// walls (Adami et al. 2012).
struct Term_Forces_Monaghan1992 {
  static constexpr unsigned needs = kTermNeedsMixedLiquid;
  static TermInfo info() {
    return {"forces_monaghan1992", "liquid", TermStage::Forces,
            "Monaghan 1992 eq. 3.3-3.5, continuity eq. 2.9, delta-SPH (Molteni & Colagrossi 2009)",
            {"position", "velocity", "density", "pressure", "mass", "smoothing_length", "phase",
             "boundary_pressure", "boundary_density", "boundary_velocity"},
            {"acceleration", "density_rate", "signal_speed"},
            {"viscosity.liquid.alpha", "viscosity.liquid.beta", "viscosity.wall_factor", "fluid.delta_sph",
             "fluid.density_diffusion", "physics.gravity"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each_balanced(c.n, MixedLiquidForces<typename C::T, C::D>{c.liquid, c.grid, c.pv}); };
  }
};

template <class Ctx>
void register_liquid_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_EosTait_Monaghan1994>();
  r.template add<Term_Forces_Monaghan1992>();
  register_liquid_uniform_terms(r);
}

}  // namespace ejecta
