#pragma once
// The gas's terms (model gas; physics.model = gas): grad-h SPH with the ideal-gas EOS. Registered by
// register_gas_terms.
#include "physics/density_gradh_price2012.h"
#include "physics/forces_gas_gradh.h"
#include "solver/term_registry.h"

#include <type_traits>

namespace ejecta {

// h and the summation density together (rho_i = m_i (eta / h_i)^D, Newton-Raphson per particle; Price
// 2012, J. Comput. Phys. 231, 759, sec. 2.6; the grad-h factor Omega, Springel & Hernquist 2002), then
// the ideal-gas EOS. h moved: each level of the grid gets its true largest h again, which the
// symmetric search of the forces needs (the term writes the grid).
struct Term_DensityGradH_Price2012 {
  static constexpr unsigned needs = kTermNeedsGas;
  static TermInfo info() {
    return {"density_gradh_price2012", "gas", TermStage::State,
            "h and density by Newton-Raphson (Price 2012 sec. 2.6), Omega (Springel & Hernquist 2002), ideal-gas EOS; "
            "the grid's level bounds refreshed",
            {"position", "mass", "smoothing_length", "density", "internal_energy", "kind"},
            {"smoothing_length", "density", "omega", "pressure", "sound_speed"},
            {"gas.eta", "gas.h_mode", "gas.h_max", "gas.h_tolerance", "gas.density", "gas.gamma", "particles.kernel",
             "gas.neighbour_search"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    constexpr int D = C::D;
    return [&c] {
      if (c.tree) {  // gas.neighbour_search = tree (neighbors/tree_index.h)
        const auto search = c.tree->tree();
        c.exec.for_each_balanced(c.n, DensityGradH_Price2012<T, D, std::decay_t<decltype(search)>>{c.gas, search, c.gas_view});
        c.tree->refit(c.gas_view.x.get(), c.gas_view.h.get());  // h moved: the symmetric search needs each node's largest h
        return;
      }
      c.exec.for_each_balanced(c.n, DensityGradH_Price2012<T, D>{c.gas, c.grid, c.gas_view});
      c.cells->set_level_hmax(c.gas_view.h.get());  // h moved: the symmetric search needs each level's true maximum
      c.grid = c.cells->grid();
    };
  }
};

// Momentum and energy with grad-h terms (Springel & Hernquist 2002 eq. 12; Price 2012 sec. 3.2), the
// signal-velocity viscosity (Monaghan 1997), conductivity (Price 2008), continuity where the density
// is integrated, and the Morris & Monaghan (1997) switch's rate.
struct Term_ForcesGas_GradH_Price2012 {
  static constexpr unsigned needs = kTermNeedsGas;
  static TermInfo info() {
    return {"forces_gas_gradh_price2012", "gas", TermStage::Forces,
            "grad-h momentum and energy (Springel & Hernquist 2002 eq. 12; Price 2012 sec. 3.2), signal-velocity "
            "viscosity (Monaghan 1997), conductivity, the Morris & Monaghan 1997 switch (forces_gas_gradh.h)",
            {"position", "velocity", "density", "pressure", "sound_speed", "omega", "smoothing_length", "mass",
             "internal_energy", "kind"},
            {"acceleration", "energy_rate", "density_rate", "signal_speed", "velocity_divergence"},
            {"viscosity.alpha", "viscosity.beta", "viscosity.switch", "viscosity.alpha_min", "viscosity.switch_decay",
             "gas.conductivity", "physics.gravity", "gas.neighbour_search"},
            {"viscosity_alpha", "viscosity_alpha_rate"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    constexpr int D = C::D;
    return [&c] {
      if (c.tree) {
        const auto search = c.tree->tree();
        c.exec.for_each_balanced(c.n, Forces_Gas_GradH<T, D, std::decay_t<decltype(search)>>{c.gas, search, c.gas_view});
      } else {
        c.exec.for_each_balanced(c.n, Forces_Gas_GradH<T, D>{c.gas, c.grid, c.gas_view});
      }
    };
  }
};

template <class Ctx>
void register_gas_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_DensityGradH_Price2012>();
  r.template add<Term_ForcesGas_GradH_Price2012>();
}

}  // namespace ejecta
