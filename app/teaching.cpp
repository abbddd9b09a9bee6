#include "teaching.h"

#include <algorithm>
#include <filesystem>

namespace ejecta::app {

namespace fs = std::filesystem;

TeachText teach_text(const ParamSet& s) {
  TeachText t;
  t.title = s.text("teach.title");
  t.text = s.text("teach.text");
  t.look = s.text("teach.look");
  t.why = s.text("teach.why");
  t.fix = s.text("teach.fix");
  t.paper = s.text("teach.paper");
  t.measure = s.text("teach.measure");
  return t;
}

bool has_teach(const ParamSet& s) {
  for (const char* k : {"teach.title", "teach.text", "teach.look", "teach.why", "teach.fix", "teach.paper",
                        "teach.measure"})
    if (s.is_set(k)) return true;
  return false;
}

namespace {

const std::string kPitfall = "_pitfall.ini", kFix = "_fix.ini";

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

TeachText read_teach(const std::string& path) {
  const ParamSet s = read_scene_file(path);
  const TeachText t = teach_text(s);
  if (t.title.empty() || t.text.empty())
    throw ParamError(path + ": a teaching scene needs a [teach] section with title = ... and text = ... "
                            "(docs/teaching.md)");
  return t;
}

}  // namespace

std::vector<TeachPair> teaching_pairs(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ParamError(dir + ": no such folder of teaching scenes");
  std::vector<std::string> names, fixes;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string f = e.path().filename().string();
    if (ends_with(f, kPitfall)) names.push_back(f.substr(0, f.size() - kPitfall.size()));
    if (ends_with(f, kFix)) fixes.push_back(f.substr(0, f.size() - kFix.size()));
  }
  std::sort(names.begin(), names.end());
  for (const std::string& f : fixes)
    if (!std::binary_search(names.begin(), names.end(), f))
      throw ParamError(dir + "/" + f + kFix + ": a fix without its pitfall (add " + f + kPitfall + ")");
  std::vector<TeachPair> out;
  for (const std::string& n : names) {
    TeachPair p;
    p.name = n;
    p.pitfall_path = dir + "/" + n + kPitfall;
    p.fix_path = dir + "/" + n + kFix;
    if (!fs::exists(p.fix_path, ec))
      throw ParamError(p.pitfall_path + ": a pitfall without its fix (add " + n + kFix + ")");
    p.pitfall = read_teach(p.pitfall_path);
    p.fix = read_teach(p.fix_path);
    out.push_back(std::move(p));
  }
  return out;
}

std::string teach_listing(const std::vector<TeachPair>& pairs, const std::string& dir) {
  std::string s = "Teaching scenes in " + dir + ": each SPH pitfall with its fix (docs/teaching.md).\n"
                  "Open one in the viewer; its Teach panel says what to look at, why, the fix and the paper.\n";
  for (const TeachPair& p : pairs) {
    s += "\n" + p.name + ": " + p.pitfall.title + "\n";
    s += "  pitfall  " + p.pitfall.text + "\n";
    s += "  fix      " + p.fix.text + "\n";
    s += "  run      ejecta " + p.pitfall_path + "    ejecta " + p.fix_path + "\n";
  }
  s += "\n" + std::to_string(pairs.size()) + " pairs.\n";
  return s;
}

std::vector<std::string> demo_scenes(const std::string& scenes_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const char* name : {"dambreak2d.ini", "rings2d.ini", "crater2d.ini", "sedov2d.ini", "dambreak3d.ini"}) {
    const std::string p = scenes_dir + "/" + name;
    if (fs::exists(p, ec)) out.push_back(p);
  }
  const std::string teaching = scenes_dir + "/teaching";
  if (fs::is_directory(teaching, ec))
    for (const TeachPair& p : teaching_pairs(teaching)) {
      out.push_back(p.pitfall_path);
      out.push_back(p.fix_path);
    }
  return out;
}

}  // namespace ejecta::app
