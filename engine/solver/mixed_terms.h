#pragma once
// The step of a mixed scene as a list of terms (docs/architecture.md, "One particle engine"), after
// SPlisHSPlasH's non-pressure force registration and SPH-EXA's propagator: each term registers itself
// with its name, fields, keys and stage (solver/term_registry.h; the terms in solver/terms/*.h, one
// file per model); a model is a recipe of term names; the step is the recipes of the scene's models
// merged by stage, and the solver looks each name up in the registry (MixedSolver::make_terms). The
// descriptions are data: checked against the store and the parameter registry when the solver is
// built, listed by `ejecta --list-terms` (docs/terms.md).
#include "solver/term_registry.h"
#include "solver/terms/coupling_terms.h"
#include "solver/terms/dem_terms.h"
#include "solver/terms/liquid_terms.h"
#include "solver/terms/solid_terms.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

struct Term {
  TermInfo info;
  std::function<void()> run;  // the evaluate over the execution layer
};

// Every term of every model, registered by the models' files.
template <class Ctx>
TermRegistry<Ctx> mixed_term_registry() {
  TermRegistry<Ctx> r;
  register_liquid_terms(r);
  register_solid_terms(r);
  register_dem_terms(r);
  register_coupling_terms(r);
  return r;
}

// The descriptions alone (no evaluate): the catalog of --list-terms and the tests.
inline const TermRegistry<NoTermContext>& term_catalog() {
  static const TermRegistry<NoTermContext> r = mixed_term_registry<NoTermContext>();
  return r;
}

// A model's recipe: the names of its terms, in order.
struct ModelRecipe {
  std::string model;
  std::vector<std::string> terms;
};

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

// The list of one evaluation (after the sort): the recipes' terms looked up in the registry and merged
// by stage, each recipe's order kept within a stage. A name no model registered is an error.
template <class Ctx>
std::vector<const typename TermRegistry<Ctx>::Entry*> step_terms(const TermRegistry<Ctx>& reg,
                                                                 const std::vector<ModelRecipe>& recipes) {
  std::vector<const typename TermRegistry<Ctx>::Entry*> list;
  for (const ModelRecipe& m : recipes)
    for (const std::string& name : m.terms) {
      const auto& e = reg.at(name);
      if (e.info.model != m.model)
        throw std::logic_error("term " + name + " belongs to the " + e.info.model + " model, not to " + m.model);
      list.push_back(&e);
    }
  std::stable_sort(list.begin(), list.end(),
                   [](const auto* a, const auto* b) { return int(a->info.stage) < int(b->info.stage); });
  return list;
}

// The descriptions of one evaluation's terms, in order (what the mixed solver runs).
inline std::vector<TermInfo> mixed_recipe(bool correction, bool grains = false, bool hertz_mindlin = false) {
  std::vector<TermInfo> out;
  for (const auto* e : step_terms(term_catalog(), mixed_model_recipes(correction, grains, hertz_mindlin)))
    out.push_back(e->info);
  return out;
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
