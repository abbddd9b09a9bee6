#pragma once
// What the store solver (solver/store_solver.h, the one solver class) has as its step driver (CRTP
// base; Derived is the solver): the particle store on one backend, the level index of the gas, solid
// and mixed models (the liquid alone's uniform CellIndex is its fast path's, solver/uniform_liquid.h),
// the integrator family over the generic ODE state (staged_integrators.h), the step
// driver (one step of the integrator, the clock, the next dt with its collapse check, the phase
// times), the time-step keys that may change live, the blow-up report, and the facade accessors,
// capture and restore.
// Every model's evaluation has one structure: the sort (Derived's), the terms of its recipes
// (solver/term_list.h, run by run_terms), one reduction for the next dt (Derived's).
// Derived provides evaluate() and, where it needs one, after_stage() for the integrator, and the
// kick_drift / evaluate_rates / kick_and_limit hooks of Scheme::LeapfrogPredicted (the liquid alone), and
// may shadow before_step() / after_step(report) for work outside the integrator's stages.
#include "exec/device_array.h"
#include "exec/device_ptr.h"
#include "integrators/staged_integrators.h"
#include "neighbors/level_grid.h"
#include "neighbors/level_index.h"
#include "particles/capture_fields.h"
#include "particles/particle_store.h"
#include "params/param_set.h"
#include "simulation.h"
#include "solver/store_reports.h"
#include "solver/term_registry.h"

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace ejecta {

template <class Derived, class T, int D, class Exec>
class StagedStoreSolver : public Simulation {
 public:
  std::vector<OdeVar<T>>& vars() { return vars_; }

  void step() override {
    Derived& self = static_cast<Derived&>(*this);
    const auto t0 = std::chrono::steady_clock::now();
    const PhaseTimes before = times_;
    self.before_step();
    const StepReport r = integ_->step(self, double(dt_));
    self.after_step(r);
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
  int dim() const override { return D; }
  Backend backend() const override { return Exec::kBackend; }
  Precision precision() const override {
    return sizeof(T) == sizeof(float) ? Precision::Float : Precision::Double;
  }
  long rejected_steps() const { return rejections_; }

  HostParticles download() const override { return download_common_fields(store_, D, n_); }

  const PhaseTimes& phase_times() const override { return times_; }
  void reset_phase_times() override { times_ = PhaseTimes{}; }
  void set_phase_timing(bool on) override { phase_timing_ = on; }
  void set_count_pairs(bool) override {}
  PairCounts pair_counts() const override { return PairCounts{}; }
  std::size_t device_bytes() const override { return store_.bytes() + array_bytes_ + exec_.workspace_bytes(); }
  std::string device_name() const override { return exec_.device_name(); }
  void* device_stream() const override { return exec_.stream_handle(); }
  void synchronize() override { exec_.synchronize(); }
  std::vector<FieldInfo> fields() const override { return store_.fields(); }

  void capture_frame_into(FrameData& f, const std::vector<std::string>& names) const override {
    capture_fields_into(store_, f, names, time_, steps_, double(dt_));
  }

  // Every field, derived ones and the stage buffers included: the integrators start a step from the
  // last evaluation's rates (leapfrog's kick, the FSAL stage of rk23), so restoring them all,
  // without a re-evaluation, continues the run exactly. No re-sort either: every evaluation sorts
  // first, and a sort now could key the particles differently from the uninterrupted run (the gas'
  // h of the last h iteration), which would change the summation order (round-off differences).
  void restore_frame(const FrameData& frame) override {
    restore_frame_where(frame, [](const FieldInfo&) { return true; });
  }

  // Hooks of step(), shadowed by Derived where it has work outside the integrator's stages.
  void before_step() {}
  void after_step(const StepReport&) {}

 protected:
  explicit StagedStoreSolver(std::size_t n) : n_(n), store_(exec_, n) {}

  // Every field of the frame that the store has, the clock and the step size; a field for which
  // needed(info) holds must be in the frame.
  template <class Needed>
  void restore_frame_where(const FrameData& frame, Needed needed) {
    restore_fields_from(store_, frame, n_, needed);
    time_ = frame.time;
    steps_ = frame.step;
    dt_ = T(frame.dt);
  }

  // The time-step keys that may change between steps (apply_params), and the adaptive integrator's.
  void configure_time(const ParamSet& params) {
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

  // The step after this one: time.dt_fixed, else the last evaluation's limit and the integrator's
  // error estimate; below time.dt_min the run stops with a BlowUpError (a collapsing step).
  T choose_dt(double dt_error) const {
    if (dt_fixed_ > 0) return T(dt_fixed_);
    double dt = dt_limit_;
    if (dt_error > 0) dt = std::min(dt, dt_error);
    if (!(dt >= dt_min_)) {
      std::ostringstream msg;
      msg << "time step collapsed at step " << steps_ << ", t = " << time_ << " s: dt = " << dt
          << " s is below time.dt_min = " << dt_min_ << " s (max speed " << max_speed_ << " m/s";
      if (max_accel_ >= 0) msg << ", max acceleration " << max_accel_ << " m/s^2";
      msg << ")";
      throw BlowUpError(msg.str());
    }
    return T(dt);
  }

  // After the set-up: the integrator, the first evaluation and the first step size.
  void start() {
    Derived& self = static_cast<Derived&>(*this);
    integ_ = std::make_unique<StagedIntegrator<T, Exec>>(exec_, settings_);
    detail::after_stage(self, 0);  // the solids' yield limit on the initial state; none for the gas
    dt_limit_ = self.evaluate();
    dt_ = choose_dt(0);
  }

  // A particle field in the store (registered for output, colouring and the inspector).
  template <class E>
  E* field(const char* name, const char* units, const char* what, bool persistent) {
    return store_.template add<E>(FieldInfo{name, 1, units, what, ScalarType::Float32, persistent});
  }

  // The same as a typed device pointer (exec/device_ptr.h): the store's fields are device memory.
  template <class E>
  DevicePtr<E> device_field(const char* name, const char* units, const char* what, bool persistent) {
    return DevicePtr<E>::adopt(field<E>(name, units, what, persistent));
  }

  // One variable of the integrators' ODE state: y (the field `name`) with its rate, and the stage
  // buffers the scheme needs (stage_y0_NAME, ...; persistent, so the sort carries them). E is the
  // element type (T, Vec<T, D>, a symmetric tensor); position: drifted by the velocity.
  template <class E>
  void add_ode_var(const char* name, DevicePtr<E> y, DevicePtr<const typename NonDeduced<E>::type> rate, bool position) {
    add_ode_var(name, y.get(), rate.get(), position);
  }
  template <class E>
  void add_ode_var(const char* name, E* y, const E* rate, bool position) {
    const StageNeeds need = stage_needs(settings_.scheme);
    OdeVar<T> v;
    v.y = reinterpret_cast<T*>(y);
    v.rate = reinterpret_cast<const T*>(rate);
    v.count = n_ * (sizeof(E) / sizeof(T));
    v.position = position;
    v.drift_from = position ? 1 : -1;
    auto buffer = [&](const char* stage) {
      const std::string nm = std::string("stage_") + stage + "_" + name;
      FieldInfo info{nm, 1, "", std::string("integrator stage buffer ") + stage + " of " + name, ScalarType::Float32,
                     true};
      return reinterpret_cast<T*>(store_.template add<E>(info));
    };
    if (need.y0) v.y0 = buffer("y0");
    if (need.k1) v.k1 = buffer("k1");
    if (need.k2) v.k2 = buffer("k2");
    if (need.k3) v.k3 = buffer("k3");
    vars_.push_back(v);
  }

  // The blow-up report of the reduction's first bad particle: step, time, particle id, the field and
  // its value, then `advice` (", which is not finite ...; try ..."). Field numbers: BadField, and 5 the
  // gas' internal energy (kBadInternalEnergy).
  [[noreturn]] void report_bad_particle(const RateExtremes<T>& e, const char* particle, const char* advice) const {
    report_bad_particle(e.bad_index, e.bad_field, particle, advice, steps_, time_);
  }
  // The same for particle i (sorted index) and field `bad`, of the state at `step` and `time` (the
  // liquid measures the end of the step being taken).
  [[noreturn]] void report_bad_particle(std::size_t i, uint32_t bad, const char* particle, const std::string& advice,
                                        long step, double time) const {
    const std::vector<double> id = store_.download("id");
    const char* names[] = {"", "position", "velocity", "density", "acceleration", "internal_energy"};
    const char* fieldname = names[bad];
    const std::vector<double> values = store_.download(fieldname);
    const bool vector = bad == kBadPosition || bad == kBadVelocity || bad == kBadAcceleration;
    const int comps = vector ? D : 1;
    std::ostringstream msg;
    msg << "at step " << step << ", t = " << time << " s: " << particle << " particle " << std::size_t(id[i])
        << " has " << fieldname << " = (";
    for (int c = 0; c < comps; ++c) msg << (c ? ", " : "") << values[i * comps + c];
    const std::vector<double> x = store_.download("position");  // where it happened (issue 12)
    msg << ") at x = (";
    for (int c = 0; c < D; ++c) msg << (c ? ", " : "") << x[i * D + c];
    msg << ")" << advice;
    throw BlowUpError(msg.str());
  }

  // A phase boundary: now, after waiting for the device only while phase timing is on (the benchmark).
  std::chrono::steady_clock::time_point phase_mark() const {
    if (phase_timing_) exec_.synchronize();
    return std::chrono::steady_clock::now();
  }
  static double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }

  // One evaluation's terms (after the sort), in order. With phase timing (the benchmark) the device is
  // waited for where the stage's timing bucket changes, and each stretch goes to its bucket
  // (term_timing: state and boundary to density, pair sums to forces, self-gravity to gravity);
  // without it a run queues every term and syncs once, on the reduction that follows. `until`: only the
  // terms of the stages before it (the liquid's restore: its densities, pressures and walls).
  // The integrator's hooks of one stage (TermStage::AfterStage or AfterStep), bound as terms
  // (bind_terms of the solver's hook recipe), in their recipe's order; not timed.
  void run_hooks(const std::vector<Term>& hooks, TermStage stage) {
    for (const Term& t : hooks)
      if (t.info.stage == stage) t.run();
  }

  void run_terms(const std::vector<Term>& all, TermStage until = TermStage::AfterStage) {
    std::size_t count = 0;
    while (count < all.size() && int(all[count].info.stage) < int(until)) ++count;
    auto t = phase_mark();
    for (std::size_t k = 0; k < count; ++k) {
      all[k].run();
      const TermTiming b = term_timing(all[k].info.stage);
      if (k + 1 < count && term_timing(all[k + 1].info.stage) == b) continue;
      const auto t2 = phase_mark();
      const double s = seconds(t, t2);
      (b == TermTiming::Density ? times_.density : b == TermTiming::Gravity ? times_.gravity : times_.forces) += s;
      t = t2;
    }
  }

  // The diagnostics row from a sums functor over every particle.
  template <class Measure>
  Diagnostics diagnostics_with(Measure measure, const Vec<T, D>& gravity) const {
    for (int d = 0; d < D; ++d) measure.gravity[d] = double(gravity[d]);
    const DiagnosticSums zero{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0, 0};
    const DiagnosticSums s = exec_.transform_reduce(n_, zero, measure, CombineDiagnosticSums{});
    return diagnostics_from_sums(s, D, time_, steps_, double(dt_), n_, 0);
  }

  mutable Exec exec_;
  std::size_t n_;
  ParticleStore<Exec> store_;
  std::size_t array_bytes_ = 0;
  std::unique_ptr<LevelIndex<T, D, Exec>> cells_;
  std::unique_ptr<StagedIntegrator<T, Exec>> integ_;
  IntegratorSettings settings_;
  std::vector<OdeVar<T>> vars_;
  T dt_ = T(0);
  double dt_limit_ = 0, time_ = 0, cfl_ = 0.2, force_factor_ = 0.25, dt_max_ = 1, dt_min_ = 0, dt_fixed_ = 0;
  double max_speed_ = 0;
  double max_accel_ = -1;  // for the collapse report where the limit measures it (the liquid); -1: none
  long steps_ = 0, rejections_ = 0;
  PhaseTimes times_;
  bool phase_timing_ = false;
};

}  // namespace ejecta
