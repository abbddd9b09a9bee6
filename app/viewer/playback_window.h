#pragma once
// `ejecta --playback FILE.h5` with a display: a recording's frames in a window with a time slider,
// play/pause and colour-by over the recorded fields. Its own frame loop draws; nothing steps.
#include "io/h5_reader.h"
#include "viewer/viewer_state.h"

namespace ejecta::viewer {

// opt's scene is the recording's; scene_name its file. Returns the exit code; -1 with `why` when
// no window can be opened (before anything is built).
int run_playback_window(const H5Reader& reader, const ViewerOptions& opt, std::string* why);

}  // namespace ejecta::viewer
