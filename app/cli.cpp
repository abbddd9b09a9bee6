#include "cli.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>

namespace ejecta::app {

namespace {

// Sizes are typed like "1e5,3e5" as often as "100000", so they are read as reals and must be whole.
std::string check_size(const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size() || !(v >= 1) || v > 1e10 || v != std::floor(v))
      return "'" + s + "' is not a particle count (a whole number >= 1)";
  } catch (const std::exception&) {
    return "'" + s + "' is not a particle count (a whole number >= 1)";
  }
  return "";
}

// CLI11's NonNegativeNumber prints the whole double range in its message; this says it plainly.
std::string check_non_negative(const std::string& s) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && v >= 0) return "";
  } catch (const std::exception&) {
  }
  return "'" + s + "' is not a number >= 0";
}

CliParse parse_error(const std::string& message) {
  std::cerr << "ejecta: error: " << message << "\n"
            << "Run 'ejecta --help' for the options.\n";
  CliParse r;
  r.exit = true;
  r.exit_code = 2;
  return r;
}

}  // namespace

CliParse parse_cli(int argc, const char* const* argv) {
  CliParse r;
  CliOptions& o = r.options;
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
                    ->check(CLI::Validator(check_non_negative, ""));
  auto* steps = app.add_option("--steps", o.steps, "Run exactly N steps")
                    ->type_name("N")
                    ->check(CLI::Validator(check_non_negative, ""));
  until->excludes(steps);
  app.add_option("--backend", o.backend, "Compute backend (default: cuda when a device is found, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--precision", o.precision, "Floating-point precision (default: the scene's; float for --benchmark)")
      ->check(CLI::IsMember({"float", "double"}));
  auto* bench = app.add_flag("--benchmark", o.benchmark, "Time a ladder of 3D dam breaks of growing size");
  std::vector<std::string> sizes;
  app.add_option("--benchmark-sizes", sizes, "Particle counts for --benchmark, e.g. 1e5,1e6")
      ->type_name("N1,N2,...")
      ->delimiter(',')
      ->check(CLI::Validator(check_size, ""))
      ->needs(bench);
  app.add_flag("--json", o.json, "Machine-readable output: one JSON object per line, no progress bar");
  auto* list = app.add_flag("--list-params", o.list_params, "List every scene parameter and exit");
  app.add_flag("--markdown", o.markdown, "With --list-params: print the Markdown table (docs/parameters.md)")
      ->needs(list);
  app.add_flag("--version", o.version, "Print the version, the backends built in and whether CUDA was found");
  app.add_option("--threads", o.threads, "Number of OpenMP threads for the CPU backend")
      ->type_name("N")
      ->check(CLI::Range(1, 4096));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    r.exit = true;
    r.exit_code = 0;
    return r;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    r.exit = true;
    r.exit_code = 0;
    return r;
  } catch (const CLI::ParseError& e) {
    return parse_error(e.what());
  }
  // Checked here rather than with CLI11's excludes() to keep the help text uncluttered: the benchmark
  // builds its own scenes and times a fixed number of steps.
  if (o.benchmark && (scene->count() || until->count() || steps->count()))
    return parse_error("--benchmark builds its own scenes: it takes no SCENE, --until or --steps");
  for (const auto& s : sizes) o.benchmark_sizes.push_back(std::lround(std::stod(s)));
  return r;
}

CliParse parse_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"ejecta"};
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_cli(int(argv.size()), argv.data());
}

}  // namespace ejecta::app
