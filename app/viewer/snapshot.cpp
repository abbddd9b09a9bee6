#include "viewer/snapshot.h"

#include "ejecta_version.h"
#include "io/h5_recorder.h"

#include <ctime>

namespace ejecta::viewer {

namespace {

std::string utc_now(const char* format) {
  char buf[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(buf, sizeof buf, format, std::gmtime(&now));
  return buf;
}

}  // namespace

RunInfo viewer_run_info(const Simulation& sim, const ParamSet& scene, const std::string& command_line) {
  RunInfo info;
  info.dim = sim.dim();
  info.precision = to_string(sim.precision());
  info.backend = to_string(sim.backend());
  info.scene_ini = scene.to_ini();
  info.command_line = command_line;
  info.start_date = utc_now("%Y-%m-%dT%H:%M:%SZ");
  info.ejecta_version = EJECTA_VERSION;
  info.git_commit = EJECTA_GIT_COMMIT;
  return info;
}

std::string dated_path(const std::string& dir, const std::string& what, const std::string& ext) {
  return dir + "/" + utc_now("ejecta-%Y%m%d-%H%M%S") + (what.empty() ? "" : "-" + what) + "." + ext;
}

void write_snapshot(const std::string& path, const Simulation& sim, const ParamSet& scene,
                    const std::string& command_line) {
  H5Recorder rec(path, viewer_run_info(sim, scene, command_line), RecordOptions{});
  rec.append_diagnostics(sim.diagnostics());
  rec.write_frame(sim.capture_frame());
  rec.close();
}

}  // namespace ejecta::viewer
