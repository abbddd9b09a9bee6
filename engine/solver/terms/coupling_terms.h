#pragma once
// The coupling of the liquid with tank walls, solids and grains (physics/coupling_adami2012.h):
// Adami, Hu & Adams (2012), J. Comput. Phys. 231, 7057. Registered by register_coupling_terms.
#include "physics/coupling_adami2012.h"
#include "solver/term_registry.h"

namespace ejecta {

// Every wall, solid and grain particle takes the pressure extrapolated from the liquid with its own
// acceleration, and its velocity for the liquid's viscosity (eq. 22-23, 27-28).
struct Term_Boundary_Adami2012 {
  static constexpr unsigned needs = kTermNeedsMixedLiquid;
  static TermInfo info() {
    return {"boundary_adami2012", "coupling", TermStage::Boundary,
            "Adami, Hu & Adams 2012, eq. 22-23, 27-28 (moving walls)",
            {"position", "velocity", "pressure", "density", "acceleration", "smoothing_length", "phase", "kind"},
            {"boundary_pressure", "boundary_density", "boundary_velocity"},
            {"boundary.slip", "physics.gravity"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each_balanced(c.n, MixedBoundary_Adami2012<typename C::T, C::D>{c.liquid, c.grid, c.pv}); };
  }
};

// Each solid (or grain) particle receives the opposite of every liquid pair force on it
// (liquid_boundary_pair evaluated by both sides), and the boundary share of its work into u.
struct Term_Reaction_Adami2012 {
  static constexpr unsigned needs = kTermNeedsMixedLiquid;
  static TermInfo info() {
    return {"reaction_adami2012", "coupling", TermStage::Reaction,
            "the opposite of the liquid's boundary pair force (Adami et al. 2012 eq. 27-28 evaluated from the "
            "boundary side); the boundary share of its work into u",
            {"position", "velocity", "density", "pressure", "mass", "smoothing_length", "phase", "kind",
             "boundary_pressure", "boundary_density", "boundary_velocity"},
            {"acceleration", "energy_rate"},
            {"viscosity.liquid.alpha", "viscosity.liquid.beta", "viscosity.wall_factor"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each_balanced(c.n, MixedCouplingReaction<typename C::T, C::D>{c.liquid, c.grid, c.pv}); };
  }
};

template <class Ctx>
void register_coupling_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_Boundary_Adami2012>();
  r.template add<Term_Reaction_Adami2012>();
}

}  // namespace ejecta
