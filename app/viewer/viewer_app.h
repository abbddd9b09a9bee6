#pragma once
// `ejecta [scene]` with a display: the interactive window.
#include "viewer/viewer_state.h"

#include <string>

namespace ejecta::viewer {

// Runs the window until it is closed; returns the exit code. Returns -1 with `why` filled, before
// building anything, when no window can be opened (no display), so the caller can run headless.
int run_viewer(const ViewerOptions& opt, std::string* why);

}  // namespace ejecta::viewer
