#include "headless.h"

#include "progress.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>

namespace ejecta::app {

namespace {

// Scene keys the headless run reads (engine/params/builtin_params.cpp defines them).
constexpr const char* kNameKey = "scene.name";
constexpr const char* kEndTimeKey = "scene.end_time";

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) { g_interrupted = 1; }

// Restores the previous SIGINT handler on every way out, so a second Ctrl-C after the run (or a
// blow-up) still kills the process as usual.
struct SigintGuard {
  SigintGuard() {
    g_interrupted = 0;
    previous = std::signal(SIGINT, on_sigint);
  }
  ~SigintGuard() { std::signal(SIGINT, previous == SIG_ERR ? SIG_DFL : previous); }
  void (*previous)(int);
};

// Ctrl-C finishes the run after the current step so the summary of what was done still appears.
class HeadlessObserver : public StepObserver {
 public:
  explicit HeadlessObserver(Progress* progress) : progress_(progress) {}
  void on_step(const Simulation& sim) override {
    if (progress_) progress_->on_step(sim);
  }
  bool wants_stop() override { return g_interrupted != 0; }

 private:
  Progress* progress_;
};

}  // namespace

StopRule headless_stop_rule(const CliOptions& cli, const ParamSet& scene) {
  StopRule rule;
  if (cli.steps) {
    rule.max_steps = *cli.steps;
  } else if (cli.until) {
    rule.until_time = *cli.until;
  } else {
    rule.until_time = scene.real(kEndTimeKey);
  }
  return rule;
}

std::string scene_display_name(const ParamSet& scene, const std::string& fallback) {
  if (scene.registry().find(kNameKey)) {
    const std::string name = scene.text(kNameKey);
    if (!name.empty()) return name;
  }
  return fallback;
}

int run_headless(const ParamSet& scene, Backend backend, const HeadlessOptions& opt) {
  using Clock = std::chrono::steady_clock;
  const auto t_setup = Clock::now();
  std::unique_ptr<Simulation> sim = make_simulation(scene, backend);
  const double setup_s = std::chrono::duration<double>(Clock::now() - t_setup).count();

  StepLoop loop(*sim, opt.rule);
  std::unique_ptr<Progress> progress;
  if (!opt.json) progress = std::make_unique<Progress>(loop, stderr);
  HeadlessObserver observer(progress.get());

  const auto t0 = Clock::now();
  {
    SigintGuard guard;
    loop.run(&observer);
    // Device work may still be queued; the wall time must include it.
    sim->synchronize();
  }
  const double wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (progress) progress->finish();

  const bool interrupted = loop.stopped();
  const long steps = loop.steps_done();
  const std::size_t n = sim->particle_count(), fluid = sim->fluid_count();
  const double rate = wall_s > 0 ? double(n) * double(steps) / wall_s : 0;

  if (opt.json) {
    JsonObject j;
    j.add("scene", opt.scene_name)
        .add("backend", to_string(sim->backend()))
        .add("device", sim->device_name())
        .add("precision", to_string(sim->precision()))
        .add("dim", sim->dim())
        .add("particles", n)
        .add("fluid", fluid)
        .add("wall", n - fluid)
        .add("steps", steps)
        .add("sim_time", sim->time())
        .add("setup_s", setup_s)
        .add("wall_s", wall_s)
        .add("particle_steps_per_s", rate)
        .add("interrupted", interrupted);
    std::printf("%s\n", j.str().c_str());
  } else {
    std::printf("scene              %s\n", opt.scene_name.c_str());
    std::printf("backend            %s\n", to_string(sim->backend()));
    std::printf("device             %s\n", sim->device_name().c_str());
    std::printf("precision          %s\n", to_string(sim->precision()));
    std::printf("dim                %d\n", sim->dim());
    std::printf("particles          %zu (fluid %zu, wall %zu)\n", n, fluid, n - fluid);
    std::printf("steps              %ld%s\n", steps, interrupted ? " (interrupted)" : "");
    std::printf("simulated time     %.6g s\n", sim->time());
    std::printf("wall time          %s (setup %s)\n", duration(wall_s).c_str(), duration(setup_s).c_str());
    std::printf("particle-steps/s   %s\n", si(rate).c_str());
  }
  std::fflush(stdout);
  return interrupted ? 130 : 0;
}

}  // namespace ejecta::app
