#pragma once
// The step of every solver as a list of terms (docs/architecture.md, "One particle engine"), after
// SPlisHSPlasH's non-pressure force registration and SPH-EXA's propagator: each term registers itself
// with its name, fields, keys and stage (solver/term_registry.h; the terms in solver/terms/*.h, one
// file per model); a model is a recipe of term names (solver/model_recipes.h); the step is the recipes
// of the scene's models merged by stage, each name looked up in the registry and bound to the
// solver's context (bind_terms). The descriptions are data: checked against the store and the
// parameter registry when the solver is built, listed by `ejecta --list-terms` (docs/terms.md).
#include "params/param_set.h"
#include "solver/term_registry.h"
#include "solver/terms/coupling_terms.h"
#include "solver/terms/dem_terms.h"
#include "solver/terms/gas_terms.h"
#include "solver/terms/gravity_terms.h"
#include "solver/terms/liquid_terms.h"
#include "solver/terms/solid_terms.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

// Every term of every model, registered by the models' files; a term is bound only where the
// context offers what it needs (TermNeeds).
template <class Ctx>
TermRegistry<Ctx> term_registry() {
  TermRegistry<Ctx> r;
  register_liquid_terms(r);
  register_solid_terms(r);
  register_dem_terms(r);
  register_coupling_terms(r);
  register_gas_terms(r);
  register_gravity_terms(r);
  return r;
}

// The descriptions alone (no evaluate): the catalog of --list-terms and the tests.
inline const TermRegistry<NoTermContext>& term_catalog() {
  static const TermRegistry<NoTermContext> r = term_registry<NoTermContext>();
  return r;
}

// A model's recipe: the names of its terms, in order.
struct ModelRecipe {
  std::string model;
  std::vector<std::string> terms;
};

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

// Every field a term reads or writes must be in the store (its optional ones where the store has
// them): a recipe cannot depend on a field that no model registered.
template <class Store>
void check_term_fields(const TermInfo& t, const Store& store) {
  for (const auto* list : {&t.reads, &t.writes})
    for (const std::string& f : *list)
      if (!store.has(f)) throw std::logic_error("term " + t.name + " uses field '" + f + "', which the store lacks");
}

// The step's list of a solver: the recipes looked up in the registry of its context, each term
// checked against the store and the parameter registry and bound to the context (which outlives it).
template <class Ctx, class Store>
std::vector<Term> bind_terms(const std::vector<ModelRecipe>& recipes, Ctx& ctx, const Store& store,
                             const ParamSet& params) {
  const TermRegistry<Ctx> registry = term_registry<Ctx>();
  std::vector<Term> terms;
  for (const auto* e : step_terms(registry, recipes)) {
    const TermInfo& info = e->info;
    check_term_fields(info, store);
    for (const std::string& key : info.params)
      if (!params.registry().find(key)) throw std::logic_error("term " + info.name + " reads unknown key " + key);
    if (!e->bind) throw std::logic_error("term " + info.name + " cannot run in this solver (its context lacks what it needs)");
    terms.push_back(Term{info, e->bind(ctx)});
  }
  return terms;
}

}  // namespace ejecta
