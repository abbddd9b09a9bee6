#pragma once
// Runs a scene with its probes and gauges sampled as `ejecta --headless` samples them (on the device,
// downloaded in batches), for the probe tests and SPHERIC 2 (tests/test_probes.cpp, spheric2_util.h).
#include "probes/probe_api.h"
#include "probes/probe_observer.h"
#include "sim_test_util.h"

namespace ejecta::test {

// Runs `p` on `backend` from its start to `until` and returns every sample (the initial state's too).
inline ProbeSeries run_probe_series(const ParamSet& p, Backend backend, double until) {
  auto sim = make_simulation(p, backend);
  EXPECT_NE(probe_layout(*sim), nullptr) << "the scene has no probes";
  ProbeObserver probes(*sim);
  probes.sample_initial(*sim);
  StopRule rule;
  rule.until_time = until;
  StepLoop(*sim, rule).run(&probes);
  probes.close();
  return probes.series();
}

}  // namespace ejecta::test
