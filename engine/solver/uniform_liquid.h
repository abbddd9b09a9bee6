#pragma once
// The liquid alone in the one store (solver/store_solver.h; docs/architecture.md, "The uniform-h fast
// path"): a scene of the liquid with its tank walls (physics.model = liquid, scene recipe wcsph), where
// every particle has the liquid's one h, runs StoreSolver over the uniform cell grid (neighbors/
// cell_index.h) instead of the level grid, with the uniform-h terms (solver/terms/liquid_uniform_terms.h)
// and the predicted-field kick-drift-kick of Scheme::LeapfrogPredicted (integrators/leapfrog_kdk.h).
// This is the state only that path has, owned by the store solver and chosen at run time: its index and
// grid, its view of the store's fields, the model constants, the collider, the probes, the packed halo
// of a distributed run and the context its terms read. The step driver, the clock, the dt checks, the
// blow-up report and the facade are the store solver's (StagedStoreSolver); the solver dispatches to
// the functions here. Each step:
//   kick + drift (kick_drift) -> sort by bucket and reorder (sort_and_reorder) -> the terms of the
//   liquid's recipe (solver/model_recipes.h: [summation density], Tait EOS, the walls, the fused force
//   pass with its neighbour record, the collider) -> kick with the extremes (next dt, blow-up check), one
//   reduction.
// Only the extremes come back to the host each step (a few bytes).
#include "dist/store_halo_rows.h"
#include "exec/device_array.h"
#include "integrators/leapfrog_kdk.h"
#include "integrators/staged_integrators.h"
#include "integrators/step_monitor.h"
#include "neighbors/cell_grid.h"
#include "neighbors/cell_index.h"
#include "physics/boundary_dbc_crespo2007.h"
#include "physics/boundary_mdbc_setup.h"
#include "physics/collider_sphere.h"
#include "physics/density_summation.h"
#include "physics/diagnostic_sums.h"
#include "physics/fluid_wall_load.h"
#include "physics/forces_wcsph.h"
#include "physics/wall_pressure_adami2012.h"
#include "physics/wcsph_model.h"
#include "probes/probe_api.h"
#include "probes/probe_sampler.h"
#include "render_data/fill_from_store.h"
#include "scene/scene_builder.h"
#include "scene/scene_host_state.h"
#include "solver/model_recipes.h"
#include "solver/store_reports.h"
#include "solver/term_list.h"
#include "solver/terms/term_contexts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ejecta {

// Sum of per-particle neighbour counts over the fluid (namespace scope: CUDA kernels may not take
// private member types as template arguments).
struct FluidCount {
  DevicePtr<const uint32_t> c;
  DevicePtr<const uint8_t> kind;
  EJ_INLINE unsigned long long operator()(std::size_t i) const { return kind[i] == kFluid ? c[i] : 0ull; }
};
struct SumU64 {
  EJ_INLINE unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a + b; }
};

template <class T, int D, class Exec>
class UniformLiquid {
 public:
  // exec, store, n, array_bytes and dt: the store solver's (StagedStoreSolver), referenced.
  UniformLiquid(Exec& exec, ParticleStore<Exec>& store, const std::size_t& n, std::size_t& array_bytes, T& dt,
                std::size_t n_fluid)
      : exec_(exec), store_(store), n_(n), array_bytes_(array_bytes), dt_(dt), n_fluid_(n_fluid) {}

  // Device bytes per particle this path needs (fields, sort buffers, the bucket table and bucket ranks
  // of up to 2 n + 64 buckets, the reorder scratch; in 3D the packed neighbour record, which lives in
  // the sort buffers and the reorder scratch), for "how many particles fit" when memory runs out.
  static double estimated_bytes_per_particle(bool xsph) {
    const double vec = sizeof(Vec<T, D>), scalar = sizeof(T);
    // The packed record (3D) aliases the sort buffers (16) and the reorder scratch (a vector); without
    // it the reorder goes through the sort's dead words where a vector fits in 12 bytes (float).
    const double record = D == 3 ? 4 * scalar : 0, sort = std::max(16.0, record), reorder = std::max(vec, record);
    return (xsph ? 6 : 5) * vec + 5 * scalar + 1 + 4 + sort + 8 + (vec > 12 ? reorder : 0);
  }

  // The set-up (the store solver's configure_time reads the time keys): the model, the packed record,
  // the mDBC walls, the integrator's scheme (time.integrator = leapfrog, the only one for the liquid
  // alone: its kick-drift with predicted fields), the live keys and the uniform grid over the particles.
  void configure(const ParamSet& params, const SceneParticles& init, IntegratorSettings& settings) {
    h_ = init.liquid.h;
    dp_ = init.liquid.dp;
    model_.eos = TaitEos<T>::make(init.liquid.rho0, init.liquid.c0, init.liquid.gamma);
    model_.eta2 = T(0.01 * init.liquid.h * init.liquid.h);
    model_.summation = params.text("fluid.density") == "summation";
    configure_packed(params, init);
    mdbc_ = make_mdbc_walls<T, D>(params, init);
    model_.wall_geometry = mdbc_.geometry;  // the wall normals of zhang2017_wall_normal
    wall_boxes_ = init.wall_boxes;
    settings.scheme = Scheme::LeapfrogPredicted;
    configure_live(params);

    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int d = 0; d < D; ++d) {
      lo[d] = std::numeric_limits<double>::max();
      hi[d] = -lo[d];
    }
    for (std::size_t i = 0; i < n_; ++i)
      for (int d = 0; d < D; ++d) {
        lo[d] = std::min(lo[d], init.position[i * D + d]);
        hi[d] = std::max(hi[d], init.position[i * D + d]);
      }
    // fluid.neighbour_cells: cells of the support (27 scanned in 3D) or of half of it (125 smaller ones,
    // 42% fewer candidates; cell_grid.h).
    const int reach = params.text("fluid.neighbour_cells") == "half" ? 2 : 1;
    grid_ = make_cell_grid<T, D>(lo, hi, 2.0 * init.liquid.h, n_, reach);
    // Every pass on the grid (forces, density, walls, mDBC's ghost nodes, probes) searches within the
    // kernel's support; the rows are clipped to it (cell_grid.h).
    if (!grid_.covers(double(model_.kernel.support()))) throw std::logic_error("uniform liquid: the kernel's support exceeds the grid's");
    // Rows in bands of B in y (bucket_order.h); auto sizes B for the L2 with the bytes a neighbour read
    // takes (position, velocity, density, pressure, mass, kind).
    grid_.band = band_rows_setting(params.integer("neighbours.band_rows"), exec_cache_bytes(exec_), n_, grid_.dims, D,
                                   reach, (2.0 * D + 3) * sizeof(T) + 1);
    // fluid.force_kernel: the particle pass, or blocks of sorted particles with their candidates staged
    // in shared memory (forces_wcsph_cells.h; the arrays' values, so with the arrays record only).
    force_kernel_ = params.text("fluid.force_kernel") == "cell_blocks" ? 1 : 0;
    // The particle pass's A/B variants (issue 18; Term_Forces_Monaghan1992_UniformH::variant): over the
    // fluid's list (bit 2), at most 64 registers in float (bit 4).
    if (params.text("fluid.force_threads") == "fluid") force_kernel_ |= 2;
    if (params.text("fluid.force_registers") == "64") force_kernel_ |= 4;
    // fluid.neighbour_batch (physics/forces_wcsph_batch.h): bits 8 and 16, 0 off, 1 row16, 2 row32, 3 rows2;
    // bit 64, the queue in shared memory (row32_shared, rows2_shared); auto, row32 with bit 512 (the
    // bounded scan where a row's candidates fit the queue).
    const std::string batch = params.text("fluid.neighbour_batch");
    if (batch == "auto") force_kernel_ |= Term_Forces_Monaghan1992_UniformH::kForceBoundedScan;
    const bool shared_queue = batch == "row32_shared" || batch == "rows2_shared" || batch == "ring32_shared";
    const std::string rows = shared_queue ? batch.substr(0, batch.size() - 7) : batch;
    force_kernel_ |= 8 * (rows == "row16" ? 1 : rows == "row32" || rows == "auto" ? 2 : rows == "rows2" ? 3 : 0);
    if (shared_queue) force_kernel_ |= Term_Forces_Monaghan1992_UniformH::kForceSharedQueue;
    // ring32, ring64, ring32_shared (physics/forces_wcsph_ring.h): bit 1024, 2048 for 64 entries.
    if (rows.rfind("ring", 0) == 0) force_kernel_ |= Term_Forces_Monaghan1992_UniformH::kForceRing;
    if (rows == "ring64") force_kernel_ |= Term_Forces_Monaghan1992_UniformH::kForceRing64;
    // fluid.force_specialised (the pass compiled for the default options where the model has them): bit 128;
    // fast, that pass with the GPU's approximate reciprocal and square root: bits 128 and 256.
    const std::string specialised = params.text("fluid.force_specialised");
    if (specialised != "off") force_kernel_ |= Term_Forces_Monaghan1992_UniformH::kForceDefaults;
    if (specialised == "fast") force_kernel_ |= Term_Forces_Monaghan1992_UniformH::kForceFast;
    // boundary.wall_threads (the wall pass over the wet walls' list; wall_pressure_adami2012.h): bit 32.
    if (params.text("boundary.wall_threads") == "wet") force_kernel_ |= Term_WallPressure_Adami2012::kWallList;
  }

  // The parameters that may change between steps (needs_rebuild = false), from construction and
  // from apply_params alike, so both derive the model constants the same way.
  void configure_live(const ParamSet& params) {
    const std::string kernel = params.text("particles.kernel");
    model_.kernel = SmoothingKernel<T, D>::make(
        kernel == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2, T(h_));
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) model_.gravity[d] = T(g[d]);
    model_.alpha = T(params.real("viscosity.alpha"));
    model_.wall_visc = T(params.real("viscosity.wall_factor"));
    model_.beta = T(params.real("viscosity.beta"));
    model_.delta = T(params.real("fluid.delta_sph"));
    model_.xsph = T(params.real("fluid.xsph"));
    // Shifting: u = -A h c0 sum_j [...] (physics/shifting_sun2017.h); W(dp) for its anti-clumping term.
    model_.shift = T(params.real("fluid.shifting") * h_ * double(model_.eos.c0));
    model_.shift_inv_wdp = T(1) / model_.kernel.W(T(dp_));
    model_.slip = wall_slip_from(params.text("boundary.slip"));
    model_.wall_friction = T(params.real("boundary.friction"));
    const std::string pressure = params.text("fluid.pressure_term");
    model_.pressure = pressure == "zhang2017"               ? kPressureZhang2017
                      : pressure == "zhang2017_wall_normal" ? kPressureZhang2017WallNormal
                                                            : kPressureMonaghan1992;
    model_.diffusion_hydrostatic = params.text("fluid.density_diffusion") == "fourtakas2019";
    model_.wall_diffusion = params.flag("fluid.wall_diffusion");
    model_.wall_fluid_accel = params.text("boundary.wall_pressure") == "fluid_acceleration";
    const std::string wall_model = params.text("boundary.model");
    model_.boundary = wall_model == "dbc_crespo2007"     ? kBoundaryDbcCrespo2007
                      : wall_model == "mdbc_english2022" ? kBoundaryMdbcEnglish2022
                                                         : kBoundaryAdami2012;
    const double r = params.real("fault.max_density_ratio");
    const double rho0 = double(model_.eos.rho0);
    // Summation density reads low at a free surface (a truncated kernel), which is no blow-up: there
    // only a runaway upwards is reported.
    rho_lo_ = model_.summation ? T(0) : T(rho0 / r);
    rho_hi_ = T(rho0 * r);
    max_density_ratio_ = r;
    ColliderSphere c;
    c.enabled = params.flag("collider.enabled");
    const auto cc = params.vec3("collider.center"), cv = params.vec3("collider.velocity");
    for (int d = 0; d < 3; ++d) {
      c.center[d] = cc[d];
      c.velocity[d] = cv[d];
    }
    c.radius = params.real("collider.radius");
    c.strength = params.real("collider.strength");
    set_collider(c);
  }

  // The fields, through the solver's field(tag, name, units, what, persistent) (a typed device pointer
  // of the store), and the uniform index.
  template <class Field>
  void allocate(Field field) {
    using V = Vec<T, D>;
    pv_.x = field((V*)nullptr, "position", "m", "particle position", true);
    pv_.v = field((V*)nullptr, "velocity", "m/s", "particle velocity", true);
    pv_.rho = field((T*)nullptr, "density", "kg/m^3", "mass density", true);
    pv_.vp = field((V*)nullptr, "velocity_predicted", "m/s",
                   "velocity at the force evaluation (walls: velocity seen by viscosity)", true);
    pv_.rhop = field((T*)nullptr, "density_predicted", "kg/m^3",
                     "density at the force evaluation (walls: extrapolated)", true);
    pv_.p = field((T*)nullptr, "pressure", "Pa", "pressure from the equation of state", false);
    pv_.a = field((V*)nullptr, "acceleration", "m/s^2", "total acceleration", false);
    pv_.drho = field((T*)nullptr, "density_rate", "kg/(m^3 s)", "density rate", false);
    add_drift_field(field);
    pv_.m = mass_ = field((T*)nullptr, "mass", "kg", "particle mass", true);
    pv_.kind = kind_ = field((uint8_t*)nullptr, "kind", "", "0 fluid, 1 wall", true);
    id_ = field((uint32_t*)nullptr, "id", "", "particle number in the initial layout", true);
    cells_ = std::make_unique<CellIndex<T, D, Exec>>(exec_, grid_, n_, &array_bytes_);
    if (packed_) wcsph_packed_record<T>(*cells_, store_, n_);  // sizes the two scratch buffers the record lives in once
    grid_ = cells_->grid();
  }

  // The drift correction's field (XSPH, particle shifting), when one is on and it does not exist yet
  // (at the set-up, or switched on live: then it starts at zero). Returns whether it was added.
  template <class Field>
  bool add_drift_field(Field field) {
    if (!drift_corrected() || pv_.xsph) return false;
    pv_.xsph = field((Vec<T, D>*)nullptr, "xsph_velocity", "m/s", "drift correction (XSPH, shifting)", false);
    return true;
  }

  void upload(const SceneParticles& init) {
    const SceneHostState<T, D> s = scene_host_state<T, D>(init, n_, false, false);
    std::vector<T> zero(n_, T(0));
    std::vector<uint8_t> kind(init.kind);
    std::vector<Vec<T, D>> zv(n_, Vec<T, D>::zero());
    ejecta::upload(exec_, pv_.x, s.x.data(), n_);
    ejecta::upload(exec_, pv_.v, s.v.data(), n_);
    ejecta::upload(exec_, pv_.vp, s.v.data(), n_);
    ejecta::upload(exec_, pv_.a, zv.data(), n_);
    zero_drift_field();
    ejecta::upload(exec_, pv_.rho, s.rho.data(), n_);
    ejecta::upload(exec_, pv_.rhop, s.rho.data(), n_);
    ejecta::upload(exec_, pv_.p, zero.data(), n_);
    ejecta::upload(exec_, pv_.drho, zero.data(), n_);
    ejecta::upload(exec_, mass_, s.m.data(), n_);
    ejecta::upload(exec_, kind_, kind.data(), n_);
    ejecta::upload(exec_, id_, s.id.data(), n_);
  }
  void zero_drift_field() {
    if (!pv_.xsph) return;
    std::vector<Vec<T, D>> zv(n_, Vec<T, D>::zero());
    ejecta::upload(exec_, pv_.xsph, zv.data(), n_);
  }

  // The liquid's recipe bound to this path's context.
  std::vector<Term> bind(const ParamSet& params) {
    return bind_terms(liquid_model_recipes(model_.summation, model_.boundary == kBoundaryDbcCrespo2007,
                                           model_.boundary == kBoundaryMdbcEnglish2022),
                      ctx_, store_, params);
  }

  // The kick and drift of Scheme::LeapfrogPredicted's step (the functors of leapfrog_kdk.h), with the
  // predicted velocity and density for the rates; and its closing kick (kick_and_extremes, below).
  // t0: the clock at the step's start; the rates are evaluated at t0 + dt (the gates' boxes, move_gates).
  void kick_drift(double dt, double t0) {
    const double t1 = t0 + dt;
    exec_.for_each(n_, KickDrift<T, D>{pv_, T(dt), drift_corrected(), model_.summation});
    stop_gates(t0, t1);
    move_gates(t1);
    if (model_.boundary == kBoundaryDbcCrespo2007)
      exec_.for_each(n_, WallDensityKick_Crespo2007<T, D, true>{pv_, T(dt), model_.eos.rho0});
  }
  // The closing kick (and the dbc walls' density kick) with the step's extremes in one reduction: one
  // launch and one read of the kicked fields fewer than the kick followed by extremes(), the same values.
  // `meanwhile` is called once the kick and the reduction are queued, before the host waits for the
  // extremes (the step's end: StepObserver::on_step_queued).
  template <class Meanwhile>
  StepExtremes<T> kick_and_extremes(double dt, Meanwhile&& meanwhile) {
    const Kick<T, D> kick{pv_, T(dt), model_.summation};
    const MeasureExtremes<T, D> measure{pv_, rho_lo_, rho_hi_};
    if (model_.boundary == kBoundaryDbcCrespo2007) {
      using Walls = WallDensityKick_Crespo2007<T, D, false>;
      using F = Then<Then<Kick<T, D>, Walls>, MeasureExtremes<T, D>>;
      return exec_.transform_reduce(n_, no_extremes(), F{{kick, Walls{pv_, T(dt), model_.eos.rho0}}, measure},
                                    CombineExtremes<T>{}, meanwhile);
    }
    return exec_.transform_reduce(n_, no_extremes(), Then<Kick<T, D>, MeasureExtremes<T, D>>{kick, measure},
                                  CombineExtremes<T>{}, meanwhile);
  }

  // rates_dead: the step's sort, between its kick-drift and its force pass, which rewrites the
  // acceleration and the density rate (the dbc walls' too) before anything reads them: the reorder
  // moves the positions, velocities and densities through their buffers instead of copying them back
  // (ParticleStore::ReorderPlan). A restart's sort keeps the recorded rates (the next kick reads them).
  // boundary.wall_pressure = fluid_acceleration reads the fluid's acceleration in the walls' pass, after
  // the sort: the acceleration is then carried by the sort (before, it was read in the previous order).
  void sort_and_reorder(bool rates_dead) {
    cells_->build(pv_.x.get());
    // Through the sort's dead words where the largest field fits there (float 3D: 12 of its 16 bytes
    // a particle), not a scratch buffer of the store's own.
    const std::size_t spare = store_.reorder_scratch_bytes();
    typename ParticleStore<Exec>::ReorderPlan plan;
    if (model_.wall_fluid_accel) plan.carry.push_back("acceleration");
    if (rates_dead) plan.dead = {"acceleration", "density_rate"};
    store_.reorder(cells_->permutation(), cells_->spare_after_build(spare), spare, plan);
    view_moved_fields();
    cells_->mark(pv_.kind.get(), kFluid, &array_bytes_);
    grid_ = cells_->grid();
  }
  // The views of the fields a reorder may move (sort_and_reorder), from the store.
  void view_moved_fields() {
    using V = Vec<T, D>;
    pv_.x = DevicePtr<V>::adopt(store_.template data<V>("position"));
    pv_.v = DevicePtr<V>::adopt(store_.template data<V>("velocity"));
    pv_.vp = DevicePtr<V>::adopt(store_.template data<V>("velocity_predicted"));
    pv_.a = DevicePtr<V>::adopt(store_.template data<V>("acceleration"));
    pv_.rho = DevicePtr<T>::adopt(store_.template data<T>("density"));
    pv_.rhop = DevicePtr<T>::adopt(store_.template data<T>("density_predicted"));
    pv_.drho = DevicePtr<T>::adopt(store_.template data<T>("density_rate"));
    pv_.m = mass_ = DevicePtr<T>::adopt(store_.template data<T>("mass"));
    id_ = DevicePtr<uint32_t>::adopt(store_.template data<uint32_t>("id"));
  }

  // The benchmark's pair counts of the last force pass (set_count_pairs).
  void count_pairs() {
    if (!count_pairs_) return;
    const DevicePtr<const uint32_t> real = pair_real_.device(), cand = pair_cand_.device();
    const DevicePtr<const uint8_t> kind = pv_.kind;
    pairs_.real = double(exec_.transform_reduce(n_, 0ull, FluidCount{real, kind}, SumU64{}));
    pairs_.candidate = double(exec_.transform_reduce(n_, 0ull, FluidCount{cand, kind}, SumU64{}));
  }

  // One reduction over every particle: max speed and acceleration, the first bad particle.
  StepExtremes<T> extremes() const {
    return exec_.transform_reduce(n_, no_extremes(), MeasureExtremes<T, D>{pv_, rho_lo_, rho_hi_}, CombineExtremes<T>{});
  }
  static StepExtremes<T> no_extremes() { return StepExtremes<T>{T(0), T(0), 0xffffffffu, kBadNone}; }
  // The step limit from the extremes: the CFL (sound speed plus flow speed, with Monaghan's allowance
  // for artificial viscosity, Monaghan 1992 eq. 4.12), the force criterion (before time.dt_max) and,
  // with particle shifting, the shift's own limit. The shift u = -A h c0 grad C (shifting_sun2017.h) is
  // an explicit diffusion of the particle concentration with a diffusivity of order A h c0, stable
  // only while A c0 dt / h stays below a constant of the kernel; Sun et al. (2017) take the shift per
  // step as CFL Ma (2h)^2 grad C, i.e. this drift at their own acoustic step. The Courant number is
  // therefore at most kShiftCfl / A with shifting: the step at which the shifting was validated
  // (time.cfl = 0.2 at A = 0.4, Hydrostatic2D.ShiftingKeepsTheTankAtRest); at the liquid's default
  // 0.3 with A = 0.4 that tank's floor pressure drifts to 0.68% and its corners stir (docs/physics.md,
  // "The liquid's time step").
  static constexpr double kShiftCfl = 0.08;
  double limit(double cfl, double force_factor, double vmax, double amax) const {
    const double h = double(model_.kernel.h), c0 = double(model_.eos.c0);
    if (model_.shift > 0) cfl = std::min(cfl, kShiftCfl * h * c0 / double(model_.shift));
    double dt = cfl * h / (c0 + vmax + 0.6 * double(model_.alpha) * c0);
    if (amax > 0) dt = std::min(dt, force_factor * std::sqrt(h / amax));
    return dt;
  }
  // What the blow-up report says after the bad particle's value, and whether it is fluid.
  std::string bad_advice(const StepExtremes<T>& e, bool fluid) const {
    std::ostringstream advice;
    if (e.bad_field == kBadDensity && fluid)
      advice << ", outside [" << double(rho_lo_) << ", " << double(rho_hi_)
             << "] kg/m^3 (fault.max_density_ratio = " << max_density_ratio_
             << "); try a smaller time.cfl or a larger fluid.c0";
    else
      advice << ", which is not finite";
    return advice.str();
  }

  Diagnostics diagnostics(double time, long steps, double dt) const {
    MeasureDiagnosticSums<T, D> measure{pv_, {0, 0, 0}, double(model_.eos.rho0), double(model_.eos.gamma),
                                        double(model_.eos.B), model_.summation};
    for (int d = 0; d < D; ++d) measure.gravity[d] = double(model_.gravity[d]);
    const DiagnosticSums s =
        exec_.transform_reduce(n_, MeasureDiagnosticSums<T, D>::zero(), measure, CombineDiagnosticSums{});
    return diagnostics_from_sums(s, D, time, steps, dt, n_, s.max_density_error);
  }

  void set_count_pairs(bool on) {
    count_pairs_ = on;
    if (on && pair_real_.size() == 0) {
      pair_real_.resize(exec_, n_, &array_bytes_);
      pair_cand_.resize(exec_, n_, &array_bytes_);
      pv_.pair_real = pair_real_.device();
      pv_.pair_cand = pair_cand_.device();
    } else if (!on && pair_real_.size() != 0) {
      // The counts are an instrument of the benchmark, not of a run: their 8 bytes a particle go
      // when counting stops (the benchmark's byte count then is the run's).
      pair_real_.resize(exec_, 0, &array_bytes_);
      pair_cand_.resize(exec_, 0, &array_bytes_);
      pv_.pair_real = nullptr;
      pv_.pair_cand = nullptr;
    }
  }
  PairCounts pair_counts() const { return pairs_; }

  RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out) {
    return fill_render_data_from_store<T, D>(exec_, store_, pv_.x.get(), pv_.kind.get(), n_, n_fluid_ > 0, req, out);
  }
  ColourHistogram colour_histogram(const RenderRequest& req, float lo, float hi) {
    return colour_histogram_from_store(exec_, store_, pv_.kind.get(), n_, n_fluid_ > 0, req, lo, hi);
  }

  ColliderSphere collider() const { return collider_host_; }
  void set_collider(const ColliderSphere& c) {
    if (c.enabled && !(c.radius > 0)) throw std::invalid_argument("collider: the radius must be positive");
    collider_host_ = c;
    collider_.enabled = c.enabled;
    for (int d = 0; d < D; ++d) {
      collider_.center[d] = T(c.center[d]);
      collider_.velocity[d] = T(c.velocity[d]);
    }
    collider_.radius = T(c.radius);
    const double c0 = double(model_.eos.c0);
    collider_.D_lj = T(c.strength * (c0 / 10) * (c0 / 10));
    collider_.r0 = T(dp_);
    collider_.damping = T(c0 / (4 * dp_));
  }

  // Probes and gauges (probes/probe_sampler.h): sampled at the state the last step ended with, the
  // positions, pressures and densities of its force evaluation, on the grid they were sorted into;
  // queued on the step's stream, read back in batches (probes/probe_api.h).
  void set_probes(const ProbeLayout& layout) {
    probes_.reset();
    if (!layout.empty()) probes_ = std::make_unique<ProbeSampler<T, D, Exec>>(exec_, store_, layout);
  }
  ProbeRing* probe_ring() const { return probes_.get(); }
  void queue_probe_sample(bool with_loads) const {
    if (!probes_) throw std::logic_error("queue_probe_sample: no probes installed");
    // Loads ([force.N]): the fluid-wall pair terms of the force pass, with the same model and
    // neighbour arrays (physics/fluid_wall_load.h).
    const auto load_pass = [&](const auto& box, Vec<T, D>* share) {
      exec_.for_each(n_, FluidWallLoad<T, D>{{model_, grid_, pv_, false, WcsphArrays<T, D>{}}, box.lo, box.hi, share});
    };
    probes_->queue(grid_, model_.kernel, pv_.x.get(), pv_.m.get(), pv_.rhop.get(), pv_.kind.get(), n_, load_pass,
                   with_loads);
  }

  // The packed halo of a distributed run (dist/store_halo_rows.h), made on first use.
  dist::HaloRows& halo_rows() {
    if (!halo_) halo_ = std::make_unique<dist::StoreHaloRows<T, D, Exec>>(exec_, store_, pv_, dt_);
    return *halo_;
  }
  const std::unique_ptr<dist::StoreHaloRows<T, D, Exec>>& halo() const { return halo_; }

  std::size_t fluid_count() const { return n_fluid_; }

  // The gates' boxes ([gate.N], scene_builder.cpp) at time t: lo + v_w t', hi + v_w t', t' = min(t, t_s)
  // (t_s the stop time of a gate with a travel), in the interface of mDBC's ghost nodes and of the wall
  // normals (the wall law, the wall-normal Riemann problem), whose particles the drift moves by v_w dt
  // (leapfrog_kdk.h) until stop_gates stops them. From the scene's boxes and the clock, so a restart at t
  // puts them where the uninterrupted run has them; a scene without gates is untouched.
  void move_gates(double t) {
    for (std::size_t b = 0; b < wall_boxes_.size() && b < std::size_t(mdbc_.geometry.n); ++b) {
      const WallBox& w = wall_boxes_[b];
      if (!moving(w)) continue;
      const double tm = std::min(t, w.stop_time);
      for (int d = 0; d < D; ++d) {
        mdbc_.geometry.lo[b][d] = T(w.lo[d] + w.velocity[d] * tm);
        mdbc_.geometry.hi[b][d] = T(w.hi[d] + w.velocity[d] * tm);
      }
    }
    model_.wall_geometry = mdbc_.geometry;
  }
  // Stops the particles of each gate with a travel (StopGate, leapfrog_kdk.h) in the step t0 -> t that
  // crosses its stop time t_s (t0 < t_s <= t): one pass per gate, in that step only. From the clock, so a
  // restart or a rewind to a frame before t_s stops it in the same step, and a frame after t_s holds it at
  // rest already.
  void stop_gates(double t0, double t) {
    for (std::size_t b = 0; b < wall_boxes_.size(); ++b) {
      const WallBox& w = wall_boxes_[b];
      if (!moving(w) || !(t0 < w.stop_time && t >= w.stop_time)) continue;
      StopGate<T, D> stop{pv_, {}, {}, {}, T(t - w.stop_time)};
      for (int d = 0; d < D; ++d) {
        stop.vw[d] = T(w.velocity[d]);
        stop.lo[d] = T(w.lo[d] + w.velocity[d] * t);
        stop.hi[d] = T(w.hi[d] + w.velocity[d] * t);
      }
      exec_.for_each(n_, stop);
    }
  }

 private:
  static bool moving(const WallBox& w) {
    bool m = false;
    for (int d = 0; d < D; ++d) m = m || w.velocity[d] != 0;
    return m;
  }
  // The drift carries a correction (XSPH, particle shifting): its field exists and KickDrift adds it.
  bool drift_corrected() const { return model_.xsph > T(0) || model_.shift > T(0); }

  // The neighbour record of the force pass (physics/forces_wcsph_neighbours.h, fluid.neighbour_record):
  // the packed ones in 3D; packed_eos only when every wall has one mass (else packed).
  void configure_packed(const ParamSet& params, const SceneParticles& init) {
    const std::string record = params.text("fluid.neighbour_record");
    packed_ = D == 3 && record != "arrays" ? (record == "packed_eos" ? 2 : 1) : 0;
    bool seen = false;
    for (std::size_t i = 0; i < init.size() && packed_ == 2; ++i) {
      if (init.kind[i] == kFluid) continue;
      if (seen && T(init.mass[i]) != m_wall_) packed_ = 1;
      seen = true;
      m_wall_ = T(init.mass[i]);
    }
  }

  Exec& exec_;
  ParticleStore<Exec>& store_;
  const std::size_t& n_;
  std::size_t& array_bytes_;
  T& dt_;
  std::size_t n_fluid_;
  std::unique_ptr<CellIndex<T, D, Exec>> cells_;  // the uniform index (the store's others: a LevelIndex)
  DeviceArray<uint32_t, Exec> pair_real_, pair_cand_;
  T m_wall_ = T(0);
  int packed_ = 0;  // 0 the arrays, 1 packed, 2 packed with the EOS in the loop
  int force_kernel_ = 0;  // bits: 1 cell blocks (fluid.force_kernel), 2 fluid list, 4 64 registers, 8 and 16
                          // the neighbour batch; 32 the wet walls' list (boundary.wall_threads); 64 the
                          // batch's queue in shared memory; 128 and 256 the specialised and fast pass;
                          // 512 the bounded scan (fluid.neighbour_batch = auto)
  WcsphModel<T, D> model_{};
  CellGrid<T, D> grid_{};
  ParticleView<T, D> pv_{};
  DevicePtr<T> mass_;  // pv_.m and pv_.kind, writable for the upload
  DevicePtr<uint8_t> kind_;
  DevicePtr<uint32_t> id_;
  T rho_lo_ = T(0), rho_hi_ = T(0);
  ColliderSphereState<T, D> collider_{};
  ColliderSphere collider_host_{};
  MdbcWalls<T, D> mdbc_{};  // boundary.model = mdbc_english2022 (physics/boundary_mdbc_english2022.h)
  std::vector<WallBox> wall_boxes_;  // the scene's, at t = 0 (move_gates)
  double h_ = 0, dp_ = 0, max_density_ratio_ = 2;
  bool count_pairs_ = false;
  PairCounts pairs_;
  std::unique_ptr<ProbeSampler<T, D, Exec>> probes_;
  // What the terms read when they run (references to the members above).
  WcsphTermContext<T, D, Exec> ctx_{exec_, n_, cells_, store_, grid_, pv_, model_, packed_, m_wall_, count_pairs_,
                                    collider_, mdbc_, force_kernel_, dp_};
  std::unique_ptr<dist::StoreHaloRows<T, D, Exec>> halo_;
};

}  // namespace ejecta
