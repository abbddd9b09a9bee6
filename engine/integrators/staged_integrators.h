#pragma once
// Time integrators over a generic state (ode_state.h), selected per scene with time.integrator:
//  - leapfrog: kick-drift-kick (Verlet 1967; the form of Springel 2005, MNRAS 364, 1105, sec. 4):
//      y_half = y + dt/2 f(y_n) for every non-position variable, x_{n+1} = x_n + dt v_half, the
//      velocity-dependent rates evaluated at the predicted y_half + dt/2 f_n, then
//      y_{n+1} = y_half + dt/2 f(y_{n+1}). One evaluation per step, second order, symplectic for
//      conservative forces.
//  - predictor_corrector: predict to the half step with the rates at n, evaluate, correct the full
//      step with the half-step rates (the midpoint scheme; Monaghan 1989, J. Comput. Phys. 82, 1,
//      sec. 5 uses this predictor-corrector form): y_{n+1} = y_n + dt f(y_n + dt/2 f(y_n)); then the
//      rates at y_{n+1} for the next step. Two evaluations per step, second order.
//  - rk23: Bogacki & Shampine (1989), Appl. Math. Lett. 2, 321: three evaluations per step (the
//      fourth is the first of the next step, FSAL), third-order solution, embedded second-order
//      error estimate; a step whose scaled error exceeds 1 is rejected and retried with a smaller
//      dt; dt_next = dt min(growth_max, max(0.2, 0.9 err^(-1/3))) (Hairer, Norsett & Wanner 1993,
//      "Solving ODEs I", sec. II.4, eq. 4.13), also bounded by the CFL and force limits.
//  - leapfrog_predicted: the same kick-drift-kick leapfrog with the kicks, the drift and the predicted
//      fields done by the system's own hooks instead of over its OdeVar list (the liquid,
//      integrators/leapfrog_kdk.h: walls stay fixed, the XSPH/shifting drift correction, the predicted
//      velocity and density in their own fields, summation density). One evaluation per step:
//        sys.kick_drift(dt); sys.evaluate_rates(); dt_limit = sys.kick_and_limit(dt)
//      the time-step limit and the blow-up check measured after the closing kick, at y_{n+1}.
// The system `Sys` provides vars() (a std::vector<OdeVar<T>>&) and evaluate(), which computes the
// rates at the current state and returns the CFL/force time-step limit at that state; optionally
// after_stage(), called after every update of the state (the solids' yield limit); for
// leapfrog_predicted the three hooks above.
#include "integrators/ode_state.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ejecta {

namespace detail {
template <class Sys>
auto after_stage(Sys& s, int) -> decltype(s.after_stage(), void()) { s.after_stage(); }
template <class Sys>
void after_stage(Sys&, long) {}

// Whether Sys has the hooks of Scheme::LeapfrogPredicted.
template <class Sys, class = void>
struct has_kdk_hooks : std::false_type {};
template <class Sys>
struct has_kdk_hooks<Sys, std::void_t<decltype(std::declval<Sys&>().kick_drift(0.0)),
                                      decltype(std::declval<Sys&>().evaluate_rates()),
                                      decltype(double(std::declval<Sys&>().kick_and_limit(0.0)))>>
    : std::true_type {};
}  // namespace detail

enum class Scheme { Leapfrog, PredictorCorrector, Rk23, LeapfrogPredicted };

inline Scheme scheme_from_name(const std::string& s) {
  if (s == "predictor_corrector") return Scheme::PredictorCorrector;
  if (s == "rk23") return Scheme::Rk23;
  return Scheme::Leapfrog;
}

struct IntegratorSettings {
  Scheme scheme = Scheme::Leapfrog;
  bool adaptive = true;  // rk23: error control (off: fixed dt, for order measurements)
  double rtol = 1e-4, atol = 1e-6, growth_max = 2.0;
  int max_rejections = 30;
};

struct StepReport {
  double dt_taken = 0;   // the step actually taken (rk23 may have shrunk it)
  double dt_limit = 0;   // CFL/force limit at the new state
  double dt_error = 0;   // rk23: the next step the error control asks for (0: no opinion)
  double error = 0;      // rk23: the accepted step's scaled error
  int rejections = 0;
};

// Which stage buffers a scheme needs for each variable.
struct StageNeeds {
  bool y0, k1, k2, k3;
};
inline StageNeeds stage_needs(Scheme s) {
  switch (s) {
    case Scheme::Leapfrog: return {false, true, false, false};
    case Scheme::PredictorCorrector: return {true, false, false, false};
    case Scheme::LeapfrogPredicted: return {false, false, false, false};  // the system's own fields
    default: return {true, true, true, true};
  }
}

template <class T, class Exec>
class StagedIntegrator {
 public:
  StagedIntegrator(Exec& exec, IntegratorSettings s) : exec_(exec), s_(s) {}
  const IntegratorSettings& settings() const { return s_; }

  template <class Sys>
  StepReport step(Sys& sys, double dt) {
    switch (s_.scheme) {
      case Scheme::Leapfrog: return leapfrog(sys, dt);
      case Scheme::PredictorCorrector: return predictor_corrector(sys, dt);
      case Scheme::LeapfrogPredicted:
        if constexpr (detail::has_kdk_hooks<Sys>::value)
          return leapfrog_predicted(sys, dt);
        else
          throw std::logic_error("leapfrog_predicted: this system has no kick_drift/evaluate_rates/kick_and_limit hooks");
      default: return rk23(sys, dt);
    }
  }

 private:
  // y = base + c1 k1 + c2 k2 + c3 k3 for every variable, positions first (their rate is the
  // velocity state, which must not have been updated yet).
  template <class Sys, class Pick>
  void combine_all(Sys& sys, Pick pick) {
    for (int pass = 0; pass < 2; ++pass)
      for (OdeVar<T>& v : sys.vars()) {
        if (v.position != (pass == 0)) continue;
        const StageCombine<T> c = pick(v);
        exec_.for_each(v.count, c);
      }
    detail::after_stage(sys, 0);
  }

  template <class Sys>
  StepReport leapfrog(Sys& sys, double dt) {
    const T half = T(0.5 * dt);
    auto& vars = sys.vars();
    for (OdeVar<T>& v : vars)  // kick: half-step values into k1
      if (!v.position) exec_.for_each(v.count, StageCombine<T>{v.k1, v.y, v.rate, nullptr, nullptr, half, 0, 0});
    for (OdeVar<T>& v : vars)  // drift with the half-step velocity
      if (v.position) {
        const OdeVar<T>& vel = vars[v.drift_from];
        exec_.for_each(v.count, StageCombine<T>{v.y, v.y, vel.k1, nullptr, nullptr, T(dt), 0, 0});
      }
    for (OdeVar<T>& v : vars)  // predicted values for the rates
      if (!v.position) exec_.for_each(v.count, StageCombine<T>{v.y, v.k1, v.rate, nullptr, nullptr, half, 0, 0});
    detail::after_stage(sys, 0);
    StepReport r;
    r.dt_taken = dt;
    r.dt_limit = sys.evaluate();
    for (OdeVar<T>& v : vars)  // kick with the new rates
      if (!v.position) exec_.for_each(v.count, StageCombine<T>{v.y, v.k1, v.rate, nullptr, nullptr, half, 0, 0});
    detail::after_stage(sys, 0);
    return r;
  }

  // Kick-drift-kick through the system's hooks (the liquid's fields, integrators/leapfrog_kdk.h).
  template <class Sys>
  StepReport leapfrog_predicted(Sys& sys, double dt) {
    sys.kick_drift(dt);
    sys.evaluate_rates();
    StepReport r;
    r.dt_taken = dt;
    r.dt_limit = sys.kick_and_limit(dt);
    return r;
  }

  template <class Sys>
  StepReport predictor_corrector(Sys& sys, double dt) {
    for (OdeVar<T>& v : sys.vars()) exec_.for_each(v.count, CopyFlat<T>{v.y0, v.y});
    combine_all(sys, [&](OdeVar<T>& v) {
      return StageCombine<T>{v.y, v.y0, v.rate, nullptr, nullptr, T(0.5 * dt), 0, 0};
    });
    sys.evaluate();
    combine_all(sys, [&](OdeVar<T>& v) {
      return StageCombine<T>{v.y, v.y0, v.rate, nullptr, nullptr, T(dt), 0, 0};
    });
    StepReport r;
    r.dt_taken = dt;
    r.dt_limit = sys.evaluate();  // rates at n+1: the next step's predictor
    return r;
  }

  template <class Sys>
  StepReport rk23(Sys& sys, double dt) {
    StepReport r;
    // FSAL: the rates at y_n are those of the last evaluation (the previous step's fourth stage).
    for (OdeVar<T>& v : sys.vars()) {
      exec_.for_each(v.count, CopyFlat<T>{v.y0, v.y});
      exec_.for_each(v.count, CopyFlat<T>{v.k1, v.rate});
    }
    for (;;) {
      combine_all(sys, [&](OdeVar<T>& v) {
        return StageCombine<T>{v.y, v.y0, v.k1, nullptr, nullptr, T(0.5 * dt), 0, 0};
      });
      sys.evaluate();
      for (OdeVar<T>& v : sys.vars()) exec_.for_each(v.count, CopyFlat<T>{v.k2, v.rate});
      combine_all(sys, [&](OdeVar<T>& v) {
        return StageCombine<T>{v.y, v.y0, v.k2, nullptr, nullptr, T(0.75 * dt), 0, 0};
      });
      sys.evaluate();
      for (OdeVar<T>& v : sys.vars()) exec_.for_each(v.count, CopyFlat<T>{v.k3, v.rate});
      combine_all(sys, [&](OdeVar<T>& v) {
        return StageCombine<T>{v.y, v.y0, v.k1, v.k2, v.k3, T(2.0 / 9.0 * dt), T(1.0 / 3.0 * dt),
                               T(4.0 / 9.0 * dt)};
      });
      r.dt_limit = sys.evaluate();  // k4 = f(y_{n+1}), also the next step's k1
      r.dt_taken = dt;
      if (!s_.adaptive) return r;
      double err = 0;
      for (OdeVar<T>& v : sys.vars())
        err = std::max(err, exec_.transform_reduce(v.count, 0.0,
                                                   Rk23ErrorRatio<T>{v.y0, v.y, v.k1, v.k2, v.k3, v.rate,
                                                                     dt, s_.rtol, s_.atol},
                                                   MaxDouble{}));
      const double factor = err > 0 ? 0.9 * std::pow(err, -1.0 / 3.0) : s_.growth_max;
      if (err <= 1.0) {
        r.error = err;
        r.dt_error = dt * std::min(s_.growth_max, std::max(0.2, factor));
        return r;
      }
      // Rejected: back to y_n (k1 is still its rate) with a smaller step.
      if (++r.rejections > s_.max_rejections)
        throw std::runtime_error("rk23: step rejected " + std::to_string(r.rejections) +
                                 " times (error ratio " + std::to_string(err) + " at dt = " +
                                 std::to_string(dt) + " s); loosen time.rtol/time.atol or check the set-up");
      for (OdeVar<T>& v : sys.vars()) exec_.for_each(v.count, CopyFlat<T>{v.y, v.y0});
      dt *= std::max(0.2, std::min(0.9, factor));
    }
  }

  Exec& exec_;
  IntegratorSettings s_;
};

}  // namespace ejecta
