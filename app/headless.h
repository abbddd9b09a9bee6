#pragma once
// The run without a window: build the scene, step it through the StepLoop to the end, report.
#include "cli.h"
#include "io/frame.h"
#include "io/record_schedule.h"
#include "params/param_set.h"
#include "particles/field_info.h"
#include "run/step_loop.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ejecta::app {

// --record and its options, resolved against the scene.
struct RecordingOptions {
  std::string path;  // "" = no recording
  RecordSchedule schedule;
  std::vector<std::string> fields;  // empty = all
  int compression = 0;
  std::string command_line;  // for the file's provenance
};

struct HeadlessOptions {
  StopRule rule;
  bool json = false;       // summary as one JSON line on stdout (progress stays on stderr)
  std::string scene_name;  // for the summary
  RecordingOptions record;
  // CSV of the scene's probes and gauges (probes/probe_observer.h); "" = do not sample them.
  std::string probes_path;
  // --restart: the frame to continue from (the scene must be the recorded one); null = fresh run.
  const FrameData* restart_frame = nullptr;
  // The frame is this rank's share of a distributed recording (engine/dist/dist_restart.h): the run is
  // distributed (on one rank too) and redistributes the particles.
  bool restart_share = false;
  // One more observer on the same StepLoop (headless rendering, --render-every), made once the
  // simulation exists; it handles the state before the first step itself. Empty = none.
  std::function<std::unique_ptr<StepObserver>(Simulation&)> extra_observer;
  // Called with that observer after the last step (also after Ctrl-C): closes what it writes (the
  // video) so that its errors fail the run. Empty = nothing to finish.
  std::function<void(StepObserver&)> finish_extra;
};

// The probe CSV of a headless run: --probes FILE when given; "" with --no-probes or a scene without
// probes; else beside the run: RECORD_probes.csv for --record RECORD.h5, NAME_probes.csv otherwise.
std::string probes_csv_path(const CliOptions& cli, const ParamSet& scene, const std::string& scene_name);

// --until / --steps when given, else the scene's end time.
StopRule headless_stop_rule(const CliOptions& cli, const ParamSet& scene);
// The scene's name parameter, or `fallback` (the file's stem) when it has none.
std::string scene_display_name(const ParamSet& scene, const std::string& fallback);

// --record-every / --record-every-steps when given, else every scene.end_time / 100 s.
RecordSchedule record_schedule(const CliOptions& cli, const ParamSet& scene);
// Throws ParamError "--record-fields: unknown field 'x' (fields: a, b, ...)" for names the engine
// does not have, so a typo fails before the run starts rather than at the first frame.
void check_record_fields(const std::vector<std::string>& names, const std::vector<FieldInfo>& available);
// The current time as ISO 8601 UTC, e.g. "2026-12-01T20:43:29Z".
std::string iso8601_utc_now();

// Exit code of a run whose recording failed (the file keeps the frames written before the error).
constexpr int kExitRecordingFailed = 5;

// Builds the simulation, runs it with progress on stderr, prints the summary on stdout. Returns the
// exit code: 0, or 130 when Ctrl-C stopped the run early (the summary is still printed), or
// kExitRecordingFailed when --record could not create or write the file (message on stderr).
// BlowUpError, OutOfMemoryError and ParamError propagate to main().
int run_headless(const ParamSet& scene, Backend backend, const HeadlessOptions& opt);

}  // namespace ejecta::app
