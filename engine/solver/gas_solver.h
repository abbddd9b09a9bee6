#pragma once
// The gas-dynamics solver (physics.model = gas): ideal gas with the internal-energy equation, a
// smoothing length per particle (grad-h SPH), signal-velocity viscosity, optional conductivity and
// viscosity switch. Written once over an execution layer and instantiated per precision and
// dimension like WcsphSolver, with which it shares the particle store, the neighbour grid, the
// blow-up reporting style and the Simulation facade. One evaluation of the rates: sort by bucket and
// reorder, then the terms of the gas's recipe (solver/model_recipes.h, solver/terms/gas_terms.h):
//   density_gradh_price2012 (h and summation density, Newton per particle, + EOS) ->
//   forces_gas_gradh_price2012 -> [self_gravity_barnes_hut1986 (gravity.self = on: the octree of
//   engine/gravity adds G a and writes phi)],
// then one reduction (dt limits, first bad particle).
// The time integrator (leapfrog, predictor-corrector, RK23) is generic (staged_integrators.h) and
// calls evaluate() once, twice or three times per step.
#include "gravity/gravity_bound.h"
#include "gravity/gravity_params.h"
#include "physics/density_gradh_price2012.h"
#include "physics/forces_gas_gradh.h"
#include "neighbors/tree_index.h"
#include "physics/gas_diagnostics.h"
#include "render_data/fill_from_store.h"
#include "scene/gas_scene.h"
#include "solver/model_recipes.h"
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
class GasSolver final : public StagedStoreSolver<GasSolver<T, D, Exec>, T, D, Exec> {
  using Base = StagedStoreSolver<GasSolver<T, D, Exec>, T, D, Exec>;
  friend Base;
  using Base::exec_, Base::n_, Base::store_, Base::array_bytes_, Base::cells_, Base::settings_, Base::vars_,
      Base::dt_, Base::time_, Base::steps_, Base::cfl_, Base::force_factor_, Base::dt_max_, Base::max_speed_,
      Base::times_, Base::phase_timing_;
 public:
  GasSolver(const ParamSet& params, const SceneParticles& init)
      : Base(init.size()), n_fluid_(std::size_t(std::count(init.kind.begin(), init.kind.end(), uint8_t(kFluid)))) {
    configure(params, init);
    allocate();
    allocate_gravity(params);
    upload(init);
    terms_ = bind_terms(gas_model_recipes(gravity_ != nullptr), ctx_, store_, params);
    this->start();
  }

  // The integrator's view of the state: vars() (the base's) and the rates.
  // Rates at the current state: the sort, the recipe's terms, one reduction; returns the CFL/force
  // limit there (reports blow-ups).
  double evaluate() {
    const auto t0 = this->phase_mark();
    if (tree_) {  // gas.neighbour_search = tree (neighbors/tree_index.h)
      tree_->sort(pv_.x.get());
      store_.reorder(tree_->permutation());
      tree_->build(pv_.x.get(), pv_.h.get());
    } else {
      cells_->build(pv_.x.get(), pv_.h.get());
      store_.reorder(cells_->permutation());
      grid_ = cells_->grid();
    }
    times_.sort += this->seconds(t0, this->phase_mark());
    this->run_terms(terms_);
    const auto t2 = std::chrono::steady_clock::now();
    const GasExtremes<T> e = exec_.transform_reduce(n_, MeasureGasExtremes<T, D>::none(),
                                                    MeasureGasExtremes<T, D>{pv_}, CombineGasExtremes<T>{});
    times_.forces += this->seconds(t2, std::chrono::steady_clock::now());
    if (e.bad_index != 0xffffffffu) report_bad(e);
    max_speed_ = std::sqrt(double(e.max_v2));
    double dt = cfl_ * double(e.min_h_vsig);
    dt = std::min(dt, force_factor_ * std::sqrt(double(e.min_h_a)));
    dt = std::min(dt, force_factor_ * double(e.min_decay));
    return std::min(dt, dt_max_);
  }

  const std::vector<Term>& terms() const { return terms_; }

  std::size_t fluid_count() const override { return n_fluid_; }

  Diagnostics diagnostics() const override {  // no rest density for a gas
    return this->diagnostics_with(MeasureGasSums<T, D>{pv_, {0, 0, 0}, phi_}, model_.gravity);
  }

  RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out) override {
    refresh_bound(needs_gravity_bound(req.field));
    return fill_render_data_from_store<T, D>(exec_, store_, pv_.x.get(), pv_.kind.get(), n_, n_fluid_ > 0, req, out);
  }
  std::vector<TreeCellBox> gravity_tree_cells(int levels) override {
    return gravity_ ? gravity_->cells(levels) : std::vector<TreeCellBox>{};
  }
  // `bound` is derived when asked for (gravity_bound.h): a cache, so the const capture refreshes it.
  void capture_frame_into(FrameData& f, const std::vector<std::string>& names) const override {
    const_cast<GasSolver*>(this)->refresh_bound(needs_gravity_bound(names));
    Base::capture_frame_into(f, names);
  }
  ColourHistogram colour_histogram(const RenderRequest& req, float lo, float hi) override {
    refresh_bound(needs_gravity_bound(req.field));
    return colour_histogram_from_store(exec_, store_, pv_.kind.get(), n_, n_fluid_ > 0, req, lo, hi);
  }

  void apply_params(const ParamSet& params) override { configure_live(params); }

 private:
  void configure(const ParamSet& params, const SceneParticles& init) {
    const std::string kernel = params.text("particles.kernel");
    model_.kernel = VarKernel<T, D>::make(kernel == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2);
    model_.eos = IdealGasEos<T>{T(init.gas.gamma)};
    model_.eta = T(params.real("gas.eta"));
    double hmax0 = 0, hmin0 = std::numeric_limits<double>::max();
    for (double h : init.h) {
      hmax0 = std::max(hmax0, h);
      hmin0 = std::min(hmin0, h);
    }
    const double cap = params.real("gas.h_max");
    model_.h_max = T(cap > 0 ? std::max(cap, hmax0) : 100.0 * hmax0);
    model_.h_iter = 50;
    model_.summation = params.text("gas.density") == "summation";
    model_.fixed_h = params.text("gas.h_mode") == "fixed";
    model_.switch_on = params.text("viscosity.switch") == "morris_monaghan";
    for (int d = 0; d < D; ++d) model_.gravity[d] = T(init.gravity[d]);
    settings_.scheme = scheme_from_name(params.text("time.integrator"));
    // auto (docs/physics.md, "Neighbour search for variable h"): in 3D the tree on the CPU (1.3-1.9x the
    // grid's steps/s there, uniform to tenfold h) and on a GPU where the starting h spread more than
    // fourfold (H200, 10^6: the wide-h scene 19.7 steps/s with the tree, the grid's benchmark not done in
    // 40 s; near-uniform h, Sedov 3D: the grid 64.1 against 56.2); the level grid in 1D and 2D.
    const std::string search = params.text("gas.neighbour_search");
    const bool wide_h = hmax0 > 4 * hmin0;
    tree_search_ = search == "tree" ||
                   (search == "auto" && D == 3 && (Exec::kBackend == Backend::Cpu || wide_h));
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
    grid_ = make_level_grid<T, D>(lo, hi, hmin0, double(model_.h_max), n_);
    grid_.band = band_rows_setting(params.integer("neighbours.band_rows"), exec_cache_bytes(exec_), n_, grid_.dims[0], D, 1,
                                   (2.0 * D + 7) * sizeof(T));  // bucket_order.h (issue 18)
  }

  // The keys that act on the rates and the step size only, so they may change between steps (the
  // viewer's panels). The rest (kernel, eta, density and h modes, the switch's field, the integrator
  // and its stage buffers, the particles) are needs_rebuild keys, read in configure() only.
  void configure_live(const ParamSet& params) {
    model_.h_tol = T(std::max(params.real("gas.h_tolerance"), 10 * double(std::numeric_limits<T>::epsilon())));
    model_.alpha = T(params.real("viscosity.alpha"));  // the gas's default, 1 (builtin_params.cpp)
    model_.beta = T(params.real("viscosity.beta"));
    model_.alpha_u = T(params.real("gas.conductivity"));
    model_.alpha_min = T(std::min(params.real("viscosity.alpha_min"), params.real("viscosity.alpha")));
    model_.switch_decay = T(params.real("viscosity.switch_decay"));
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) model_.gravity[d] = T(g[d]);
    if (gravity_) gravity_->set(gravity_settings_from(params));
    this->configure_time(params);
  }

  void allocate() {
    using V = Vec<T, D>;
    pv_.x = this->template device_field<V>("position", "m", "particle position", true);
    pv_.v = this->template device_field<V>("velocity", "m/s", "particle velocity", true);
    pv_.u = this->template device_field<T>("internal_energy", "J/kg", "specific internal energy", true);
    pv_.rho = this->template device_field<T>("density", "kg/m^3", "mass density", true);
    pv_.h = this->template device_field<T>("smoothing_length", "m", "smoothing length h (kernel support 2h)", true);
    pv_.alpha = model_.switch_on ? this->template device_field<T>("viscosity_alpha", "", "artificial viscosity coefficient", true) : nullptr;
    pv_.m = mass_ = this->template device_field<T>("mass", "kg", "particle mass", true);
    pv_.kind = kind_ = this->template device_field<uint8_t>("kind", "", "0 gas, 1 frozen boundary particle", true);
    id_ = this->template field<uint32_t>("id", "", "particle number in the initial layout", true);
    pv_.p = this->template device_field<T>("pressure", "Pa", "pressure (ideal gas)", false);
    pv_.c = this->template device_field<T>("sound_speed", "m/s", "adiabatic sound speed", false);
    pv_.omega = this->template device_field<T>("omega", "", "grad-h correction factor Omega", false);
    pv_.a = this->template device_field<V>("acceleration", "m/s^2", "total acceleration", false);
    pv_.du = this->template device_field<T>("energy_rate", "W/kg", "du/dt", false);
    pv_.drho = this->template device_field<T>("density_rate", "kg/(m^3 s)", "drho/dt (continuity density)", false);
    pv_.dalpha = model_.switch_on ? this->template device_field<T>("viscosity_alpha_rate", "1/s", "dalpha/dt", false) : nullptr;
    pv_.vsig = this->template device_field<T>("signal_speed", "m/s", "largest signal speed over the neighbours", false);
    pv_.divv = this->template device_field<T>("velocity_divergence", "1/s", "div v", false);

    // The integrator's variables and their stage buffers (persistent: carried by the sort).
    this->add_ode_var("position", pv_.x, pv_.v, true);
    this->add_ode_var("velocity", pv_.v, pv_.a, false);
    this->add_ode_var("internal_energy", pv_.u, pv_.du, false);
    if (!model_.summation) this->add_ode_var("density", pv_.rho, pv_.drho, false);
    if (model_.switch_on) this->add_ode_var("viscosity_alpha", pv_.alpha, pv_.dalpha, false);
    if (tree_search_) {
      tree_ = std::make_unique<TreeIndex<T, D, Exec>>(exec_, n_, &array_bytes_);
    } else {
      cells_ = std::make_unique<LevelIndex<T, D, Exec>>(exec_, grid_, n_, &array_bytes_);
      grid_ = cells_->grid();
    }
  }

  // Self-gravity (gravity.self = on): the tree's arrays and the potential field.
  void allocate_gravity(const ParamSet& params) {
    if (!self_gravity_enabled(params)) return;
    phi_ = this->template field<T>("gravitational_potential", "J/kg", "self-gravity potential phi (octree)", false);
    bound_ = this->template field<uint8_t>("bound", "", "0 unbound, 1 bound", false);  // gravity_bound.h
    gravity_ = std::make_unique<SelfGravity<T, D, Exec>>(exec_, n_, &array_bytes_);
    gravity_->set(gravity_settings_from(params));
    gravity_->hint_sorted(tree_search_);  // the tree search leaves the store in the gravity's key order
  }

  void upload(const SceneParticles& init) {
    std::vector<Vec<T, D>> x(n_), v(n_);
    std::vector<T> rho(n_), m(n_), u(n_), h(n_), zero(n_, T(0)), alpha(n_, model_.alpha);
    std::vector<uint32_t> id(n_);
    std::vector<uint8_t> kind(init.kind);
    for (std::size_t i = 0; i < n_; ++i) {
      for (int d = 0; d < D; ++d) {
        x[i][d] = T(init.position[i * D + d]);
        v[i][d] = T(init.velocity[i * D + d]);
      }
      rho[i] = T(init.density[i]);
      m[i] = T(init.mass[i]);
      u[i] = T(init.energy[i]);
      h[i] = T(std::min(init.h[i], double(model_.h_max)));
      id[i] = uint32_t(i);
    }
    // Every stage buffer starts at zero; each scheme writes a buffer before reading it.
    for (const FieldInfo& f : store_.fields())
      store_.upload_raw(f.name, std::vector<unsigned char>(
                                    (f.scalar == ScalarType::UInt8 ? 1 : f.scalar == ScalarType::Float64 ? 8 : 4) *
                                        std::size_t(f.components) * n_,
                                    0));
    ejecta::upload(exec_, pv_.x, x.data(), n_);
    ejecta::upload(exec_, pv_.v, v.data(), n_);
    ejecta::upload(exec_, pv_.u, u.data(), n_);
    ejecta::upload(exec_, pv_.rho, rho.data(), n_);
    ejecta::upload(exec_, pv_.h, h.data(), n_);
    if (pv_.alpha) ejecta::upload(exec_, pv_.alpha, alpha.data(), n_);
    ejecta::upload(exec_, mass_, m.data(), n_);
    ejecta::upload(exec_, kind_, kind.data(), n_);
    exec_.upload(id_, id.data(), sizeof(uint32_t) * n_);
  }

  // The next step: fixed, or the CFL/force limit, for rk23 also what the error control asks for.
  [[noreturn]] void report_bad(const GasExtremes<T>& e) const {
    const bool frozen = store_.download("kind")[e.bad_index] != kFluid;
    this->report_bad_particle(e, frozen ? "frozen gas" : "gas",
                              e.bad_field == kBadInternalEnergy
                                  ? ", negative or not finite; try a smaller time.cfl or time.integrator = rk23"
                                  : ", which is not finite (or a density <= 0); try a smaller time.cfl");
  }

  std::size_t n_fluid_;
  GasModel<T, D> model_{};
  DevicePtr<T> mass_;         // pv_.m and pv_.kind, writable for the upload
  DevicePtr<uint8_t> kind_;
  LevelGrid<T, D> grid_{};
  bool tree_search_ = false;                    // gas.neighbour_search = tree
  std::unique_ptr<TreeIndex<T, D, Exec>> tree_;  // then the tree, not the level grid (cells_)
  GasView<T, D> pv_{};
  uint32_t* id_ = nullptr;
  std::unique_ptr<SelfGravity<T, D, Exec>> gravity_;
  void refresh_bound(bool needed) {
    if (gravity_ && needed) mark_gravity_bound(exec_, n_, pv_.v.get(), pv_.m.get(), phi_, bound_);
  }
  T* phi_ = nullptr;
  uint8_t* bound_ = nullptr;  // 1/2 |v - v_cm|^2 + phi < 0 (gravity_bound.h)
  // What the terms read when they run (references to the members above), and the step's list.
  GasTermContext<T, D, Exec> ctx_{exec_, n_, cells_, tree_, grid_, pv_, model_, pv_, gravity_, phi_, times_, phase_timing_};
  std::vector<Term> terms_;
};

template <class T, class Exec>
std::unique_ptr<Simulation> make_gas_solver(const ParamSet& params, const SceneParticles& init) {
  switch (init.dim) {
    case 1: return std::make_unique<GasSolver<T, 1, Exec>>(params, init);
    case 2: return std::make_unique<GasSolver<T, 2, Exec>>(params, init);
    default: return std::make_unique<GasSolver<T, 3, Exec>>(params, init);
  }
}

}  // namespace ejecta
