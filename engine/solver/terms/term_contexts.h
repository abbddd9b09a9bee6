#pragma once
// What the terms of a solver's step work on (solver/term_list.h): references to the solver's execution
// layer, models, grid and views, read when a term runs (the grid changes every sort, dt every step).
// The terms (solver/terms/*.h) bind their evaluate to a context; `offers` says which terms can
// (TermNeeds), `phased` whether the store holds several models (the solid's terms are then masked to
// its phase).
#include "exec/device_array.h"
#include "gravity/self_gravity.h"
#include "neighbors/cell_index.h"
#include "neighbors/level_index.h"
#include "neighbors/tree_index.h"
#include "particles/particle_store.h"
#include "physics/collider_sphere.h"
#include "physics/coupling_adami2012.h"
#include "physics/dem_grains.h"
#include "physics/dem_grains_hertz_mindlin.h"
#include "physics/gas_model.h"
#include "physics/solid_model.h"
#include "physics/boundary_mdbc_english2022.h"
#include "physics/wcsph_model.h"
#include "simulation.h"
#include "solver/term_registry.h"

#include <cstddef>
#include <memory>

namespace ejecta {

// What self-gravity reads (x, m, h) and adds to (a), from whichever model's fields the store holds.
template <class T, int D>
struct GravityView {
  DevicePtr<Vec<T, D>> x;
  DevicePtr<const T> m, h;
  DevicePtr<Vec<T, D>> a;
};

// The general store (solver/store_solver.h): one store whose materials may be of every model (liquid,
// tank walls, solids, grains; a gas alone). `phased`: the store holds more than the solid model, so
// the solid's terms are masked to its phase (known when the terms are bound).
template <class T_, int D_, class Exec_>
struct StoreTermContext {
  using T = T_;
  using Exec = Exec_;
  static constexpr int D = D_;
  static constexpr unsigned offers = kTermNeedsMixedLiquid | kTermNeedsSolid | kTermNeedsGrains | kTermNeedsGas |
                                     kTermNeedsSelfGravity | kTermNeedsDamage;
  Exec& exec;
  const std::size_t& n;
  const bool& phased;
  // the neighbour search: the level index and its grid (the gas's density term refreshes them), or the tree
  const std::unique_ptr<LevelIndex<T, D, Exec>>& cells;
  const std::unique_ptr<TreeIndex<T, D, Exec>>& tree;
  LevelGrid<T, D>& grid;
  // liquid, walls, solids and grains
  const MixedView<T, D>& pv;
  const SolidView<T, D>& sv;  // pv.s
  const LiquidModel<T, D>& liquid;
  const SolidModel<T, D>& solid;
  const GrainModel<T, D>& grains;
  const DevicePtr<T>& grain_radius;
  const GrainHistoryView<T, D>& hist;
  const DemHertzMindlinPair<T>& hm;
  const T& rolling;
  const T& dt;
  // the gas
  const GasView<T, D>& gas_view;
  const GasModel<T, D>& gas;
  // self-gravity: the fields it reads and adds to, the octree (null when off), the potential field
  const GravityView<T, D>& gv;
  const std::unique_ptr<SelfGravity<T, D, Exec>>& gravity;
  T* const& phi;
  PhaseTimes& times;
  const bool& phase_timing;
  // damage (the after_step hook): the flaws by initial id, the active-flaw counts, the step taken
  const DevicePtr<uint32_t>& id;
  const DeviceArray<std::int64_t, Exec>& flaw_offset;
  const DeviceArray<T, Exec>& flaw_strain;
  const DevicePtr<uint32_t>& active_flaws;
  const T& dt_taken;
};

// The liquid alone (solver/uniform_liquid.h, the store solver's uniform-h path): one smoothing length,
// the uniform cell grid, fixed walls; the force term's neighbour record lives in the index's and the
// store's scratch (cells, store).
template <class T_, int D_, class Exec_>
struct WcsphTermContext {
  using T = T_;
  using Exec = Exec_;
  static constexpr int D = D_;
  static constexpr unsigned offers = kTermNeedsUniformLiquid;
  static constexpr bool phased = false;
  Exec& exec;
  const std::size_t& n;
  const std::unique_ptr<CellIndex<T, D, Exec>>& cells;
  ParticleStore<Exec>& store;
  const CellGrid<T, D>& grid;
  const ParticleView<T, D>& pv;
  const WcsphModel<T, D>& model;
  const int& packed;  // 0 the arrays, 1 packed, 2 packed with the EOS in the loop (fluid.neighbour_record)
  const T& m_wall;    // the walls' one mass (packed_eos)
  const bool& count_pairs;
  const ColliderSphereState<T, D>& collider;
  const MdbcWalls<T, D>& mdbc;  // boundary.model = mdbc_english2022: the interface and its settings
  const int& force_kernel;  // 0 the particle pass, 1 cell blocks (fluid.force_kernel; forces_wcsph_cells.h)
  const double& dp;         // the lattice spacing
};

}  // namespace ejecta
