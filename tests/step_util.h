#pragma once
// Tests step a Simulation through THE step loop (engine/run/step_loop.h), as the headless run, the
// benchmark and the viewer do, so that a test sees the same stop rules and blow-up handling.
#include "run/step_loop.h"

#include <limits>

namespace ejecta::test {

// n steps (n >= 1); returns the number done.
inline long step_n(Simulation& sim, long n) {
  StepLoop loop(sim, StopRule{std::numeric_limits<double>::infinity(), n});
  return loop.run();
}

// Steps until the simulation time reaches or passes t (the loop never shortens the last step).
inline long step_until(Simulation& sim, double t) {
  StepLoop loop(sim, StopRule{t, -1});
  return loop.run();
}

}  // namespace ejecta::test
