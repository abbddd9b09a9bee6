#pragma once
// THE key table: the viewer binds keys from it and the help panel (and docs/viewer.md, checked by a
// test) is generated from it, so they cannot disagree.
#include <string>
#include <vector>

namespace ejecta::viewer {

enum class Action {
  TogglePause, SingleStep, Reset, MoreSteps, FewerSteps, FitView, PresetFront, PresetSide, PresetTop,
  PresetIso, ToggleSprites, CycleWalls, NextColormap, ToggleAutoRange, ToggleCollider, ToggleClip,
  ToggleTree, DropFluid, ResetBlock, ResetRandom, SaveSnapshot, ToggleProfile, Screenshot, ToggleRecord, ToggleVideo, ToggleHelp, Quit
};

struct KeyBinding {
  int key;               // GLFW key code
  const char* key_name;  // as shown to the user
  Action action;
  const char* description;
};

const std::vector<KeyBinding>& key_bindings();
// The binding of a GLFW key, nullptr if the key is unbound.
const KeyBinding* binding_for_key(int glfw_key);
// Rows of the help panel: key name and description, in table order.
std::vector<std::pair<std::string, std::string>> help_rows();
// The same as a Markdown table (docs/viewer.md holds it verbatim).
std::string key_table_markdown();

}  // namespace ejecta::viewer
