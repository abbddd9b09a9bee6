#pragma once
// Terms that register themselves (issue 14), after SPlisHSPlasH's NonPressureForceRegistration: there
// each method is added to the simulation by name with its creator, and declares its own parameters
// (initParameters); here each term is a struct in the file of its model (solver/terms/*.h) that
// declares its name (after its paper), the model whose recipe holds it, the stage of the evaluation it
// runs in, the particle fields it reads and writes, the registry keys it reads (info()), and binds its
// evaluate, a functor run through the execution layer, to a solver's context (bind()). Each model's
// file registers its terms (register_*_terms); a solver looks its recipe's terms up here by name, and
// the catalog (`ejecta --list-terms`, docs/terms.md) lists them all. A model is a recipe of terms;
// the step runs the recipes of the scene's models as one list ordered by stage (solver/term_list.h).
// Every solver runs its step so (gas, solid, mixed): the sort, the recipes' terms, one reduction.
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
  LongRange = 3, // forces beyond the pairs, added to theirs (self-gravity on the octree)
  Reaction = 4,  // the other side of a coupling's pair forces
  // The integrator's hooks, bound as terms but run outside the evaluation (StagedStoreSolver::run_hooks):
  AfterStage = 5,  // after every update of the state by the integrator (the solids' yield limit)
  AfterStep = 6,   // once per accepted step, with the step taken (the solids' damage)
};
inline const char* term_stage_name(TermStage s) {
  switch (s) {
    case TermStage::State: return "state";
    case TermStage::Boundary: return "boundary";
    case TermStage::Forces: return "forces";
    case TermStage::LongRange: return "long_range";
    case TermStage::AfterStage: return "after_stage";
    case TermStage::AfterStep: return "after_step";
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
  // Fields used where the store has them (porosity, damage, a mixed store's phase): not required.
  std::vector<std::string> optional = {};
};

// What a solver's term context offers (Ctx::offers, a mask) and a term needs (Term::needs): the
// registry binds a term's evaluate only to contexts that offer all it needs. A term may run in several
// contexts (the solid's terms in the general store and the former solid class; masked to their phase in a store of several models).
enum TermNeeds : unsigned {
  kTermNeedsMixedLiquid = 1u << 0,  // the mixed store's liquid (LiquidModel, MixedView)
  kTermNeedsSolid = 1u << 1,        // SolidModel and a SolidView `sv` on a level grid
  kTermNeedsGrains = 1u << 2,       // the DEM grains of a mixed store
  kTermNeedsGas = 1u << 3,          // GasModel, GasView, the level index
  kTermNeedsSelfGravity = 1u << 4,  // the octree (gravity/self_gravity.h) over a view `gv` with x, m, h, a
  kTermNeedsUniformLiquid = 1u << 5,  // the liquid alone: WcsphModel, ParticleView, the uniform CellGrid
  kTermNeedsDamage = 1u << 6,  // the solids' flaws (ids, offsets, strains) and the step taken
};

// A term bound to a solver's context: what the step runs.
struct Term {
  TermInfo info;
  std::function<void()> run;  // the evaluate over the execution layer
};

// The phase-time bucket of a stage (PhaseTimes of the benchmark): the per-particle state and the
// boundary into density, the pair sums and reactions into forces, self-gravity into gravity.
enum class TermTiming { Density, Forces, Gravity };
inline TermTiming term_timing(TermStage s) {
  if (s == TermStage::State || s == TermStage::Boundary) return TermTiming::Density;
  return s == TermStage::LongRange ? TermTiming::Gravity : TermTiming::Forces;
}

// The catalog's context: descriptions only, no evaluate is bound.
struct NoTermContext {
  static constexpr unsigned offers = 0;
};

template <class Ctx>
class TermRegistry {
 public:
  // The term's evaluate bound to a solver's context (the context outlives it).
  using Bind = std::function<std::function<void()>(Ctx&)>;
  struct Entry {
    TermInfo info;
    Bind bind;
  };

  // Term: a struct with `static TermInfo info()`, `static constexpr unsigned needs` (TermNeeds) and
  // `template <class C> static std::function<void()> bind(C&)`. A name registered twice is a
  // programming error. A term whose needs the context does not offer is listed without an evaluate.
  template <class Term>
  void add() {
    TermInfo info = Term::info();
    if (find(info.name)) throw std::logic_error("term " + info.name + " is registered twice");
    Bind bind;
    if constexpr ((Term::needs & ~Ctx::offers) == 0u && Term::needs != 0u)
      bind = [](Ctx& c) { return Term::template bind<Ctx>(c); };
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
