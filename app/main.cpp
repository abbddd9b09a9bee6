// ejecta: command-line entry point. Parses the options, picks the backend and hands over to the
// headless run, the benchmark or the listings. Exit codes (README, "Exit codes"): 0 ok, 1 other errors
// (CUDA unavailable), 2 input errors (options, scene files, parameters, recordings that cannot be read
// or restarted), 3 numerical blow-up, 4 out of device memory, 5 recording failed (--record; disk
// full), 130 interrupted with Ctrl-C.
#include "benchmark.h"
#include "render_benchmark.h"
#include "cli.h"
#include "file_commands.h"
#include "export_particles.h"
#include "headless.h"
#include "teaching.h"
#include "run/step_loop.h"
#include "omp_env.h"
#include "exec/debug_sync.h"
#include "io/file_paths.h"
#include "io/frame_check.h"
#include "io/h5_reader.h"
#include "materials/material_keys.h"
#include "params/param_set.h"
#include "simulation.h"
#include "solver/term_catalog.h"
#ifdef EJECTA_WITH_MPI
#include "dist/dist_comm.h"
#include "dist/dist_restart.h"
#include "dist/dist_simulation.h"
#endif

#ifdef EJECTA_WITH_VIEWER
#include "viewer/key_bindings.h"
#include "viewer/playback.h"
#include "viewer/playback_window.h"
#include "viewer/render_observer.h"
#include "viewer/viewer_app.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ejecta_version.h"

namespace {

using namespace ejecta;
using namespace ejecta::app;

void print_version() {
  std::printf("ejecta %s (%s)\n", EJECTA_VERSION, EJECTA_GIT_COMMIT);
#ifdef EJECTA_WITH_CUDA
  std::printf("backends: cpu, cuda\n");
#else
  std::printf("backends: cpu\n");
#endif
  if (cuda_available())
    std::printf("CUDA device: found\n");
  else
    std::printf("CUDA device: none (%s)\n", cuda_unavailable_reason().c_str());
}

// A problem that is neither an input error nor a simulation failure (exit code 1, like any other
// std::exception reaching main).
struct SetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Backend choose_backend(const std::string& asked) {
  if (asked.empty()) return cuda_available() ? Backend::Cuda : Backend::Cpu;
  if (asked == "cpu") return Backend::Cpu;
  if (!cuda_available()) throw SetupError("--backend cuda: " + cuda_unavailable_reason() + "; use --backend cpu");
  return Backend::Cuda;
}

std::string file_stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return path_stem(slash == std::string::npos ? path : path.substr(slash + 1));
}

// Where the viewer's scene selector, --teach and --demo look: ./scenes when run from a source tree,
// else the build's.
std::string scenes_dir() {
  if (FILE* f = std::fopen("scenes/dambreak2d.ini", "r")) {
    std::fclose(f);
    return "scenes";
  }
  return EJECTA_SCENES_DIR;
}

// --demo --headless --steps N: each scene of the cycle runs N steps in turn, one line each (the
// window's timer has no meaning without a window; this checks that every scene of the cycle runs).
int run_demo_headless(const CliOptions& o, Backend backend) {
  const std::vector<std::string> scenes = demo_scenes(scenes_dir());
  std::fprintf(stderr, "ejecta: --demo headless: %zu scenes, %ld steps each\n", scenes.size(), *o.steps);
  for (std::size_t k = 0; k < scenes.size(); ++k) {
    ParamSet scene = read_scene_file(scenes[k]);
    for (const auto& s : o.sets) scene.apply_override(s);
    if (!o.precision.empty()) scene.set("scene.precision", o.precision, "--precision");
    auto sim = make_simulation(scene, backend);
    StopRule rule;
    rule.max_steps = *o.steps;
    std::string outcome = "ok";
    try {
      StepLoop(*sim, rule).run();
    } catch (const BlowUpError& e) {
      outcome = std::string("blew up (") + e.what() + ")";  // the CFL pitfall is meant to
    }
    std::printf("demo %zu/%zu %s: %zu particles, %ld steps, t = %.6g s, %s\n", k + 1, scenes.size(), scenes[k].c_str(),
                sim->particle_count(), sim->steps(), sim->time(), outcome.c_str());
    std::fflush(stdout);
  }
  return 0;
}

int run(const CliOptions& o) {
  if (o.version) {
    print_version();
    return 0;
  }
  if (o.command == "info") return run_info(o);
  if (o.command == "export") return o.export_particles ? run_export_particles(o) : run_export(o);
  if (o.command == "repair") return run_repair(o);
  if (o.list_keys) {
#ifdef EJECTA_WITH_VIEWER
    std::fputs(viewer::key_table_markdown().c_str(), stdout);
    return 0;
#else
    throw ParamError("--list-keys: this build has no viewer (configure with -DEJECTA_VIEWER=ON)");
#endif
  }
  if (o.teach) {
    const std::string dir = scenes_dir() + "/teaching";
    std::fputs(teach_listing(teaching_pairs(dir), dir).c_str(), stdout);
    return 0;
  }
  if (o.list_terms) {
    std::fputs(term_catalog_markdown().c_str(), stdout);
    return 0;
  }
  if (o.list_material_keys) {
    std::fputs(material_keys_markdown().c_str(), stdout);
    return 0;
  }
  if (o.list_params) {
    const ParamRegistry& reg = ParamRegistry::builtin();
    std::fputs((o.markdown ? reg.markdown() : reg.listing(o.list_model)).c_str(), stdout);
    return 0;
  }
#ifdef _OPENMP
  if (o.threads > 0) omp_set_num_threads(o.threads);
#else
  if (o.threads > 0) std::fprintf(stderr, "ejecta: warning: built without OpenMP, --threads is ignored\n");
#endif
  const Backend backend = choose_backend(o.backend);
  // --debug-sync reaches the execution layer through its variable (read when a solver is made).
  if (o.debug_sync) setenv(kDebugSyncVariable, "1", 1);
  bool debug_sync = false;
  try {
    debug_sync = debug_sync_from_environment();
  } catch (const std::invalid_argument& e) {
    throw ParamError(e.what());
  }
  if (debug_sync)
    std::fprintf(stderr, "ejecta: debug sync: %s\n",
                 backend == Backend::Cuda ? "every CUDA launch is synchronised and checked (slower)"
                                          : "no effect on the CPU backend (its loops finish before returning)");

  if (o.demo && o.headless) return run_demo_headless(o, backend);
  if (o.benchmark) {
    BenchmarkOptions b;
    b.backend = backend;
    b.precision = o.precision == "double" ? Precision::Double : Precision::Float;
    b.sizes = o.benchmark_sizes;
    b.sets = o.sets;
    b.json = o.json;
    b.record = o.benchmark_record;
    b.scene_path = o.scene_path;
    if (o.benchmark_census >= 0) return run_benchmark_census(b, o.benchmark_census);
    return run_benchmark(b);
  }
  if (o.benchmark_render) {
    RenderBenchmarkOptions b;
    b.backend = backend;
    b.precision = o.precision == "double" ? Precision::Double : Precision::Float;
    b.sizes = o.benchmark_sizes;
    b.sets = o.sets;
    b.width = o.width;
    b.height = o.height;
    b.interop = !o.no_interop;
    b.splat = !o.gl_draw;
    b.scene_path = o.scene_path;
    b.steps_per_frame = o.steps_per_frame;
    return run_render_benchmark(b);
  }

  if (!o.playback_path.empty()) {
    // The reader's errors (missing, foreign, damaged file) are RecordErrors: exit 2, before any GL.
    const H5Reader reader(o.playback_path);
    print_reader_notes(reader, o.playback_path);
    ParamSet recorded = read_scene_string(reader.info().scene_ini, o.playback_path + " (recorded scene)");
#ifdef EJECTA_WITH_VIEWER
    if (!o.headless) {
      viewer::ViewerOptions v;
      v.scene = recorded;
      v.scene_name = o.playback_path;
      v.width = o.width;
      v.height = o.height;
      v.max_frames = o.viewer_frames;
      v.screenshot_path = o.screenshot_path;
      v.screenshot_dir = o.screenshot_dir;
      v.start_running = o.start_running;
      v.colour_by = o.colour_by;
      v.colormap = o.colormap;
      v.look = viewer::LookOptions{o.walls, o.sprites, o.view, o.theme};
      std::string why;
      const int rc = viewer::run_playback_window(reader, v, &why);
      if (rc >= 0) return rc;
      // Unlike a run, there is nothing to do headless without --render-dir/--render-video.
      throw std::runtime_error("--playback: cannot open a window (" + why +
                               "); render the recording with --headless --render-dir DIR or --render-video FILE.mp4");
    }
    viewer::RenderFrameOptions r;
    r.dir = o.render_dir;
    r.video = o.render_video;
    r.fps = o.render_fps;
    r.width = o.width;
    r.height = o.height;
    r.interop = false;
    r.colour_by = o.colour_by;
    r.colormap = o.colormap;
    r.look = viewer::LookOptions{o.walls, o.sprites, o.view, o.theme};
    r.legend = !o.no_legend;
    r.overlay = !o.no_overlay;
    return viewer::run_playback_headless(reader, recorded, r, o.playback_path);
#else
    throw ParamError("--playback: this build has no rendering (configure with -DEJECTA_VIEWER=ON)");
#endif
  }
  // --restart: the scene is the one the recording ran (after its overrides), so the continuation
  // starts from exactly the state it stopped in.
  std::optional<FrameData> restart_frame;
  std::string restart_name;
  bool restart_share = false;
  ParamSet scene;
#ifdef EJECTA_WITH_MPI
  // A distributed restart (mpirun, or per-rank files of one): each rank reads its share of the files.
  if (!o.restart_path.empty() && (distributed_run() || dist::per_rank_recording(o.restart_path))) {
    dist::RestartShare share = dist::read_restart_share(o.restart_path, o.restart_frame);
    scene = read_scene_string(share.scene_ini, o.restart_path + " (recorded scene)");
    restart_frame = std::move(share.frame);
    check_restart_frame(*restart_frame, "--restart: frame " + std::to_string(share.index) + " of '" + o.restart_path + "'");
    if (dist::rank() == 0)
      std::fprintf(stderr, "ejecta: restarting from frame %zu of %s (%zu file%s, %zu particles; t = %.9g s, step %ld) on %d rank%s\n",
                   share.index, o.restart_path.c_str(), share.files, share.files == 1 ? "" : "s", share.particles,
                   restart_frame->time, restart_frame->step, dist::size(), dist::size() == 1 ? "" : "s");
    restart_name = file_stem(o.restart_path);
    restart_share = true;
  } else
#endif
  if (!o.restart_path.empty()) {
    const H5Reader reader(o.restart_path);
    print_reader_notes(reader, o.restart_path);
    const std::size_t frames = reader.frame_count();
    if (frames == 0) throw ParamError("--restart: '" + o.restart_path + "' holds no complete frame");
    std::size_t k = frames - 1;
    if (o.restart_frame) {
      if (*o.restart_frame < 0 || std::size_t(*o.restart_frame) >= frames)
        throw ParamError("--restart: '" + o.restart_path + "' has complete frames 0.." + std::to_string(frames - 1) +
                         ", not frame " + std::to_string(*o.restart_frame));
      k = std::size_t(*o.restart_frame);
    }
    scene = read_scene_string(reader.info().scene_ini, o.restart_path + " (recorded scene)");
    if (!o.sets.empty() || !o.precision.empty())
      std::fprintf(stderr,
                   "ejecta: warning: --set/--precision change the recorded scene; the restarted run is not the "
                   "continuation of the recorded one\n");
    restart_frame = reader.read_frame(k);
    // A damaged or edited frame is refused here (exit 2), before a solver runs from it.
    check_restart_frame(*restart_frame, "--restart: frame " + std::to_string(k) + " of '" + o.restart_path + "'");
    std::fprintf(stderr, "ejecta: restarting from frame %zu of %s (t = %.9g s, step %ld)\n", k,
                 o.restart_path.c_str(), restart_frame->time, restart_frame->step);
    restart_name = file_stem(o.restart_path);
  } else {
    scene = o.scene_path.empty() ? read_scene_string(default_scene_ini(), "built-in default scene")
                                 : read_scene_file(o.scene_path);
  }
  for (const auto& s : o.sets) scene.apply_override(s);
  if (!o.precision.empty()) scene.set("scene.precision", o.precision, "--precision");

  if (!o.headless) {
#ifdef EJECTA_WITH_VIEWER
    if (restart_frame) {
      std::fprintf(stderr, "ejecta: --restart runs headless (the viewer starts scenes from the beginning)\n");
    } else {
      viewer::ViewerOptions v;
      v.scene = scene;
      v.scene_name = o.scene_path.empty() ? "default" : file_stem(o.scene_path);
      v.scenes_dir = scenes_dir();
      v.backend = backend;
      v.interop = !o.no_interop;
      v.splat = !o.gl_draw;
      v.steps_per_frame = o.steps_per_frame;
      v.width = o.width;
      v.height = o.height;
      v.command_line = o.command_line;
      v.max_frames = o.viewer_frames;
      v.screenshot_path = o.screenshot_path;
      v.screenshot_dir = o.screenshot_dir;
      v.start_running = o.start_running;
      v.colour_by = o.colour_by;
      v.colormap = o.colormap;
      v.look = viewer::LookOptions{o.walls, o.sprites, o.view, o.theme};
      if (o.demo) {
        v.demo_scenes = demo_scenes(scenes_dir());
        v.demo_period = o.demo_period;
      }
      std::string why;
      const int rc = viewer::run_viewer(v, &why);
      if (rc >= 0) return rc;
      if (o.demo)
        throw std::runtime_error("--demo needs a window (" + why +
                                 "); headless, --demo --headless --steps N runs each scene N steps in turn");
      std::fprintf(stderr, "ejecta: cannot open a window (%s); running headless\n", why.c_str());
    }
#else
    if (o.demo)
      throw ParamError("--demo: this build has no viewer (configure with -DEJECTA_VIEWER=ON); --demo --headless --steps N "
                       "runs each scene N steps in turn");
    std::fprintf(stderr, "ejecta: this build has no viewer (configure with -DEJECTA_VIEWER=ON); running headless\n");
#endif
  }
  HeadlessOptions h;
  h.rule = headless_stop_rule(o, scene);
  h.json = o.json;
  h.scene_name = scene_display_name(
      scene, !restart_name.empty() ? restart_name : o.scene_path.empty() ? "default" : file_stem(o.scene_path));
  h.restart_frame = restart_frame ? &*restart_frame : nullptr;
  h.restart_share = restart_share;
  h.probes_path = probes_csv_path(o, scene, h.scene_name);
  if (!o.record_path.empty()) {
    h.record.path = o.record_path;
    h.record.schedule = record_schedule(o, scene);
    h.record.fields = o.record_fields;
    h.record.compression = o.record_compression;
    h.record.command_line = o.command_line;
  }
  if (o.render_every > 0) {
#ifdef EJECTA_WITH_VIEWER
    viewer::RenderFrameOptions r;
    r.every = o.render_every;
    r.dir = o.render_dir;
    r.video = o.render_video;
    r.fps = o.render_fps;
    r.width = o.width;
    r.height = o.height;
    r.interop = !o.no_interop;
    r.splat = !o.gl_draw;
    r.colour_by = o.colour_by;
    r.colormap = o.colormap;
    r.look = viewer::LookOptions{o.walls, o.sprites, o.view, o.theme};
    r.legend = !o.no_legend;
    r.overlay = !o.no_overlay;
    const ParamSet scene_copy = scene;
    h.extra_observer = [r, scene_copy](Simulation& sim) -> std::unique_ptr<StepObserver> {
      auto obs = std::make_unique<viewer::RenderObserver>(sim, scene_copy, r);
      obs->render_initial();
      return obs;
    };
    h.finish_extra = [](StepObserver& obs) { static_cast<viewer::RenderObserver&>(obs).finish(); };
#else
    throw ParamError("--render-every: this build has no rendering (configure with -DEJECTA_VIEWER=ON)");
#endif
  }
  return run_headless(scene, backend, h);
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything else: may re-execute the program with a short OpenMP spin (omp_env.h).
  apply_omp_wait_policy(argc, argv);
  const CliParse parsed = parse_cli(argc, argv);
  if (parsed.exit) return parsed.exit_code;
  // Most specific first: the engine's error types all derive from std::runtime_error.
  try {
    return run(parsed.options);
  } catch (const ejecta::ParamError& e) {
    std::fprintf(stderr, "ejecta: error: %s\n", e.what());
    return 2;
  } catch (const ejecta::RecordError& e) {
    // Reading a recording (--restart, info, export): a missing, foreign or damaged file is an input
    // error. Failures while recording are reported (exit 5) by the headless run itself.
    std::fprintf(stderr, "ejecta: error: %s\n", e.what());
    return 2;
  } catch (const ejecta::BlowUpError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "ejecta: simulation blew up: %s\n", e.what());
    return 3;
  } catch (const ejecta::OutOfMemoryError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "ejecta: out of device memory: %s\n", e.what());
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ejecta: error: %s\n", e.what());
    return 1;
  }
}
