#pragma once
// One description per scene key (SPlisHSPlasH style). This table drives the INI reader, the
// `--set key=value` overrides, `ejecta --list-params`, docs/parameters.md, validation, and later
// the GUI panels and the provenance written into output files.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ejecta {

enum class ParamType { Real, Int, Bool, Choice, Vec3, String };

const char* to_string(ParamType t);

struct ParamDesc {
  // Full key "section.key". Numbered sections use '#' for the index: "fluid.#.min" matches the key
  // "min" in INI section [fluid.1], [fluid.2], ...
  std::string key;
  ParamType type = ParamType::Real;
  std::string default_value;         // textual, as it would be written in an INI file
  double min = -1e300, max = 1e300;  // inclusive range (Real, Int, each Vec3 component)
  std::vector<std::string> choices;  // Choice only
  std::string units;                 // SI units, "" for dimensionless
  std::string group;                 // GUI group / docs section, e.g. "Fluid", "Time", "Geometry"
  std::string label;                 // short human label for GUI
  std::string help;                  // one or two sentences
  bool needs_rebuild = false;        // changing it needs a reset (particle layout, dimension ...)
  // The physics models (values of physics.model) whose code reads this key; empty = every model.
  // A scene that sets a key its model does not read is refused (check_model_keys in param_set.h).
  std::vector<std::string> models;
  // A default that depends on the model (viscosity.alpha: 0.02 for the liquid, 1 for gas and solid):
  // {model, value} pairs; default_value holds for every model not listed. A single-model scene reads
  // its model's; ParamSet::real(key) in a mixed scene reads default_value, so the mixed engine reads
  // its materials' values through keys that inherit (below).
  std::vector<std::pair<std::string, std::string>> model_defaults;
  // When unset, this key takes the value of `inherits` as the model `inherits_model` reads it (set, else
  // that model's default): viscosity.solid.alpha is viscosity.alpha for the solid bodies of a mixed scene
  // unless it is set. Empty = no inheritance.
  std::string inherits, inherits_model;
};

// A key that no longer exists, and the key that took its place: reading it is an error that names the
// new key (ParamSet::set), e.g. gas.alpha -> viscosity.alpha.
struct ReplacedKey {
  std::string old_key, new_key;
  std::string note;  // why, and what else may apply ("or viscosity.solid.alpha for ...")
};

// The default of `d` for a scene of physics.model `model`: its model_defaults entry, else default_value.
const std::string& default_for(const ParamDesc& d, const std::string& model);
// The default as the docs and --list-params show it: "1", "0.02 (wcsph); 1 (gas, solid)", or
// "= viscosity.alpha" for an inheriting key.
std::string default_text(const ParamDesc& d);

// The values of physics.model, in the order the docs list them.
const std::vector<std::string>& physics_models();
// True when `model` reads the key described by `d` (always for a key of every model).
bool uses_model(const ParamDesc& d, const std::string& model);
// "the gas model", "the gas and solid models", "every model".
std::string models_text(const ParamDesc& d);

class ParamRegistry {
 public:
  // The table of every key Ejecta knows (engine/params/builtin_params.cpp).
  static const ParamRegistry& builtin();

  void add(ParamDesc d);
  void add_replaced(ReplacedKey r) { replaced_.push_back(std::move(r)); }
  // The replacement of a key that was removed, nullptr if `key` never was one.
  const ReplacedKey* replaced(const std::string& key) const;
  const std::vector<ReplacedKey>& all_replaced() const { return replaced_; }
  const std::vector<ParamDesc>& all() const { return descs_; }
  // Finds the description of a concrete key ("fluid.2.min" -> "fluid.#.min"); nullptr if unknown.
  const ParamDesc* find(const std::string& key) const;
  // Closest known concrete-form key for a misspelled one (edit distance), "" if nothing is close.
  std::string suggest(const std::string& key) const;
  // Markdown tables of all parameters, grouped by the models that read them, then by group
  // (docs/parameters.md is generated from it).
  std::string markdown() const;
  // Plain-text listing for `ejecta --list-params [--model M]`: the keys `model` reads ("" = all).
  std::string listing(const std::string& model = "") const;

 private:
  std::vector<ParamDesc> descs_;
  std::vector<ReplacedKey> replaced_;
};

// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" suggestions.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate closest to `word` by edit distance, "" when none is within max(2, |word| / 3) edits
// (the threshold of ParamRegistry::suggest): "presure" -> "pressure", "--headles" -> "--headless".
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// Shortest text that reads back as the same double ("1e-3", "0.01", "20", "1e5"), so that ranges
// read the same in docs, listings and error messages.
std::string format_number(double v);
// The inclusive range of a Real/Int/Vec3 description: "[1, 20]", ">= 0", "<= 5" or "" if unbounded.
std::string range_text(const ParamDesc& d);

}  // namespace ejecta
