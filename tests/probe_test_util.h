#pragma once
// Runs a scene with its probes and gauges sampled as `ejecta --headless` samples them (on the device,
// downloaded in batches), for the probe tests and SPHERIC 2 (tests/test_probes.cpp, spheric2_util.h).
#include "probes/probe_api.h"
#include "probes/probe_observer.h"
#include "sim_test_util.h"

namespace ejecta::test {

// Runs `sim` from its current state to `until` and returns every sample (the initial state's too).
// `each_step`, when given, is called after every step as well (after the probes' sampling), so that a
// test can check other quantities of the same run; the probes only read the state.
inline ProbeSeries run_probe_series(Simulation& sim, double until,
                                    const std::function<void(const Simulation&)>& each_step = nullptr) {
  EXPECT_NE(probe_layout(sim), nullptr) << "the scene has no probes";
  ProbeObserver probes(sim);
  struct Both : StepObserver {
    ProbeObserver& probes;
    const std::function<void(const Simulation&)>& also;
    Both(ProbeObserver& p, const std::function<void(const Simulation&)>& a) : probes(p), also(a) {}
    void on_step(const Simulation& s) override {
      probes.on_step(s);
      if (also) also(s);
    }
    bool wants_stop() override { return probes.wants_stop(); }
  } both(probes, each_step);
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
