#include "run/step_loop.h"

#include <algorithm>
#include <cmath>

namespace ejecta {

StepLoop::StepLoop(Simulation& sim, StopRule rule) : sim_(&sim), rule_(rule), start_time_(sim.time()) {}

bool StepLoop::rule_met() const {
  if (rule_.max_steps >= 0 && steps_done_ >= rule_.max_steps) return true;
  if (std::isfinite(rule_.until_time)) {
    // Time is a sum of many dt, so ten steps of 0.1 give 0.9999999999999999: without this slack
    // (a millionth of the next step) "--until 1" would take one extra, needless step.
    const double slack = 1e-6 * std::max(0.0, sim_->dt());
    if (sim_->time() >= rule_.until_time - slack) return true;
  }
  return false;
}

bool StepLoop::done() const { return stopped_ || rule_met(); }

long StepLoop::advance(long max_steps_now, StepObserver* obs) {
  long n = 0;
  // A stop request that arrived between calls (a signal while the viewer was drawing) is honoured
  // before stepping again.
  if (obs && !done() && obs->wants_stop()) stopped_ = true;
  // The observer's on_step_queued inside each step, and never after this call (the observer may go).
  struct Unset {
    Simulation* sim;
    ~Unset() { sim->set_step_observer(nullptr); }
  } unset{sim_};
  sim_->set_step_observer(obs);
  while (n < max_steps_now && !done()) {
    sim_->step();
    ++n;
    ++steps_done_;
    if (obs) {
      obs->on_step(*sim_);
      if (obs->wants_stop()) stopped_ = true;
    }
  }
  return n;
}

long StepLoop::run(StepObserver* obs) {
  long n = 0;
  while (!done()) n += advance(std::numeric_limits<long>::max(), obs);
  return n;
}

double StepLoop::progress() const {
  const bool by_steps = rule_.max_steps >= 0, by_time = std::isfinite(rule_.until_time);
  if (!by_steps && !by_time) return -1;
  if (rule_met()) return 1;
  double f = 0;
  if (by_steps && rule_.max_steps > 0) f = std::max(f, double(steps_done_) / double(rule_.max_steps));
  if (by_time) {
    const double span = rule_.until_time - start_time_;
    if (span > 0) f = std::max(f, (sim_->time() - start_time_) / span);
  }
  return std::min(f, 1.0);
}

}  // namespace ejecta
