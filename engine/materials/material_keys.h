#pragma once
// The one table of material library keys (SPlisHSPlasH style, like the ParamRegistry for scene keys):
// key, label, units, range, help and the group it belongs to (EOS, elasticity, yield, damage, melt,
// porosity),
// with the condition under which a material uses it. The library reader (unknown keys and their
// suggestions), the viewer's material panels, `ejecta --list-material-keys` and docs/materials.md are
// generated from it. Host-side only.
#include "materials/material_library.h"

#include <string>
#include <vector>

namespace ejecta {

// Which part of the material model a key belongs to (GUI sections, docs sections).
enum class MaterialGroup { Eos, Elasticity, Yield, Damage, Melt, Porosity };
const char* to_string(MaterialGroup g);

struct MaterialKeyDesc {
  std::string key;    // as written in the library: "tillotson.A"
  bool word = false;  // a choice (eos, yield) rather than a number
  std::vector<std::string> choices;  // word keys only
  MaterialGroup group = MaterialGroup::Eos;
  std::string label;  // short GUI label
  std::string units;  // SI, "" for dimensionless
  double min = -1e300, max = 1e300;  // inclusive range of a number; exclusive ends where min_open/max_open
  bool min_open = false;
  std::string applies;  // when a material uses it, as text: "every material", "eos = tillotson", ...
  std::string need;     // "required", "optional (default ...)"
  std::string example;  // a typical value, filled in when a switched eos/yield model needs the key
  std::string help;
  // Whether material m uses this key (it has a value for it), and that value as library text.
  bool (*uses)(const Material& m) = nullptr;
  std::string (*value)(const Material& m) = nullptr;
};

// Every key, in the order of the docs and the panels.
const std::vector<MaterialKeyDesc>& material_keys();
const MaterialKeyDesc* find_material_key(const std::string& key);
// Closest known key for a misspelled one ("" if none is close); a key without its group ("A" for
// "tillotson.A") is suggested too.
std::string suggest_material_key(const std::string& key);
// The range of a number key as text: "> 0", ">= 0", "<= 0", "> 0 and <= 1", "" (unbounded).
std::string material_range_text(const MaterialKeyDesc& d);

// The material as one library section ("[name]" and every key it uses), so that reading it back gives
// the same material.
std::string material_to_ini(const Material& m);
// A copy of `m` with key = value, validated and completed by the library reader itself (so every rule
// and derived value is the reader's). Switching eos or yield fills the newly needed keys from the
// table's example values. An empty value removes the key (the reader's default applies, or it says
// the key is required); damage (weibull.*) and melt (melt.*) keys come and go in pairs, a missing
// partner at its example value. Throws MaterialError with the reader's message.
Material edit_material(const Material& m, const std::string& key, const std::string& value);

// Markdown page of the table (docs/materials.md).
std::string material_keys_markdown();

}  // namespace ejecta
