#pragma once
// THE step loop. The viewer (a few steps per frame), the headless run and the benchmark all advance a
// Simulation through StepLoop, so stop conditions, observers and blow-up handling behave the same
// everywhere. No other code loops over Simulation::step(): the tests step through it too
// (tests/step_util.h).
#include "simulation.h"

#include <limits>

namespace ejecta {

// When a run is finished: whichever limit is reached first. The loop never shortens a time step to
// land exactly on until_time; it stops after the step that reaches or passes it.
struct StopRule {
  double until_time = std::numeric_limits<double>::infinity();  // absolute simulation time
  long max_steps = -1;  // steps taken by this loop (not Simulation::steps()); negative: no limit
};

// Hooks called by the loop. on_step runs after every step; wants_stop is asked after every step (and
// before the first one of each advance call) and, once true, finishes the loop for good (Ctrl-C, a
// steady-state detector, the viewer's "stop" button).
// on_step_queued runs inside a step, where the solver has one (the liquid: solver/store_solver.h,
// kick_and_limit): the step's last kernel is queued, `time` is the time it ends at, and the host has not
// yet waited for the device's time-step reduction. Device work queued there (the probes' sampling,
// probes/probe_observer.h) runs while the host waits and prepares the next step, instead of after.
// The step may still fail (BlowUpError); on_step follows only a step that succeeded.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void on_step_queued(const Simulation&, double /*time*/) {}
  virtual void on_step(const Simulation&) {}
  virtual bool wants_stop() { return false; }
};

class StepLoop {
 public:
  // Steps are counted from here, so a loop made after a warm-up or a viewer reset starts at zero.
  StepLoop(Simulation& sim, StopRule rule);

  // True once the stop rule is met or an observer (or stop()) asked to stop.
  bool done() const;
  // Runs at most max_steps_now steps (the viewer passes its steps per frame), fewer when the run
  // finishes; returns the number done. BlowUpError from Simulation::step() propagates unchanged.
  long advance(long max_steps_now, StepObserver* obs = nullptr);
  // Runs until done(); returns the number of steps done by this call. With neither limit set and no
  // observer that stops it, this never returns.
  long run(StepObserver* obs = nullptr);

  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }  // ended by stop()/wants_stop rather than the rule
  long steps_done() const { return steps_done_; }
  const StopRule& rule() const { return rule_; }
  // Fraction of the run done in [0, 1] (the larger of the step and time fractions), or a negative
  // value when the rule has no limit, for progress displays.
  double progress() const;
  Simulation& simulation() { return *sim_; }
  const Simulation& simulation() const { return *sim_; }

 private:
  bool rule_met() const;

  Simulation* sim_;
  StopRule rule_;
  double start_time_;
  long steps_done_ = 0;
  bool stopped_ = false;
};

}  // namespace ejecta
