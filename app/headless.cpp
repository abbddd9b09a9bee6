#include "headless.h"

#include "io/async_recorder.h"
#include "io/h5_probes.h"
#include "io/h5_recorder.h"
#ifdef EJECTA_WITH_MPI
#include "dist/dist_comm.h"
#include "dist/dist_simulation.h"
#include "dist/dist_xdmf.h"
#endif
#include "probes/probe_api.h"
#include "probes/probe_observer.h"
#include "progress.h"
#include "scene/fluid_drop.h"

#include "ejecta_version.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <stdexcept>

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
  HeadlessObserver(Progress* progress, bool distributed) : progress_(progress), distributed_(distributed) {}
  void on_step(const Simulation& sim) override {
    if (progress_) progress_->on_step(sim);
  }
  bool wants_stop() override {
    const bool local = g_interrupted != 0;
#ifdef EJECTA_WITH_MPI
    // Ctrl-C reaches the ranks (one process group), or one of them, not at the same step: they stop
    // together (the loop asks every rank after the same steps), else one would wait alone in the
    // next step's exchange.
    if (distributed_) return dist::any(local);
#endif
    return local;
  }

 private:
  Progress* progress_;
  bool distributed_;
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

std::string probes_csv_path(const CliOptions& cli, const ParamSet& scene, const std::string& scene_name) {
  if (cli.no_probes || !scene_has_probes(scene)) return "";
  if (!cli.probes_path.empty()) return cli.probes_path;
  std::string base = cli.record_path;
  if (base.size() > 3 && base.compare(base.size() - 3, 3, ".h5") == 0) base.resize(base.size() - 3);
  return (base.empty() ? scene_name : base) + "_probes.csv";
}

RecordSchedule record_schedule(const CliOptions& cli, const ParamSet& scene) {
  RecordSchedule s = default_record_schedule(scene.real(kEndTimeKey));
  if (cli.record_every_steps) {
    s.every_steps = *cli.record_every_steps;
    s.every_time = 0;
  } else if (cli.record_every) {
    s.every_time = *cli.record_every;
    s.every_steps = 0;
  }
  return s;
}

void check_record_fields(const std::vector<std::string>& names, const std::vector<FieldInfo>& available) {
  for (const auto& name : names) {
    bool found = false;
    for (const auto& f : available) found = found || f.name == name;
    if (found) continue;
    std::string list;
    for (const auto& f : available) list += (list.empty() ? "" : ", ") + f.name;
    throw ParamError("--record-fields: unknown field '" + name + "' (fields: " + list + ")");
  }
}

std::string iso8601_utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
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
  std::unique_ptr<Simulation> sim;
  if (!opt.restart_frame) {
    sim = make_simulation(scene, backend);
#ifdef EJECTA_WITH_MPI
  } else if (opt.restart_share) {
    sim = make_distributed_simulation(scene, backend);
    sim->restore_frame(*opt.restart_frame);
#endif
  } else {
    try {
      // A frame with fluid added in the viewer has more particles than the scene builds: the solver
      // is then built from the frame's own particles (engine/scene/fluid_drop.h).
      sim = make_simulation_from_frame(scene, backend, *opt.restart_frame);
    } catch (const std::invalid_argument& e) {
      // A recording made with --record-fields lacks the state a restart needs; --set may have changed
      // the particle count (dp, geometry) or the precision.
      throw ParamError(std::string("--restart: cannot continue from this frame: ") + e.what() +
                       " (a restart needs a recording of all fields, made without --record-fields, of the "
                       "same scene and precision)");
    }
  }

  // Everything about the recording that can fail does so here, before the first step.
  std::unique_ptr<AsyncRecorder> recorder;
  std::optional<RecordObserver> record_obs;
  if (!opt.record.path.empty()) {
    check_record_fields(opt.record.fields, sim->fields());
    RunInfo info;
    info.dim = sim->dim();
    info.precision = to_string(sim->precision());
    info.backend = to_string(sim->backend());
    info.scene_ini = scene.to_ini();
    info.command_line = opt.record.command_line;
    info.start_date = iso8601_utc_now();
    info.ejecta_version = EJECTA_VERSION;
    info.git_commit = EJECTA_GIT_COMMIT;
    RecordOptions ro;
    ro.compression = opt.record.compression;
    ro.fields = opt.record.fields;
    ro.expected_frames = expected_frames(opt.record.schedule, sim->time(), opt.rule.until_time, opt.rule.max_steps);
    try {
#ifdef EJECTA_WITH_MPI
      // mpirun -n K: each rank records its own particles to PATH.rankRofK.h5 (engine/dist/dist_comm.h).
      recorder = std::make_unique<AsyncRecorder>(dist::rank_path(opt.record.path), info, ro);
#else
      recorder = std::make_unique<AsyncRecorder>(opt.record.path, info, ro);
#endif
    } catch (const RecordError& e) {
      std::fprintf(stderr, "ejecta: recording failed: %s\n", e.what());
      return kExitRecordingFailed;
    }
    record_obs.emplace(*recorder, opt.record.schedule, opt.record.fields);
  }
  std::unique_ptr<ProbeObserver> probe_obs;
  if (!opt.probes_path.empty() && probe_layout(*sim)) {
    probe_obs = std::make_unique<ProbeObserver>(*sim);
    try {
      probe_obs->write_csv(opt.probes_path);
    } catch (const ProbeError& e) {
      std::fprintf(stderr, "ejecta: %s\n", e.what());
      return kExitRecordingFailed;
    }
  }
  std::unique_ptr<StepObserver> extra = opt.extra_observer ? opt.extra_observer(*sim) : nullptr;
  double setup_s = std::chrono::duration<double>(Clock::now() - t_setup).count();
  // A distributed run (mpirun) reports once, from rank 0, with figures over every rank.
  bool report = true;
#ifdef EJECTA_WITH_MPI
  const auto* dsim = dynamic_cast<const DistributedSimulation*>(sim.get());
  report = !dsim || dsim->rank() == 0;
#endif

  StepLoop loop(*sim, opt.rule);
  // Progress goes to stderr, with --json too: stdout holds only the JSON summary.
  auto progress = report ? std::make_unique<Progress>(loop, stderr) : nullptr;
  bool distributed = false;
#ifdef EJECTA_WITH_MPI
  distributed = dsim != nullptr;
#endif
  HeadlessObserver headless_obs(progress.get(), distributed);
  CompositeObserver observer({&headless_obs, record_obs ? &*record_obs : nullptr, probe_obs.get(), extra.get()});

  const auto t0 = Clock::now();
  std::optional<std::string> record_failure, probe_failure;
  {
    SigintGuard guard;
    try {
      if (record_obs) record_obs->record_initial(*sim);
      if (probe_obs) probe_obs->sample_initial(*sim);
      try {
        loop.run(&observer);
      } catch (const BlowUpError&) {
        // The samples up to the blow-up are still on the device: write them before reporting it.
        if (probe_obs) {
          try {
            probe_obs->close();
          } catch (const std::exception&) {
          }
        }
        throw;
      }
      // Device work may still be queued; the wall time must include it.
      sim->synchronize();
      // The writer's last frames are part of the run's cost, and its errors part of its outcome.
      if (recorder) recorder->finish();
      if (probe_obs) probe_obs->close();
      // The probe series goes into the closed recording as /probes (io/h5_probes.h).
      if (recorder && probe_obs) write_probe_series_h5(recorder->path(), probe_obs->series());
      if (extra && opt.finish_extra) opt.finish_extra(*extra);
    } catch (const RecordError& e) {
      record_failure = e.what();
    } catch (const ProbeError& e) {
      probe_failure = e.what();
    }
  }
  double wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (progress) progress->finish();
  std::size_t n = sim->particle_count(), fluid = sim->fluid_count(), frames = recorder ? recorder->frames_written() : 0;
#ifdef EJECTA_WITH_MPI
  // Every rank gets here (the loop's errors are agreed or caught above), before any early return.
  DistStats dst;
  if (dsim) {
    double sums[5] = {double(n), double(fluid), double(dsim->stats().ghosts), double(dsim->stats().halo_rows_sent),
                      double(dsim->stats().halo_bytes_sent)};
    dist::sum_all(sums, 5);
    dst = dsim->stats();
    double maxes[15] = {setup_s, wall_s, dst.step_s, dst.halo_s, dst.mpi_s, dst.rebuild_s, -double(frames),
                        dst.pack_s, dst.unpack_s, dst.rebuild_capture_s, dst.rebuild_migrate_s,
                        dst.rebuild_solver_s, dst.rebuild_restore_s, dst.overlap_s, dst.wait_s};
    dist::max_all(maxes, 15);
    dst.overlap_s = maxes[13];
    dst.wait_s = maxes[14];
    dst.rebuild_capture_s = maxes[9];
    dst.rebuild_migrate_s = maxes[10];
    dst.rebuild_solver_s = maxes[11];
    dst.rebuild_restore_s = maxes[12];
    dst.halo_rows_sent = std::size_t(sums[3]);
    dst.halo_bytes_sent = std::size_t(sums[4]);
    dst.pack_s = maxes[7];
    dst.unpack_s = maxes[8];
    n = std::size_t(sums[0]);
    fluid = std::size_t(sums[1]);
    dst.ghosts = std::size_t(sums[2]);
    setup_s = maxes[0];
    wall_s = maxes[1];
    dst.step_s = maxes[2];
    dst.halo_s = maxes[3];
    dst.mpi_s = maxes[4];
    dst.rebuild_s = maxes[5];
    frames = std::size_t(-maxes[6]);
  }
  // Every rank's recorder has finished (the reductions above waited for all of them): rank 0 joins
  // their XDMF sidecars into PATH.xdmf (dist/dist_xdmf.h).
  std::string joined_xdmf;
  if (dsim && dsim->ranks() > 1 && recorder && !record_failure && dsim->rank() == 0) {
    try {
      joined_xdmf = dist::write_joined_xdmf(opt.record.path, dsim->ranks());
    } catch (const RecordError& e) {
      std::fprintf(stderr, "ejecta: warning: the ranks' XDMF files were not joined: %s\n", e.what());
    }
  }
#endif
  if (probe_failure) {
    std::fflush(stdout);
    std::fprintf(stderr, "ejecta: %s\n", probe_failure->c_str());
    return kExitRecordingFailed;
  }
  if (record_failure) {
    // finish() drains what was queued before the error; it rethrows the same error, already reported.
    try {
      recorder->finish();
    } catch (const std::exception&) {
    }
    const std::size_t k = recorder->frames_written();
    std::fflush(stdout);
    if (k == 0)
      std::fprintf(stderr, "ejecta: recording failed: %s; no frame was complete, so '%s' was not created\n",
                   record_failure->c_str(), recorder->path().c_str());
    else
      std::fprintf(stderr, "ejecta: recording failed: %s; '%s' holds %zu complete frame%s (0..%zu)\n",
                   record_failure->c_str(), recorder->path().c_str(), k, k == 1 ? "" : "s", k - 1);
    return kExitRecordingFailed;
  }

  const bool interrupted = loop.stopped();
  const long steps = loop.steps_done();
  const double rate = wall_s > 0 ? double(n) * double(steps) / wall_s : 0;

  if (!report) return interrupted ? 130 : 0;
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
    if (recorder) j.add("record_file", recorder->path()).add("recorded_frames", frames);
#ifdef EJECTA_WITH_MPI
    // The ranks, and the largest rank's seconds in each part of the distributed step (issue 19): its
    // local solver steps, the halo (staging, exchange, dt reduction; of which the MPI exchange) and
    // the rebuilds (migration); the packed halo's pack and unpack (slowest rank) and the rows and bytes
    // sent (all ranks, all steps); the parts of the rebuilds; rank 0's record_file is PATH.rank0ofK.h5, one file per rank.
    if (dsim)
      j.add("ranks", dsim->ranks())
          .add("ghosts", dst.ghosts)
          .add("rebuilds", dst.rebuilds)
          .add("rebalances", dst.rebalances)
          .add("imbalance", dst.imbalance)
          .add("local_step_s", dst.step_s)
          .add("halo_s", dst.halo_s)
          .add("halo_mpi_s", dst.mpi_s)
          .add("halo_pack_s", dst.pack_s)
          .add("halo_unpack_s", dst.unpack_s)
          .add("halo_rows_sent", dst.halo_rows_sent)
          .add("halo_bytes_sent", dst.halo_bytes_sent)
          .add("halo", dst.packed ? (dst.device_direct ? "packed_device" : "packed") : "frame")
          .add("halo_overlap", dst.interior ? "interior" : dst.overlap ? "on" : "off")
          .add("halo_overlap_s", dst.overlap_s)
          .add("halo_wait_s", dst.wait_s)
          .add("rebuild_s", dst.rebuild_s)
          .add("rebuild_capture_s", dst.rebuild_capture_s)
          .add("rebuild_migrate_s", dst.rebuild_migrate_s)
          .add("rebuild_solver_s", dst.rebuild_solver_s)
          .add("rebuild_restore_s", dst.rebuild_restore_s)
          .add("cuda_aware_mpi", dst.cuda_aware);
    if (!joined_xdmf.empty()) j.add("record_xdmf_joined", joined_xdmf);
#endif
    if (probe_obs)
      j.add("probes_file", probe_obs->csv_path())
          .add("probe_samples", probe_obs->series().rows())
          .add("probe_s", probe_obs->seconds_sampling());
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
#ifdef EJECTA_WITH_MPI
    if (dsim)
      std::printf("ranks              %d (%zu ghosts; slowest rank: local steps %s, halo %s of which MPI %s, "
                  "rebuilds %s x %ld)\n",
                  dsim->ranks(), dst.ghosts, duration(dst.step_s).c_str(), duration(dst.halo_s).c_str(),
                  duration(dst.mpi_s).c_str(), duration(dst.rebuild_s).c_str(), dst.rebuilds);
#endif
    if (recorder)
      std::printf("recorded %zu frames to %s (+ %s)\n", frames, recorder->path().c_str(),
                  recorder->xdmf_path().c_str());
    if (probe_obs)
      std::printf("probes             %zu samples of %zu columns to %s (sampling %s, %.2f%% of the run)\n",
                  probe_obs->series().rows(), probe_obs->series().columns.size(), probe_obs->csv_path().c_str(),
                  duration(probe_obs->seconds_sampling()).c_str(),
                  wall_s > 0 ? 100 * probe_obs->seconds_sampling() / wall_s : 0.0);
  }
  std::fflush(stdout);
  return interrupted ? 130 : 0;
}

}  // namespace ejecta::app
