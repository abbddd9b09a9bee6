#pragma once
// The liquid alone (physics.model = wcsph; model liquid): its uniform-h fast path, the variants of the
// liquid's terms for one smoothing length and a uniform cell grid (physics/forces_wcsph.h,
// density_summation.h, wall_pressure_adami2012.h, collider_sphere.h): the fused pair pass with its
// neighbour records (fluid.neighbour_record: arrays, packed, packed_eos; fluid.neighbour_cells: the
// grid's reach), fixed tank walls. Registered by register_liquid_terms.
#include "physics/boundary_dbc_crespo2007.h"
#include "physics/boundary_mdbc_english2022.h"
#include "physics/collider_sphere.h"
#include "physics/density_summation.h"
#include "physics/forces_wcsph.h"
#include "physics/forces_wcsph_batch.h"
#include "physics/forces_wcsph_cells.h"
#include "physics/forces_wcsph_ring.h"
#include "physics/wall_pressure_adami2012.h"
#include "solver/term_registry.h"

#include <cmath>
#include <type_traits>
#include <utility>

namespace ejecta {

// The packed neighbour record of the force pass: two arrays of n Packed4, in the sort's buffers and the
// reorder's scratch (dead from the reorder to the next sort; their contents are lost there, and the
// record is packed again each force pass), so it costs 4 of its 32 bytes a particle in float 3D.
template <class T, class Cells, class Store>
std::pair<Packed4<T>*, Packed4<T>*> wcsph_packed_record(Cells& cells, Store& store, std::size_t n) {
  return {static_cast<Packed4<T>*>(cells.scratch(sizeof(Packed4<T>) * n)),
          static_cast<Packed4<T>*>(store.scratch(sizeof(Packed4<T>)))};
}

// The sorted indices whose flag is 1, in the sort block (dead from the reorder to the next sort): the
// flags (written by the functor make_flags(flag) returns), their exclusive scan (n + 1 words, the count
// last) and the list, 3 n + 1 words of its 4 n: the wall pass's wet walls' list. It and the force pass's
// fluid list (list_selected, below) are each dead once their pass is launched, so one block serves both.
struct FlaggedList {
  const uint32_t* list;
  const uint32_t* count;
};
template <class C, class MakeFlags>
FlaggedList list_flagged(C& c, MakeFlags&& make_flags) {
  uint32_t* flag = static_cast<uint32_t*>(c.cells->scratch(sizeof(uint32_t) * (3 * c.n + 1)));
  uint32_t* pos = flag + c.n;
  uint32_t* list = pos + c.n + 1;
  c.exec.for_each(c.n, make_flags(flag));
  c.exec.exclusive_scan(flag, pos, c.n);
  c.exec.for_each(c.n, ScatterFlagged{flag, pos, list});
  return {list, pos + c.n};
}

// The sorted indices i with pred(i) (Exec::select_if, one compaction pass), in the sort block (dead from
// the reorder to the next sort): the list, then its length, n + 1 words of its 4 n: the force pass's
// fluid list (IsKind). The wet walls' list stays with list_flagged: its test also writes the dry walls'
// values, and such a test made CUB's compaction wait on each item in turn (65 us slower at 1M on the
// H100 than the flag pass, scan and scatter, 2026-12-06).
template <class C, class Pred>
FlaggedList list_selected(C& c, const Pred& pred) {
  uint32_t* list = static_cast<uint32_t*>(c.cells->scratch(sizeof(uint32_t) * (c.n + 1)));
  c.exec.select_if(c.n, pred, list, list + c.n);
  return {list, list + c.n};
}

// Summation density rho_i = sum_j m_j W_ij (Monaghan 1992 eq. 2.3; fluid.density = summation).
struct Term_DensitySummation_Monaghan1992 {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"density_summation_monaghan1992", "liquid", TermStage::State,
            "summation density over fluid and walls (Monaghan 1992 eq. 2.3; fluid.density = summation)",
            {"position", "mass", "kind"}, {"density_predicted"}, {"fluid.density", "particles.kernel"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each_balanced(c.n, DensitySummation<typename C::T, C::D>{c.model, c.grid, c.pv}); };
  }
};

// p = B ((rho/rho0)^gamma - 1) of the fluid at its predicted density (Monaghan 1994, J. Comput. Phys.
// 110, 399, eq. 3.3); clipped at zero with summation density.
struct Term_EosTait_Monaghan1994_UniformH {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"eos_tait_monaghan1994_uniform_h", "liquid", TermStage::State,
            "Tait EOS of the fluid at its predicted density (Monaghan 1994 eq. 3.3); p >= 0 with summation density",
            {"density_predicted", "kind"}, {"pressure"}, {"fluid.c0", "fluid.gamma", "fluid.rho0", "fluid.density"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each(c.n, FluidPressure<typename C::T, C::D>{c.model, c.pv}); };
  }
};

// Fixed tank walls take the pressure extrapolated from the fluid (Adami, Hu & Adams 2012 eq. 27-28),
// their density from the inverted EOS and, for no-slip, the mirrored velocity (eq. 22-23); dry walls
// skip the scan by the grid's "holds fluid" flags.
struct Term_WallPressure_Adami2012 {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"wall_pressure_adami2012", "liquid", TermStage::Boundary,
            "fixed walls: pressure extrapolated from the fluid (Adami, Hu & Adams 2012 eq. 27-28), no-slip velocity "
            "(eq. 22-23) (wall_pressure_adami2012.h)",
            {"position", "velocity_predicted", "density_predicted", "pressure", "acceleration", "kind"},
            {"pressure", "density_predicted", "velocity_predicted"},
            {"boundary.slip", "boundary.wall_pressure", "boundary.wall_threads", "physics.gravity"}};
  }
  // boundary.wall_threads = wet: bit kWallList of the context's force_kernel (solver/uniform_liquid.h).
  static constexpr int kWallList = 32;
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] {
      using W = WallPressure_Adami2012<typename C::T, C::D>;
      const W f{c.model, c.grid, c.pv};
      // Over a row selection (a distributed run's split pass) every row runs as selected.
      if (!(c.force_kernel & kWallList) || c.exec.rows_selected()) {
        c.exec.for_each_balanced(c.n, f);
        return;
      }
      // The wet walls' list (wall_pressure_adami2012.h, FlagWetWalls; list_flagged above); the launch
      // covers n lanes, those past the count return.
      const FlaggedList wet = list_flagged(c, [&f](uint32_t* flag) { return FlagWetWalls<typename C::T, C::D>{f, flag}; });
      c.exec.for_each_balanced(c.n, ForcesOverList<W, 3>{f, wet.list, wet.count});
    };
  }
};

// Dynamic boundary particles (boundary.model = dbc_crespo2007; Crespo, Gomez-Gesteira & Dalrymple 2007,
// CMC 5(3) 173): the walls' density rate by the continuity equation with the fluid and their pressure
// from the fluid's EOS (physics/boundary_dbc_crespo2007.h); the solver's kicks advance that density.
struct Term_WallDensity_Crespo2007 {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"wall_density_crespo2007", "liquid", TermStage::Boundary,
            "fixed walls as dynamic boundary particles: continuity density and the fluid's EOS (Crespo et al. "
            "2007) (boundary_dbc_crespo2007.h)",
            {"position", "velocity_predicted", "density_predicted", "kind"},
            {"pressure", "density_rate"},
            {"boundary.model"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] { c.exec.for_each_balanced(c.n, WallDensity_Crespo2007<typename C::T, C::D>{c.model, c.grid, c.pv}); };
  }
};

// Modified dynamic boundary particles (boundary.model = mdbc_english2022; English et al. 2022, Comput.
// Part. Mech. 9, 1): each wall particle's density from the fluid at its ghost node by a first-order
// corrected interpolation, extrapolated to the particle, and its pressure from the fluid's EOS
// (physics/boundary_mdbc_english2022.h); no state, no kicks.
struct Term_WallDensity_English2022 {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"wall_density_english2022", "liquid", TermStage::Boundary,
            "fixed walls as modified dynamic boundary particles: density from the fluid at a ghost node (corrected "
            "interpolation, Liu & Liu 2006) extrapolated to the wall, the fluid's EOS (English et al. 2022) "
            "(boundary_mdbc_english2022.h)",
            {"position", "velocity_predicted", "density_predicted", "mass", "kind"},
            {"pressure", "density_predicted", "velocity_predicted"},
            {"boundary.model", "boundary.mdbc_det_threshold", "boundary.mdbc_min_density", "boundary.slip"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] {
      c.exec.for_each_balanced(c.n, WallDensity_English2022<typename C::T, C::D>{c.model, c.grid, c.pv, c.mdbc});
    };
  }
};

// The fused pair pass of the liquid (physics/forces_wcsph.h): momentum with Monaghan's viscosity
// (Monaghan 1992 eq. 3.3-3.5) or Zhang et al.'s (2017) pair pressure, continuity (eq. 2.9), delta-SPH
// (Molteni & Colagrossi 2009; Fourtakas et al. 2019), XSPH and particle shifting (Sun et al. 2017), in
// one neighbour loop. Its variants, fixed at construction: the neighbour record (fluid.neighbour_record:
// the arrays, or in 3D the packed record, with the EOS in the loop where every wall has one mass), and
// at each run shifting on or off (fluid.shifting may change live).
struct Term_Forces_Monaghan1992_UniformH {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"forces_monaghan1992_uniform_h", "liquid", TermStage::Forces,
            "one fused pair pass: Monaghan 1992 eq. 3.3-3.5 (or Zhang et al. 2017), continuity eq. 2.9, delta-SPH "
            "(Molteni & Colagrossi 2009), XSPH, shifting (Sun et al. 2017), the wall law's drag (wall_friction.h) "
            "(forces_wcsph.h)",
            {"position", "velocity_predicted", "density_predicted", "pressure", "mass", "kind"},
            {"acceleration", "density_rate"},
            {"viscosity.alpha", "viscosity.beta", "viscosity.wall_factor", "fluid.delta_sph", "fluid.density_diffusion",
             "fluid.wall_diffusion", "fluid.pressure_term", "fluid.xsph", "fluid.shifting", "fluid.neighbour_record",
             "fluid.neighbour_cells", "fluid.force_kernel", "fluid.force_threads", "fluid.force_registers",
             "fluid.neighbour_batch", "fluid.force_specialised", "boundary.slip", "boundary.friction",
             "physics.gravity"},
            {"xsph_velocity"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    using T = typename C::T;
    constexpr int D = C::D;
    return [&c] {
      // fluid.force_kernel = cell_blocks (forces_wcsph_cells.h): the row-major grid's blocks of sorted
      // particles with their candidates staged in shared memory; it reads the arrays.
      if ((c.force_kernel & kForceCellBlocks) && !c.grid.rank && c.grid.band <= 0) {
        cell_blocks(c);
        return;
      }
      // Over a row selection (a distributed run's pass split around its halo exchange, solver/
      // row_subset_pass.h) the loop's rows are the selection's: the fluid list, whose positions are not
      // rows, steps aside for it (the execution layer says whether rows are selected).
      const int kernel = c.exec.rows_selected() ? c.force_kernel & ~kForceFluidList : c.force_kernel;
      if constexpr (D == 3) {
        if (c.packed) {
          const auto [xp, vr] = wcsph_packed_record<T>(*c.cells, c.store, c.n);
          if (c.packed == 2) {
            c.exec.for_each(c.n, PackWcsphNeighbours<T, true>{c.pv, xp, vr});
            pass(c, WcsphPacked<T, D, true>{xp, vr, c.model.eos, c.m_wall, c.model.summation});
            return;
          }
          c.exec.for_each(c.n, PackWcsphNeighbours<T>{c.pv, xp, vr});
          // The record lives in the sort block, where the fluid list would be made: a thread per particle.
          dispatch(c, kernel & ~kForceFluidList, WcsphPacked<T, D>{xp, vr, c.model.eos, c.m_wall, c.model.summation});
          return;
        }
      }
      dispatch(c, kernel, WcsphArrays<T, D>{});
    };
  }
  // The pass's loop for a neighbour record nb (the arrays, or packed in 3D).
  template <class C, class Nb>
  static void dispatch(C& c, int kernel, const Nb& nb) {
    using T = typename C::T;
    if constexpr (C::D == 3) {  // fluid.neighbour_batch (forces_wcsph_batch.h), with or without shifting
      if (kernel & kForceBatch) {
        if (c.model.shift > T(0)) variant<C, true>(c, kernel, nb); else variant<C, false>(c, kernel, nb);
        return;
      }
    }
    if ((kernel & (kForceFluidList | kForceRegisters64 | kForceRing)) && c.model.shift <= T(0)) {
      variant(c, kernel, nb);
      return;
    }
    pass(c, nb);
  }
  // The force pass's A/B variants (fluid.force_threads, fluid.force_registers; bits of `kernel`, the
  // context's force_kernel less the fluid list over a row selection), without shifting only: over the
  // fluid's list (list_selected; the arrays record only), and/or bounded to 64 registers (float).
  // fluid.neighbour_batch (3D): the two-phase loop of forces_wcsph_batch.h, its queue and rows per flush
  // by force_kernel's bits 8 and 16 (row16, row32, rows2), with shifting too (never 64 registers then);
  // bit 64 puts the queue in shared memory (row32_shared, rows2_shared).
  // Bit 128 (fluid.force_specialised = defaults): where the model's options are the defaults
  // (wcsph_default_options), the pass compiled for them; built for the default loop only (row32 with
  // the queue in local memory, and the one loop, which 2D runs), any other loop runs the general pass;
  // over either record in 3D (the packed record's only variants).
  // Bit 256 with it (fluid.force_specialised = fast): that pass with the GPU's approximate reciprocal and
  // square root (core/pair_math.h): in float the one instruction each, in double the approximate
  // instruction refined to the last bit or two by FMA steps (no correctly rounded sequence, no branch).
  // Bit 512 with row32 (fluid.neighbour_batch = auto): in the fast pass in float, the row's scan bounded
  // by the queue's room (ForcesBatched's Bounded) where a row's candidates fit the queue (rows_fit).
  // Bit 1024 (fluid.neighbour_batch = ring32, ring64, ring32_shared; 3D, no shifting): the two phases with
  // the queue a ring flushed when the warp's lanes all hold pairs (forces_wcsph_ring.h), 64 entries with
  // bit 2048, in shared memory with bit 64; compiled for the specialised passes too.
  static constexpr int kForceCellBlocks = 1, kForceFluidList = 2, kForceRegisters64 = 4, kForceBatch = 8 | 16,
                       kForceSharedQueue = 64, kForceDefaults = 128, kForceFast = 256, kForceBoundedScan = 512,
                       kForceRing = 1024, kForceRing64 = 2048;
  // The packed record (nb not the arrays) has the specialised passes' loops only; its other variants run
  // the general pass.
  template <class C, bool Shifting = false, class Nb>
  static void variant(C& c, int kernel, const Nb& nb) {
    if constexpr (!Shifting) {
      const int batch = C::D == 3 ? (kernel & kForceBatch) / 8 : 0;
      const bool default_loop = (kernel & kForceRing) || batch == 0 || (batch == 2 && !(kernel & kForceSharedQueue));
      if ((kernel & kForceDefaults) && default_loop && wcsph_default_options(c.model)) {
        if (kernel & kForceFast) return variant_of<C, false, 2>(c, kernel, nb);
        variant_of<C, false, 1>(c, kernel, nb);
        return;
      }
    }
    if constexpr (std::is_same_v<Nb, WcsphArrays<typename C::T, C::D>>) variant_of<C, Shifting, 0>(c, kernel, nb);
    else pass(c, nb);
  }
  template <class C, bool Shifting, int Defaults, class Nb>
  static void variant_of(C& c, int kernel, const Nb& nb) {
    using T = typename C::T;
    using F = Forces_WCSPH_Monaghan1992<T, C::D, Shifting, Nb, Defaults>;
    const F f{c.model, c.grid, c.pv, c.count_pairs, nb};
    const uint32_t *list = nullptr, *count = nullptr;
    if (kernel & kForceFluidList) {
      const FlaggedList fluid = list_selected(c, IsKind{c.pv.kind.get(), kFluid});
      list = fluid.list, count = fluid.count;
    }
    if constexpr (C::D == 3 && !Shifting) {
      if (kernel & kForceRing) return ring(c, kernel, f, list, count);
    }
    if constexpr (C::D == 3 && Defaults) {
      if ((kernel & kForceBatch) / 8 == 2) {
        if constexpr (Defaults == 2 && sizeof(T) == 4)
          if ((kernel & kForceBoundedScan) && rows_fit(c, 32))
            return launch<Shifting>(c, kernel, ForcesBatched<F, 32, 1, false, true>{f}, list, count);
        return launch<Shifting>(c, kernel, ForcesBatched<F, 32, 1>{f}, list, count);
      }
    } else if constexpr (C::D == 3) {
      const int batch = (kernel & kForceBatch) / 8;
      if (kernel & kForceSharedQueue) {
        if (batch == 2) return launch<Shifting>(c, kernel, ForcesBatched<F, 32, 1, true>{f}, list, count);
        if (batch == 3) return launch<Shifting>(c, kernel, ForcesBatched<F, 48, 2, true>{f}, list, count);
      }
      if (batch == 1) return launch<Shifting>(c, kernel, ForcesBatched<F, 16, 1>{f}, list, count);
      if (batch == 2) return launch<Shifting>(c, kernel, ForcesBatched<F, 32, 1>{f}, list, count);
      if (batch == 3) return launch<Shifting>(c, kernel, ForcesBatched<F, 48, 2>{f}, list, count);
    }
    if constexpr (!Shifting) launch<Shifting>(c, kernel, f, list, count);
  }
  template <class C, class F>
  static void ring(C& c, int kernel, const F& f, const uint32_t* list, const uint32_t* count) {
    if (kernel & kForceRing64) return launch<false>(c, kernel, ForcesWarpRing<F, 64>{f}, list, count);
    if (kernel & kForceSharedQueue) return launch<false>(c, kernel, ForcesWarpRing<F, 32, 32, true>{f}, list, count);
    launch<false>(c, kernel, ForcesWarpRing<F, 32>{f}, list, count);
  }
  // Whether a row of cells holds few enough candidates for the bounded scan: 2 reach + 1 cells of
  // (cell / dp)^D particles, and half as many again for a compressed or disordered fluid, at most the
  // queue (Ejecta's defaults, half cells of 1.5 dp: 25; the peer's h = 2 dp: 60; cells of the support: 122).
  template <class C>
  static bool rows_fit(const C& c, int cap) {
    const double per_cell = std::pow(1.0 / (double(c.grid.inv_cell) * c.dp), C::D);
    return 1.5 * (2 * c.grid.reach + 1) * per_cell <= cap;
  }
  template <bool Shifting, class C, class G>
  static void launch(C& c, int kernel, const G& g, const uint32_t* list, const uint32_t* count) {
    if constexpr (sizeof(typename C::T) == 4 && !Shifting) {
      if (kernel & kForceRegisters64) {
        c.exec.for_each_balanced(c.n, ForcesOverList<G, 8>{g, list, count});
        return;
      }
    }
    c.exec.for_each_balanced(c.n, ForcesOverList<G>{g, list, count});
  }
  template <class C>
  static void cell_blocks(C& c) {
    using T = typename C::T;
    constexpr int D = C::D;
    if (c.model.shift > T(0)) {
      using F = Forces_WCSPH_CellBlocks<T, D, true>;
      for_each_block(c.exec, F::blocks(c.n), F::words(), F{{c.model, c.grid, c.pv, c.count_pairs}, c.n});
    } else {
      using F = Forces_WCSPH_CellBlocks<T, D, false>;
      for_each_block(c.exec, F::blocks(c.n), F::words(), F{{c.model, c.grid, c.pv, c.count_pairs}, c.n});
    }
  }
  template <class C, class Nb>
  static void pass(C& c, const Nb& nb) {
    using T = typename C::T;
    if (c.model.shift > T(0))
      c.exec.for_each_balanced(
          c.n, Forces_WCSPH_Monaghan1992<T, C::D, true, Nb>{c.model, c.grid, c.pv, c.count_pairs, nb});
    else
      c.exec.for_each_balanced(
          c.n, Forces_WCSPH_Monaghan1992<T, C::D, false, Nb>{c.model, c.grid, c.pv, c.count_pairs, nb});
  }
};

// The collider sphere (collider.*; the viewer drags it): Monaghan's (1994) repulsive force on the fluid,
// while it is on.
struct Term_Collider_Monaghan1994 {
  static constexpr unsigned needs = kTermNeedsUniformLiquid;
  static TermInfo info() {
    return {"collider_monaghan1994", "liquid", TermStage::Forces,
            "the collider sphere's repulsive force (Monaghan 1994), while collider.enabled (collider_sphere.h)",
            {"position", "velocity_predicted", "kind"}, {"acceleration"},
            {"collider.enabled", "collider.center", "collider.radius", "collider.velocity", "collider.strength"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] {
      if (c.collider.enabled) c.exec.for_each(c.n, ColliderForce_Monaghan1994<typename C::T, C::D>{c.collider, c.pv});
    };
  }
};

template <class Ctx>
void register_liquid_uniform_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_DensitySummation_Monaghan1992>();
  r.template add<Term_EosTait_Monaghan1994_UniformH>();
  r.template add<Term_WallPressure_Adami2012>();
  r.template add<Term_WallDensity_Crespo2007>();
  r.template add<Term_WallDensity_English2022>();
  r.template add<Term_Forces_Monaghan1992_UniformH>();
  r.template add<Term_Collider_Monaghan1994>();
}

}  // namespace ejecta
