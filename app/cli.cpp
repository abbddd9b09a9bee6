#include "cli.h"

#include <CLI/CLI.hpp>

#include "params/param_registry.h"

#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>

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
bool parse_app(CLI::App& app, int argc, const char* const* argv, CliParse* r) {
  try {
    app.parse(argc, argv);
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
  const bool info = o.command == "info";
  CLI::App app{info ? "Describe a recording: frames, time range, fields, provenance and the scene."
                    : "Export a recording's diagnostics table.",
               std::string("ejecta ") + o.command};
  app.add_option("FILE", o.file_path, "Recording (HDF5) written by --record")->type_name("FILE.h5")->required();
  if (!info) {
    app.add_flag("--csv", o.export_csv, "Write the diagnostics table as CSV (one row per diagnostics sample)");
    app.add_option("--output,-o", o.output_path, "Output file (default: FILE.csv next to FILE.h5; '-' = stdout)")
        ->type_name("OUT.csv");
  }
  // argv[1] (the command) stands in for the program name so the positional FILE comes next.
  if (!parse_app(app, argc - 1, argv + 1, &r)) return r;
  if (!info && !o.export_csv) return parse_error("export: say which format, e.g. 'ejecta export FILE.h5 --csv'");
  return r;
}

}  // namespace

CliParse parse_cli(int argc, const char* const* argv) {
  if (argc >= 2 && (std::string(argv[1]) == "info" || std::string(argv[1]) == "export"))
    return parse_file_command(argc, argv);
  CliParse r;
  CliOptions& o = r.options;
  o.command_line = join_args(argc, argv);
  CLI::App app{"Ejecta: an interactive GPU/CPU SPH simulator.", "ejecta"};
  app.get_formatter()->column_width(34);

  auto* scene = app.add_option("SCENE", o.scene_path, "Scene file (INI); the built-in 2D dam break if omitted")
                    ->type_name("SCENE.ini");
  // One value per --set so that a scene path after it is not swallowed as a second assignment.
  app.add_option("--set", o.sets, "Override a scene parameter, e.g. --set fluid.gamma=7 (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false)
      ->take_all();
  app.add_flag("--headless", o.headless, "Run without a window, print a summary");
  auto* until = app.add_option("--until", o.until, "Simulate until this time [s] (default: scene.end_time)")
                    ->type_name("T")
                    ->check(real_from(0, false));
  auto* steps = app.add_option("--steps", o.steps, "Run exactly N steps")
                    ->type_name("N")
                    ->check(whole(0, 1000000000000000LL, "steps"));
  until->excludes(steps);
  app.add_option("--backend", o.backend, "Compute backend (default: cuda when a device is found, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--precision", o.precision, "Floating-point precision (default: the scene's; float for --benchmark)")
      ->check(CLI::IsMember({"float", "double"}));
  app.add_flag("--benchmark", o.benchmark,
               "Time a ladder of sizes of the 3D dam break, or of SCENE with its spacings scaled");
  std::vector<std::string> sizes;
  // Split here rather than with CLI11's delimiter, which drops empty entries ("1e4,,1e5").
  app.add_option("--benchmark-sizes", sizes, "Particle counts for --benchmark, e.g. 1e5,1e6")
      ->type_name("N1,N2,...");
  app.add_flag("--json", o.json, "Machine-readable output: one JSON object per line, no progress bar");
  auto* list = app.add_flag("--list-params", o.list_params, "List every scene parameter and exit");
  app.add_flag("--markdown", o.markdown, "With --list-params: print the Markdown table (docs/parameters.md)")
      ->needs(list);
  app.add_flag("--list-material-keys", o.list_material_keys,
               "Print the material library keys (Markdown, docs/materials.md) and exit");
  app.add_flag("--version", o.version, "Print the version, the backends built in and whether CUDA was found");
  app.add_option("--threads", o.threads, "Number of OpenMP threads for the CPU backend")
      ->type_name("N")
      ->check(whole(1, 4096, "threads"));

  // Ranges and dependencies are checked after parsing, with plain messages, so that the help text
  // stays free of CLI11's "Needs:/Excludes:" annotations (like --benchmark's checks below).
  auto* record = app.add_option("--record", o.record_path,
                                 "Record the run to an HDF5 file (+ an XDMF sidecar for ParaView)")
                     ->type_name("FILE.h5");
  auto* every = app.add_option("--record-every", o.record_every,
                               "Simulated time between frames [s] (default: scene.end_time / 100)")
                    ->type_name("DT")
                    ->check(real_from(0, true));
  auto* every_steps = app.add_option("--record-every-steps", o.record_every_steps, "Steps between frames instead")
                          ->type_name("K")
                          ->check(whole(1, 1000000000000000LL, "steps"));
  auto* fields = app.add_option("--record-fields", o.record_fields, "Fields to record (default: all)")
                     ->type_name("F1,F2,...")
                     ->delimiter(',');
  auto* compression =
      app.add_option("--record-compression", o.record_compression, "gzip level of the recording, 0 = none")
          ->type_name("0..9")
          ->check(whole(0, 9, "gzip level"));
  std::string restart;
  auto* restart_opt = app.add_option("--restart", restart,
                                     "Continue a recorded run from FRAME (default: its last complete frame)")
                          ->type_name("FILE.h5[:FRAME]");
  auto* bench_record = app.add_flag("--benchmark-record", o.benchmark_record,
                                    "With --benchmark: also time each rung while recording, report the overhead");
  app.add_flag("--no-interop", o.no_interop,
                                  "Viewer/rendering: copy particles through the host instead of CUDA-GL interop");
  app.add_flag("--gl-draw", o.gl_draw,
               "Viewer/rendering on CUDA: draw GL point sprites instead of the CUDA splat rasterizer");
  app.add_option("--steps-per-frame", o.steps_per_frame, "Viewer: steps between drawn frames (default 4)")
                  ->type_name("N")
                  ->check(whole(1, 100000, "steps"));
  auto* render_every = app.add_option("--render-every", o.render_every,
                                      "With --headless: render a frame every K steps to --render-dir and/or --render-video")
                           ->type_name("K")
                           ->check(whole(1, 1000000000000000LL, "steps"));
  auto* render_dir = app.add_option("--render-dir", o.render_dir, "Directory for the rendered PNG frames")
                         ->type_name("DIR");
  auto* playback = app.add_option("--playback", o.playback_path,
                                  "Draw a recording's frames instead of simulating (with --headless: every frame "
                                  "to --render-dir/--render-video)")
                       ->type_name("FILE.h5");
  auto* render_video = app.add_option("--render-video", o.render_video,
                                      "Also or instead: --render-every's frames as an MP4 video (needs ffmpeg)")
                           ->type_name("FILE.mp4");
  auto* render_fps = app.add_option("--render-fps", o.render_fps, "Frame rate of --render-video (default 30)")
                         ->type_name("FPS");
  app.add_option("--width", o.width, "Width of rendered frames / the window [px] (default 1280)")
                    ->type_name("W")
                    ->check(whole(16, 16384, "pixels"));
  app.add_option("--height", o.height, "Height of rendered frames / the window [px] (default 720)")
                     ->type_name("H")
                     ->check(whole(16, 16384, "pixels"));
  app.add_option("--colour-by", o.colour_by, "Field the particles are coloured by (default: the scene's view.colour_by, "
                                             "velocity; FIELD.x/.y/.z for a component)")
      ->type_name("FIELD[.c]");
  app.add_option("--colormap", o.colormap, "viridis, turbo, coolwarm or greys (default: the scene's view.colormap; auto: "
                                             "coolwarm for signed quantities, else viridis)")->type_name("NAME");
  app.add_option("--walls", o.walls, "Wall particles: hidden, dimmed or shown (default: the scene's view.walls, hidden in 3D, dimmed in 2D)")
      ->check(CLI::IsMember({"hidden", "dimmed", "shown"}));
  app.add_option("--sprites", o.sprites, "Particles as lit spheres or flat discs (default spheres)")
      ->check(CLI::IsMember({"spheres", "discs"}));
  app.add_option("--view", o.view, "3D camera preset: front, side, top or iso (default: the scene's view.camera, iso)")
      ->check(CLI::IsMember({"front", "side", "top", "iso"}));
  app.add_flag("--no-legend", o.no_legend, "Headless frames without the colour legend");
  app.add_flag("--benchmark-render", o.benchmark_render,
                                    "Time offscreen drawing (FPS), the buffer fill and the viewer overhead; JSON lines");
  app.add_flag("--list-keys", o.list_keys, "Print the viewer's key bindings (Markdown) and exit");
  auto* frames = app.add_option("--frames", o.viewer_frames, "Viewer: quit after N frames (for scripts and tests)")
                     ->type_name("N")
                     ->check(whole(1, 1000000000000000LL, "frames"));
  auto* shot = app.add_option("--screenshot", o.screenshot_path, "Viewer: write the last frame (with the GUI) as PNG")
                   ->type_name("FILE.png");
  app.add_flag("--run", o.start_running, "Viewer: start running instead of paused");
  app.footer(
      "Recordings:\n"
      "  ejecta info FILE.h5                           frames, fields, provenance and scene of a recording\n"
      "  ejecta export FILE.h5 --csv [--output OUT]    its diagnostics table as CSV (OUT '-' = stdout)");

  if (!parse_app(app, argc, argv, &r)) return r;
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
  if (o.benchmark_render && (scene->count() || until->count() || steps->count() || record->count()))
    return parse_error("--benchmark-render builds its own scenes: it takes no SCENE, --until, --steps or --record");
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
  for (const auto* opt : {every, every_steps, fields, compression})
    if (opt->count() && !record->count()) return parse_error(opt->get_name() + " needs --record FILE.h5");
  if (every->count() && every_steps->count())
    return parse_error("--record-every and --record-every-steps exclude each other: give one interval");
  if (o.record_every && !(*o.record_every > 0))
    return parse_error("--record-every: the interval must be > 0 s");
  if (o.record_every_steps && *o.record_every_steps < 1)
    return parse_error("--record-every-steps: the interval must be at least 1 step");
  if (o.record_compression < 0 || o.record_compression > 9)
    return parse_error("--record-compression: the gzip level must be 0..9, not " + std::to_string(o.record_compression));
  if (record->count() && o.record_path.empty()) return parse_error("--record: no file given");
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
