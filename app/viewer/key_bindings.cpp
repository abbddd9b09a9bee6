#include "viewer/key_bindings.h"

#include <GLFW/glfw3.h>

namespace ejecta::viewer {

const std::vector<KeyBinding>& key_bindings() {
  static const std::vector<KeyBinding> table = {
      {GLFW_KEY_SPACE, "Space", Action::TogglePause, "Run / pause the simulation"},
      {GLFW_KEY_S, "S", Action::SingleStep, "Single step (while paused)"},
      {GLFW_KEY_R, "R", Action::Reset, "Reset: rebuild the scene with the current parameters"},
      {GLFW_KEY_EQUAL, "=", Action::MoreSteps, "Double the steps per frame"},
      {GLFW_KEY_MINUS, "-", Action::FewerSteps, "Halve the steps per frame"},
      {GLFW_KEY_F, "F", Action::FitView, "Fit the view to the scene"},
      {GLFW_KEY_1, "1", Action::PresetFront, "3D: front view"},
      {GLFW_KEY_2, "2", Action::PresetSide, "3D: side view"},
      {GLFW_KEY_3, "3", Action::PresetTop, "3D: top view"},
      {GLFW_KEY_4, "4", Action::PresetIso, "3D: isometric view"},
      {GLFW_KEY_M, "M", Action::ToggleSprites, "Lit spheres / flat discs"},
      {GLFW_KEY_W, "W", Action::CycleWalls, "Walls: dimmed / hidden / shown"},
      {GLFW_KEY_C, "C", Action::NextColormap, "Next colormap"},
      {GLFW_KEY_A, "A", Action::ToggleAutoRange, "Automatic / manual colour range"},
      {GLFW_KEY_O, "O", Action::ToggleCollider, "Collider sphere on / off (Shift + left drag moves it)"},
      {GLFW_KEY_X, "X", Action::ToggleClip, "3D: clip plane on / off"},
      {GLFW_KEY_T, "T", Action::ToggleTree, "Self-gravity octree: draw its top levels on / off (gravity.self = on; levels in the panel)"},
      {GLFW_KEY_D, "D", Action::DropFluid, "Drop a sphere or block of fluid at the cursor, or at the view centre when the cursor is off the scene (liquid scenes; shape and size in the panel); in a scene of grains, a sphere of grains (sites that would overlap left out; grains or water in a scene with both: a choice in the panel)"},
      {GLFW_KEY_B, "B", Action::ResetBlock, "Reset block: the scene's fluid as one block in the middle of the tank, or its free grains in the middle of their box, at rest"},
      {GLFW_KEY_N, "N", Action::ResetRandom, "Reset random: the scene's fluid (or free grains) at random lattice sites of the tank (the grains' box), at rest"},
      {GLFW_KEY_K, "K", Action::SaveSnapshot, "Save a snapshot (ejecta-<date>-snapshot.h5) that ejecta --restart FILE continues"},
      {GLFW_KEY_L, "L", Action::ToggleProfile, "Line profile on / off: left drag draws the line, a plot shows the colour field along it"},
      {GLFW_KEY_P, "P", Action::Screenshot, "Screenshot with legend to PNG (ejecta-<scene>-<step>.png, --screenshot-dir)"},
      {GLFW_KEY_V, "V", Action::ToggleRecord, "Start / stop recording to HDF5"},
      {GLFW_KEY_G, "G", Action::ToggleVideo, "Start / stop recording video (ffmpeg, ejecta-<date>.mp4)"},
      {GLFW_KEY_H, "H", Action::ToggleHelp, "Show / hide this help"},
      {GLFW_KEY_ESCAPE, "Esc", Action::Quit, "Quit"},
  };
  return table;
}

const KeyBinding* binding_for_key(int glfw_key) {
  for (const KeyBinding& b : key_bindings())
    if (b.key == glfw_key) return &b;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> help_rows() {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const KeyBinding& b : key_bindings()) rows.emplace_back(b.key_name, b.description);
  return rows;
}

std::string key_table_markdown() {
  std::string md = "| Key | Action |\n|---|---|\n";
  for (const auto& [key, what] : help_rows()) md += "| `" + key + "` | " + what + " |\n";
  return md;
}

}  // namespace ejecta::viewer
