#pragma once
// The elastic(-plastic) solid solver (physics.model = solid), built like GasSolver and sharing its
// parts: the particle store, the level grid (one level: fixed h), the staged integrators over the
// generic ODE state (position, velocity, density, internal energy, deviatoric stress), capture and
// restore through capture_fields.h and the render data. One evaluation of the rates: sort by bucket
// and reorder, then the terms of the solid's recipe (solver/model_recipes.h, solver/terms/solid_terms.h,
// the same terms a mixed store runs for its solids):
//   eos_solid_benz_asphaug1994 (p, longitudinal c_l, artificial stress) ->
//   [correction_randles_libersky1996] -> forces_solid_gray2001 (momentum, continuity, energy,
//   Hooke/Jaumann) -> [self_gravity_barnes_hut1986],
// then one reduction (dt limits, first bad particle). Porous materials run the same terms with the
// porosity's fields (physics/porous_model.h).
// The von Mises / Lundborg limit is applied after every update of the state (after_stage()), with the
// equivalent plastic strain of its return. Grady-Kipp damage (physics/solid_damage.h) advances once
// per accepted step, after the integrator: an operator split, so RK23's rejected tries never touch it.
// The Weibull flaws sit in a flat array by initial id (never reordered, no per-particle cap).
// Equations and references: physics/solid_model.h and docs/physics.md ("Solids: the elastic model").
#include "dist/solid_halo_limit.h"
#include "dist/store_halo_rows.h"
#include "exec/device_array.h"
#include "gravity/gravity_bound.h"
#include "gravity/gravity_params.h"
#include "physics/solid_damage.h"
#include "physics/solid_invariants.h"
#include "physics/solid_model.h"
#include "render_data/fill_from_store.h"
#include "scene/solid_scene.h"
#include "solver/solid_material_table.h"
#include "solver/model_recipes.h"
#include "solver/row_subset_pass.h"
#include "solver/staged_store_solver.h"
#include "solver/terms/term_contexts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
class SolidSolver final : public StagedStoreSolver<SolidSolver<T, D, Exec>, T, D, Exec>, public dist::HaloRowsProvider {
  using Base = StagedStoreSolver<SolidSolver<T, D, Exec>, T, D, Exec>;
  friend Base;
  using Base::exec_, Base::n_, Base::store_, Base::array_bytes_, Base::cells_, Base::settings_, Base::vars_,
      Base::dt_, Base::time_, Base::steps_, Base::cfl_, Base::force_factor_, Base::dt_max_, Base::max_speed_,
      Base::times_, Base::phase_timing_;
 public:
  using Sym = SymTensor<T, D>;
  static constexpr int NS = SymIndex<D>::N;

  SolidSolver(const ParamSet& params, const SceneParticles& init) : Base(init.size()) {
    configure(params, init);
    allocate(init);
    if (self_gravity_enabled(params)) {  // the octree's arrays and the potential field
      phi_ = this->template field<T>("gravitational_potential", "J/kg", "self-gravity potential phi (octree)", false);
      bound_ = this->template field<uint8_t>("bound", "", "0 unbound, 1 bound", false);  // gravity_bound.h
      gravity_ = std::make_unique<SelfGravity<T, D, Exec>>(exec_, n_, &array_bytes_);
      gravity_->set(gravity_settings_from(params));
    }
    upload(init);
    terms_ = bind_terms(solid_model_recipes(model_.correct, gravity_ != nullptr), ctx_, store_, params);
    params_ = params;
    bind_hooks();
    this->start();
  }

  // The hooks of stage after_stage (the porosity's return before the yield's pressure, the yield).
  void after_stage() {
    this->run_hooks(hooks_, TermStage::AfterStage);
    update_invariants();
  }

  // Rates at the current state: the sort, the recipe's terms, one reduction; returns the CFL/force
  // limit there (reports blow-ups).
  double evaluate() {
    const auto t0 = this->phase_mark();
    cells_->build(pv_.x.get(), init_.h.get());
    store_.reorder(cells_->permutation());
    cells_->set_level_hmax(init_.h.get());
    grid_ = cells_->grid();
    update_invariants();  // non-persistent fields are not reordered: again after the sort
    times_.sort += this->seconds(t0, this->phase_mark());
    // A distributed run's pair pass split around its halo exchange (dist.overlap = interior).
    if (!run_terms_split(exec_, terms_, row_split_of(halo_), "forces_solid_gray2001")) this->run_terms(terms_);
    const auto t2 = std::chrono::steady_clock::now();
    const SolidExtremes<T> e = exec_.transform_reduce(n_, MeasureSolidExtremes<T, D>::none(),
                                                      MeasureSolidExtremes<T, D>{pv_}, CombineSolidExtremes<T>{});
    times_.forces += this->seconds(t2, std::chrono::steady_clock::now());
    if (e.bad_index != 0xffffffffu) report_bad(e);
    max_speed_ = std::sqrt(double(e.max_v2));
    double dt = cfl_ * double(e.min_h_vsig);
    dt = std::min(dt, force_factor_ * std::sqrt(double(e.min_h_a)));
    return std::min(dt, dt_max_);
  }

  const std::vector<Term>& terms() const { return terms_; }
  const std::vector<Term>& hooks() const { return hooks_; }

  // The packed halo of a distributed run (dist/store_halo_rows.h, dist/solid_halo_limit.h), made on first use.
  dist::HaloRows& halo_rows() override {
    if (!halo_) halo_ = std::make_unique<dist::StoreHaloRows<T, D, Exec, SolidView<T, D>>>(exec_, store_, pv_, this->dt_);
    return *halo_;
  }

  // The step's plastic strain is measured from its start (SolidYieldLimit); damage is advanced once
  // per accepted step, after the integrator (solid_damage.h), so rejected RK23 tries never touch it.
  void before_step() { exec_.for_each(n_, CopyFlat<T>{pv_.eps_p_step.get(), pv_.eps_p.get()}); }
  void after_step(const StepReport& r) {
    dt_taken_ = T(r.dt_taken);
    this->run_hooks(hooks_, TermStage::AfterStep);  // damage
  }

  std::size_t fluid_count() const override { return n_; }

  Diagnostics diagnostics() const override {  // no density error measure for solids yet
    return this->diagnostics_with(MeasureSolidSums<T, D>{pv_, {0, 0, 0}, phi_}, model_.gravity);
  }

  RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out) override {
    refresh_bound(needs_gravity_bound(req.field));
    return fill_render_data_from_store<T, D>(exec_, store_, pv_.x.get(), pv_.kind.get(), n_, true, req, out);
  }
  std::vector<TreeCellBox> gravity_tree_cells(int levels) override {
    return gravity_ ? gravity_->cells(levels) : std::vector<TreeCellBox>{};
  }
  // `bound` is derived when asked for (gravity_bound.h): a cache, so the const capture refreshes it.
  void capture_frame_into(FrameData& f, const std::vector<std::string>& names) const override {
    const_cast<SolidSolver*>(this)->refresh_bound(needs_gravity_bound(names));
    Base::capture_frame_into(f, names);
  }
  ColourHistogram colour_histogram(const RenderRequest& req, float lo, float hi) override {
    refresh_bound(needs_gravity_bound(req.field));
    return colour_histogram_from_store(exec_, store_, pv_.kind.get(), n_, true, req, lo, hi);
  }

  void apply_params(const ParamSet& params) override {
    configure_live(params);
    params_ = params;
  }

  std::vector<Material> materials() const override { return materials_; }

  // Between steps, like apply_params; the EOS kind and the yield model may change too (a model
  // without a limit skips the yield pass until one with a limit is set).
  void set_material(std::size_t index, const Material& m) override {
    if (index >= materials_.size())
      throw std::invalid_argument("set_material: material index " + std::to_string(index) + " is out of range (" +
                                  std::to_string(materials_.size()) + " materials)");
    // The porosity term's fields exist only when the scene started with a porous material (of that kind).
    const int kind = m.porous.kind;
    if (kind != kPorousNone && (!pv_.por.alpha || (kind == kPorousEpsAlpha && !pv_.por.eps) ||
                                (kind == kPorousPAlpha && !pv_.por.damage)))
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
    Base::restore_frame(frame);
    update_invariants();
  }

 private:
  // The integrator's hooks chosen by the materials (solid_hook_recipes): at construction, and again
  // when a material edit changes whether any material has a yield limit.
  void bind_hooks() {
    hooks_ = bind_terms(solid_hook_recipes(bool(pv_.por.alpha), any_yield_, bool(pv_.damage)), ctx_, store_, params_);
  }

  // The derived (non-persistent) stress invariants, from the current deviatoric stress.
  void update_invariants() { exec_.for_each(n_, SolidVonMisesStress<T, D>{pv_.S, pv_.damage, von_mises_}); }

  void configure(const ParamSet& params, const SceneParticles& init) {
    const std::string kernel = params.text("particles.kernel");
    model_.kernel = VarKernel<T, D>::make(kernel == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2);
    model_.h_over_dp = T(params.real("solid.h_over_dp"));
    materials_ = init.materials;
    mats_.assign(exec_, init.materials, &array_bytes_);
    model_.mat = mats_.device();
    model_.n_materials = mats_.size();
    any_yield_ = mats_.any_yield();
    for (int d = 0; d < D; ++d) model_.gravity[d] = T(init.gravity[d]);
    settings_.scheme = scheme_from_name(params.text("time.integrator"));
    art_on_ = params.real("solid.artificial_stress") > 0;
    model_.correct = params.flag("solid.gradient_correction");
    model_.correct_force = params.flag("solid.corrected_force");
    if (model_.correct_force && !model_.correct)
      throw ParamError(params.where("solid.corrected_force") + ": solid.corrected_force = true needs "
                       "solid.gradient_correction = true (the force is the transpose of the corrected strain rate)");
    model_.plane_stress = params.text("solid.plane") == "stress";
    if (model_.plane_stress && D != 2)
      throw ParamError(params.where("solid.plane") + ": solid.plane = stress needs scene.dim = 2 (plane stress is "
                       "a 2D approximation of a thin plate)");
    configure_live(params);

    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, hmin = std::numeric_limits<double>::max(), hmax = 0;
    for (int d = 0; d < D; ++d) {
      lo[d] = std::numeric_limits<double>::max();
      hi[d] = -lo[d];
    }
    for (std::size_t i = 0; i < n_; ++i) {
      for (int d = 0; d < D; ++d) {
        lo[d] = std::min(lo[d], init.position[i * D + d]);
        hi[d] = std::max(hi[d], init.position[i * D + d]);
      }
      hmin = std::min(hmin, init.h[i]);
      hmax = std::max(hmax, init.h[i]);
    }
    grid_ = make_level_grid<T, D>(lo, hi, hmin, hmax, n_);
    grid_.band = band_rows_setting(params.integer("neighbours.band_rows"), exec_cache_bytes(exec_), n_, grid_.dims[0], D, 1,
                                   (2.0 * D + 5 + D * (D + 1)) * sizeof(T) + 2);  // bucket_order.h (issue 18)
  }

  void configure_live(const ParamSet& params) {
    model_.alpha = T(params.real("viscosity.alpha"));  // the solid's default, 1 (builtin_params.cpp)
    model_.beta = T(params.real("viscosity.beta"));
    model_.art_eps = art_on_ ? T(params.real("solid.artificial_stress")) : T(0);
    model_.T_ref = T(params.real("solid.reference_temperature"));
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) model_.gravity[d] = T(g[d]);
    if (gravity_) gravity_->set(gravity_settings_from(params));
    this->configure_time(params);
  }

  void allocate(const SceneParticles& init) {
    using V = Vec<T, D>;
    pv_.x = this->template device_field<V>("position", "m", "particle position", true);
    pv_.v = this->template device_field<V>("velocity", "m/s", "particle velocity", true);
    pv_.u = this->template device_field<T>("internal_energy", "J/kg", "specific internal energy", true);
    pv_.rho = this->template device_field<T>("density", "kg/m^3", "mass density (continuity)", true);
    pv_.S = this->template device_field<Sym>("deviatoric_stress", "Pa",
                       D == 1 ? "deviatoric stress S_xx" : D == 2 ? "deviatoric stress S_xx, S_yy, S_xy"
                                                                  : "deviatoric stress xx, yy, zz, xy, xz, yz",
                       true);
    pv_.h = init_.h = this->template device_field<T>("smoothing_length", "m", "smoothing length h (fixed; kernel support 2h)", true);
    pv_.m = init_.m = this->template device_field<T>("mass", "kg", "particle mass", true);
    pv_.mat = init_.mat = this->template device_field<uint8_t>("material", "", "material index (order of first use in the scene)", true);
    pv_.kind = init_.kind = this->template device_field<uint8_t>("kind", "", "0 free, 1 prescribed motion (keeps its initial velocity)", true);
    id_ = this->template device_field<uint32_t>("id", "", "particle number in the initial layout", true);
    pv_.p = this->template device_field<T>("pressure", "Pa", "pressure (material EOS)", false);
    pv_.c = this->template device_field<T>("sound_speed", "m/s", "longitudinal sound speed sqrt(c_eos^2 + 4/3 mu/rho)", false);
    pv_.a = this->template device_field<V>("acceleration", "m/s^2", "total acceleration", false);
    pv_.du = this->template device_field<T>("energy_rate", "W/kg", "du/dt", false);
    pv_.drho = this->template device_field<T>("density_rate", "kg/(m^3 s)", "drho/dt", false);
    pv_.dS = this->template device_field<Sym>("stress_rate", "Pa/s", "dS/dt (Hooke with the Jaumann rate)", false);
    pv_.R = art_on_ ? this->template device_field<Sym>("artificial_stress", "m^5/(kg s^2)", "artificial stress R/rho^2 terms", false)
                    : nullptr;
    pv_.L = model_.correct ? this->template device_field<Vec<T, D * D>>("gradient_correction", "", "kernel-gradient correction M^-1 (row-major)", false)
                           : nullptr;
    pv_.vsig = this->template device_field<T>("signal_speed", "m/s", "largest signal speed over the neighbours", false);
    pv_.eps_p = this->template device_field<T>("plastic_strain", "", "accumulated equivalent plastic strain (Wilkins 1964 radial return)", true);
    pv_.eps_p_step = this->template device_field<T>("plastic_strain_step_start", "", "plastic_strain at the start of the current step", true);
    if (!init.flaw_offset.empty()) {
      pv_.damage = this->template device_field<T>("damage", "", "Grady-Kipp tensile damage D (0 intact, 1 failed)", true);
      flaw_count_ = this->template field<uint32_t>("flaw_count", "", "number of Weibull flaws of the particle", true);
      active_flaws_ = this->template device_field<uint32_t>("active_flaws", "", "flaws active at the local tensile strain (last damage pass)", true);
      flaw_offset_.resize(exec_, init.flaw_offset.size(), &array_bytes_);  // n + 1, or by init.id
      flaw_strain_.resize(exec_, init.flaw_strain.size(), &array_bytes_);
    }
    allocate_porous(init);
    von_mises_ = this->template device_field<T>("von_mises_stress", "Pa",
                          "von Mises equivalent stress sqrt(3 J2), out-of-plane deviator components included", false);

    this->add_ode_var("position", pv_.x, pv_.v, true);
    this->add_ode_var("velocity", pv_.v, pv_.a, false);
    this->add_ode_var("internal_energy", pv_.u, pv_.du, false);
    this->add_ode_var("density", pv_.rho, pv_.drho, false);
    this->add_ode_var("deviatoric_stress", pv_.S, pv_.dS, false);
    if (pv_.por.alpha) {
      this->add_ode_var("distention", pv_.por.alpha, pv_.por.dalpha, false);
      this->add_ode_var("compaction_work", pv_.por.work, pv_.por.dwork, false);
      if (pv_.por.eps) this->add_ode_var("compaction_strain", pv_.por.eps, pv_.por.deps, false);
    }
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
    PorousView<T>& v = pv_.por;
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
    std::vector<Vec<T, D>> x(n_), v(n_);
    std::vector<T> rho(n_), m(n_), h(n_);
    std::vector<uint32_t> id(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      for (int d = 0; d < D; ++d) {
        x[i][d] = T(init.position[i * D + d]);
        v[i][d] = T(init.velocity[i * D + d]);
      }
      rho[i] = T(init.density[i]);
      m[i] = T(init.mass[i]);
      h[i] = T(init.h[i]);
      id[i] = init.id.empty() ? uint32_t(i) : init.id[i];
    }
    // Everything else (u, S, the stage buffers) starts at zero.
    for (const FieldInfo& f : store_.fields())
      store_.upload_raw(f.name, std::vector<unsigned char>(
                                    (f.scalar == ScalarType::UInt8 ? 1 : f.scalar == ScalarType::Float64 ? 8 : 4) *
                                        std::size_t(f.components) * n_,
                                    0));
    ejecta::upload(exec_, pv_.x, x.data(), n_);
    ejecta::upload(exec_, pv_.v, v.data(), n_);
    ejecta::upload(exec_, pv_.rho, rho.data(), n_);
    ejecta::upload(exec_, init_.h, h.data(), n_);
    ejecta::upload(exec_, init_.m, m.data(), n_);
    ejecta::upload(exec_, init_.mat, init.material.data(), n_);
    ejecta::upload(exec_, init_.kind, init.kind.data(), n_);
    ejecta::upload(exec_, id_, id.data(), n_);
    if (pv_.por.alpha) {  // every particle starts at its material's alpha_0 (1 without pores)
      std::vector<T> alpha(n_);
      for (std::size_t i = 0; i < n_; ++i) alpha[i] = mats_[init.material[i]].porous.alpha0;
      ejecta::upload(exec_, pv_.por.alpha, alpha.data(), n_);
    }
    if (pv_.damage) {
      std::vector<uint32_t> count(n_);
      for (std::size_t i = 0; i < n_; ++i) count[i] = uint32_t(init.flaw_offset[id[i] + 1] - init.flaw_offset[id[i]]);
      std::vector<T> strain(init.flaw_strain.begin(), init.flaw_strain.end());
      exec_.upload(flaw_count_, count.data(), sizeof(uint32_t) * n_);
      exec_.upload(flaw_offset_.data(), init.flaw_offset.data(), sizeof(std::int64_t) * init.flaw_offset.size());
      exec_.upload(flaw_strain_.data(), strain.data(), sizeof(T) * strain.size());
    }
  }

  [[noreturn]] void report_bad(const SolidExtremes<T>& e) const {
    this->report_bad_particle(
        e, "solid", ", which is not finite (or a density <= 0); try a smaller time.cfl or solid.artificial_stress = 0.3");
  }

  SolidMaterialTable<T, Exec> mats_;  // what model_.mat points to
  SolidModel<T, D> model_{};
  LevelGrid<T, D> grid_{};
  SolidView<T, D> pv_{};
  struct {  // pv_'s read-only fields, writable for the upload and the sort (h)
    DevicePtr<T> h, m;
    DevicePtr<uint8_t> mat, kind;
  } init_;
  DevicePtr<uint32_t> id_;
  uint32_t* flaw_count_ = nullptr;
  DevicePtr<uint32_t> active_flaws_;
  DeviceArray<std::int64_t, Exec> flaw_offset_;  // by initial id, n + 1
  DeviceArray<T, Exec> flaw_strain_;             // activation strains, ascending per particle
  DevicePtr<T> von_mises_;
  std::vector<Material> materials_;
  bool any_yield_ = false, art_on_ = false;
  ParamSet params_;  // the latest parameters, for binding the hooks again (bind_hooks)
  std::unique_ptr<SelfGravity<T, D, Exec>> gravity_;
  void refresh_bound(bool needed) {
    if (gravity_ && needed) mark_gravity_bound(exec_, n_, pv_.v.get(), pv_.m.get(), phi_, bound_);
  }
  T* phi_ = nullptr;
  uint8_t* bound_ = nullptr;  // 1/2 |v - v_cm|^2 + phi < 0 (gravity_bound.h)
  T dt_taken_ = T(0);         // the accepted step's dt, for the after_step hooks
  // What the terms read when they run (references to the members above), the step's list and the
  // integrator's hooks.
  SolidTermContext<T, D, Exec> ctx_{exec_, n_, grid_, pv_, model_, pv_, gravity_, phi_, times_, phase_timing_,
                                    id_, flaw_offset_, flaw_strain_, active_flaws_, dt_taken_};
  std::vector<Term> terms_, hooks_;
  std::unique_ptr<dist::StoreHaloRows<T, D, Exec, SolidView<T, D>>> halo_;  // a distributed run's, made on first use
};

template <class T, class Exec>
std::unique_ptr<Simulation> make_solid_solver(const ParamSet& params, const SceneParticles& init) {
  switch (init.dim) {
    case 1: return std::make_unique<SolidSolver<T, 1, Exec>>(params, init);
    case 2: return std::make_unique<SolidSolver<T, 2, Exec>>(params, init);
    default: return std::make_unique<SolidSolver<T, 3, Exec>>(params, init);
  }
}

}  // namespace ejecta
