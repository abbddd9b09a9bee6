// Registry lookups (numbered-section patterns, misspelling suggestions) and the generated
// documentation: docs/parameters.md and `ejecta --list-params` both come from here, so the docs can
// never drift from the table in builtin_params.cpp.
#include "params/param_registry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ejecta {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::Real: return "real";
    case ParamType::Int: return "int";
    case ParamType::Bool: return "bool";
    case ParamType::Choice: return "choice";
    case ParamType::Vec3: return "vec3";
    case ParamType::String: return "string";
  }
  return "?";
}

std::string format_number(double v) {
  if (!std::isfinite(v)) return v != v ? "nan" : (v > 0 ? "inf" : "-inf");
  if (v == 0) return "0";
  // Shortest scientific form that reads back exactly ("1e-03" for 0.001, never
  // 1.0000000000000000208e-03); to_chars also ignores the C locale, unlike printf.
  char buf[64];
  char* end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr;
  const std::string sci(buf, end);
  const std::size_t e = sci.find('e');
  const int exponent = std::stoi(sci.substr(e + 1));
  int digits = 0;
  for (std::size_t i = 0; i < e; ++i) digits += sci[i] >= '0' && sci[i] <= '9';
  // Scientific without printf's '+' and leading zeros ("1e9", "1e-6"), or plain decimal ("20",
  // "0.01", "9.81") when that is no longer, so ranges read like the table: [1e-3, 1e5].
  const std::string scientific = sci.substr(0, e) + "e" + std::to_string(exponent);
  if (exponent < -20 || exponent > 20) return scientific;  // fixed is longer anyway
  end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed,
                      std::max(0, digits - 1 - exponent))
            .ptr;
  const std::string fixed(buf, end);
  return fixed.size() <= scientific.size() ? fixed : scientific;
}

std::string range_text(const ParamDesc& d) {
  // The struct defaults (+-1e300) mean "no bound"; anything tighter is a real bound.
  const bool has_min = d.min > -1e299, has_max = d.max < 1e299;
  if (has_min && has_max) return "[" + format_number(d.min) + ", " + format_number(d.max) + "]";
  if (has_min) return ">= " + format_number(d.min);
  if (has_max) return "<= " + format_number(d.max);
  return "";
}

namespace {

// A valid section index is a positive int without leading zeros, so that [block.1] and [block.01]
// cannot name the same block twice. Returns the length of the index at s[i], 0 if there is none.
std::size_t index_length(const std::string& s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
  const std::size_t n = j - i;
  if (n == 0 || n > 9 || s[i] == '0') return 0;
  if (j < s.size() && s[j] != '.') return 0;
  return n;
}

// Pattern segments are either literal or exactly "#".
bool matches(const std::string& pattern, const std::string& key) {
  std::size_t p = 0, k = 0;
  while (p < pattern.size()) {
    if (pattern[p] == '#') {
      const std::size_t n = index_length(key, k);
      if (n == 0) return false;
      k += n;
      ++p;
    } else {
      if (k >= key.size() || key[k] != pattern[p]) return false;
      ++k;
      ++p;
    }
  }
  return k == key.size();
}

std::string substitute_index(const std::string& pattern, const std::string& index) {
  std::string out;
  for (char c : pattern) {
    if (c == '#')
      out += index;
    else
      out += c;
  }
  return out;
}

// Default/choices/range cells shared by the markdown and the plain listing.
std::string choices_text(const ParamDesc& d, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < d.choices.size(); ++i) out += (i ? sep : "") + d.choices[i];
  return out;
}

std::string limits_text(const ParamDesc& d, bool markdown) {
  switch (d.type) {
    case ParamType::Choice:
      return markdown ? "`" + choices_text(d, "`, `") + "`" : choices_text(d, ", ");
    case ParamType::Bool: return "true / false";
    case ParamType::Vec3: {
      const std::string r = range_text(d);
      return r.empty() ? "" : "each component " + r;
    }
    case ParamType::Real:
    case ParamType::Int: return range_text(d);
    case ParamType::String: return "";
  }
  return "";
}

std::vector<std::string> groups_in_order(const std::vector<ParamDesc>& descs) {
  std::vector<std::string> groups;
  for (const ParamDesc& d : descs)
    if (std::find(groups.begin(), groups.end(), d.group) == groups.end()) groups.push_back(d.group);
  return groups;
}

std::vector<std::vector<std::string>> model_sets_in_order(const std::vector<ParamDesc>& descs) {
  std::vector<std::vector<std::string>> sets{{}};  // every model first
  for (const ParamDesc& d : descs)
    if (std::find(sets.begin(), sets.end(), d.models) == sets.end()) sets.push_back(d.models);
  return sets;
}

std::string join_models(const std::vector<std::string>& models, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < models.size(); ++i)
    out += (i == 0 ? "" : i + 1 == models.size() ? " and " : sep) + models[i];
  return out;
}

std::string model_set_title(const std::vector<std::string>& models) {
  if (models.empty()) return "Every model";
  if (models == std::vector<std::string>{"dem"}) return "The dem model (DEM grains of physics.model = mixed)";
  std::string t = models.size() == 1 ? "The " + models[0] + " model" : "The " + join_models(models, ", ") + " models";
  t += " (physics.model = ";
  for (std::size_t i = 0; i < models.size(); ++i) t += (i ? " or " : "") + models[i];
  return t + ")";
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// Greedy word wrap with a hanging indent, for help text under each key in the listing.
std::string wrap(const std::string& text, const std::string& indent, std::size_t width) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Levenshtein, with the swap of two adjacent characters counted as one edit (optimal string
  // alignment): the commonest typo, "cdua", is then 1 from "cuda" and 2 from "cpu".
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> d((n + 1) * (m + 1));
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  return at(n, m);
}

const std::vector<std::string>& physics_models() {
  static const std::vector<std::string> models = [] {
    const ParamDesc* d = ParamRegistry::builtin().find("physics.model");
    return d ? d->choices : std::vector<std::string>{};
  }();
  return models;
}

bool uses_model(const ParamDesc& d, const std::string& model) {
  auto has = [&](const char* m) { return std::find(d.models.begin(), d.models.end(), m) != d.models.end(); };
  // A mixed scene runs the wcsph recipe for its liquid and the solid recipe for its solid bodies.
  // And the dem recipe for its grains ([grains.N]: the dem keys belong to no physics.model of their own).
  if (model == "mixed" && (has("wcsph") || has("solid") || has("dem"))) return true;
  return d.models.empty() || std::find(d.models.begin(), d.models.end(), model) != d.models.end();
}

std::string models_text(const ParamDesc& d) {
  if (d.models.empty()) return "every model";
  return "the " + join_models(d.models, ", ") + (d.models.size() == 1 ? " model" : " models");
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::string::npos;
  for (const std::string& c : candidates) {
    const std::size_t distance = edit_distance(word, c);
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  return best_distance <= std::max<std::size_t>(2, word.size() / 3) ? best : "";
}

void ParamRegistry::add(ParamDesc d) {
  for (const ParamDesc& e : descs_)
    if (e.key == d.key) throw std::logic_error("ParamRegistry: duplicate key '" + d.key + "'");
  descs_.push_back(std::move(d));
}

const ReplacedKey* ParamRegistry::replaced(const std::string& key) const {
  for (const ReplacedKey& r : replaced_)
    if (r.old_key == key) return &r;
  return nullptr;
}

const std::string& default_for(const ParamDesc& d, const std::string& model) {
  for (const auto& md : d.model_defaults)
    if (md.first == model) return md.second;
  return d.default_value;
}

std::string default_text(const ParamDesc& d) {
  if (!d.inherits.empty()) return "= " + d.inherits;
  if (d.model_defaults.empty()) return d.default_value;
  // Models grouped by value, in the order of model_defaults: "0.02 (wcsph); 1 (gas, solid)".
  std::vector<std::pair<std::string, std::vector<std::string>>> by_value;
  for (const auto& md : d.model_defaults) {
    auto it = std::find_if(by_value.begin(), by_value.end(), [&](const auto& b) { return b.first == md.second; });
    if (it == by_value.end()) by_value.push_back({md.second, {md.first}});
    else it->second.push_back(md.first);
  }
  std::string out;
  for (const auto& b : by_value) out += (out.empty() ? "" : "; ") + b.first + " (" + join_models(b.second, ", ") + ")";
  return out;
}

const ParamDesc* ParamRegistry::find(const std::string& key) const {
  for (const ParamDesc& d : descs_)
    if (matches(d.key, key)) return &d;
  return nullptr;
}

std::string ParamRegistry::suggest(const std::string& key) const {
  // Offer numbered keys with the user's own index ("block.2.mni" -> "block.2.min"); fall back to 1
  // when they gave none or an invalid one ("block.min", "block.0.min" -> "block.1.min").
  std::string index = "1";
  for (std::size_t start = 0; start <= key.size();) {
    std::size_t end = key.find('.', start);
    if (end == std::string::npos) end = key.size();
    if (end > start && index_length(key, start) == end - start) {
      index = key.substr(start, end - start);
      break;
    }
    start = end + 1;
  }
  std::string best;
  std::size_t best_distance = std::string::npos;
  for (const ParamDesc& d : descs_) {
    const std::string candidate = substitute_index(d.key, index);
    const std::size_t distance = edit_distance(key, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, key.size() / 3);
  return best_distance <= limit ? best : "";
}

std::string ParamRegistry::markdown() const {
  std::ostringstream md;
  md << "# Scene parameters\n\n"
     << "_This page is generated from `engine/params/builtin_params.cpp` by `ejecta --list-params "
        "--markdown`; "
        "do not edit._\n\n"
     << "Scenes are INI files: `[section]` headers, `key = value` lines, comments starting with "
        "`;` "
        "or `#` at the beginning of a line or with ` ;` after a value. The key `fluid.rho0` is "
        "`rho0` in section `[fluid]`; a `#` in a key stands for the index of a numbered section "
        "(`[block.1]`, `[block.2]`, ...), and such a section exists once it sets a key. Any key "
        "can "
        "be overridden from the command line with `--set key=value`.\n\n"
     << "Vectors are written `x, y, z`; 1D and 2D scenes may give only the first one or two "
        "components, the missing ones are 0. Booleans accept `true`/`false`, `yes`/`no`, "
        "`on`/`off` and `1`/`0`. Ranges are inclusive. **(rebuild)** marks parameters whose change "
        "needs the particles to be rebuilt (a reset of the scene).\n";
  md << "\nEach key belongs to the physics models (`physics.model`) whose code reads it; a scene that sets a "
        "key its model does not read is refused, naming the model. `ejecta --list-params --model M` lists "
        "the keys of one model.\n";
  for (const std::vector<std::string>& models : model_sets_in_order(descs_)) {
    md << "\n## " << model_set_title(models) << "\n";
    std::vector<ParamDesc> in_set;
    for (const ParamDesc& d : descs_)
      if (d.models == models) in_set.push_back(d);
    for (const std::string& group : groups_in_order(in_set)) {
      md << "\n### " << group << "\n\n"
         << "| Key | Type | Default | Range / choices | Units | Description |\n"
         << "|---|---|---|---|---|---|\n";
      for (const ParamDesc& d : in_set) {
        if (d.group != group) continue;
        md << "| `" << d.key << "` | " << to_string(d.type) << " | `" << md_escape(default_text(d))
           << "` | " << md_escape(limits_text(d, true)) << " | " << md_escape(d.units) << " | "
           << md_escape(d.help) << (d.needs_rebuild ? " **(rebuild)**" : "") << " |\n";
      }
    }
  }
  return md.str();
}

std::string ParamRegistry::listing(const std::string& model) const {
  std::vector<ParamDesc> shown;
  for (const ParamDesc& d : descs_)
    if (model.empty() || uses_model(d, model)) shown.push_back(d);
  std::size_t wkey = 0, wtype = 0, wdef = 0, wlim = 0, wunit = 0;
  for (const ParamDesc& d : shown) {
    wkey = std::max(wkey, d.key.size());
    wtype = std::max(wtype, std::string(to_string(d.type)).size());
    wdef = std::max(wdef, default_text(d).size());
    wlim = std::max(wlim, limits_text(d, false).size());
    wunit = std::max(wunit, d.units.size());
  }
  auto cell = [](const std::string& s, std::size_t w) {
    return s + std::string(w - s.size() + 2, ' ');
  };
  std::ostringstream out;
  out << "Scene parameters: key, type, default, range or choices, units; [rebuild] = changing it "
         "resets the particles.\nNumbered sections: '#' is the index, e.g. block.1.min is min in "
         "[block.1]. Override with --set key=value.\n";
  if (!model.empty()) out << "Only the keys that physics.model = " << model << " reads.\n";
  for (const std::string& group : groups_in_order(shown)) {
    out << "\n" << group << "\n";
    for (const ParamDesc& d : shown) {
      if (d.group != group) continue;
      std::string line = "  " + cell(d.key, wkey) + cell(to_string(d.type), wtype) +
                         cell(default_text(d), wdef) + cell(limits_text(d, false), wlim) +
                         cell(d.units, wunit) + (d.needs_rebuild ? "[rebuild]  " : "") +
                         (d.models.empty() ? "" : "[" + join_models(d.models, ", ") + "]");
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << "\n" << wrap(d.help, "      ", 100);
    }
  }
  return out.str();
}

}  // namespace ejecta
