#pragma once
// The step of a mixed scene as a list of terms (docs/architecture.md, "One particle engine"), after
// the idea of SPlisHSPlasH's non-pressure force registration and SPH-EXA's propagator: a term is one
// pass over the store with what it reads, what it writes, the registry keys it reads and the model it
// belongs to; a model is the recipe of its terms; the step runs the recipes of the scene's models in
// one list after the sort. The descriptions are data (checked against the store when the solver is
// built, listed by tests and docs); the evaluate of each is a functor run through the execution layer.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

struct TermInfo {
  std::string name;    // "forces_liquid"
  std::string model;   // the model whose recipe holds it: liquid, solid, dem, coupling
  std::string cite;    // the paper and equation
  std::vector<std::string> reads, writes;  // particle fields
  std::vector<std::string> params;         // registry keys
};

struct Term {
  TermInfo info;
  std::function<void()> run;  // the evaluate over the execution layer
};

// The list of one evaluation, in order (after the sort). `correction`: solid.gradient_correction;
// `grains`: the scene has DEM grains ([grains.N]); `hertz_mindlin`: their contact is dem.contact =
// hertz_mindlin (friction, rotation, contact history) instead of the linear one.
inline std::vector<TermInfo> mixed_recipe(bool correction, bool grains = false, bool hertz_mindlin = false) {
  std::vector<TermInfo> r;
  r.push_back({"eos_tait", "liquid", "Tait EOS (Monaghan 1994); walls' rates zeroed",
               {"density", "phase"}, {"pressure", "sound_speed", "energy_rate", "stress_rate"}, {}});
  r.push_back({"eos_solid", "solid", "solid EOS, longitudinal speed, artificial stress (solid_model.h)",
               {"density", "internal_energy", "deviatoric_stress", "material", "phase"},
               {"pressure", "sound_speed"}, {"solid.artificial_stress"}});
  if (correction)
    r.push_back({"correction", "solid", "kernel-gradient correction (Randles & Libersky 1996)",
                 {"position", "mass", "density", "smoothing_length", "phase"}, {"gradient_correction"},
                 {"solid.gradient_correction"}});
  r.push_back({"boundary_adami2012", "coupling", "Adami, Hu & Adams 2012, eq. 22-23, 27-28 (moving walls)",
               {"position", "velocity", "pressure", "density", "acceleration", "smoothing_length", "phase", "kind"},
               {"boundary_pressure", "boundary_density", "boundary_velocity"},
               {"boundary.slip", "physics.gravity"}});
  r.push_back({"forces_liquid", "liquid",
               "Monaghan 1992 eq. 3.3-3.5, continuity eq. 2.9, delta-SPH (Molteni & Colagrossi 2009)",
               {"position", "velocity", "density", "pressure", "mass", "smoothing_length", "phase",
                "boundary_pressure", "boundary_density", "boundary_velocity"},
               {"acceleration", "density_rate", "signal_speed"},
               {"viscosity.liquid.alpha", "viscosity.liquid.beta", "viscosity.wall_factor", "fluid.delta_sph",
                "fluid.density_diffusion", "physics.gravity"}});
  r.push_back({"forces_solid", "solid", "Gray, Monaghan & Swift 2001 eq. 2.5, 2.7 (solid_model.h)",
               {"position", "velocity", "density", "pressure", "sound_speed", "deviatoric_stress", "mass",
                "smoothing_length", "material", "kind", "phase"},
               {"acceleration", "density_rate", "energy_rate", "stress_rate", "signal_speed"},
               {"viscosity.solid.alpha", "viscosity.solid.beta", "solid.plane", "solid.corrected_force", "physics.gravity"}});
  if (grains && hertz_mindlin)
    r.push_back({"contact_dem_hertz_mindlin", "dem",
                 "Hertz-Mindlin with Coulomb friction and a tangential spring (Cundall & Strack 1979 eq. 4-6; "
                 "Tsuji et al. 1992 dashpots), grain rotation, box planes (dem_grains_hertz_mindlin.h)",
                 {"position", "velocity", "mass", "grain_radius", "phase", "kind", "id", "angular_velocity",
                  "contact_partner", "contact_spring"},
                 {"acceleration", "angular_acceleration", "contact_partner", "contact_spring", "contact_count",
                  "density_rate", "energy_rate", "stress_rate", "signal_speed"},
                 {"dem.contact", "dem.youngs_modulus", "dem.poisson_ratio", "dem.restitution", "dem.friction",
                  "dem.rolling_friction",
                  "dem.global_damping", "dem.box_min", "dem.box_max", "physics.gravity"}});
  else if (grains)
    r.push_back({"contact_dem_linear", "dem",
                 "linear spring-dashpot contact, cuda-samples particles (Green 2010); box planes (dem_grains.h)",
                 {"position", "velocity", "mass", "grain_radius", "phase", "kind"},
                 {"acceleration", "density_rate", "energy_rate", "stress_rate", "signal_speed"},
                 {"dem.spring", "dem.damping", "dem.shear", "dem.attraction", "dem.boundary_damping",
                  "dem.global_damping", "dem.box_min", "dem.box_max", "physics.gravity"}});
  r.push_back({"coupling_reaction", "coupling", "the opposite of the liquid's boundary pair force; the boundary share of its work into u",
               {"position", "velocity", "density", "pressure", "mass", "smoothing_length", "phase", "kind",
                "boundary_pressure", "boundary_density", "boundary_velocity"},
               {"acceleration", "energy_rate"}, {"viscosity.liquid.alpha", "viscosity.liquid.beta", "viscosity.wall_factor"}});
  return r;
}

// Every field a term reads or writes must be in the store: a recipe cannot depend on a field that no
// model registered.
template <class Store>
void check_term_fields(const TermInfo& t, const Store& store) {
  for (const auto* list : {&t.reads, &t.writes})
    for (const std::string& f : *list)
      if (!store.has(f)) throw std::logic_error("term " + t.name + " uses field '" + f + "', which the store lacks");
}

}  // namespace ejecta
