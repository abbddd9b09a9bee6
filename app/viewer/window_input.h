#pragma once
// Keyboard and scroll input of a GLFW window, queued for the frame loop: keys become actions through
// the key table (key_bindings.h), so the viewer and the playback window bind the same keys the help
// panel lists. ImGui keeps what it wants (typing in a field, scrolling a panel).
#include "viewer/key_bindings.h"

#include <deque>

struct GLFWwindow;

namespace ejecta::viewer {

struct WindowInput {
  std::deque<Action> actions;
  double scroll = 0;
  // Any key, mouse button or wheel since the frame loop last cleared it (stops --demo), including
  // input ImGui keeps for itself.
  bool touched = false;
};

// Points the window's key and scroll callbacks at `input`, which must outlive the window's events.
void attach_window_input(GLFWwindow* win, WindowInput* input);

}  // namespace ejecta::viewer
