#pragma once
// Each model is a recipe of registered terms (solver/term_list.h, solver/terms/*.h; docs/terms.md):
// the recipes every solver runs, by the scene's options. The general store merges several (liquid,
// solid, dem, coupling) or runs one (a gas, solids alone), with self-gravity's when gravity.self = on;
// the liquid alone runs the liquid's uniform-h variants.
#include "solver/term_list.h"

#include <string>
#include <vector>

namespace ejecta {

// The liquid alone (physics.model = wcsph): its uniform-h terms (terms/liquid_uniform_terms.h):
// [summation density], the Tait EOS, the walls' pressure, the fused force pass, the collider.
// `dbc`: boundary.model = dbc_crespo2007 (dynamic boundary particles instead of Adami's walls); `mdbc`:
// mdbc_english2022 (the modified dynamic boundary particles).
inline std::vector<ModelRecipe> liquid_model_recipes(bool summation, bool dbc = false, bool mdbc = false) {
  ModelRecipe liquid{"liquid", {}};
  if (summation) liquid.terms.push_back("density_summation_monaghan1992");
  const char* wall = dbc ? "wall_density_crespo2007" : mdbc ? "wall_density_english2022" : "wall_pressure_adami2012";
  for (const char* t : {"eos_tait_monaghan1994_uniform_h", wall,
                        "forces_monaghan1992_uniform_h", "collider_monaghan1994"})
    liquid.terms.push_back(t);
  return {liquid};
}

// The recipes of a mixed scene's models. `correction`: solid.gradient_correction; `grains`: the scene
// has DEM grains ([grains.N]); `hertz_mindlin`: their contact is dem.contact = hertz_mindlin (friction,
// rotation, contact history) instead of the linear one.
inline std::vector<ModelRecipe> mixed_model_recipes(bool correction, bool grains = false, bool hertz_mindlin = false) {
  std::vector<ModelRecipe> r;
  r.push_back({"liquid", {"eos_tait_monaghan1994", "forces_monaghan1992"}});
  ModelRecipe solid{"solid", {"eos_solid_benz_asphaug1994"}};
  if (correction) solid.terms.push_back("correction_randles_libersky1996");
  solid.terms.push_back("forces_solid_gray2001");
  r.push_back(solid);
  if (grains) r.push_back({"dem", {hertz_mindlin ? "contact_hertz_mindlin_tsuji1992" : "contact_linear_green2010"}});
  r.push_back({"coupling", {"boundary_adami2012", "reaction_adami2012"}});
  return r;
}

// Self-gravity on the octree (gravity.self = on), added to a model's recipe.
inline ModelRecipe self_gravity_recipe() { return {"gravity", {"self_gravity_barnes_hut1986"}}; }

// The gas (physics.model = gas): grad-h density with the EOS, then the forces; self-gravity.
inline std::vector<ModelRecipe> gas_model_recipes(bool self_gravity) {
  std::vector<ModelRecipe> r{{"gas", {"density_gradh_price2012", "forces_gas_gradh_price2012"}}};
  if (self_gravity) r.push_back(self_gravity_recipe());
  return r;
}

// The solid (physics.model = solid; porous materials run the same terms with their fields): the EOS,
// the correction (solid.gradient_correction), the forces; self-gravity.
inline std::vector<ModelRecipe> solid_model_recipes(bool correction, bool self_gravity) {
  ModelRecipe solid{"solid", {"eos_solid_benz_asphaug1994"}};
  if (correction) solid.terms.push_back("correction_randles_libersky1996");
  solid.terms.push_back("forces_solid_gray2001");
  std::vector<ModelRecipe> r{solid};
  if (self_gravity) r.push_back(self_gravity_recipe());
  return r;
}

// The general store's recipes (solver/store_solver.h), by the models its materials belong to: a gas
// alone (`gas`), solids alone, or several models (`phased`: liquid, walls, solids, grains, coupled);
// self-gravity for a gas or solids alone.
inline std::vector<ModelRecipe> store_model_recipes(bool gas, bool phased, bool correction, bool grains,
                                                    bool hertz_mindlin, bool self_gravity) {
  if (gas) return gas_model_recipes(self_gravity);
  if (!phased) return solid_model_recipes(correction, self_gravity);
  return mixed_model_recipes(correction, grains, hertz_mindlin);
}

// The solid's integrator hooks as terms (stages after_stage and after_step, run by run_hooks): the
// porosity's return (a porous material), the yield limit (a material with strength), damage (flaws).
inline std::vector<ModelRecipe> solid_hook_recipes(bool porous, bool yield, bool damage) {
  ModelRecipe solid{"solid", {}};
  if (porous) solid.terms.push_back("distention_return_wuennemann2006");
  if (yield) solid.terms.push_back("yield_limit_collins2004");
  if (damage) solid.terms.push_back("damage_benz_asphaug1994");
  return {solid};
}

// The descriptions of one evaluation's terms, in order.
inline std::vector<TermInfo> recipe_terms(const std::vector<ModelRecipe>& recipes) {
  std::vector<TermInfo> out;
  for (const auto* e : step_terms(term_catalog(), recipes)) out.push_back(e->info);
  return out;
}

// What the general store runs for a mixed scene.
inline std::vector<TermInfo> mixed_recipe(bool correction, bool grains = false, bool hertz_mindlin = false) {
  return recipe_terms(mixed_model_recipes(correction, grains, hertz_mindlin));
}

}  // namespace ejecta
