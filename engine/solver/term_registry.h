#pragma once
// Terms that register themselves (issue 14), after SPlisHSPlasH's NonPressureForceRegistration: there
// each method is added to the simulation by name with its creator, and declares its own parameters
// (initParameters); here each term is a struct in the file of its model (solver/terms/*.h) that
// declares its name (after its paper), the model whose recipe holds it, the stage of the evaluation it
// runs in, the particle fields it reads and writes, the registry keys it reads (info()), and binds its
// evaluate, a functor run through the execution layer, to a solver's context (bind()). Each model's
// file registers its terms (register_*_terms); a solver looks its recipe's terms up here by name, and
// the catalog (`ejecta --list-terms`, docs/terms.md) lists them all. A model is a recipe of terms;
// the step runs the recipes of the scene's models as one list ordered by stage (term_recipe.h).
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ejecta {

// Where a term runs in one evaluation, after the sort: the step is the models' recipes merged by
// stage, each recipe's order kept within a stage.
enum class TermStage : int {
  State = 0,     // per-particle state from the integrated fields (EOS, correction matrices)
  Boundary = 1,  // what one model's particles show another (Adami's wall pressure)
  Forces = 2,    // the pair sums: accelerations and rates
  Reaction = 3,  // the other side of a coupling's pair forces
};
inline const char* term_stage_name(TermStage s) {
  switch (s) {
    case TermStage::State: return "state";
    case TermStage::Boundary: return "boundary";
    case TermStage::Forces: return "forces";
    default: return "reaction";
  }
}

struct TermInfo {
  std::string name;    // after its paper: "forces_monaghan1992"
  std::string model;   // the model whose recipe holds it: wcsph, solid, dem, coupling
  TermStage stage = TermStage::Forces;
  std::string cite;    // the paper and equation
  std::vector<std::string> reads, writes;  // particle fields
  std::vector<std::string> params;         // registry keys (engine/params/builtin_params.cpp)
};

// The catalog's context: descriptions only, no evaluate is bound.
struct NoTermContext {};

template <class Ctx>
class TermRegistry {
 public:
  // The term's evaluate bound to a solver's context (the context outlives it).
  using Bind = std::function<std::function<void()>(Ctx&)>;
  struct Entry {
    TermInfo info;
    Bind bind;
  };

  // Term: a struct with `static TermInfo info()` and `template <class C> static std::function<void()>
  // bind(C&)`. A name registered twice is a programming error.
  template <class Term>
  void add() {
    TermInfo info = Term::info();
    if (find(info.name)) throw std::logic_error("term " + info.name + " is registered twice");
    Bind bind;
    if constexpr (!std::is_same<Ctx, NoTermContext>::value) bind = [](Ctx& c) { return Term::template bind<Ctx>(c); };
    entries_.push_back(Entry{std::move(info), std::move(bind)});
  }

  const Entry* find(const std::string& name) const {
    for (const Entry& e : entries_)
      if (e.info.name == name) return &e;
    return nullptr;
  }
  const Entry& at(const std::string& name) const {
    const Entry* e = find(name);
    if (!e) throw std::logic_error("no term named " + name + " is registered (engine/solver/terms/)");
    return *e;
  }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

}  // namespace ejecta
