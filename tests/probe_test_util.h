#pragma once
// Runs a scene with its probes and gauges sampled as `ejecta --headless` samples them (on the device,
// downloaded in batches), for the probe tests and SPHERIC 2 (tests/test_probes.cpp, spheric2_util.h).
#include "io/async_recorder.h"  // CompositeObserver
#include "probes/probe_api.h"
#include "probes/probe_observer.h"
#include "sim_test_util.h"

namespace ejecta::test {

// Runs `sim` from its current state to `until` and returns every sample (the initial state's too).
// `each_step`, when given, is called after every step as well (after the probes' sampling; the engine's
// CompositeObserver, as the headless run chains its observers), so that a test can check other
// quantities of the same run; the probes only read the state.
inline ProbeSeries run_probe_series(Simulation& sim, double until,
                                    const std::function<void(const Simulation&)>& each_step = nullptr) {
  EXPECT_NE(probe_layout(sim), nullptr) << "the scene has no probes";
  ProbeObserver probes(sim);
  CallbackObserver also([&each_step](const Simulation& s) {
    if (each_step) each_step(s);
    return true;
  });
  CompositeObserver both({&probes, &also});
  probes.sample_initial(sim);
  StopRule rule;
  rule.until_time = until;
  StepLoop(sim, rule).run(&both);
  probes.close();
  return probes.series();
}

// Runs `p` on `backend` from its start to `until` and returns every sample (the initial state's too).
inline ProbeSeries run_probe_series(const ParamSet& p, Backend backend, double until) {
  auto sim = make_simulation(p, backend);
  return run_probe_series(*sim, until);
}

}  // namespace ejecta::test
