#pragma once
// The elastic(-plastic) solid solver (physics.model = solid), built like GasSolver and sharing its
// parts: the particle store, the level grid (one level: fixed h), the staged integrators over the
// generic ODE state (position, velocity, density, internal energy, deviatoric stress), capture and
// restore through capture_fields.h and the render data. One evaluation of the rates:
//   sort by bucket and reorder -> EOS pass (p, longitudinal c_l, artificial stress) -> forces
//   (momentum, continuity, energy, Hooke/Jaumann) -> one reduction (dt limits, first bad particle).
// The von Mises / Lundborg limit is applied after every update of the state (after_stage()), with the
// equivalent plastic strain of its return. Grady-Kipp damage (physics/solid_damage.h) advances once
// per accepted step, after the integrator: an operator split, so RK23's rejected tries never touch it.
// The Weibull flaws sit in a flat array by initial id (never reordered, no per-particle cap).
// Equations and references: physics/solid_model.h and docs/physics.md ("Solids: the elastic model").
#include "exec/device_array.h"
#include "integrators/staged_integrators.h"
#include "neighbors/level_grid.h"
#include "neighbors/level_index.h"
#include "particles/capture_fields.h"
#include "particles/particle_store.h"
#include "physics/solid_damage.h"
#include "physics/solid_invariants.h"
#include "physics/solid_model.h"
#include "render_data/fill_from_store.h"
#include "scene/solid_scene.h"
#include "simulation.h"
#include "solver/solid_material_convert.h"
#include "solver/store_reports.h"

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
class SolidSolver final : public Simulation {
 public:
  using Sym = SymTensor<T, D>;
  static constexpr int NS = SymIndex<D>::N;

  SolidSolver(const ParamSet& params, const SolidInitial& init) : n_(init.size()), store_(exec_, init.size()) {
    configure(params, init);
    allocate(init);
    upload(init);
    integ_ = std::make_unique<StagedIntegrator<T, Exec>>(exec_, settings_);
    after_stage();
    dt_limit_ = evaluate();
    dt_ = choose_dt(0);
  }

  std::vector<OdeVar<T>>& vars() { return vars_; }

  void after_stage() {
    if (any_yield_) exec_.for_each(n_, SolidYieldLimit<T, D>{model_, pv_});
    update_invariants();
  }

  double evaluate() {
    using clock = std::chrono::steady_clock;
    auto mark = [&] {
      if (phase_timing_) exec_.synchronize();
      return clock::now();
    };
    const auto t0 = mark();
    cells_->build(pv_.x, const_cast<T*>(pv_.h));
    store_.reorder(cells_->permutation());
    cells_->set_level_hmax(const_cast<T*>(pv_.h));
    grid_ = cells_->grid();
    const auto t1 = mark();
    exec_.for_each(n_, SolidEosPass<T, D>{model_, pv_});
    update_invariants();  // non-persistent fields are not reordered: again after the sort
    if (pv_.L) exec_.for_each_balanced(n_, SolidCorrection<T, D>{model_, grid_, pv_});
    const auto t2 = mark();
    exec_.for_each_balanced(n_, SolidForces<T, D>{model_, grid_, pv_});
    const SolidExtremes<T> e = exec_.transform_reduce(n_, MeasureSolidExtremes<T, D>::none(),
                                                      MeasureSolidExtremes<T, D>{pv_}, CombineSolidExtremes<T>{});
    const auto t3 = clock::now();
    auto sec = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    times_.sort += sec(t0, t1);
    times_.density += sec(t1, t2);
    times_.forces += sec(t2, t3);
    if (e.bad_index != 0xffffffffu) report_bad(e);
    max_speed_ = std::sqrt(double(e.max_v2));
    double dt = cfl_ * double(e.min_h_vsig);
    dt = std::min(dt, force_factor_ * std::sqrt(double(e.min_h_a)));
    return std::min(dt, dt_max_);
  }

  void step() override {
    const auto t0 = std::chrono::steady_clock::now();
    const PhaseTimes before = times_;
    // The plastic strain of this step is measured from its start (SolidYieldLimit).
    exec_.for_each(n_, CopyFlat<T>{pv_.eps_p_step, pv_.eps_p});
    const StepReport r = integ_->step(*this, double(dt_));
    if (pv_.damage)
      exec_.for_each(n_, SolidDamageAdvance<T, D>{model_, pv_, id_, flaw_offset_.data(), flaw_strain_.data(),
                                                  active_flaws_, T(r.dt_taken)});
    time_ += r.dt_taken;
    ++steps_;
    rejections_ += r.rejections;
    dt_limit_ = r.dt_limit;
    dt_ = choose_dt(r.dt_error);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    times_.integrate += total - (times_.total() - before.total());
  }

  double time() const override { return time_; }
  double dt() const override { return double(dt_); }
  long steps() const override { return steps_; }
  std::size_t particle_count() const override { return n_; }
  std::size_t fluid_count() const override { return n_; }
  int dim() const override { return D; }
  Backend backend() const override { return Exec::kBackend; }
  Precision precision() const override {
    return sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double;
  }

  HostParticles download() const override { return download_common_fields(store_, D, n_); }

  Diagnostics diagnostics() const override {
    MeasureSolidSums<T, D> measure{pv_, {0, 0, 0}};
    for (int d = 0; d < D; ++d) measure.gravity[d] = double(model_.gravity[d]);
    const DiagnosticSums zero{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0};
    const DiagnosticSums s = exec_.transform_reduce(n_, zero, measure, CombineDiagnosticSums{});
    return diagnostics_from_sums(s, D, time_, steps_, double(dt_), n_, 0);  // no density error measure for solids yet
  }

  const PhaseTimes& phase_times() const override { return times_; }
  void reset_phase_times() override { times_ = PhaseTimes{}; }
  void set_phase_timing(bool on) override { phase_timing_ = on; }
  void set_count_pairs(bool) override {}
  PairCounts pair_counts() const override { return PairCounts{}; }
  std::size_t device_bytes() const override { return store_.bytes() + array_bytes_ + exec_.workspace_bytes(); }
  std::string device_name() const override { return exec_.device_name(); }
  void synchronize() override { exec_.synchronize(); }
  std::vector<FieldInfo> fields() const override { return store_.fields(); }

  RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out) override {
    return fill_render_data_from_store<T, D>(exec_, store_, pv_.x, pv_.kind, n_, true, req, out);
  }

  void apply_params(const ParamSet& params) override { configure_live(params); }

  std::vector<Material> materials() const override { return materials_; }

  // Between steps, like apply_params; the EOS kind and the yield model may change too (a model
  // without a limit skips the yield pass until one with a limit is set).
  void set_material(std::size_t index, const Material& m) override {
    if (index >= materials_.size())
      throw std::invalid_argument("set_material: material index " + std::to_string(index) + " is out of range (" +
                                  std::to_string(materials_.size()) + " materials)");
    materials_[index] = m;
    model_.mat[index] = to_solid_material<T>(m);
    any_yield_ = false;
    for (int k = 0; k < model_.n_materials; ++k)
      if (model_.mat[k].yield != kSolidNoLimit) any_yield_ = true;
  }

  void capture_frame_into(FrameData& f, const std::vector<std::string>& names) const override {
    capture_fields_into(store_, f, names, time_, steps_, double(dt_));
  }

  // Every field, the rates and stage buffers included (see GasSolver::restore_frame).
  void restore_frame(const FrameData& frame) override {
    restore_fields_from(store_, frame, n_, [](const FieldInfo&) { return true; });
    time_ = frame.time;
    steps_ = frame.step;
    dt_ = T(frame.dt);
    update_invariants();
  }

 private:
  // The derived (non-persistent) stress invariants, from the current deviatoric stress.
  void update_invariants() { exec_.for_each(n_, SolidVonMisesStress<T, D>{pv_.S, pv_.damage, von_mises_}); }

  void configure(const ParamSet& params, const SolidInitial& init) {
    const std::string kernel = params.text("particles.kernel");
    model_.kernel = VarKernel<T, D>::make(kernel == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2);
    model_.h_over_dp = T(params.real("solid.h_over_dp"));
    model_.n_materials = int(init.materials.size());
    materials_ = init.materials;
    for (std::size_t k = 0; k < init.materials.size(); ++k) {
      model_.mat[k] = to_solid_material<T>(init.materials[k]);
      if (model_.mat[k].yield != kSolidNoLimit) any_yield_ = true;
    }
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
  }

  void configure_live(const ParamSet& params) {
    model_.alpha = T(params.real("solid.alpha"));
    model_.beta = T(params.real("solid.beta"));
    model_.art_eps = art_on_ ? T(params.real("solid.artificial_stress")) : T(0);
    model_.T_ref = T(params.real("solid.reference_temperature"));
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) model_.gravity[d] = T(g[d]);
    cfl_ = params.real("time.cfl");
    force_factor_ = params.real("time.force_factor");
    dt_max_ = params.real("time.dt_max");
    dt_min_ = params.real("time.dt_min");
    dt_fixed_ = params.real("time.dt_fixed");
    settings_.adaptive = dt_fixed_ == 0;
    settings_.rtol = params.real("time.rtol");
    settings_.atol = params.real("time.atol");
    settings_.growth_max = params.real("time.growth_max");
  }

  template <class E>
  static T* flat(E* p) { return reinterpret_cast<T*>(p); }

  template <class E>
  E* field(const char* name, const char* units, const char* what, bool persistent) {
    return store_.template add<E>(FieldInfo{name, 1, units, what, ScalarType::Float32, persistent});
  }

  void allocate(const SolidInitial& init) {
    using V = Vec<T, D>;
    pv_.x = field<V>("position", "m", "particle position", true);
    pv_.v = field<V>("velocity", "m/s", "particle velocity", true);
    pv_.u = field<T>("internal_energy", "J/kg", "specific internal energy", true);
    pv_.rho = field<T>("density", "kg/m^3", "mass density (continuity)", true);
    pv_.S = field<Sym>("deviatoric_stress", "Pa",
                       D == 1 ? "deviatoric stress S_xx" : D == 2 ? "deviatoric stress S_xx, S_yy, S_xy"
                                                                  : "deviatoric stress xx, yy, zz, xy, xz, yz",
                       true);
    pv_.h = field<T>("smoothing_length", "m", "smoothing length h (fixed; kernel support 2h)", true);
    pv_.m = field<T>("mass", "kg", "particle mass", true);
    pv_.mat = field<uint8_t>("material", "", "material index (order of first use in the scene)", true);
    pv_.kind = field<uint8_t>("kind", "", "0 free, 1 prescribed motion (keeps its initial velocity)", true);
    id_ = field<uint32_t>("id", "", "particle number in the initial layout", true);
    pv_.p = field<T>("pressure", "Pa", "pressure (material EOS)", false);
    pv_.c = field<T>("sound_speed", "m/s", "longitudinal sound speed sqrt(c_eos^2 + 4/3 mu/rho)", false);
    pv_.a = field<V>("acceleration", "m/s^2", "total acceleration", false);
    pv_.du = field<T>("energy_rate", "W/kg", "du/dt", false);
    pv_.drho = field<T>("density_rate", "kg/(m^3 s)", "drho/dt", false);
    pv_.dS = field<Sym>("stress_rate", "Pa/s", "dS/dt (Hooke with the Jaumann rate)", false);
    pv_.R = art_on_ ? field<Sym>("artificial_stress", "m^5/(kg s^2)", "artificial stress R/rho^2 terms", false)
                    : nullptr;
    pv_.L = model_.correct ? field<Vec<T, D * D>>("gradient_correction", "", "kernel-gradient correction M^-1 (row-major)", false)
                           : nullptr;
    pv_.vsig = field<T>("signal_speed", "m/s", "largest signal speed over the neighbours", false);
    pv_.eps_p = field<T>("plastic_strain", "", "accumulated equivalent plastic strain (Wilkins 1964 radial return)", true);
    pv_.eps_p_step = field<T>("plastic_strain_step_start", "", "plastic_strain at the start of the current step", true);
    if (!init.flaw_offset.empty()) {
      pv_.damage = field<T>("damage", "", "Grady-Kipp tensile damage D (0 intact, 1 failed)", true);
      flaw_count_ = field<uint32_t>("flaw_count", "", "number of Weibull flaws of the particle", true);
      active_flaws_ = field<uint32_t>("active_flaws", "", "flaws active at the local tensile strain (last damage pass)", true);
      flaw_offset_.resize(exec_, n_ + 1, &array_bytes_);
      flaw_strain_.resize(exec_, init.flaw_strain.size(), &array_bytes_);
    }
    von_mises_ = field<T>("von_mises_stress", "Pa",
                          "von Mises equivalent stress sqrt(3 J2), out-of-plane deviator components included", false);

    struct Spec { const char* name; T* y; const T* rate; std::size_t comps; bool position; };
    const std::vector<Spec> specs = {{"position", flat(pv_.x), flat(pv_.v), D, true},
                                     {"velocity", flat(pv_.v), flat(pv_.a), D, false},
                                     {"internal_energy", pv_.u, pv_.du, 1, false},
                                     {"density", pv_.rho, pv_.drho, 1, false},
                                     {"deviatoric_stress", flat(pv_.S), flat(pv_.dS), NS, false}};
    const StageNeeds need = stage_needs(settings_.scheme);
    for (const Spec& s : specs) {
      OdeVar<T> v;
      v.y = s.y;
      v.rate = s.rate;
      v.count = n_ * s.comps;
      v.position = s.position;
      v.drift_from = s.position ? 1 : -1;
      auto buffer = [&](const char* stage) -> T* {
        const std::string nm = std::string("stage_") + stage + "_" + s.name;
        FieldInfo info{nm, 1, "", std::string("integrator stage buffer ") + stage + " of " + s.name,
                       ScalarType::Float32, true};
        if (s.comps == 1) return store_.template add<T>(info);
        if (std::string(s.name) == "deviatoric_stress") return flat(store_.template add<Sym>(info));
        return flat(store_.template add<Vec<T, D>>(info));
      };
      if (need.y0) v.y0 = buffer("y0");
      if (need.k1) v.k1 = buffer("k1");
      if (need.k2) v.k2 = buffer("k2");
      if (need.k3) v.k3 = buffer("k3");
      vars_.push_back(v);
    }
    cells_ = std::make_unique<LevelIndex<T, D, Exec>>(exec_, grid_, n_, &array_bytes_);
    grid_ = cells_->grid();
  }

  void upload(const SolidInitial& init) {
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
      id[i] = uint32_t(i);
    }
    // Everything else (u, S, the stage buffers) starts at zero.
    for (const FieldInfo& f : store_.fields())
      store_.upload_raw(f.name, std::vector<unsigned char>(
                                    (f.scalar == ScalarType::UInt8 ? 1 : f.scalar == ScalarType::Float64 ? 8 : 4) *
                                        std::size_t(f.components) * n_,
                                    0));
    const std::size_t vb = sizeof(Vec<T, D>) * n_, sb = sizeof(T) * n_;
    exec_.upload(pv_.x, x.data(), vb);
    exec_.upload(pv_.v, v.data(), vb);
    exec_.upload(pv_.rho, rho.data(), sb);
    exec_.upload(const_cast<T*>(pv_.h), h.data(), sb);
    exec_.upload(const_cast<T*>(pv_.m), m.data(), sb);
    exec_.upload(const_cast<uint8_t*>(pv_.mat), init.material.data(), n_);
    exec_.upload(const_cast<uint8_t*>(pv_.kind), init.kind.data(), n_);
    exec_.upload(id_, id.data(), sizeof(uint32_t) * n_);
    if (pv_.damage) {
      std::vector<uint32_t> count(n_);
      for (std::size_t i = 0; i < n_; ++i) count[i] = uint32_t(init.flaw_offset[i + 1] - init.flaw_offset[i]);
      std::vector<T> strain(init.flaw_strain.begin(), init.flaw_strain.end());
      exec_.upload(flaw_count_, count.data(), sizeof(uint32_t) * n_);
      exec_.upload(flaw_offset_.data(), init.flaw_offset.data(), sizeof(std::int64_t) * (n_ + 1));
      exec_.upload(flaw_strain_.data(), strain.data(), sizeof(T) * strain.size());
    }
  }

  T choose_dt(double dt_error) const {
    if (dt_fixed_ > 0) return T(dt_fixed_);
    double dt = dt_limit_;
    if (dt_error > 0) dt = std::min(dt, dt_error);
    if (!(dt >= dt_min_)) {
      std::ostringstream msg;
      msg << "time step collapsed at step " << steps_ << ", t = " << time_ << " s: dt = " << dt
          << " s is below time.dt_min = " << dt_min_ << " s (max speed " << max_speed_ << " m/s)";
      throw BlowUpError(msg.str());
    }
    return T(dt);
  }

  [[noreturn]] void report_bad(const SolidExtremes<T>& e) const {
    const std::size_t i = e.bad_index;
    const std::vector<double> id = store_.download("id");
    const char* names[] = {"", "position", "velocity", "density", "acceleration"};
    const char* fieldname = names[e.bad_field];
    const std::vector<double> values = store_.download(fieldname);
    const int comps = e.bad_field == kBadDensity ? 1 : D;
    std::ostringstream msg;
    msg << "at step " << steps_ << ", t = " << time_ << " s: solid particle " << std::size_t(id[i]) << " has "
        << fieldname << " = (";
    for (int c = 0; c < comps; ++c) msg << (c ? ", " : "") << values[i * comps + c];
    msg << "), which is not finite (or a density <= 0); try a smaller time.cfl or solid.artificial_stress = 0.3";
    throw BlowUpError(msg.str());
  }

  mutable Exec exec_;
  std::size_t n_;
  ParticleStore<Exec> store_;
  std::size_t array_bytes_ = 0;
  std::unique_ptr<LevelIndex<T, D, Exec>> cells_;
  std::unique_ptr<StagedIntegrator<T, Exec>> integ_;
  IntegratorSettings settings_;
  std::vector<OdeVar<T>> vars_;
  SolidModel<T, D> model_{};
  LevelGrid<T, D> grid_{};
  SolidView<T, D> pv_{};
  uint32_t* id_ = nullptr;
  uint32_t* flaw_count_ = nullptr;
  uint32_t* active_flaws_ = nullptr;
  DeviceArray<std::int64_t, Exec> flaw_offset_;  // by initial id, n + 1
  DeviceArray<T, Exec> flaw_strain_;             // activation strains, ascending per particle
  T* von_mises_ = nullptr;
  std::vector<Material> materials_;
  bool any_yield_ = false, art_on_ = false;
  T dt_ = T(0);
  double dt_limit_ = 0, time_ = 0, cfl_ = 0.2, force_factor_ = 0.25, dt_max_ = 1, dt_min_ = 0, dt_fixed_ = 0;
  double max_speed_ = 0;
  long steps_ = 0, rejections_ = 0;
  PhaseTimes times_;
  bool phase_timing_ = false;
};

template <class T, class Exec>
std::unique_ptr<Simulation> make_solid_solver(const ParamSet& params, const SolidInitial& init) {
  switch (init.dim) {
    case 1: return std::make_unique<SolidSolver<T, 1, Exec>>(params, init);
    case 2: return std::make_unique<SolidSolver<T, 2, Exec>>(params, init);
    default: return std::make_unique<SolidSolver<T, 3, Exec>>(params, init);
  }
}

}  // namespace ejecta
