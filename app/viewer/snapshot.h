#pragma once
// The viewer's recordings and snapshots, without GL: the run's description, and a snapshot of the
// current state (every field, one frame) written by the recorder's own single-frame write, which
// `ejecta --restart FILE` continues from.
#include "io/frame.h"
#include "params/param_set.h"
#include "simulation.h"

#include <string>

namespace ejecta::viewer {

// What a recording or snapshot made in the viewer says about its run (root attributes).
RunInfo viewer_run_info(const Simulation& sim, const ParamSet& scene, const std::string& command_line);

// "ejecta-<UTC date and time>-<what>.<ext>" in `dir`, e.g. ejecta-20261202-114500-snapshot.h5.
std::string dated_path(const std::string& dir, const std::string& what, const std::string& ext);

// Writes the current state of `sim` (built from `scene`) as a one-frame recording with its
// diagnostics row. Throws RecordError naming the file and the cause.
void write_snapshot(const std::string& path, const Simulation& sim, const ParamSet& scene,
                    const std::string& command_line);

}  // namespace ejecta::viewer
