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
  bool markdown = false;
  bool version = false;
  int threads = 0;  // 0 = OpenMP's default
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
