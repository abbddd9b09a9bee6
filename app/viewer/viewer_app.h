#pragma once
// `ejecta [scene]` with a display: the interactive window.
#include "viewer/viewer_state.h"

#include "viewer/key_bindings.h"

#include <string>

struct GLFWwindow;

namespace ejecta::viewer {

// What a key of the key table (key_bindings.h) does, in the window `win` whose framebuffer is w x h
// pixels; the frame loop calls it for every queued action (window_input.h). Errors go to s.message;
// the P screenshot prints "ejecta: screenshot PATH" on stdout.
void handle_action(ViewerState& s, Action a, GLFWwindow* win, int w, int h);

// Runs the window until it is closed; returns the exit code. Returns -1 with `why` filled, before
// building anything, when no window can be opened (no display), so the caller can run headless.
int run_viewer(const ViewerOptions& opt, std::string* why);

}  // namespace ejecta::viewer
