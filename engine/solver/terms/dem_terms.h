#pragma once
// The DEM grains' contact terms (model dem): one of the two per scene (dem.contact). Registered by
// register_dem_terms.
#include "physics/dem_grains.h"
#include "physics/dem_grains_hertz_mindlin.h"
#include "solver/term_registry.h"

namespace ejecta {

// Linear spring-dashpot contact with shear and attraction, after the cuda-samples particles demo
// (Green 2010, "Particle Simulation using CUDA"); the box planes (physics/dem_grains.h).
struct Term_ContactLinear_Green2010 {
  static constexpr unsigned needs = kTermNeedsGrains;
  static TermInfo info() {
    return {"contact_linear_green2010", "dem", TermStage::Forces,
            "linear spring-dashpot contact, cuda-samples particles (Green 2010); box planes (dem_grains.h)",
            {"position", "velocity", "mass", "grain_radius", "phase", "kind"},
            {"acceleration", "density_rate", "energy_rate", "stress_rate", "signal_speed"},
            {"dem.spring", "dem.damping", "dem.shear", "dem.attraction", "dem.boundary_damping",
             "dem.global_damping", "dem.box_min", "dem.box_max", "physics.gravity"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] {
      c.exec.for_each_balanced(c.n, GrainContacts_Linear<typename C::T, C::D>{c.grains, c.grid, c.pv.s, c.grain_radius});
    };
  }
};

// Hertz normal force with Mindlin's tangential spring and Coulomb friction (Cundall & Strack 1979
// eq. 4-6), Tsuji et al. (1992) dashpots, grain rotation and rolling friction
// (physics/dem_grains_hertz_mindlin.h).
struct Term_ContactHertzMindlin_Tsuji1992 {
  static constexpr unsigned needs = kTermNeedsGrains;
  static TermInfo info() {
    return {"contact_hertz_mindlin_tsuji1992", "dem", TermStage::Forces,
            "Hertz-Mindlin with Coulomb friction and a tangential spring (Cundall & Strack 1979 eq. 4-6; "
            "Tsuji et al. 1992 dashpots), grain rotation, box planes (dem_grains_hertz_mindlin.h)",
            {"position", "velocity", "mass", "grain_radius", "phase", "kind", "id", "angular_velocity",
             "contact_partner", "contact_spring"},
            {"acceleration", "angular_acceleration", "contact_partner", "contact_spring", "contact_count",
             "density_rate", "energy_rate", "stress_rate", "signal_speed"},
            {"dem.contact", "dem.youngs_modulus", "dem.poisson_ratio", "dem.restitution", "dem.friction",
             "dem.rolling_friction", "dem.global_damping", "dem.box_min", "dem.box_max", "physics.gravity"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] {
      c.exec.for_each_balanced(c.n, GrainContacts_HertzMindlin<typename C::T, C::D>{c.grains, c.hm, c.rolling, c.dt,
                                                                                    c.grid, c.pv.s, c.grain_radius,
                                                                                    c.hist});
    };
  }
};

template <class Ctx>
void register_dem_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_ContactLinear_Green2010>();
  r.template add<Term_ContactHertzMindlin_Tsuji1992>();
}

}  // namespace ejecta
