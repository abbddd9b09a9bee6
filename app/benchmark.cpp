#include "benchmark.h"

#include "io/async_recorder.h"
#include "params/param_set.h"
#include "progress.h"
#include "run/step_loop.h"
#include "scene/gas_scene.h"
#include "scene/mixed_scene.h"
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"
#include "simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>

#include <unistd.h>

#include "ejecta_version.h"

namespace ejecta::app {

namespace {

// The SPHERIC 3D dam break (Kleefsman et al. 2005, J. Comput. Phys. 206, 363): a 3.22 x 1 x 1 m
// closed tank, a 1.228 x 1 x 0.55 m water column at the far end and a box obstacle in its path.
// Embedded rather than read from scenes/ so that the benchmark runs wherever the binary is copied.
const char* const kBenchmarkScene = R"ini(
[scene]
name = benchmark 3D dam break (SPHERIC)
dim = 3

[physics]
gravity = 0, 0, -9.81

[tank.1]
min = 0, 0, 0
max = 3.22, 1, 1
open_top = false

[block.1]
min = 1.992, 0, 0
max = 3.22, 1, 0.55

[obstacle.1]
min = 0.6635, 0.2985, 0
max = 0.8245, 0.7015, 0.161
)ini";

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The scene of a rung: the base scene with its spacings scaled so that its first spacing is `dp`.
// The built-in dam break has one spacing (particles.dp); a solid or gas scene file has one per block
// ([solid_block.N].dp, [gas_block.N].dp), all scaled by the same factor so that the bodies keep
// their relative resolution; a particles.dp scene file is scaled like the dam break.
struct BaseScene {
  ParamSet params;
  std::vector<std::string> dp_keys;  // the spacings to scale
  std::vector<double> dp0;           // their values in the scene
  std::string title, ini;
};

BaseScene base_scene(const BenchmarkOptions& opt) {
  BaseScene b;
  if (opt.scene_path.empty()) {
    b.params = read_scene_string(kBenchmarkScene, "<benchmark scene>");
    b.title = "3D dam break (SPHERIC)";
    b.ini = kBenchmarkScene;
  } else {
    b.params = read_scene_file(opt.scene_path);
    b.title = b.params.text("scene.name") + " (" + opt.scene_path + ")";
    b.ini = b.params.to_ini();
  }
  for (const auto& s : opt.sets) b.params.apply_override(s);
  const std::string model = b.params.text("physics.model");
  const char* blocks = model == "solid" || model == "mixed" ? "solid_block" : model == "gas" ? "gas_block" : nullptr;
  // A mixed scene's liquid spacing first (when it has a liquid), then its solid bodies'.
  if (model == "mixed" && !b.params.indices("block").empty()) b.dp_keys.push_back("particles.dp");
  // A mixed scene's grains scale by their radius (and spacing, where set; 0 means two radii).
  if (model == "mixed")
    for (int k : b.params.indices("grains")) {
      const std::string g = "grains." + std::to_string(k);
      b.dp_keys.push_back(g + ".radius");
      if (b.params.real(g + ".spacing") > 0) b.dp_keys.push_back(g + ".spacing");
    }
  if (blocks && !opt.scene_path.empty())
    for (int k : b.params.indices(blocks)) b.dp_keys.push_back(std::string(blocks) + "." + std::to_string(k) + ".dp");
  if (b.dp_keys.empty()) b.dp_keys.push_back("particles.dp");
  for (const auto& k : b.dp_keys) b.dp0.push_back(b.params.real(k));
  return b;
}

ParamSet rung_scene(const BenchmarkOptions& opt, const BaseScene& base, double dp) {
  ParamSet p = base.params;
  p.set("scene.precision", to_string(opt.precision), "--precision");
  for (std::size_t k = 0; k < base.dp_keys.size(); ++k)
    // dp times the spacing's ratio to the first: equal spacings stay equal to the last bit (0.05 dp / 0.05
    // is not always dp, and h one ulp apart made two levels of the impact's grid; level_grid.h).
    p.set(base.dp_keys[k], number_text(k == 0 ? dp : dp * (base.dp0[k] / base.dp0[0])), "benchmark");
  return p;
}

ParamSet rung_scene(const BenchmarkOptions& opt, double dp) { return rung_scene(opt, base_scene(opt), dp); }

std::size_t scene_size(const ParamSet& p) {
  const std::string model = p.text("physics.model");
  if (model == "solid") return build_solid_scene(p).size();
  if (model == "gas") return build_gas_scene(p).size();
  if (model == "mixed") return build_mixed_scene(p).size();
  return build_scene(p).size();
}

struct Resolution {
  double dp = 0;
  std::size_t count = 0;
};

// Finds dp so that the total particle count is close to `target`. The count is a step function of dp
// (whole lattice cells per box) that goes as dp^-3 for the fluid but only dp^-2 for the fixed-depth
// wall shell, so this is a secant search in log N / log dp rather than a plain cube-root scaling.
// It starts coarse so that no trial is much larger than the target; each trial builds the particles
// (cheap next to the timed steps).
Resolution choose_dp(const BenchmarkOptions& opt, long target) {
  const BaseScene base = base_scene(opt);
  const bool builtin = opt.scene_path.empty();
  auto count = [&](double dp) {
    try {
      return scene_size(rung_scene(opt, base, dp));
    } catch (const ParamError& e) {
      // The --set overrides were checked before; what fails here is the geometry at this spacing.
      throw ParamError("--benchmark-sizes: cannot build about " + std::to_string(target) + " particles of " +
                       base.title + " (trying " + base.dp_keys[0] + " = " + format_number(dp) + "): " + e.what());
    }
  };
  Resolution best;
  // The dam break starts coarse so that no trial is much larger than the target; a scene file starts
  // at its own spacing (its own size was chosen to be buildable).
  double dp = builtin ? 0.1 : base.dp0[0];
  double slope = builtin ? -2.7 : -double(base.params.integer("scene.dim"));  // dN/N per ddp/dp
  // Above 0.15 m the obstacle (0.161 m tall) and the column stop being resolved at all, so a tiny
  // target gets the coarsest sensible dam break instead of a geometry error; a scene file may be
  // coarsened 20 times.
  const double dp_max = builtin ? 0.15 : 20 * base.dp0[0];
  double prev_log_dp = 0, prev_log_n = 0;
  for (int it = 0; it < 8; ++it) {
    const std::size_t n = count(dp);
    if (best.count == 0 || std::fabs(std::log(double(n) / target)) < std::fabs(std::log(double(best.count) / target)))
      best = {dp, n};
    if (std::fabs(double(n) / target - 1) < 0.005) break;
    const double log_dp = std::log(dp), log_n = std::log(double(std::max<std::size_t>(n, 1)));
    if (it > 0 && std::fabs(log_dp - prev_log_dp) > 1e-9)
      slope = std::clamp((log_n - prev_log_n) / (log_dp - prev_log_dp), -3.5, -0.8);
    prev_log_dp = log_dp;
    prev_log_n = log_n;
    dp = std::min(dp_max, std::exp(log_dp + (std::log(double(target)) - log_n) / slope));
    if (dp == best.dp) break;
  }
  return best;
}

// Where the recorded run's extra time went (per frame), to tell a slow copy from a slow disk.
struct RecordBreakdown {
  std::size_t frames = 0;
  double capture_s = 0;  // on the stepping thread: diagnostics + device->host copy + hand-over
  double wait_s = 0;     // of that, waiting for the writer to free a buffer (back-pressure)
  double write_s = 0;    // on the writer thread: HDF5 frame writes and flushes
  double diag_write_s = 0;  // on the writer thread: diagnostics rows
  double drain_s = 0;    // after the last step, until the file is closed
  double close_s = 0;    // of that, closing the file
  double diagnostics_s = 0;  // one Simulation::diagnostics() call (a reduction and its copy back)
};

struct RungResult {
  std::string scene;
  long target = 0;
  double dp = 0;
  std::size_t particles = 0, fluid = 0;
  long steps = 0;
  double seconds = 0;              // the timed steps as an ordinary run
  double phase_timed_seconds = 0;  // the same steps with phase timing (its device waits included)
  PairCounts pairs;
  PhaseTimes phases;
  std::size_t device_bytes = 0;
  std::string device;
  Backend backend = Backend::Cpu;
  Precision precision = Precision::Float;
  int dim = 3;
  double record_seconds = 0;  // the same steps while recording (only with BenchmarkOptions::record),
                              // against `seconds`
  RecordBreakdown record;

  double record_overhead_percent() const {
    return seconds > 0 && record_seconds > 0 ? (record_seconds / seconds - 1) * 100 : 0;
  }
  // The same without the drain after the last step (the last frame's write and the file's close,
  // paid once per run whatever its length): what recording costs per frame interval.
  double record_steady_overhead_percent() const {
    return seconds > 0 && record_seconds > 0
               ? ((record_seconds - record.drain_s) / seconds - 1) * 100
               : 0;
  }
  double steps_per_s() const { return seconds > 0 ? steps / seconds : 0; }
  double ms_per_step(double total_s) const { return steps > 0 ? 1e3 * total_s / steps : 0; }
};

// Every step goes through the StepLoop, like any other run.
void run_steps(Simulation& sim, long n, StepObserver* obs = nullptr) {
  StepLoop(sim, StopRule{std::numeric_limits<double>::infinity(), n}).run(obs);
}

// The wall-clock seconds of n steps, the device's queued work included.
double timed_steps(Simulation& sim, long n) {
  sim.synchronize();
  const auto t0 = Clock::now();
  run_steps(sim, n);
  sim.synchronize();
  return seconds_since(t0);
}

// A fresh file in a private directory under $TMPDIR (or /tmp), created by the recorder itself: a
// file that already exists is truncated when HDF5 opens it, and ext4 then writes the whole file back
// when it is closed (its auto_da_alloc rule for replace-by-truncate), which would be timed as
// recording cost. Removes the file, its XDMF sidecar and the directory on every way out.
class TempRecording {
 public:
  TempRecording() {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/ejecta-benchmark-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("--benchmark-record: cannot create a directory like " + tmpl);
    dir_ = tmpl;
    path_ = dir_ + "/record.h5";
  }
  ~TempRecording() {
    std::remove(path_.c_str());
    std::remove((dir_ + "/record.xdmf").c_str());
    rmdir(dir_.c_str());
  }
  TempRecording(const TempRecording&) = delete;
  TempRecording& operator=(const TempRecording&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

// Times `steps` steps while recording every field every 100 steps, through the same recorder and
// observer as `--record`. The initial frame and the final drain are inside the clock: they are part
// of what recording costs a run.
double time_recorded_steps(Simulation& sim, long steps, const std::string& scene_ini, RecordBreakdown* out) {
  TempRecording tmp;
  RunInfo info;
  info.dim = sim.dim();
  info.precision = to_string(sim.precision());
  info.backend = to_string(sim.backend());
  info.scene_ini = scene_ini;
  info.command_line = "ejecta --benchmark --benchmark-record";
  info.ejecta_version = EJECTA_VERSION;
  info.git_commit = EJECTA_GIT_COMMIT;
  RecordSchedule schedule;
  schedule.every_steps = 100;
  sim.synchronize();
  const auto t0 = Clock::now();
  {
    AsyncRecorder rec(tmp.path(), info, RecordOptions{});
    RecordObserver obs(rec, schedule);
    obs.record_initial(sim);
    run_steps(sim, steps, &obs);
    sim.synchronize();
    const auto t_drain = Clock::now();
    rec.finish();
    out->drain_s = seconds_since(t_drain);
    const AsyncRecorder::Timings t = rec.timings();
    out->close_s = t.closing;
    out->diag_write_s = t.writing_diagnostics;
    out->frames = rec.frames_written();
    out->capture_s = obs.seconds_capturing();
    out->wait_s = t.waiting;
    out->write_s = t.writing_frames;
  }
  return seconds_since(t0);
}

RungResult measure(const BenchmarkOptions& opt, long target) {
  constexpr long kWarmupSteps = 20;  // first steps pay for allocation, caches, the initial transient
  constexpr long kCalibrationSteps = 10;
  constexpr long kMinTimedSteps = 20;
  constexpr double kMinTimedSeconds = 1.0;

  RungResult r;
  r.target = target;
  r.scene = base_scene(opt).params.text("scene.name");
  const Resolution res = choose_dp(opt, target);
  r.dp = res.dp;
  std::unique_ptr<Simulation> sim = make_simulation(rung_scene(opt, res.dp), opt.backend);

  run_steps(*sim, kWarmupSteps);
  // Counting pairs slows the force pass, so it gets a step of its own, outside the timed ones.
  sim->set_count_pairs(true);
  run_steps(*sim, 1);
  r.pairs = sim->pair_counts();
  sim->set_count_pairs(false);

  // A short timed run decides how many steps fill the measurement time.
  const double per_step = timed_steps(*sim, kCalibrationSteps) / kCalibrationSteps;
  long steps = per_step > 0 ? std::max(kMinTimedSteps, long(std::ceil(kMinTimedSeconds / per_step)))
                            : kMinTimedSteps;
  // The record overhead is measured over at least ten frames (1000 steps at one frame per 100), so
  // the first frame and the final drain, paid once per run, do not dominate a one-second window.
  if (opt.record) steps = std::max(steps, 1000L);

  // The timed steps run more than once from the same state, saved here and restored before each run
  // (restarts are bit-exact), since later steps of a dam break cost more than earlier ones (the water
  // spreads): first as an ordinary run, for the figure (and the baseline of the record overhead); then
  // with phase timing, for the phases, whose waits for the device at every phase boundary leave the GPU
  // idle while the host launches the next phase (about 5% of a 1.4 ms step on the H100), so they are
  // kept out of the figure; with BenchmarkOptions::record, again while recording.
  FrameData start;
  sim->capture_frame_into(start);

  r.seconds = timed_steps(*sim, steps);
  r.steps = steps;

  sim->restore_frame(start);
  sim->set_phase_timing(true);
  sim->reset_phase_times();
  r.phase_timed_seconds = timed_steps(*sim, steps);
  r.phases = sim->phase_times();
  sim->set_phase_timing(false);
  if (opt.record) {
    sim->restore_frame(start);
    r.record_seconds = time_recorded_steps(*sim, steps, base_scene(opt).ini, &r.record);
    constexpr int kDiagnosticsCalls = 20;
    sim->synchronize();
    const auto t_diag = Clock::now();
    for (int k = 0; k < kDiagnosticsCalls; ++k) (void)sim->diagnostics();
    r.record.diagnostics_s = seconds_since(t_diag) / kDiagnosticsCalls;
  }

  r.particles = sim->particle_count();
  r.fluid = sim->fluid_count();
  r.device_bytes = sim->device_bytes();
  r.device = sim->device_name();
  r.backend = sim->backend();
  r.precision = sim->precision();
  r.dim = sim->dim();
  return r;
}

void print_json(const RungResult& r) {
  const double sps = r.steps_per_s();
  JsonObject j;
  j.add("scene", r.scene)
      .add("backend", to_string(r.backend))
      .add("device", r.device)
      .add("precision", to_string(r.precision))
      .add("dim", r.dim)
      .add("particles", r.particles)
      .add("fluid", r.fluid)
      .add("target", r.target)
      .add("dp", r.dp)
      .add("steps", r.steps)
      .add("steps_per_s", sps)
      .add("particle_steps_per_s", sps * double(r.particles))
      .add("real_pairs_per_s", r.pairs.real * sps)
      .add("candidate_pairs_per_s", r.pairs.candidate * sps)
      .add("ms_step_phase_timed", r.ms_per_step(r.phase_timed_seconds))
      .add("ms_sort", r.ms_per_step(r.phases.sort))
      .add("ms_density", r.ms_per_step(r.phases.density))
      .add("ms_forces", r.ms_per_step(r.phases.forces))
      .add("ms_integrate", r.ms_per_step(r.phases.integrate))
      .add("ms_gravity", r.ms_per_step(r.phases.gravity))
      .add("ms_gravity_keys_sort", r.ms_per_step(r.phases.gravity_phases.keys))
      .add("ms_gravity_build", r.ms_per_step(r.phases.gravity_phases.build))
      .add("ms_gravity_moments", r.ms_per_step(r.phases.gravity_phases.moments))
      .add("ms_gravity_walk", r.ms_per_step(r.phases.gravity_phases.walk))
      .add("bytes_per_particle", r.particles ? double(r.device_bytes) / double(r.particles) : 0.0);
  if (r.record_seconds > 0) {
    const double per_frame_ms = r.record.frames ? 1e3 / double(r.record.frames) : 0;
    j.add("record_frames", r.record.frames)
        .add("record_overhead_percent", r.record_overhead_percent())
        .add("record_steady_overhead_percent", r.record_steady_overhead_percent())
        .add("record_baseline_s", r.seconds)
        .add("record_s", r.record_seconds)
        .add("record_capture_ms_per_frame", r.record.capture_s * per_frame_ms)
        .add("record_wait_ms_per_frame", r.record.wait_s * per_frame_ms)
        .add("record_write_ms_per_frame", r.record.write_s * per_frame_ms)
        .add("record_diagnostics_write_ms_per_frame", r.record.diag_write_s * per_frame_ms)
        .add("record_drain_ms", 1e3 * r.record.drain_s)
        .add("record_close_ms", 1e3 * r.record.close_s)
        .add("ms_diagnostics", 1e3 * r.record.diagnostics_s);
  }
  std::printf("%s\n", j.str().c_str());
}

constexpr const char* kRowFormat = "%10s %9s %8s %8s %12s %12s %12s %8s %8s %8s %8s %8s %8s";
constexpr const char* kRecordColumnFormat = " %8s";  // the record overhead, with --benchmark-record

void print_table_header(const BenchmarkOptions& opt, const RungResult& r, bool record) {
  std::printf("ejecta benchmark: %s, backend %s, device %s, precision %s\n", base_scene(opt).title.c_str(),
              to_string(r.backend), r.device.c_str(), to_string(r.precision));
  std::printf(kRowFormat, "particles", "fluid", "steps", "steps/s", "part-steps/s", "real pairs/s", "cand pairs/s",
              "sort ms", "dens ms", "force ms", "integ ms", "grav ms", "B/part");
  if (record) std::printf(kRecordColumnFormat, "rec +%");
  std::printf("\n");
}

void print_table_row(const RungResult& r, bool record) {
  const double sps = r.steps_per_s();
  auto fixed = [](double v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return std::string(buf);
  };
  auto ms = [&](double total_s) {
    const double v = r.ms_per_step(total_s);
    return fixed(v, v < 10 ? 3 : 1);
  };
  std::printf(kRowFormat, std::to_string(r.particles).c_str(), std::to_string(r.fluid).c_str(),
              std::to_string(r.steps).c_str(),
              fixed(sps, sps < 100 ? 2 : 1).c_str(), si(sps * double(r.particles)).c_str(),
              si(r.pairs.real * sps).c_str(), si(r.pairs.candidate * sps).c_str(), ms(r.phases.sort).c_str(),
              ms(r.phases.density).c_str(), ms(r.phases.forces).c_str(), ms(r.phases.integrate).c_str(),
              ms(r.phases.gravity).c_str(),
              fixed(r.particles ? double(r.device_bytes) / double(r.particles) : 0.0, 0).c_str());
  if (record) std::printf(kRecordColumnFormat, fixed(r.record_overhead_percent(), 1).c_str());
  std::printf("\n");
  const GravityPhaseTimes& g = r.phases.gravity_phases;  // self-gravity's parts (gravity_phase_times.h)
  if (g.total() > 0)
    std::printf("%10s grav ms per step: box+keys+sort %s, tree levels %s, moments %s, walk %s\n", "", ms(g.keys).c_str(),
                ms(g.build).c_str(), ms(g.moments).c_str(), ms(g.walk).c_str());
}

}  // namespace

ParamSet benchmark_scene(const BenchmarkOptions& opt, long target, std::size_t* count) {
  const Resolution r = choose_dp(opt, target);
  if (count) *count = r.count;
  return rung_scene(opt, r.dp);
}

std::vector<long> default_ladder(Backend backend) {
  if (backend == Backend::Cuda) return {100000, 300000, 1000000, 2000000, 4000000};
  return {10000, 30000, 100000, 200000};
}

int run_benchmark(const BenchmarkOptions& opt) {
  const std::vector<long> sizes = opt.sizes.empty() ? default_ladder(opt.backend) : opt.sizes;
  // Bad --set overrides are reported as such up front, not as a failure of the first rung.
  (void)rung_scene(opt, opt.scene_path.empty() ? 0.1 : base_scene(opt).dp0[0]);
  bool header = false;
  for (long target : sizes) {
    const RungResult r = measure(opt, target);
    if (opt.json) {
      print_json(r);
    } else {
      if (!header) print_table_header(opt, r, opt.record);
      header = true;
      print_table_row(r, opt.record);
    }
    std::fflush(stdout);  // each rung can take a while: show it as soon as it is done
  }
  return 0;
}

}  // namespace ejecta::app
