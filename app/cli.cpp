#include "cli.h"

#include "file_commands.h"  // sibling_path

#include "params/param_registry.h"  // edit_distance, closest_match, physics_models

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>

namespace ejecta::app {

namespace {

// Numbers on the command line are read here, not by CLI11's conversions, which wrap an overflowing
// integer silently (strtoll), read "010" as octal and accept "inf" for a real.

// A plain decimal whole number in [lo, hi], or the message.
std::string check_whole(const std::string& s, long long lo, long long hi, const char* what) {
  const std::string range = "a whole number of " + std::string(what) + " from " + std::to_string(lo) + " to " +
                            format_number(double(hi));
  long long v = 0;
  const char* b = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
  const char* e = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(b, e, v);
  if (b == e || ptr != e || (*b == '0' && e - b > 1) || *b == '-' || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return "'" + s + "' is not " + range;
  if (ec == std::errc::result_out_of_range || v < lo || v > hi) return "'" + s + "' is out of range: give " + range;
  return "";
}

CLI::Validator whole(long long lo, long long hi, const char* what) {
  return CLI::Validator([=](std::string& s) { return check_whole(s, lo, hi, what); }, "");
}

// A finite real >= lo (> lo when `strict`), or the message.
CLI::Validator real_from(double lo, bool strict) {
  return CLI::Validator(
      [=](std::string& s) {
        double v = 0;
        const char* b = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
        const auto [ptr, ec] = std::from_chars(b, s.data() + s.size(), v);
        const bool ok = !s.empty() && ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(v) &&
                        (strict ? v > lo : v >= lo);
        return ok ? std::string() : "'" + s + "' is not a finite number " + (strict ? "> " : ">= ") + format_number(lo);
      },
      "");
}

// Sizes are typed like "1e5,3e5" as often as "100000", so they are read as reals and must be whole.
std::string check_size(const std::string& s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !(v >= 1) || v > 1e10 || v != std::floor(v))
    return "'" + s + "' is not a particle count (a whole number from 1 to 1e10)";
  return "";
}

// A validator with no description, so that the help shows the type name alone (CLI11's IsMember and
// Range would add "TEXT:{cpu,cuda}" or "INT in [1 - 4096]"), and a message that suggests the closest
// choice ("'cdua' is not one of cpu, cuda (did you mean 'cuda'?)").
CLI::Validator one_of(std::vector<std::string> choices) {
  return CLI::Validator(
      [choices](const std::string& s) -> std::string {
        for (const auto& c : choices)
          if (c == s) return "";
        std::string list;
        for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
        const std::string near = closest_match(s, choices);
        return "'" + s + "' is not one of " + list + (near.empty() ? "" : " (did you mean '" + near + "'?)");
      },
      "");
}

// The help page: options in named groups, each with the type name it was given and nothing else
// (no "Needs:"/"Excludes:"; validators have empty descriptions), the usage of the subcommands, and the
// subcommands listed like a group.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter(std::string usage, std::string subcommands)
      : usage_(std::move(usage)), subcommands_(std::move(subcommands)) {}
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (opt->get_type_size() == 0 || opt->get_type_name().empty()) return "";
    return " " + opt->get_type_name();
  }
  std::string make_usage(const CLI::App*, std::string) const override { return usage_; }
  // One blank line between groups (CLI11 puts two).
  std::string make_group(std::string group, bool is_positional, std::vector<const CLI::Option*> opts) const override {
    std::string out = (is_positional ? "\n" : "") + group + ":\n";
    for (const CLI::Option* opt : opts) out += make_option(opt, is_positional);
    return out + (is_positional ? "\n" : "");
  }
  std::string make_subcommands(const CLI::App*, CLI::AppFormatMode) const override { return subcommands_; }

 private:
  std::string usage_, subcommands_;
};

// Unknown arguments left over by a parse with allow_extras: "--headles" gets the closest option
// ("did you mean '--headless'?"); a stray word gets a plain message. "" when there are none.
std::string extras_message(const CLI::App& app, const std::vector<std::string>& extras) {
  if (extras.empty()) return "";
  const std::string& a = extras.front();
  if (a.size() < 2 || a[0] != '-') return "unexpected argument '" + a + "' (one SCENE at most; options start with --)";
  const std::string name = a.substr(0, a.find('='));
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& sn : o->get_snames()) names.push_back("-" + sn);
  }
  const std::string near = closest_match(name, names);
  return "unknown option '" + name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)");
}

// "FILE.h5:12" -> ("FILE.h5", 12). Only an all-digit suffix is a frame number, so a path that
// merely contains a colon still works when no frame is given.
void split_restart(const std::string& arg, std::string* path, std::optional<long>* frame) {
  const auto colon = arg.rfind(':');
  if (colon != std::string::npos && colon + 1 < arg.size() &&
      arg.find_first_not_of("0123456789", colon + 1) == std::string::npos && arg.size() - colon - 1 <= 9) {
    *path = arg.substr(0, colon);
    *frame = std::stol(arg.substr(colon + 1));
  } else {
    *path = arg;
    frame->reset();
  }
}

std::string join_args(int argc, const char* const* argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

CliParse parse_error(const std::string& message) {
  std::cerr << "ejecta: error: " << message << "\n"
            << "Run 'ejecta --help' for the options.\n";
  CliParse r;
  r.exit = true;
  r.exit_code = 2;
  return r;
}

// Runs app.parse and turns help requests and errors into a CliParse; true when parsing succeeded.
// Unknown options are collected (allow_extras) rather than thrown, so that they get a suggestion.
bool parse_app(CLI::App& app, int argc, const char* const* argv, CliParse* r) {
  app.allow_extras();
  try {
    app.parse(argc, argv);
    const std::string extras = extras_message(app, app.remaining());
    if (!extras.empty()) {
      *r = parse_error(extras);
      return false;
    }
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    r->exit = true;
    r->exit_code = 0;
    return false;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    r->exit = true;
    r->exit_code = 0;
    return false;
  } catch (const CLI::ParseError& e) {
    *r = parse_error(e.what());
    return false;
  }
  return true;
}

// "ejecta info FILE.h5" and "ejecta export FILE.h5 --csv [--output OUT]". Recognised by argv[1]
// rather than with CLI11 subcommands: the main parser has a positional SCENE, and a subcommand
// there would make every scene path a candidate subcommand name (a scene file called "info" is
// still reachable as ./info).
CliParse parse_file_command(int argc, const char* const* argv) {
  CliParse r;
  CliOptions& o = r.options;
  o.command = argv[1];
  o.command_line = join_args(argc, argv);
  const bool info = o.command == "info", repair = o.command == "repair";
  CLI::App app{info     ? "Describe a recording: frames, time range, fields, provenance and the scene."
               : repair ? "Write a fresh copy of a recording whose /frames index was damaged (a kill during a "
                          "write): every complete frame listed again, for h5py, ParaView and VisIt."
                        : "Export a recording's diagnostics table or its particles (CSV, VTK).",
               std::string("ejecta ") + o.command};
  const std::string usage = info     ? "Usage: ejecta info FILE.h5\n"
                            : repair ? "Usage: ejecta repair FILE.h5 [--output OUT.h5]\n"
                                     : "Usage: ejecta export FILE.h5 --csv [--output OUT.csv]\n"
                                       "       ejecta export FILE.h5 --particles [--format csv|vtk] [--frame N | "
                                       "--all] [--output OUT]\n";
  app.formatter(std::make_shared<HelpFormatter>(usage, ""));
  app.get_formatter()->column_width(30);
  app.add_option("FILE", o.file_path, "Recording (HDF5) written by --record")->type_name("FILE.h5")->required();
  CLI::Option *frame = nullptr, *all = nullptr, *format = nullptr;
  if (repair)
    app.add_option("--output,-o", o.output_path, "The copy (default: FILE.repaired.h5, next to FILE.h5)")
        ->type_name("OUT.h5");
  if (!info && !repair) {
    app.add_flag("--csv", o.export_csv, "The diagnostics table as CSV (one row per sample, units in the header)");
    app.add_flag("--probes", o.export_probes,
                 "The probe and gauge series as CSV (default output FILE_probes.csv; docs/probes.md)");
    app.add_flag("--particles", o.export_particles,
                 "Per-particle data of a frame: CSV with units, or VTK XML PolyData (.vtp) for ParaView/VisIt");
    format = app.add_option("--format", o.export_format, "With --particles: csv (default) or vtk")
                 ->type_name("csv|vtk")
                 ->check(one_of({"csv", "vtk"}));
    frame = app.add_option("--frame", o.export_frame, "With --particles: the frame (default: the last complete one)")
                ->type_name("N");
    all = app.add_flag("--all", o.export_all, "With --particles: every complete frame (+ a .pvd series for vtk)");
    app.add_option("--output,-o", o.output_path,
                   "Output file (default: next to FILE.h5; '-' = stdout for CSV); with --all the stem of the "
                   "numbered files")
        ->type_name("OUT");
  }
  // argv[1] (the command) stands in for the program name so the positional FILE comes next.
  if (!parse_app(app, argc - 1, argv + 1, &r)) return r;
  if (info) return r;
  if (repair) {
    if (o.output_path.empty()) o.output_path = sibling_path(o.file_path, ".repaired.h5");
    if (o.output_path == o.file_path) return parse_error("repair: --output must differ from FILE (the damaged file is kept)");
    return r;
  }
  if (int(o.export_csv) + int(o.export_particles) + int(o.export_probes) == 0)
    return parse_error("export: say what to write, e.g. 'ejecta export FILE.h5 --csv' (diagnostics), "
                       "'--probes' (probe and gauge series) or '--particles --format vtk'");
  if (int(o.export_csv) + int(o.export_particles) + int(o.export_probes) > 1)
    return parse_error("export: --csv, --probes and --particles write different tables; give one (run export "
                       "again for another)");
  if (!o.export_particles && (format->count() || frame->count() || all->count()))
    return parse_error("export: --format, --frame and --all need --particles");
  if (frame->count() && all->count()) return parse_error("export: --frame and --all exclude each other");
  if (o.export_frame && *o.export_frame < 0) return parse_error("export: --frame must be >= 0");
  if (o.output_path == "-" && (o.export_all || o.export_format == "vtk"))
    return parse_error("export: --output - (stdout) is for the CSV of one frame");
  return r;
}

}  // namespace

CliParse parse_cli(int argc, const char* const* argv) {
  if (argc >= 2 && (std::string(argv[1]) == "info" || std::string(argv[1]) == "export" ||
                    std::string(argv[1]) == "repair"))
    return parse_file_command(argc, argv);
  CliParse r;
  CliOptions& o = r.options;
  o.command_line = join_args(argc, argv);
  CLI::App app{"Ejecta: an interactive GPU/CPU SPH simulator. Without SCENE it runs the built-in 2D dam break; "
               "with a display it opens the viewer, else (or with --headless) it runs in the terminal.",
               "ejecta"};
  app.formatter(std::make_shared<HelpFormatter>(
      "Usage: ejecta [OPTIONS] [SCENE.ini]\n"
      "       ejecta info FILE.h5\n"
      "       ejecta export FILE.h5 (--csv | --particles [--format csv|vtk] [--frame N | --all]) [--output OUT]\n"
      "       ejecta repair FILE.h5 [--output OUT.h5]\n",
      "\nSubcommands (on a recording made with --record):\n"
      "  info FILE.h5                  Frames, time range, fields, provenance and scene of a recording\n"
      "  export FILE.h5 --csv          Its diagnostics table as CSV (units in the header)\n"
      "  export FILE.h5 --particles    Per-particle data as CSV or VTK (.vtp); 'ejecta export --help'\n"
      "  repair FILE.h5                A copy whose /frames lists every complete frame again (after a kill)\n"));
  app.get_formatter()->column_width(30);
  // Ranges and dependencies are checked after parsing, with plain messages, and validators carry no
  // description, so that the help text stays free of CLI11's annotations.

  const char* run_g = "Run";
  auto* scene = app.add_option("SCENE", o.scene_path, "Scene file (INI); the built-in 2D dam break if omitted")
                    ->type_name("SCENE.ini");
  app.add_flag("--headless", o.headless, "Run without a window, print a summary (also what happens without a display)")
      ->group(run_g);
  auto* until = app.add_option("--until", o.until, "Simulate until this time [s] (default: scene.end_time)")
                    ->type_name("T")
                    ->check(real_from(0, false))
                    ->group(run_g);
  auto* steps = app.add_option("--steps", o.steps, "Run exactly N steps")
                    ->type_name("N")
                    ->check(whole(0, 1000000000000000LL, "steps"))
                    ->group(run_g);
  // One value per --set so that a scene path after it is not swallowed as a second assignment.
  app.add_option("--set", o.sets, "Override a scene parameter, e.g. --set fluid.gamma=7 (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false)
      ->take_all()
      ->group(run_g);
  app.add_option("--precision", o.precision, "Floating-point precision (default: the scene's; float for --benchmark)")
      ->type_name("float|double")
      ->check(one_of({"float", "double"}))
      ->group(run_g);
  app.add_option("--threads", o.threads, "OpenMP threads of the CPU backend (default: one per core)")
      ->type_name("N")
      ->check(whole(1, 4096, "threads"))
      ->group(run_g);
  app.add_flag("--omp-spin", o.omp_spin,
               "CPU backend: keep OpenMP's spinning barriers (fastest on an otherwise idle machine; by default "
               "threads sleep at once, OMP_WAIT_POLICY=passive, so another busy program cannot stall every step)")
      ->group(run_g);
  app.add_flag("--debug-sync", o.debug_sync,
               "CUDA backend: synchronise and check for errors after every kernel launch, naming the kernel "
               "(slower; the same as EJECTA_DEBUG_SYNC=1)")
      ->group(run_g);
  std::string restart;
  auto* restart_opt = app.add_option("--restart", restart,
                                     "Continue a recorded run from FRAME (default: its last complete frame)")
                          ->type_name("FILE.h5[:FRAME]")
                          ->group(run_g);

  const char* out_g = "Output";
  app.add_flag("--json", o.json,
               "Machine-readable output: the summary (or benchmark rows) as JSON lines on stdout; progress "
               "stays on stderr")
      ->group(out_g);

  const char* rec_g = "Recording";
  auto* record = app.add_option("--record", o.record_path,
                                "Record the run to an HDF5 file (+ an XDMF sidecar for ParaView)")
                     ->type_name("FILE.h5")
                     ->group(rec_g);
  auto* every = app.add_option("--record-every", o.record_every,
                               "Simulated time between frames [s] (default: scene.end_time / 100)")
                    ->type_name("DT")
                    ->check(real_from(0, true))
      ->group(rec_g);
  auto* every_steps = app.add_option("--record-every-steps", o.record_every_steps, "Steps between frames instead")
                          ->type_name("K")
                          ->check(whole(1, 1000000000000000LL, "steps"))
      ->group(rec_g);
  auto* fields = app.add_option("--record-fields", o.record_fields, "Fields to record (default: all)")
                     ->type_name("F1,F2,...")
                     ->delimiter(',')
                     ->group(rec_g);
  auto* compression =
      app.add_option("--record-compression", o.record_compression, "gzip level of the recording, 0 = none")
          ->type_name("0..9")
          ->check(whole(0, 9, "gzip level"))
      ->group(rec_g);
  auto* probes = app.add_option("--probes", o.probes_path,
                                "Probe and gauge time series of a headless run (default with [probe.N]/[gauge.N] "
                                "sections: NAME_probes.csv beside the run, see docs/probes.md)")
                     ->type_name("FILE.csv")
                     ->group(rec_g);
  auto* no_probes = app.add_flag("--no-probes", o.no_probes, "Do not sample the scene's probes and gauges")
                        ->group(rec_g);

  const char* render_g = "Rendering (headless pictures, the viewer's look)";
  auto* render_every = app.add_option("--render-every", o.render_every,
                                      "With --headless: render a frame every K steps to --render-dir and/or --render-video")
                           ->type_name("K")
                           ->check(whole(1, 1000000000000000LL, "steps"))
      ->group(render_g);
  auto* render_dir = app.add_option("--render-dir", o.render_dir, "Directory for the rendered PNG frames")
                         ->type_name("DIR")
                         ->group(render_g);
  auto* render_video = app.add_option("--render-video", o.render_video,
                                      "Also or instead: --render-every's frames as an MP4 video (needs ffmpeg)")
                           ->type_name("FILE.mp4")
                           ->group(render_g);
  auto* render_fps = app.add_option("--render-fps", o.render_fps, "Frame rate of --render-video (default 30)")
                         ->type_name("FPS")
                         ->group(render_g);
  auto* playback = app.add_option("--playback", o.playback_path,
                                  "Draw a recording's frames instead of simulating (with --headless: every frame "
                                  "to --render-dir/--render-video)")
                       ->type_name("FILE.h5")
                       ->group(render_g);
  auto* width = app.add_option("--width", o.width, "Width of rendered frames / the window [px] (default 1280)")
                    ->type_name("W")
                    ->check(whole(16, 16384, "pixels"))
      ->group(render_g);
  auto* height = app.add_option("--height", o.height, "Height of rendered frames / the window [px] (default 720)")
                     ->type_name("H")
                     ->check(whole(16, 16384, "pixels"))
      ->group(render_g);
  app.add_option("--colour-by,--color-by", o.colour_by,
                 "Field the particles are coloured by (default: the scene's view.colour_by, velocity; "
                 "FIELD.x/.y/.z for a component)")
      ->type_name("FIELD[.c]")
      ->group(render_g);
  app.add_option("--colormap", o.colormap, "viridis, turbo, coolwarm, greys or tab10 (default: the scene's "
                                           "view.colormap; auto: tab10 for kind, coolwarm for signed quantities, "
                                           "else viridis)")
      ->type_name("NAME")
      ->group(render_g);
  app.add_option("--walls", o.walls, "Wall particles (default: the scene's view.walls, hidden in 3D, dimmed in 2D)")
      ->type_name("hidden|dimmed|shown")
      ->check(one_of({"hidden", "dimmed", "shown"}))
      ->group(render_g);
  app.add_option("--sprites", o.sprites, "Particles as lit spheres or flat discs (default spheres)")
      ->type_name("spheres|discs")
      ->check(one_of({"spheres", "discs"}))
      ->group(render_g);
  app.add_option("--view", o.view, "3D camera preset (default: the scene's view.camera, iso)")
      ->type_name("front|side|top|iso")
      ->check(one_of({"front", "side", "top", "iso"}))
      ->group(render_g);
  app.add_flag("--no-legend", o.no_legend, "Headless frames without the colour legend")->group(render_g);
  app.add_flag("--no-overlay", o.no_overlay, "Headless frames without the scene name, time stamp and scale bar")
      ->group(render_g);
  app.add_option("--theme", o.theme, "Background: dark or light (white, for print; default: the scene's view.theme)")
      ->type_name("dark|light")
      ->check(one_of({"dark", "light"}))
      ->group(render_g);

  const char* viewer_g = "Viewer";
  app.add_option("--screenshot-dir", o.screenshot_dir, "Viewer: folder for P screenshots (default: the working directory)")
      ->type_name("DIR")
      ->group(viewer_g);
  auto* spf = app.add_option("--steps-per-frame", o.steps_per_frame, "Steps between drawn frames (default 4)")
                  ->type_name("N")
                  ->check(whole(1, 100000, "steps"))
      ->group(viewer_g);
  app.add_flag("--run", o.start_running, "Start running instead of paused")->group(viewer_g);
  auto* frames = app.add_option("--frames", o.viewer_frames, "Quit after N frames (for scripts and tests)")
                     ->type_name("N")
                     ->check(whole(1, 1000000000000000LL, "frames"))
      ->group(viewer_g);
  auto* shot = app.add_option("--screenshot", o.screenshot_path, "Write the last frame (with the GUI) as PNG")
                   ->type_name("FILE.png")
                   ->group(viewer_g);
  auto* demo = app.add_flag("--demo", o.demo,
                            "Cycle the showcase and teaching scenes, each reset on a timer; any key or mouse "
                            "input stops the cycle. Headless: each scene runs --steps N steps in turn")
                   ->group(viewer_g);
  auto* demo_period = app.add_option("--demo-period", o.demo_period, "With --demo: seconds per scene (default 20)")
                          ->type_name("S")
                          ->check(real_from(1, false))
                          ->group(viewer_g);

  const char* bench_g = "Benchmark";
  app.add_flag("--benchmark", o.benchmark,
               "Time a ladder of sizes of the 3D dam break, or of SCENE with its spacings scaled")
      ->group(bench_g);
  std::vector<std::string> sizes;
  // Split here rather than with CLI11's delimiter, which drops empty entries ("1e4,,1e5").
  app.add_option("--benchmark-sizes", sizes, "Particle counts for --benchmark, e.g. 1e5,1e6")
      ->type_name("N1,N2,...")
      ->group(bench_g);
  auto* bench_record = app.add_flag("--benchmark-record", o.benchmark_record,
                                    "With --benchmark: also time each rung while recording, report the overhead")
                           ->group(bench_g);
  auto* bench_census =
      app.add_option("--benchmark-census", o.benchmark_census,
                     "With --benchmark: instead of timing, count each rung's neighbour search work (candidates, "
                     "neighbours, cells per particle) after STEPS steps (0: as laid out); JSON lines")
          ->type_name("STEPS")
          ->check(whole(0, 1000000000LL, "steps"))
          ->group(bench_g);
  app.add_flag("--benchmark-render", o.benchmark_render,
               "Time offscreen drawing (FPS), the buffer fill and the viewer overhead of the 3D dam break, or of "
               "SCENE (as it is, or scaled to --benchmark-sizes); JSON lines")
      ->group(bench_g);

  const char* gpu_g = "GPU";
  app.add_option("--backend", o.backend, "Compute backend (default: cuda when a device is found, else cpu)")
      ->type_name("cpu|cuda")
      ->check(one_of({"cpu", "cuda"}))
      ->group(gpu_g);
  app.add_flag("--no-interop", o.no_interop, "Copy particles to the drawing through the host instead of CUDA-GL interop")
      ->group(gpu_g);
  app.add_flag("--gl-draw", o.gl_draw, "Draw GL point sprites instead of the CUDA splat rasterizer")->group(gpu_g);

  const char* info_g = "Info";
  auto* list = app.add_flag("--list-params", o.list_params, "List every scene parameter and exit")->group(info_g);
  std::string models_list;
  for (const auto& m : physics_models()) models_list += (models_list.empty() ? "" : "|") + m;
  auto* model_opt = app.add_option("--model", o.list_model, "With --list-params: only the keys this physics.model reads")
                        ->type_name(models_list)
                        ->check(one_of(physics_models()))
                        ->group(info_g);
  auto* markdown = app.add_flag("--markdown", o.markdown,
                                "With --list-params: print the Markdown tables (docs/parameters.md)")
                       ->group(info_g);
  app.add_flag("--list-material-keys", o.list_material_keys,
               "Print the material library keys (Markdown, docs/materials.md) and exit")
      ->group(info_g);
  app.add_flag("--list-terms", o.list_terms,
               "Print the registered terms of the mixed engine, with their fields and keys (Markdown, docs/terms.md) "
               "and exit")
      ->group(info_g);
  app.add_flag("--list-keys", o.list_keys, "Print the viewer's key bindings (Markdown) and exit")->group(info_g);
  auto* teach = app.add_flag("--teach", o.teach,
                             "List the teaching scenes (scenes/teaching/: each SPH pitfall with its fix) and exit")
                    ->group(info_g);
  app.add_flag("--version", o.version, "Print the version, the backends built in and whether CUDA was found")
      ->group(info_g);
  // Made last so that it is listed with the Info group rather than first of all.
  app.set_help_flag("--help,-h", "Print this help and exit")->group(info_g);

  if (!parse_app(app, argc, argv, &r)) return r;
  if (until->count() && steps->count()) return parse_error("--until and --steps exclude each other: give one");
  if (demo_period->count() && !demo->count()) return parse_error("--demo-period needs --demo");
  if (demo->count()) {
    // The demo picks its own scenes and runs until stopped: options that name or steer one run would
    // be silently ignored.
    if (scene->count() || until->count() || restart_opt->count() || record->count() || o.benchmark ||
        o.benchmark_render || teach->count())
      return parse_error("--demo cycles its own scenes: it takes no SCENE, --until, --restart, --record, benchmark "
                         "or --teach");
    if (o.headless && !steps->count())
      return parse_error("--demo needs a window (it cycles scenes on a wall-clock timer); headless, give --steps N "
                         "to run each scene N steps in turn");
    if (!o.headless && steps->count())
      return parse_error("--steps with --demo is for the headless cycle: add --headless (the window uses "
                         "--demo-period)");
  }
  if ((model_opt->count() || markdown->count()) && !list->count())
    return parse_error(std::string(model_opt->count() ? "--model" : "--markdown") + " needs --list-params");
  if (model_opt->count() && markdown->count())
    return parse_error("--model filters the plain listing; --markdown prints the tables of every model");
  // Checked here rather than with CLI11's excludes() to keep the help text uncluttered: the benchmark
  // builds its own scenes and times a fixed number of steps.
  if (o.benchmark && (until->count() || steps->count()))
    return parse_error("--benchmark times a fixed number of steps per size: it takes no --until or --steps");
  for (const auto& list : sizes) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = list.find(',', start);
      const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (item.empty()) return parse_error("--benchmark-sizes: empty entry in '" + list + "' (write N1,N2,...)");
      const std::string err = check_size(item);
      if (!err.empty()) return parse_error("--benchmark-sizes: " + err);
      double v = 0;
      std::from_chars(item.data(), item.data() + item.size(), v);
      o.benchmark_sizes.push_back(std::lround(v));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (!sizes.empty() && !o.benchmark && !o.benchmark_render)
    return parse_error("--benchmark-sizes needs --benchmark or --benchmark-render");
  if (o.benchmark && o.benchmark_render) return parse_error("--benchmark and --benchmark-render exclude each other");
  if (o.benchmark_render && (until->count() || steps->count() || record->count()))
    return parse_error("--benchmark-render times a fixed number of frames: it takes no --until, --steps or --record");
  if (playback->count()) {
    if (o.playback_path.empty()) return parse_error("--playback: no file given");
    // Nothing is simulated: options that steer or record a run would be silently ignored.
    if (scene->count() || until->count() || steps->count() || record->count() || restart_opt->count() ||
        o.benchmark || o.benchmark_render)
      return parse_error("--playback draws a recording: it takes no SCENE, --until, --steps, --record, --restart "
                         "or benchmark");
    if (render_every->count()) return parse_error("--playback renders every recorded frame: no --render-every");
    if (o.headless && o.render_dir.empty() && o.render_video.empty())
      return parse_error("--playback with --headless needs --render-dir DIR or --render-video FILE.mp4 (or both)");
    if (!o.headless && (render_dir->count() || render_video->count()))
      return parse_error("--render-dir/--render-video with --playback need --headless");
  } else if (render_every->count()) {
    if (!o.headless) return parse_error("--render-every needs --headless (the window draws every frame itself)");
    if (o.render_every < 1) return parse_error("--render-every: the interval must be at least 1 step");
    if ((!render_dir->count() || o.render_dir.empty()) && (!render_video->count() || o.render_video.empty()))
      return parse_error("--render-every needs --render-dir DIR or --render-video FILE.mp4 (or both)");
  } else if (render_dir->count()) {
    return parse_error("--render-dir needs --render-every K");
  } else if (render_video->count()) {
    return parse_error("--render-video needs --render-every K");
  }
  if (render_fps->count() && !render_video->count()) return parse_error("--render-fps needs --render-video FILE.mp4");
  if (render_fps->count() && !(o.render_fps > 0 && o.render_fps <= 1000))
    return parse_error("--render-fps must be in (0, 1000]");
  if (frames->count() && o.viewer_frames < 1) return parse_error("--frames must be at least 1");
  if (shot->count() && !frames->count()) return parse_error("--screenshot needs --frames N (the frame to write)");
  if ((frames->count() || shot->count()) && o.headless)
    return parse_error("--frames and --screenshot are for the viewer; headless runs use --render-every");
  // The benchmark builds, times and discards its own scenes; recording or restarting them means
  // nothing (--benchmark-record measures the recorder's cost instead).
  if (bench_record->count() && !o.benchmark) return parse_error("--benchmark-record needs --benchmark");
  if (bench_census->count() && !o.benchmark) return parse_error("--benchmark-census needs --benchmark");
  for (const auto* opt : {every, every_steps, fields, compression})
    if (opt->count() && !record->count()) return parse_error(opt->get_name() + " needs --record FILE.h5");
  if (every->count() && every_steps->count())
    return parse_error("--record-every and --record-every-steps exclude each other: give one interval");
  // Their ranges (> 0 s, >= 1 step, gzip 0..9) are the validators' (real_from, whole) above.
  if (record->count() && o.record_path.empty()) return parse_error("--record: no file given");
  if (probes->count() && no_probes->count()) return parse_error("--probes and --no-probes exclude each other");
  if (probes->count() && o.probes_path.empty()) return parse_error("--probes: no file given");
  if (o.benchmark && (record->count() || restart_opt->count()))
    return parse_error("--benchmark does not record or restart runs: --record and --restart are for headless "
                       "runs (use --benchmark-record to time recording)");
  if (restart_opt->count()) {
    split_restart(restart, &o.restart_path, &o.restart_frame);
    if (o.restart_path.empty()) return parse_error("--restart: no file given");
    // The scene comes from the recording, so a SCENE as well is a contradiction, not a choice.
    if (scene->count()) return parse_error("--restart takes the scene from the recording: give no SCENE");
    // Recording over the file being restarted from would truncate it before it is read.
    if (!o.record_path.empty() && o.record_path == o.restart_path)
      return parse_error("--record " + o.record_path + " would overwrite the file given to --restart");
  }
  for (const auto& f : o.record_fields)
    if (f.empty()) return parse_error("--record-fields: empty field name in the list");
  return r;
}

CliParse parse_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"ejecta"};
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_cli(int(argv.size()), argv.data());
}

}  // namespace ejecta::app
