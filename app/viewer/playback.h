#pragma once
// Playback of a recording (ejecta --playback FILE.h5): its frames drawn through SceneView's host-copy
// path, no simulation. Headless, every complete frame becomes a PNG and/or a video frame: a movie
// of a run recorded on a cluster.
#include "io/h5_reader.h"
#include "viewer/render_observer.h"

namespace ejecta::viewer {

// Renders every complete frame of `reader` with `opt` (opt.every is ignored: one image per recorded
// frame); `scene` is the recording's own. Returns the exit code (0). Throws ParamError for a bad
// colour field (the recorded ones are listed), colormap or directory, std::runtime_error without an
// offscreen context or ffmpeg, or when ffmpeg fails.
int run_playback_headless(const H5Reader& reader, const ParamSet& scene, const RenderFrameOptions& opt,
                          const std::string& name);

}  // namespace ejecta::viewer
