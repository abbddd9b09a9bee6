#pragma once
// The store solver (issue 14, "one particle engine"; docs/architecture.md, "Models"): one particle
// store for every scene, whose materials may be of every model: the liquid with its tank walls, solids
// (porous materials and damage included), DEM grains, or a gas. The liquid alone (scene recipe wcsph:
// every particle has the liquid's one h) runs its uniform-h fast path, chosen at run time: the uniform
// cell grid, its terms and the predicted-field kick-drift hooks of Scheme::LeapfrogPredicted
// (solver/uniform_liquid.h, `uniform_`); every other scene the level grid and the terms below. Each particle has
// a phase (the model of its material) and a material index; which fields the store holds follows the
// models present (the solids' porosity and damage fields only with a porous material or flaws, the
// coupling's boundary fields and the phase only where several models meet, the gas's grad-h fields
// only with a gas). One evaluation of the rates is the sort followed by the terms of the models'
// recipes (solver/model_recipes.h: store_model_recipes; solver/terms/*.h, docs/terms.md), then one
// reduction:
//   gas:    density_gradh_price2012, forces_gas_gradh_price2012   (physics/density_gradh_price2012.h)
//   liquid: eos_tait_monaghan1994, forces_monaghan1992            (physics/coupling_adami2012.h)
//   solid:  eos_solid_benz_asphaug1994, [correction_randles_libersky1996], forces_solid_gray2001,
//           after every stage [distention_return_wuennemann2006], [yield_limit_collins2004],
//           after every step [damage_benz_asphaug1994]                (physics/solid_model.h)
//   dem (grains): contact_linear_green2010 or contact_hertz_mindlin_tsuji1992   (physics/dem_grains*.h)
//   coupling (liquid with walls, solids and grains): boundary_adami2012, reaction_adami2012
//   gravity (gravity.self = on, a gas or solids alone): self_gravity_barnes_hut1986
// driven by the staged integrators of StagedStoreSolver (leapfrog KDK, predictor-corrector, RK23) over
// the models' ODE variables (position, velocity, internal energy, density where integrated, deviatoric
// stress; distention, compaction work and strain with pores; the gas's viscosity switch; the grains'
// spin). In a store of several models the solid's terms are masked to its phase (`phased_`); a store
// of solids alone runs them over every particle, compiled without the phase test.
// A gas shares a store with no other model yet (no coupling term between a gas and a liquid, solid or
// grains): refused with the section that brings the other model in.
#include "dist/solid_halo_limit.h"
#include "dist/store_halo_rows.h"
#include "exec/device_array.h"
#include "gravity/gravity_bound.h"
#include "gravity/gravity_params.h"
#include "neighbors/tree_index.h"
#include "physics/coupling_adami2012.h"
#include "physics/dem_grains.h"
#include "physics/dem_grains_hertz_mindlin.h"
#include "physics/density_gradh_price2012.h"
#include "physics/forces_gas_gradh.h"
#include "physics/gas_diagnostics.h"
#include "physics/solid_damage.h"
#include "physics/solid_invariants.h"
#include "physics/solid_model.h"
#include "probes/probe_api.h"
#include "render_data/fill_from_store.h"
#include "scene/gas_scene.h"
#include "scene/mixed_scene.h"
#include "scene/scene_host_state.h"
#include "scene/solid_scene.h"
#include "solver/model_recipes.h"
#include "solver/row_subset_pass.h"
#include "solver/solid_material_table.h"
#include "solver/staged_store_solver.h"
#include "solver/terms/term_contexts.h"
#include "solver/uniform_liquid.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
class StoreSolver final : public StagedStoreSolver<StoreSolver<T, D, Exec>, T, D, Exec>,
                          public ProbeSampling,
                          public dist::HaloRowsProvider {
  using Base = StagedStoreSolver<StoreSolver<T, D, Exec>, T, D, Exec>;
  friend Base;
  using Base::exec_, Base::n_, Base::store_, Base::array_bytes_, Base::cells_, Base::settings_, Base::dt_max_,
      Base::cfl_, Base::force_factor_, Base::max_speed_, Base::max_accel_, Base::times_, Base::phase_timing_;

 public:
  using Sym = SymTensor<T, D>;

  StoreSolver(const ParamSet& params, const SceneParticles& init) : Base(init.size()) {
    if (init.recipe == "wcsph") {  // the liquid alone: its uniform-h fast path
      start_uniform(params, init);
      return;
    }
    n_gas_ = init.count(kPhaseGas);
    n_grains_ = init.count(kPhaseGrain);
    n_moving_ = init.count(kPhaseLiquid) + init.count(kPhaseSolid) + n_grains_;
    n_fluid_ = std::size_t(std::count(init.kind.begin(), init.kind.end(), uint8_t(kFluid)));
    refuse_gas_with_others(params, init);
    // Several models, or a mixed scene (whose coupling fields and phase stay, as for the ocean impact's
    // three solid bodies): the solid's terms masked to its phase.
    phased_ = n_gas_ == 0 && (init.count(kPhaseSolid) != n_ || init.recipe == "mixed");
    params_ = params;
    if (n_gas_) {
      configure_gas(params, init);
      allocate_gas();
    } else {
      configure(params, init);
      allocate(init);
    }
    allocate_gravity(params);
    if (n_gas_)
      upload_gas(init);
    else
      upload(init);
    terms_ = bind_terms(store_model_recipes(n_gas_ > 0, phased_, solid_.correct, n_grains_ > 0, hertz_, gravity_ != nullptr),
                        ctx_, store_, params);
    bind_hooks();
    this->start();
  }

  const std::vector<Term>& terms() const { return terms_; }
  const std::vector<Term>& hooks() const { return hooks_; }
  // Whether the solid's terms are masked to its phase (a store of several models).
  bool phased() const { return phased_; }

  // The hooks of stage after_stage (the porosity's return before the yield's pressure, the yield).
  void after_stage() {
    if (n_gas_ || uniform_) return;
    this->run_hooks(hooks_, TermStage::AfterStage);
    update_invariants();
  }

  // The step's plastic strain is measured from its start (SolidYieldLimit), in every store with solids
  // (the mixed solver never copied it, so a mixed scene's plastic_strain was the last step's increment
  // alone); damage is advanced once per accepted step, after the integrator (solid_damage.h), so
  // rejected RK23 tries never touch it.
  void before_step() {
    if (!n_gas_ && !uniform_) exec_.for_each(n_, CopyFlat<T>{pv_.s.eps_p_step.get(), pv_.s.eps_p.get()});
  }
  void after_step(const StepReport& r) {
    dt_taken_ = T(r.dt_taken);
    this->run_hooks(hooks_, TermStage::AfterStep);  // damage
  }

  // The hooks of Scheme::LeapfrogPredicted (staged_integrators.h), the liquid alone's integrator: kick
  // and drift with the predicted velocity and density; the rates at the drifted state; the closing
  // kick, then the limit at the step's end state (step steps_ + 1).
  void kick_drift(double dt) { uniform_->kick_drift(dt, this->time_); }
  void evaluate_rates() {
    const auto t0 = this->phase_mark();
    uniform_->sort_and_reorder(true);
    times_.sort += this->seconds(t0, this->phase_mark());
    // A distributed run's pair pass split around its halo exchange (dist.overlap = interior): the
    // rows are the execution layer's selection, which the force pass's variants ask for.
    if (!run_terms_split(exec_, terms_, row_split_of(uniform_->halo()), "forces_monaghan1992_uniform_h"))
      this->run_terms(terms_);
    uniform_->count_pairs();
  }
  double kick_and_limit(double dt) {
    const double end = this->time_ + dt;
    const StepExtremes<T> e = uniform_->kick_and_extremes(dt, [&] { this->step_queued(end); });
    return uniform_limit(this->steps_ + 1, end, e);
  }

  // Rates at the current state: the sort, the recipes' terms, one reduction; returns the step limit
  // there (reports blow-ups).
  double evaluate() {
    if (uniform_) {
      evaluate_rates();
      return uniform_limit(this->steps_, this->time_, uniform_->extremes());
    }
    const auto t0 = this->phase_mark();
    if (tree_) {  // a gas with gas.neighbour_search = tree (neighbors/tree_index.h)
      tree_->sort(gas_view_.x.get());
      store_.reorder(tree_->permutation());
      tree_->build(gas_view_.x.get(), gas_view_.h.get());
    } else if (n_gas_) {  // the gas's density term sets each level's largest h after its h iteration
      cells_->build(gas_view_.x.get(), gas_view_.h.get());
      store_.reorder(cells_->permutation());
      grid_ = cells_->grid();
    } else {
      cells_->build(pv_.s.x.get(), init_.h.get());
      store_.reorder(cells_->permutation());
      cells_->set_level_hmax(init_.h.get());
      grid_ = cells_->grid();
      update_invariants();  // non-persistent: again after the sort
    }
    times_.sort += this->seconds(t0, this->phase_mark());
    // A distributed run of solids: the pair pass split around its halo exchange (dist.overlap = interior).
    if (!run_terms_split(exec_, terms_, row_split_of(halo_), "forces_solid_gray2001")) this->run_terms(terms_);
    const auto t1 = std::chrono::steady_clock::now();
    const double dt = n_gas_ ? gas_step_limit() : phased_ ? mixed_step_limit() : solid_step_limit();
    times_.forces += this->seconds(t1, std::chrono::steady_clock::now());
    return std::min(dt, dt_max_);
  }

  // Particles that move: the free gas particles; every liquid, solid and grain particle (not tank walls).
  std::size_t fluid_count() const override { return uniform_ ? uniform_->fluid_count() : n_gas_ ? n_fluid_ : n_moving_; }

  Diagnostics diagnostics() const override {
    if (uniform_) return uniform_->diagnostics(this->time_, this->steps_, double(this->dt_));
    if (n_gas_) return this->diagnostics_with(MeasureGasSums<T, D>{gas_view_, {0, 0, 0}, phi_}, gas_.gravity);
    if (!phased_) return this->diagnostics_with(MeasureSolidSums<T, D>{pv_.s, {0, 0, 0}, phi_}, solid_.gravity);
    MeasureMixedSums<T, D> m{pv_.s, {0, 0, 0}, double(liquid_.eos.rho0), double(liquid_.eos.gamma),
                             double(liquid_.eos.B)};
    for (int d = 0; d < D; ++d) m.gravity[d] = double(liquid_.gravity[d]);
    const DiagnosticSums zero{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0};
    const DiagnosticSums s = exec_.transform_reduce(n_, zero, m, CombineDiagnosticSums{});
    Diagnostics dg = diagnostics_from_sums(s, D, this->time_, this->steps_, double(this->dt_), n_, s.max_density_error);
    if (hertz_) {
      // The grains' spin, 1/2 I w^2, is kinetic energy too (and part of the total).
      const double spin = exec_.transform_reduce(
          n_, 0.0, MeasureGrainSpinEnergy<T, D>{pv_.s.phase, pv_.s.m, grain_radius_, hist_.w}, SumDoubles{});
      dg.kinetic += spin;
      dg.total += spin;
    }
    return dg;
  }

  RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out) override {
    if (uniform_) return uniform_->fill_render_data(req, out);
    refresh_bound(needs_gravity_bound(req.field));
    return fill_render_data_from_store<T, D>(exec_, store_, gv_.x.get(), kind_.get(), n_, !n_gas_ || n_fluid_ > 0,
                                             req, out);
  }
  ColourHistogram colour_histogram(const RenderRequest& req, float lo, float hi) override {
    if (uniform_) return uniform_->colour_histogram(req, lo, hi);
    refresh_bound(needs_gravity_bound(req.field));
    return colour_histogram_from_store(exec_, store_, kind_.get(), n_, !n_gas_ || n_fluid_ > 0, req, lo, hi);
  }
  std::vector<TreeCellBox> gravity_tree_cells(int levels) override {
    return gravity_ ? gravity_->cells(levels) : std::vector<TreeCellBox>{};
  }
  // `bound` is derived when asked for (gravity_bound.h): a cache, so the const capture refreshes it.
  void capture_frame_into(FrameData& f, const std::vector<std::string>& names) const override {
    const_cast<StoreSolver*>(this)->refresh_bound(needs_gravity_bound(names));
    Base::capture_frame_into(f, names);
  }

  void apply_params(const ParamSet& params) override {
    if (uniform_) {
      uniform_->configure_live(params);
      this->configure_time(params);
      // XSPH or shifting switched on after construction: their field did not exist yet.
      if (uniform_->add_drift_field(field_adder())) uniform_->zero_drift_field();
      // A lower dt_max acts on the very next step, not one step late.
      this->dt_ = T(std::min(double(this->dt_), dt_max_));
      params_ = params;
      return;
    }
    if (n_gas_)
      configure_live_gas(params);
    else
      configure_live(params);
    params_ = params;
  }

  // The collider sphere (collider.*; the viewer drags it between steps): the liquid alone's, or on the
  // grains of a mixed scene.
  ColliderSphere collider() const override {
    return uniform_ ? uniform_->collider() : phased_ ? collider_host_ : Simulation::collider();
  }
  void set_collider(const ColliderSphere& c) override {
    if (uniform_) return uniform_->set_collider(c);
    if (!phased_) return Simulation::set_collider(c);
    if (!n_grains_ || n_moving_ != n_grains_)
      throw std::invalid_argument("collider: in a mixed scene it pushes grains only, and this scene has other bodies");
    set_grain_collider(c);
  }

  std::vector<Material> materials() const override { return materials_; }

  // Between steps, like apply_params; the EOS kind and the yield model may change too (a model
  // without a limit skips the yield pass until one with a limit is set).
  void set_material(std::size_t index, const Material& m) override {
    if (uniform_) return Simulation::set_material(index, m);  // the liquid alone has no material table
    if (index >= materials_.size())
      throw std::invalid_argument("set_material: material index " + std::to_string(index) + " is out of range (" +
                                  std::to_string(materials_.size()) + " materials)");
    // The porosity term's fields exist only when the scene started with a porous material (of that kind).
    const int kind = m.porous.kind;
    const PorousView<T>& por = pv_.s.por;
    if (kind != kPorousNone && (!por.alpha || (kind == kPorousEpsAlpha && !por.eps) ||
                                (kind == kPorousPAlpha && !por.damage)))
      throw std::invalid_argument("set_material: material '" + m.name + "' switches porosity to " +
                                  (kind == kPorousPAlpha ? "p_alpha" : "eps_alpha") +
                                  ", which the running scene has no fields for; restart the scene with it");
    materials_[index] = m;
    mats_.set(index, m);
    const bool had_yield = any_yield_;
    any_yield_ = mats_.any_yield();
    if (any_yield_ != had_yield) bind_hooks();  // a yield model set live adds (or drops) the yield hook
  }

  void restore_frame(const FrameData& frame) override {
    if (uniform_) return restore_uniform(frame);
    Base::restore_frame(frame);
    update_invariants();
  }

  // The benchmark's neighbour-pair counts (the liquid alone's force pass).
  void set_count_pairs(bool on) override {
    if (uniform_) uniform_->set_count_pairs(on);
  }
  PairCounts pair_counts() const override { return uniform_ ? uniform_->pair_counts() : PairCounts{}; }

  // Probes and gauges: the liquid alone's (solver/uniform_liquid.h); no other store has any
  // (make_simulation refuses their sections first).
  void set_probes(const ProbeLayout& layout) override {
    if (!uniform_) throw std::invalid_argument("probes: available for the liquid alone (physics.model = wcsph) only");
    uniform_->set_probes(layout);
  }
  ProbeRing* probe_ring() const override { return uniform_ ? uniform_->probe_ring() : nullptr; }
  void queue_probe_sample(bool with_loads) const override {
    if (!uniform_) throw std::logic_error("queue_probe_sample: no probes installed");
    uniform_->queue_probe_sample(with_loads);
  }

  // The packed halo of a distributed run of the liquid alone or of solids alone (dist/store_halo_rows.h,
  // dist/solid_halo_limit.h), made on first use.
  dist::HaloRows& halo_rows() override {
    if (uniform_) return uniform_->halo_rows();
    if (n_gas_ || phased_)
      throw std::logic_error("halo_rows: a distributed run of this store's models is not available (the liquid alone "
                             "and solids alone only)");
    if (!halo_) halo_ = std::make_unique<dist::StoreHaloRows<T, D, Exec, SolidView<T, D>>>(exec_, store_, pv_.s, this->dt_);
    return *halo_;
  }

 private:
  // ---- The liquid alone (its uniform-h fast path, solver/uniform_liquid.h) ----

  // A typed store field of the solver (device_field), for the path's allocate(field).
  auto field_adder() {
    return [this](auto* tag, const char* name, const char* units, const char* what, bool persistent) {
      return this->template device_field<std::remove_pointer_t<decltype(tag)>>(name, units, what, persistent);
    };
  }

  void start_uniform(const ParamSet& params, const SceneParticles& init) {
    params_ = params;
    uniform_ = std::make_unique<UniformLiquid<T, D, Exec>>(exec_, store_, n_, array_bytes_, this->dt_, init.fluid_count());
    uniform_->configure(params, init, settings_);
    this->configure_time(params);  // time.dt_fixed and the rk23 keys are not liquid keys: their defaults
    uniform_->allocate(field_adder());
    uniform_->upload(init);
    terms_ = uniform_->bind(params);
    this->start();  // sort, densities, forces, extremes: the first dt
  }

  // The extremes e of the state after `step` steps at `time`: a blow-up is reported there, else the next
  // step's limit (UniformLiquid::limit and time.dt_max; the collapse check below time.dt_min is
  // the base's choose_dt).
  double uniform_limit(long step, double time, const StepExtremes<T>& e) {
    if (e.bad_index != 0xffffffffu) {
      const bool fluid = store_.download("kind")[e.bad_index] == kFluid;
      this->report_bad_particle(e.bad_index, e.bad_field, fluid ? "fluid" : "wall", uniform_->bad_advice(e, fluid), step,
                                time);
    }
    const double vmax = std::sqrt(double(e.max_v2)), amax = std::sqrt(double(e.max_a2));
    max_speed_ = vmax;
    max_accel_ = amax;
    return std::min(uniform_->limit(cfl_, force_factor_, vmax, amax), dt_max_);
  }

  // The state and the rates the next step starts from (the persistent fields, the acceleration and
  // density rate of the last force evaluation, and the XSPH correction, which the frame must hold;
  // derived fields it holds are restored too and then recomputed), so the continued run is the same as
  // an uninterrupted one. The bucket table and the pressures follow from the restored positions and
  // densities; the sort is stable, so re-sorting the recorded (already sorted) order leaves it unchanged.
  void restore_uniform(const FrameData& frame) {
    this->restore_frame_where(frame, [](const FieldInfo& info) {
      return info.persistent || info.name == "acceleration" || info.name == "density_rate" ||
             info.name == "xsph_velocity";
    });
    uniform_->move_gates(this->time_);
    uniform_->sort_and_reorder(false);
    this->run_terms(terms_, TermStage::Forces);  // the densities, pressures and walls
  }

  // A gas in one store with another model: no coupling term exists between them yet.
  static void refuse_gas_with_others(const ParamSet& ps, const SceneParticles& init) {
    const std::size_t gas = init.count(kPhaseGas);
    if (gas == 0 || gas == init.size()) return;
    std::string section = "a body of another model";
    for (const char* s : {"block", "tank", "solid_block", "grains"})
      if (!ps.indices(s).empty()) {
        section = std::string("[") + s + "." + std::to_string(ps.indices(s).front()) + "]";
        break;
      }
    throw ParamError(ps.where("physics.model") + ": a gas ([gas_block.N]) and " + section +
                     " in one store: no term couples a gas to a liquid, solid or grains yet (the gas's grad-h "
                     "density would sum over their particles as if they were gas); run the gas alone with "
                     "physics.model = gas");
  }

  // The integrator's hooks chosen by the materials (solid_hook_recipes): at construction, and again
  // when a material edit changes whether any material has a yield limit.
  void bind_hooks() {
    if (n_gas_) return;
    hooks_ = bind_terms(solid_hook_recipes(bool(pv_.s.por.alpha), any_yield_, bool(pv_.s.damage)), ctx_, store_, params_);
  }

  // The derived (non-persistent) stress invariants, from the current deviatoric stress.
  void update_invariants() {
    if (!n_gas_) exec_.for_each(n_, SolidVonMisesStress<T, D>{pv_.s.S, pv_.s.damage, von_mises_});
  }

  // The step limits of each store: CFL on the signal speed and the force criterion; the gas's switch
  // decay; the grains' contact time.
  double gas_step_limit() {
    const GasExtremes<T> e = exec_.transform_reduce(n_, MeasureGasExtremes<T, D>::none(),
                                                    MeasureGasExtremes<T, D>{gas_view_}, CombineGasExtremes<T>{});
    if (e.bad_index != 0xffffffffu) {
      const bool frozen = store_.download("kind")[e.bad_index] != kFluid;
      this->report_bad_particle(e, frozen ? "frozen gas" : "gas",
                                e.bad_field == kBadInternalEnergy
                                    ? ", negative or not finite; try a smaller time.cfl or time.integrator = rk23"
                                    : ", which is not finite (or a density <= 0); try a smaller time.cfl");
    }
    max_speed_ = std::sqrt(double(e.max_v2));
    double dt = cfl_ * double(e.min_h_vsig);
    dt = std::min(dt, force_factor_ * std::sqrt(double(e.min_h_a)));
    return std::min(dt, force_factor_ * double(e.min_decay));
  }
  double solid_step_limit() {
    const SolidExtremes<T> e = exec_.transform_reduce(n_, MeasureSolidExtremes<T, D>::none(),
                                                      MeasureSolidExtremes<T, D>{pv_.s}, CombineSolidExtremes<T>{});
    if (e.bad_index != 0xffffffffu)
      this->report_bad_particle(
          e, "solid", ", which is not finite (or a density <= 0); try a smaller time.cfl or solid.artificial_stress = 0.3");
    max_speed_ = std::sqrt(double(e.max_v2));
    return std::min(cfl_ * double(e.min_h_vsig), force_factor_ * std::sqrt(double(e.min_h_a)));
  }
  // The limits and (frictional grains) the largest contact count in one reduction.
  double mixed_step_limit() {
    const GrainStepExtremes<T> both = exec_.transform_reduce(
        n_, GrainStepExtremes<T>::none(),
        MeasureGrainStepExtremes<T, D>{MeasureSolidExtremes<T, D>{pv_.s},
                                       MeasureDemContacts{hertz_ ? hist_.count : nullptr, pv_.s.phase}},
        CombineGrainStepExtremes<T>{});
    const SolidExtremes<T> e = both.rates();
    if (e.bad_index != 0xffffffffu)
      this->report_bad_particle(e, "mixed-scene",
                                ", which is not finite (or a density <= 0); try a smaller time.cfl or a larger fluid.c0");
    max_speed_ = std::sqrt(double(e.max_v2));
    double dt = cfl_ * double(e.min_h_vsig);
    dt = std::min(dt, force_factor_ * std::sqrt(double(e.min_h_a)));
    dt = std::min(dt, dt_grain_);
    if (hertz_) {
      check_contact_capacity(DemMostContacts{both.most_count, both.most_index});
      dt = std::min(dt, hertz_dt());
    }
    return dt;
  }

  // ---- The gas (a store of gas alone) ----

  void configure_gas(const ParamSet& params, const SceneParticles& init) {
    const std::string kernel = params.text("particles.kernel");
    gas_.kernel = VarKernel<T, D>::make(kernel == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2);
    gas_.eos = IdealGasEos<T>{T(init.gas.gamma)};
    gas_.eta = T(params.real("gas.eta"));
    double hmax0 = 0, hmin0 = std::numeric_limits<double>::max();
    for (double h : init.h) {
      hmax0 = std::max(hmax0, h);
      hmin0 = std::min(hmin0, h);
    }
    const double cap = params.real("gas.h_max");
    gas_.h_max = T(cap > 0 ? std::max(cap, hmax0) : 100.0 * hmax0);
    gas_.h_iter = 50;
    gas_.summation = params.text("gas.density") == "summation";
    gas_.fixed_h = params.text("gas.h_mode") == "fixed";
    gas_.switch_on = params.text("viscosity.switch") == "morris_monaghan";
    for (int d = 0; d < D; ++d) gas_.gravity[d] = T(init.gravity[d]);
    settings_.scheme = scheme_from_name(params.text("time.integrator"));
    // auto (docs/physics.md, "Neighbour search for variable h"): in 3D the tree on the CPU (1.3-1.9x the
    // grid's steps/s there, uniform to tenfold h) and on a GPU where the starting h spread more than
    // fourfold (H200, 10^6: the wide-h scene 19.7 steps/s with the tree, the grid's benchmark not done in
    // 40 s; near-uniform h, Sedov 3D: the grid 64.1 against 56.2); the level grid in 1D and 2D.
    const std::string search = params.text("gas.neighbour_search");
    const bool wide_h = hmax0 > 4 * hmin0;
    tree_search_ = search == "tree" || (search == "auto" && D == 3 && (Exec::kBackend == Backend::Cpu || wide_h));
    configure_live_gas(params);
    grid_ = level_grid_of(init, hmin0, double(gas_.h_max));
  }

  // The keys that act on the rates and the step size only, so they may change between steps (the
  // viewer's panels). The rest (kernel, eta, density and h modes, the switch's field, the integrator
  // and its stage buffers, the particles) are needs_rebuild keys, read in configure_gas() only.
  void configure_live_gas(const ParamSet& params) {
    gas_.h_tol = T(std::max(params.real("gas.h_tolerance"), 10 * double(std::numeric_limits<T>::epsilon())));
    gas_.alpha = T(params.real("viscosity.alpha"));  // the gas's default, 1 (builtin_params.cpp)
    gas_.beta = T(params.real("viscosity.beta"));
    gas_.alpha_u = T(params.real("gas.conductivity"));
    gas_.alpha_min = T(std::min(params.real("viscosity.alpha_min"), params.real("viscosity.alpha")));
    gas_.switch_decay = T(params.real("viscosity.switch_decay"));
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) gas_.gravity[d] = T(g[d]);
    if (gravity_) gravity_->set(gravity_settings_from(params));
    this->configure_time(params);
  }

  void allocate_gas() {
    using V = Vec<T, D>;
    GasView<T, D>& g = gas_view_;
    g.x = this->template device_field<V>("position", "m", "particle position", true);
    g.v = this->template device_field<V>("velocity", "m/s", "particle velocity", true);
    g.u = this->template device_field<T>("internal_energy", "J/kg", "specific internal energy", true);
    g.rho = this->template device_field<T>("density", "kg/m^3", "mass density", true);
    g.h = this->template device_field<T>("smoothing_length", "m", "smoothing length h (kernel support 2h)", true);
    g.alpha = gas_.switch_on ? this->template device_field<T>("viscosity_alpha", "", "artificial viscosity coefficient", true) : nullptr;
    g.m = init_.m = this->template device_field<T>("mass", "kg", "particle mass", true);
    g.kind = kind_ = this->template device_field<uint8_t>("kind", "", "0 gas, 1 frozen boundary particle", true);
    id_ = this->template device_field<uint32_t>("id", "", "particle number in the initial layout", true);
    g.p = this->template device_field<T>("pressure", "Pa", "pressure (ideal gas)", false);
    g.c = this->template device_field<T>("sound_speed", "m/s", "adiabatic sound speed", false);
    g.omega = this->template device_field<T>("omega", "", "grad-h correction factor Omega", false);
    g.a = this->template device_field<V>("acceleration", "m/s^2", "total acceleration", false);
    g.du = this->template device_field<T>("energy_rate", "W/kg", "du/dt", false);
    g.drho = this->template device_field<T>("density_rate", "kg/(m^3 s)", "drho/dt (continuity density)", false);
    g.dalpha = gas_.switch_on ? this->template device_field<T>("viscosity_alpha_rate", "1/s", "dalpha/dt", false) : nullptr;
    g.vsig = this->template device_field<T>("signal_speed", "m/s", "largest signal speed over the neighbours", false);
    g.divv = this->template device_field<T>("velocity_divergence", "1/s", "div v", false);
    gv_ = GravityView<T, D>{g.x, g.m, g.h, g.a};

    // The integrator's variables and their stage buffers (persistent: carried by the sort).
    this->add_ode_var("position", g.x, g.v, true);
    this->add_ode_var("velocity", g.v, g.a, false);
    this->add_ode_var("internal_energy", g.u, g.du, false);
    if (!gas_.summation) this->add_ode_var("density", g.rho, g.drho, false);
    if (gas_.switch_on) this->add_ode_var("viscosity_alpha", g.alpha, g.dalpha, false);
    if (tree_search_) {
      tree_ = std::make_unique<TreeIndex<T, D, Exec>>(exec_, n_, &array_bytes_);
    } else {
      cells_ = std::make_unique<LevelIndex<T, D, Exec>>(exec_, grid_, n_, &array_bytes_);
      grid_ = cells_->grid();
    }
  }

  void upload_gas(const SceneParticles& init) {
    zero_fields();
    std::vector<T> u(n_), h(n_), alpha(n_, gas_.alpha);
    for (std::size_t i = 0; i < n_; ++i) {
      u[i] = T(init.energy[i]);
      h[i] = T(std::min(init.h[i], double(gas_.h_max)));
    }
    upload_common(init, gas_view_.x, gas_view_.v, gas_view_.rho, gas_view_.h);
    ejecta::upload(exec_, gas_view_.u, u.data(), n_);
    ejecta::upload(exec_, gas_view_.h, h.data(), n_);
    if (gas_view_.alpha) ejecta::upload(exec_, gas_view_.alpha, alpha.data(), n_);
  }

  // ---- Liquid, walls, solids and grains ----

  void configure(const ParamSet& params, const SceneParticles& init) {
    if (phased_) refuse_unsupported(params);
    const KernelType kt =
        params.text("particles.kernel") == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2;
    solid_.kernel = VarKernel<T, D>::make(kt);
    liquid_.kernel = solid_.kernel;
    liquid_.eos = TaitEos<T>::make(init.liquid.rho0, init.has_liquid ? init.liquid.c0 : 1.0, init.liquid.gamma);
    solid_.h_over_dp = T(params.real("solid.h_over_dp"));
    materials_ = init.materials;
    mats_.assign(exec_, init.materials, &array_bytes_);
    solid_.mat = mats_.device();
    solid_.n_materials = mats_.size();
    any_yield_ = mats_.any_yield();
    for (int d = 0; d < D; ++d) solid_.gravity[d] = T(init.gravity[d]);
    settings_.scheme = scheme_from_name(params.text("time.integrator"));
    art_on_ = params.real("solid.artificial_stress") > 0;
    solid_.correct = params.flag("solid.gradient_correction");
    solid_.correct_force = params.flag("solid.corrected_force");
    if (solid_.correct_force && !solid_.correct)
      throw ParamError(params.where("solid.corrected_force") + ": solid.corrected_force = true needs "
                       "solid.gradient_correction = true (the force is the transpose of the corrected strain rate)");
    solid_.plane_stress = params.text("solid.plane") == "stress";
    if (solid_.plane_stress && D != 2)
      throw ParamError(params.where("solid.plane") + ": solid.plane = stress needs scene.dim = 2 (plane stress is "
                       "a 2D approximation of a thin plate)");
    if (n_grains_) {
      double rmax = 0, mmin = std::numeric_limits<double>::max();
      for (std::size_t i = 0; i < n_; ++i)
        if (init.phase[i] == kPhaseGrain) rmax = std::max(rmax, init.radius[i]), mmin = std::min(mmin, init.mass[i]);
      grains_.r_max = T(rmax);
      grain_mass_min_ = mmin;
      hertz_ = params.text("dem.contact") == "hertz_mindlin";
      if (hertz_ && settings_.scheme != Scheme::Leapfrog)
        throw ParamError(params.where("time.integrator") + ": time.integrator = " + params.text("time.integrator") +
                         " with dem.contact = hertz_mindlin (" + params.where("dem.contact") +
                         "): the grains' tangential springs advance once per step, which needs the one evaluation "
                         "per step of time.integrator = leapfrog; use leapfrog or dem.contact = linear");
      const auto lo = params.vec3("dem.box_min"), hi = params.vec3("dem.box_max");
      for (int d = 0; d < D; ++d) grains_.box_lo[d] = T(lo[d]), grains_.box_hi[d] = T(hi[d]);
    }
    // The collider sphere pushes grains only (the cuda-samples demo); the liquid and solids of a mixed
    // scene do not feel it yet: refused there rather than silently passing through them.
    if (params.flag("collider.enabled") && (!n_grains_ || init.count(kPhaseLiquid) || init.count(kPhaseSolid)))
      throw ParamError(params.where("collider.enabled") + ": collider.enabled = true in a mixed scene acts on grains "
                       "only, and this scene has " + std::string(n_grains_ ? "liquid or solid particles" : "no grains") +
                       " (the collider of a mixed liquid or solid is not available yet); remove it, or run the liquid "
                       "alone with physics.model = wcsph");
    configure_live(params);
    double hmin = std::numeric_limits<double>::max(), hmax = 0;
    for (double h : init.h) hmin = std::min(hmin, h), hmax = std::max(hmax, h);
    grid_ = level_grid_of(init, hmin, hmax);
  }

  // Liquid options of the wcsph solver that the liquid recipe here does not have yet: refused with
  // the key, not silently ignored.
  static void refuse_unsupported(const ParamSet& ps) {
    auto refuse = [&](const std::string& key, const std::string& what, const std::string& value) {
      throw ParamError(ps.where(key) + ": " + key + " = " + value + " is not available for the liquid of a "
                       "mixed scene yet (" + what + "); remove it or run the liquid alone with physics.model = wcsph");
    };
    if (ps.real("fluid.xsph") != 0) refuse("fluid.xsph", "XSPH", format_number(ps.real("fluid.xsph")));
    if (ps.real("fluid.shifting") != 0) refuse("fluid.shifting", "particle shifting", format_number(ps.real("fluid.shifting")));
    if (ps.text("fluid.density") != "continuity") refuse("fluid.density", "summation density", ps.text("fluid.density"));
    if (ps.text("fluid.pressure_term") != "monaghan1992") refuse("fluid.pressure_term", "the Zhang 2017 pair pressure", ps.text("fluid.pressure_term"));
    for (const char* section : {"obstacle", "gate"})
      if (!ps.indices(section).empty())
        throw ParamError(ps.where(std::string(section) + "." + std::to_string(ps.indices(section)[0]) + ".min") +
                         ": [" + section + ".N] is not available in mixed scenes yet; make it a "
                         "[solid_block.N] with motion = prescribed (and its velocity)");
  }

  void configure_live(const ParamSet& params) {
    if (n_grains_ && n_moving_ == n_grains_) {  // collider.* (live: the viewer toggles and drags it)
      ColliderSphere c;
      c.enabled = params.flag("collider.enabled");
      const auto cc = params.vec3("collider.center"), cv = params.vec3("collider.velocity");
      for (int d = 0; d < 3; ++d) c.center[d] = cc[d], c.velocity[d] = cv[d];
      c.radius = params.real("collider.radius");
      c.strength = params.real("collider.strength");
      set_grain_collider(c);
    }
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) solid_.gravity[d] = liquid_.gravity[d] = grains_.gravity[d] = T(g[d]);
    if (n_grains_) {
      const double k = params.real("dem.spring");
      grains_.contact.spring = T(k);
      grains_.contact.damping = T(params.real("dem.damping"));
      grains_.contact.shear = T(params.real("dem.shear"));
      grains_.contact.attraction = T(params.real("dem.attraction"));
      grains_.wall_damping = T(params.real("dem.boundary_damping"));
      if (hertz_) {
        DemHertzMindlinParams<T> hp;
        hp.youngs_a = hp.youngs_b = T(params.real("dem.youngs_modulus"));
        hp.poisson_a = hp.poisson_b = T(params.real("dem.poisson_ratio"));
        hp.restitution = T(params.real("dem.restitution"));
        hp.friction = T(params.real("dem.friction"));
        hm_ = dem_hertz_mindlin_pair(hp);
        rolling_ = T(params.real("dem.rolling_friction"));
        steps_per_contact_ = params.real("dem.steps_per_contact");
        const auto lo = params.vec3("dem.box_min"), hi = params.vec3("dem.box_max");
        double g2 = 0, extent = 0;
        for (int d = 0; d < D; ++d) g2 += double(grains_.gravity[d]) * double(grains_.gravity[d]), extent = std::max(extent, hi[d] - lo[d]);
        fall_speed_ = std::sqrt(2 * std::sqrt(g2) * extent);
      }
      grains_.global_damping = T(params.real("dem.global_damping"));
      // A contact lasts pi sqrt(m* / k); the lightest grain on a wall (m* = m) is the shortest bound
      // that holds for every pair too (m* = m / 2 gives t_c / sqrt 2: resolved by 0.7 of the steps).
      dt_grain_ = k > 0 && !hertz_ ? 3.14159265358979323846 * std::sqrt(grain_mass_min_ / k) / params.real("dem.steps_per_contact")
                        : std::numeric_limits<double>::max();
    }
    // Each material's viscosity: viscosity.solid.* / viscosity.liquid.*, else viscosity.alpha/beta as
    // that model reads it (ParamDesc::inherits; solids alone: viscosity.alpha/beta, the solid's
    // defaults 1 and 2).
    solid_.alpha = T(params.real("viscosity.solid.alpha"));
    solid_.beta = T(params.real("viscosity.solid.beta"));
    solid_.art_eps = art_on_ ? T(params.real("solid.artificial_stress")) : T(0);
    solid_.T_ref = T(params.real("solid.reference_temperature"));
    if (phased_) {
      liquid_.alpha = T(params.real("viscosity.liquid.alpha"));
      liquid_.beta = T(params.real("viscosity.liquid.beta"));
      liquid_.wall_visc = T(params.real("viscosity.wall_factor"));
      liquid_.delta = T(params.real("fluid.delta_sph"));
      liquid_.diffusion_hydrostatic = params.text("fluid.density_diffusion") == "fourtakas2019";
      liquid_.slip = wall_slip_from(params.text("boundary.slip"));
    }
    if (gravity_) gravity_->set(gravity_settings_from(params));
    this->configure_time(params);
  }

  // The fields of the models present: the solid's (the state every particle of a store of several
  // models integrates too), the phase and the coupling's boundary fields where models meet, the
  // porosity's and damage's where a material needs them, the grains'.
  void allocate(const SceneParticles& init) {
    using V = Vec<T, D>;
    SolidView<T, D>& s = pv_.s;
    const bool solo = !phased_;
    s.x = this->template device_field<V>("position", "m", "particle position", true);
    s.v = this->template device_field<V>("velocity", "m/s", "particle velocity", true);
    s.u = this->template device_field<T>("internal_energy", "J/kg", solo ? "specific internal energy" : "specific internal energy (solids)", true);
    s.rho = this->template device_field<T>("density", "kg/m^3", solo ? "mass density (continuity)" : "mass density (continuity; tank walls: rho0)", true);
    s.S = this->template device_field<Sym>("deviatoric_stress", "Pa",
                                           !solo ? "deviatoric stress (solids)"
                                           : D == 1 ? "deviatoric stress S_xx"
                                           : D == 2 ? "deviatoric stress S_xx, S_yy, S_xy"
                                                    : "deviatoric stress xx, yy, zz, xy, xz, yz",
                                           true);
    s.h = init_.h = this->template device_field<T>("smoothing_length", "m", solo ? "smoothing length h (fixed; kernel support 2h)" : "smoothing length h (fixed)", true);
    s.m = init_.m = this->template device_field<T>("mass", "kg", "particle mass", true);
    s.mat = init_.mat = this->template device_field<uint8_t>("material", "", solo ? "material index (order of first use in the scene)" : "solid material index (order of first use)", true);
    s.kind = kind_ = this->template device_field<uint8_t>("kind", "", solo ? "0 free, 1 prescribed motion (keeps its initial velocity)" : "0 free, 1 fixed (tank walls, prescribed solids)", true);
    if (phased_)
      s.phase = init_.phase = this->template device_field<uint8_t>("phase", "", "model of the particle: 0 liquid, 1 tank wall, 2 solid, 3 DEM grain", true);
    id_ = this->template device_field<uint32_t>("id", "", "particle number in the initial layout", true);
    s.p = this->template device_field<T>("pressure", "Pa", solo ? "pressure (material EOS)" : "pressure (liquid: Tait; solid: its EOS; walls: Adami)", false);
    s.c = this->template device_field<T>("sound_speed", "m/s", solo ? "longitudinal sound speed sqrt(c_eos^2 + 4/3 mu/rho)" : "sound speed (solids: longitudinal)", false);
    s.a = this->template device_field<V>("acceleration", "m/s^2", "total acceleration", false);
    s.du = this->template device_field<T>("energy_rate", "W/kg", "du/dt", false);
    s.drho = this->template device_field<T>("density_rate", "kg/(m^3 s)", "drho/dt", false);
    s.dS = this->template device_field<Sym>("stress_rate", "Pa/s", "dS/dt (Hooke with the Jaumann rate)", false);
    s.R = art_on_ ? this->template device_field<Sym>("artificial_stress", "m^5/(kg s^2)", solo ? "artificial stress R/rho^2 terms" : "artificial stress R/rho^2", false)
                  : nullptr;
    s.L = solid_.correct ? this->template device_field<Vec<T, D * D>>("gradient_correction", "", solo ? "kernel-gradient correction M^-1 (row-major)" : "M^-1 (row-major)", false)
                         : nullptr;
    s.vsig = this->template device_field<T>("signal_speed", "m/s", solo ? "largest signal speed over the neighbours" : "signal speed for the CFL limit", false);
    s.eps_p = this->template device_field<T>("plastic_strain", "", solo ? "accumulated equivalent plastic strain (Wilkins 1964 radial return)" : "accumulated equivalent plastic strain", true);
    s.eps_p_step = this->template device_field<T>("plastic_strain_step_start", "", solo ? "plastic_strain at the start of the current step" : "plastic_strain at the step start", true);
    if (phased_) {
      pv_.pb = this->template device_field<T>("boundary_pressure", "Pa", "pressure the liquid sees at a wall or solid (Adami 2012)", false);
      pv_.rhob = this->template device_field<T>("boundary_density", "kg/m^3", "density the liquid sees at a wall or solid", false);
      pv_.vb = this->template device_field<V>("boundary_velocity", "m/s", "velocity of a wall or solid in the liquid's viscosity", false);
    }
    if (!init.flaw_offset.empty()) {
      s.damage = this->template device_field<T>("damage", "", "Grady-Kipp tensile damage D (0 intact, 1 failed)", true);
      flaw_count_ = this->template field<uint32_t>("flaw_count", "", "number of Weibull flaws of the particle", true);
      active_flaws_ = this->template device_field<uint32_t>("active_flaws", "", "flaws active at the local tensile strain (last damage pass)", true);
      flaw_offset_.resize(exec_, init.flaw_offset.size(), &array_bytes_);  // n + 1, or by init.id
      flaw_strain_.resize(exec_, init.flaw_strain.size(), &array_bytes_);
    }
    allocate_porous(init);
    von_mises_ = this->template device_field<T>("von_mises_stress", "Pa",
                                                solo ? "von Mises equivalent stress sqrt(3 J2), out-of-plane deviator components included"
                                                     : "von Mises equivalent stress sqrt(3 J2)", false);
    if (n_grains_) grain_radius_ = this->template device_field<T>("grain_radius", "m", "radius of a DEM grain (0: not a grain)", true);
    if (hertz_) {
      using Spin = Vec<T, DemSpinDim<D>::value>;
      constexpr int C = DemContactCapacity<D>::value;
      hist_.partner = this->template device_field<Vec<uint32_t, C>>("contact_partner", "", "ids of a grain's contact partners (4294967295: free slot; walls 4294967280 + 2 axis + side)", true);
      hist_.spring = this->template device_field<Vec<T, D * C>>("contact_spring", "m", "tangential spring of each contact slot (Cundall & Strack 1979)", true);
      hist_.count = this->template device_field<uint32_t>("contact_count", "", "contacts of a grain (coordination number plus walls)", false);
      hist_.w = this->template device_field<Spin>("angular_velocity", "rad/s", "angular velocity of a grain (2D: about z)", true);
      hist_.dw = this->template device_field<Spin>("angular_acceleration", "rad/s^2", "torque / moment of inertia", false);
      hist_.id = id_;
    }
    gv_ = GravityView<T, D>{s.x, s.m, s.h, s.a};

    this->add_ode_var("position", s.x, s.v, true);
    this->add_ode_var("velocity", s.v, s.a, false);
    this->add_ode_var("internal_energy", s.u, s.du, false);
    this->add_ode_var("density", s.rho, s.drho, false);
    this->add_ode_var("deviatoric_stress", s.S, s.dS, false);
    if (s.por.alpha) {
      this->add_ode_var("distention", s.por.alpha, s.por.dalpha, false);
      this->add_ode_var("compaction_work", s.por.work, s.por.dwork, false);
      if (s.por.eps) this->add_ode_var("compaction_strain", s.por.eps, s.por.deps, false);
    }
    if (hertz_) this->add_ode_var("angular_velocity", hist_.w, hist_.dw, false);
    cells_ = std::make_unique<LevelIndex<T, D, Exec>>(exec_, grid_, n_, &array_bytes_);
    grid_ = cells_->grid();
  }

  // The porosity term's fields (physics/porous_model.h), only when a material of the scene is porous:
  // a scene without pores carries none of them and runs exactly the non-porous passes.
  void allocate_porous(const SceneParticles& init) {
    bool palpha = false, epsalpha = false;
    for (const Material& m : init.materials) {
      palpha = palpha || m.porous.kind == kPorousPAlpha;
      epsalpha = epsalpha || m.porous.kind == kPorousEpsAlpha;
    }
    if (!palpha && !epsalpha) return;
    PorousView<T>& v = pv_.s.por;
    v.alpha = this->template device_field<T>("distention", "", "distention alpha = rho_s / rho (1: no pores; integrated)", true);
    v.dalpha = this->template device_field<T>("distention_rate", "1/s", "d alpha / dt (p-alpha, eq. P3)", false);
    v.work = this->template device_field<T>("compaction_work", "J/kg",
                                            "work of pore collapse, integral of -P (d alpha/dt) / (alpha rho)", true);
    v.dwork = this->template device_field<T>("compaction_work_rate", "W/kg", "rate of compaction_work", false);
    v.porosity = this->template device_field<T>("porosity", "", "porosity 1 - 1/alpha", false);
    if (epsalpha) {
      v.eps = this->template device_field<T>("compaction_strain", "",
                                             "eps-alpha compaction strain eps_c (negative in compression; eq. E2)", true);
      v.deps = this->template device_field<T>("compaction_strain_rate", "1/s", "d eps_c / dt", false);
    }
    if (palpha) v.damage = this->template device_field<T>("compaction_damage", "", "p-alpha compaction damage D_alpha (eq. P6)", false);
  }

  void upload(const SceneParticles& init) {
    zero_fields();
    SolidView<T, D>& s = pv_.s;
    upload_common(init, s.x, s.v, s.rho, init_.h);
    ejecta::upload(exec_, init_.mat, init.material.data(), n_);
    if (init_.phase) ejecta::upload(exec_, init_.phase, init.phase.data(), n_);
    if (grain_radius_) {
      std::vector<T> r(n_);
      for (std::size_t i = 0; i < n_; ++i) r[i] = T(init.radius[i]);
      ejecta::upload(exec_, grain_radius_, r.data(), n_);
    }
    if (hertz_) store_.upload_raw("contact_partner", std::vector<unsigned char>(sizeof(hist_.partner[0]) * n_, 0xff));
    if (s.por.alpha) {  // every particle starts at its material's alpha_0 (1 without pores)
      std::vector<T> alpha(n_);
      for (std::size_t i = 0; i < n_; ++i) alpha[i] = mats_[init.material[i]].porous.alpha0;
      ejecta::upload(exec_, s.por.alpha, alpha.data(), n_);
    }
    if (s.damage) {
      std::vector<uint32_t> count(n_);
      for (std::size_t i = 0; i < n_; ++i) {
        const std::size_t id = init.id.empty() ? i : init.id[i];
        count[i] = uint32_t(init.flaw_offset[id + 1] - init.flaw_offset[id]);
      }
      std::vector<T> strain(init.flaw_strain.begin(), init.flaw_strain.end());
      exec_.upload(flaw_count_, count.data(), sizeof(uint32_t) * n_);
      exec_.upload(flaw_offset_.data(), init.flaw_offset.data(), sizeof(std::int64_t) * init.flaw_offset.size());
      exec_.upload(flaw_strain_.data(), strain.data(), sizeof(T) * strain.size());
    }
  }

  // ---- Shared by every store ----

  // The level grid over the particles' extent, for h from hmin to hmax.
  LevelGrid<T, D> level_grid_of(const SceneParticles& init, double hmin, double hmax) const {
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int d = 0; d < D; ++d) lo[d] = std::numeric_limits<double>::max(), hi[d] = -lo[d];
    for (std::size_t i = 0; i < n_; ++i)
      for (int d = 0; d < D; ++d) {
        lo[d] = std::min(lo[d], init.position[i * D + d]);
        hi[d] = std::max(hi[d], init.position[i * D + d]);
      }
    LevelGrid<T, D> grid = make_level_grid<T, D>(lo, hi, hmin, hmax, n_);
    // The bytes a neighbour read takes: the solid's (the gas's is smaller; only the automatic band uses it).
    grid.band = band_rows_setting(params_.integer("neighbours.band_rows"), exec_cache_bytes(exec_), n_, grid.dims[0], D, 1,
                                  (n_gas_ ? 2.0 * D + 7 : 2.0 * D + 5 + D * (D + 1)) * sizeof(T) + (n_gas_ ? 0 : 2));  // bucket_order.h (issue 18)
    return grid;
  }

  // Every field (the stage buffers included) starts at zero; each scheme writes a buffer before reading it.
  void zero_fields() {
    for (const FieldInfo& f : store_.fields())
      store_.upload_raw(f.name, std::vector<unsigned char>(
                                    (f.scalar == ScalarType::UInt8 ? 1 : f.scalar == ScalarType::Float64 ? 8 : 4) *
                                        std::size_t(f.components) * n_,
                                    0));
  }

  // What every particle has: position, velocity, density, h, mass, kind, id (the scene's, else 0 .. n-1).
  void upload_common(const SceneParticles& init, DevicePtr<Vec<T, D>> xp, DevicePtr<Vec<T, D>> vp, DevicePtr<T> rhop,
                     DevicePtr<T> hp) {
    const SceneHostState<T, D> s = scene_host_state<T, D>(init, n_, true, true);
    ejecta::upload(exec_, xp, s.x.data(), n_);
    ejecta::upload(exec_, vp, s.v.data(), n_);
    ejecta::upload(exec_, rhop, s.rho.data(), n_);
    ejecta::upload(exec_, hp, s.h.data(), n_);
    ejecta::upload(exec_, init_.m, s.m.data(), n_);
    ejecta::upload(exec_, kind_, init.kind.data(), n_);
    ejecta::upload(exec_, id_, s.id.data(), n_);
  }

  // Self-gravity (gravity.self = on; a gas or solids alone): the octree's arrays and the potential field.
  void allocate_gravity(const ParamSet& params) {
    if (!self_gravity_enabled(params) || phased_) return;
    phi_ = this->template field<T>("gravitational_potential", "J/kg", "self-gravity potential phi (octree)", false);
    bound_ = this->template field<uint8_t>("bound", "", "0 unbound, 1 bound", false);  // gravity_bound.h
    gravity_ = std::make_unique<SelfGravity<T, D, Exec>>(exec_, n_, &array_bytes_);
    gravity_->set(gravity_settings_from(params));
    gravity_->hint_sorted(tree_search_);  // the gas's tree search leaves the store in the gravity's key order
  }
  void refresh_bound(bool needed) {
    if (!gravity_ || !needed) return;
    const Vec<T, D>* v = n_gas_ ? gas_view_.v.get() : pv_.s.v.get();  // bound: 1/2 |v - v_cm|^2 + phi < 0
    mark_gravity_bound(exec_, n_, v, gv_.m.get(), phi_, bound_);
  }

  // The Hertz contact time of the lightest grain at the larger of the fastest particle's speed and the
  // free-fall speed across the box, sqrt(2 |g| extent), with m* = m/2 and R* = r_max/2 (two grains;
  // shorter than on a wall): t_c = 2.868 (m*^2 / (R* E*^2 v))^(1/5) (Johnson 1985, eq. 11.24), over
  // dem.steps_per_contact.
  double hertz_dt() const {
    const double v = std::max(max_speed_, fall_speed_);
    if (!(v > 0)) return std::numeric_limits<double>::max();
    const double m_star = 0.5 * grain_mass_min_, r_star = 0.5 * double(grains_.r_max), e_star = double(hm_.e_star);
    return 2.868 * std::pow(m_star * m_star / (r_star * e_star * e_star * v), 0.2) / steps_per_contact_;
  }

  void set_grain_collider(const ColliderSphere& c) {
    if (c.enabled && !(c.radius > 0)) throw std::invalid_argument("collider: the radius must be positive");
    collider_host_ = c;
    grains_.collider = c.enabled;
    grains_.collider_r = T(c.radius);
    for (int d = 0; d < D; ++d) grains_.collider_x[d] = T(c.center[d]), grains_.collider_v[d] = T(c.velocity[d]);
  }

  // A grain with more contacts than its list holds stops the run, naming the grain and the capacity.
  void check_contact_capacity(const DemMostContacts& most) const {
    constexpr int C = DemContactCapacity<D>::value;
    if (most.count <= uint32_t(C)) return;
    const std::vector<double> id = store_.download("id");
    std::ostringstream msg;
    msg << "at step " << this->steps_ << ", t = " << this->time_ << " s: grain particle " << std::size_t(id[most.index])
        << " touches " << most.count << " grains and walls, more than the contact list of a grain holds ("
        << C << " in " << D << "D, DemContactCapacity in engine/physics/dem_grains_hertz_mindlin.h); the grains "
        << "overlap too much (raise dem.youngs_modulus or lower the impact speed) or their radii differ too much";
    throw BlowUpError(msg.str());
  }

  // The models present.
  std::size_t n_gas_ = 0, n_grains_ = 0, n_moving_ = 0, n_fluid_ = 0;
  bool phased_ = false;  // several models, or a mixed scene: the solid's terms masked to its phase
  // The gas (a store of gas alone).
  GasModel<T, D> gas_{};
  GasView<T, D> gas_view_{};
  bool tree_search_ = false;                     // gas.neighbour_search = tree
  std::unique_ptr<TreeIndex<T, D, Exec>> tree_;  // then the tree, not the level grid (cells_)
  // Liquid, walls, solids, grains.
  SolidMaterialTable<T, Exec> mats_;  // what solid_.mat points to
  SolidModel<T, D> solid_{};
  LiquidModel<T, D> liquid_{};
  GrainModel<T, D> grains_{};
  ColliderSphere collider_host_{};
  bool hertz_ = false;
  DemHertzMindlinPair<T> hm_{};
  T rolling_ = T(0);
  GrainHistoryView<T, D> hist_{};
  double steps_per_contact_ = 50, fall_speed_ = 0;
  DevicePtr<T> grain_radius_;
  double grain_mass_min_ = 0, dt_grain_ = std::numeric_limits<double>::max();
  MixedView<T, D> pv_{};
  // Every store's.
  LevelGrid<T, D> grid_{};
  // the views' read-only fields, writable for the upload and the sort (h)
  struct {
    DevicePtr<T> h, m;
    DevicePtr<uint8_t> mat, phase;
  } init_;
  DevicePtr<uint8_t> kind_;
  DevicePtr<uint32_t> id_;
  DevicePtr<T> von_mises_;
  std::vector<Material> materials_;
  bool any_yield_ = false, art_on_ = false;
  ParamSet params_;  // the latest parameters, for binding the hooks again (bind_hooks)
  // Damage: the flaws by initial id.
  uint32_t* flaw_count_ = nullptr;
  DevicePtr<uint32_t> active_flaws_;
  DeviceArray<std::int64_t, Exec> flaw_offset_;  // by initial id, n + 1
  DeviceArray<T, Exec> flaw_strain_;             // activation strains, ascending per particle
  T dt_taken_ = T(0);                            // the accepted step's dt, for the after_step hooks
  // Self-gravity.
  GravityView<T, D> gv_{};
  std::unique_ptr<SelfGravity<T, D, Exec>> gravity_;
  T* phi_ = nullptr;
  uint8_t* bound_ = nullptr;  // 1/2 |v - v_cm|^2 + phi < 0 (gravity_bound.h)
  // What the terms read when they run (references to the members above), the step's list and the
  // integrator's hooks.
  StoreTermContext<T, D, Exec> ctx_{exec_,     n_,          phased_, cells_,       tree_,         grid_,
                                    pv_,       pv_.s,       liquid_, solid_,       grains_,       grain_radius_,
                                    hist_,     hm_,         rolling_, this->dt_,   gas_view_,     gas_,
                                    gv_,       gravity_,    phi_,    times_,       phase_timing_, id_,
                                    flaw_offset_, flaw_strain_, active_flaws_, dt_taken_};
  std::vector<Term> terms_, hooks_;
  std::unique_ptr<dist::StoreHaloRows<T, D, Exec, SolidView<T, D>>> halo_;  // a distributed run's, made on first use
  // The liquid alone: its uniform-h fast path (null in every other scene); after exec_ and store_,
  // which it references: released before them.
  std::unique_ptr<UniformLiquid<T, D, Exec>> uniform_;
};

template <class T, class Exec>
std::unique_ptr<Simulation> make_store_solver(const ParamSet& params, const SceneParticles& init) {
  switch (init.dim) {
    case 1: return std::make_unique<StoreSolver<T, 1, Exec>>(params, init);
    case 2: return std::make_unique<StoreSolver<T, 2, Exec>>(params, init);
    default: return std::make_unique<StoreSolver<T, 3, Exec>>(params, init);
  }
}

}  // namespace ejecta
