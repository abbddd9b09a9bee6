#pragma once
// The run without a window: build the scene, step it through the StepLoop to the end, report.
#include "cli.h"
#include "params/param_set.h"
#include "run/step_loop.h"

#include <string>

namespace ejecta::app {

struct HeadlessOptions {
  StopRule rule;
  bool json = false;       // summary as one JSON line, no progress display
  std::string scene_name;  // for the summary
};

// --until / --steps when given, else the scene's end time.
StopRule headless_stop_rule(const CliOptions& cli, const ParamSet& scene);
// The scene's name parameter, or `fallback` (the file's stem) when it has none.
std::string scene_display_name(const ParamSet& scene, const std::string& fallback);

// Builds the simulation, runs it with progress on stderr, prints the summary on stdout. Returns the
// exit code: 0, or 130 when Ctrl-C stopped the run early (the summary is still printed).
// BlowUpError, OutOfMemoryError and ParamError propagate to main().
int run_headless(const ParamSet& scene, Backend backend, const HeadlessOptions& opt);

}  // namespace ejecta::app
