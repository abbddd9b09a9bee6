#pragma once
// What the terms of a mixed scene's step (solver/mixed_solver.h) work on: references to the solver's
// execution layer, models, grid and views, read when a term runs (the grid changes every sort, dt every
// step). The terms (solver/terms/*.h) bind their evaluate to it.
#include "physics/coupling_adami2012.h"
#include "physics/dem_grains.h"
#include "physics/dem_grains_hertz_mindlin.h"
#include "physics/solid_model.h"

#include <cstddef>

namespace ejecta {

template <class T_, int D_, class Exec_>
struct MixedTermContext {
  using T = T_;
  using Exec = Exec_;
  static constexpr int D = D_;
  Exec& exec;
  const std::size_t& n;
  const LevelGrid<T, D>& grid;
  const MixedView<T, D>& pv;
  const LiquidModel<T, D>& liquid;
  const SolidModel<T, D>& solid;
  const GrainModel<T, D>& grains;
  const DevicePtr<T>& grain_radius;
  const GrainHistoryView<T, D>& hist;
  const DemHertzMindlinPair<T>& hm;
  const T& rolling;
  const T& dt;
};

}  // namespace ejecta
