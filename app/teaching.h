#pragma once
// The teaching pairs (scenes/teaching/NAME_pitfall.ini + NAME_fix.ini, each with a [teach] section;
// docs/teaching.md) and the demo's scene cycle, read from the scene files themselves so that
// `ejecta --teach`, the demo and the viewer cannot drift from what ships. No GL here.
#include "params/param_set.h"

#include <string>
#include <vector>

namespace ejecta::app {

// The [teach] keys of one scene (teach.title, .text, .look, .why, .fix, .paper, .measure).
struct TeachText {
  std::string title, text, look, why, fix, paper, measure;
};
// The scene's [teach] section ("" fields where not set); has_teach() tells whether it has one.
TeachText teach_text(const ParamSet& scene);
bool has_teach(const ParamSet& scene);

struct TeachPair {
  std::string name;          // "wall_layers"
  std::string pitfall_path;  // DIR/wall_layers_pitfall.ini
  std::string fix_path;      // DIR/wall_layers_fix.ini
  TeachText pitfall, fix;
};

// Every NAME_pitfall.ini in `dir` with its NAME_fix.ini, sorted by name. Each file is read with the
// scene reader (its errors carry file:line). Throws ParamError for a pitfall without its fix (or the
// reverse), or a file without teach.title and teach.text.
std::vector<TeachPair> teaching_pairs(const std::string& dir);
// The `ejecta --teach` text: one block per pair (title, the two summaries, the commands to run).
std::string teach_listing(const std::vector<TeachPair>& pairs, const std::string& dir);

// The demo's cycle: the showcase scenes of `scenes_dir` that exist (dam break, rings, crater, Sedov),
// then each teaching pair's pitfall and fix. Paths, in order.
std::vector<std::string> demo_scenes(const std::string& scenes_dir);

}  // namespace ejecta::app
