#pragma once
// Command-line parsing, kept apart from main() so that it can be exercised without running anything.
#include <optional>
#include <string>
#include <vector>

namespace ejecta::app {

struct CliOptions {
  std::string scene_path;         // "" = the embedded default scene
  std::vector<std::string> sets;  // "--set key=value", applied in order
  bool headless = false;
  std::optional<double> until;  // --until T (excludes --steps)
  std::optional<long> steps;    // --steps N
  std::string backend;          // "cpu", "cuda" or "" (cuda when available, else cpu)
  std::string precision;        // "float", "double" or "" (the scene's; float for the benchmark)
  bool benchmark = false;
  std::vector<long> benchmark_sizes;  // empty = the backend's ladder
  bool json = false;
  bool list_params = false;
  std::string list_model;  // --model M with --list-params: only the keys physics.model = M reads
  bool list_material_keys = false;  // --list-material-keys: the material key table (Markdown)
  bool list_terms = false;  // --list-terms: the mixed engine's registered terms (Markdown, docs/terms.md)
  bool markdown = false;
  bool version = false;
  int threads = 0;  // 0 = OpenMP's default
  // --omp-spin: keep the OpenMP runtime's spinning barriers (fastest on a dedicated machine). Without
  // it main() starts the runtime with OMP_WAIT_POLICY=passive (omp_env.h), so a busy core does not stall a step.
  bool omp_spin = false;
  // --debug-sync: the CUDA backend synchronises and checks after every launch (exec/debug_sync.h);
  // main() sets EJECTA_DEBUG_SYNC=1 for it.
  bool debug_sync = false;

  // Recording (headless runs only).
  std::string record_path;                // --record FILE.h5; "" = no recording
  std::optional<double> record_every;     // --record-every DT [s] (excludes --record-every-steps)
  std::optional<long> record_every_steps;  // --record-every-steps K
  std::vector<std::string> record_fields;  // --record-fields a,b,c; empty = all
  int record_compression = 0;              // --record-compression 0..9
  std::string restart_path;                // --restart FILE.h5[:FRAME]; "" = a fresh run
  std::optional<long> restart_frame;       // the FRAME part; none = the last complete frame
  bool benchmark_record = false;           // --benchmark-record
  long benchmark_census = -1;              // --benchmark-census STEPS (-1: off)
  // Probes and gauges (headless runs of scenes with [probe.N]/[gauge.N]; docs/probes.md).
  std::string probes_path;  // --probes FILE.csv; "" = NAME_probes.csv beside the run
  bool no_probes = false;   // --no-probes: do not sample them

  // Viewer and rendering (builds with the viewer; see docs/viewer.md).
  bool no_interop = false;          // --no-interop: host copy instead of CUDA-GL interop
  bool gl_draw = false;             // --gl-draw: GL sprites instead of the CUDA splat rasterizer
  long steps_per_frame = 4;         // --steps-per-frame N (viewer)
  long render_every = 0;            // --render-every K: headless PNG frames every K steps; 0 = none
  std::string render_dir;           // --render-dir DIR
  std::string playback_path;        // --playback FILE.h5: draw a recording's frames, no simulation
  std::string render_video;         // --render-video FILE.mp4 (through ffmpeg)
  double render_fps = 30;           // --render-fps: frame rate of --render-video
  int width = 1280, height = 720;   // --width/--height of rendered frames (and the window)
  std::string colour_by;  // --colour-by FIELD[.x|.y|.z]; "" = the scene's view.colour_by
  std::string colormap;   // --colormap NAME; "" = the scene's view.colormap
  std::string walls;                // --walls hidden|dimmed|shown; "" = by dimension (3D hidden, 2D dimmed)
  std::string sprites = "spheres";  // --sprites spheres|discs
  std::string view;                 // --view front|side|top|iso (3D); "" = iso
  bool no_legend = false;           // --no-legend: headless frames without the colour legend
  bool no_overlay = false;          // --no-overlay: headless frames without name, time and scale bar
  std::string theme;                // --theme dark|light; "" = the scene's view.theme
  std::string screenshot_dir;       // --screenshot-dir DIR: where P screenshots go; "" = working directory
  bool benchmark_render = false;    // --benchmark-render
  bool list_keys = false;           // --list-keys: the viewer's key table (Markdown)
  long viewer_frames = 0;           // --frames N: the viewer quits after N frames (scripts, tests); 0 = never
  std::string screenshot_path;      // --screenshot FILE: the window's last frame, GUI included, as PNG
  bool start_running = false;       // --run: the viewer starts running instead of paused
  // Teaching and demo (issue 17; docs/teaching.md).
  bool teach = false;               // --teach: list the teaching pairs (from scenes/teaching/) and exit
  bool demo = false;                // --demo: cycle the showcase scenes (window; headless with --steps)
  double demo_period = 20;          // --demo-period S: wall-clock seconds per scene in the window

  // Subcommands: "ejecta info FILE.h5", "ejecta export FILE.h5 --csv [--output OUT.csv]",
  // "ejecta export FILE.h5 --particles --format csv|vtk [--frame N|--all] [--output OUT]",
  // "ejecta repair FILE.h5 [--output OUT.h5]".
  std::string command;      // "" (a run), "info", "export" or "repair"
  std::string file_path;    // the FILE.h5 of info/export/repair
  bool export_csv = false;  // export --csv: the diagnostics table
  bool export_particles = false;       // export --particles: per-particle data of frames
  std::string export_format = "csv";   // --format csv|vtk (with --particles)
  std::optional<long> export_frame;    // --frame N; none = the last complete frame
  bool export_all = false;             // --all: every complete frame
  bool export_probes = false;          // export --probes: the probe and gauge series (/probes)
  std::string output_path;  // export/repair --output; "" = next to the input, "-" = stdout (CSV of one frame)

  std::string command_line;  // argv joined by spaces, for the recording's provenance
};

struct CliParse {
  CliOptions options;
  bool exit = false;  // --help or a parse error: nothing to run, return exit_code
  int exit_code = 0;
};

// Parses argv (argv[0] is the program name). Help goes to stdout; parse errors are printed to
// stderr as "ejecta: error: <message>" and give exit_code 2.
CliParse parse_cli(int argc, const char* const* argv);
// The same from the arguments without the program name (for tests and tools).
CliParse parse_cli(const std::vector<std::string>& args);

}  // namespace ejecta::app
