// Validated scene values and the INI scene reader. Every message here is shown to a user as is, so
// each one names the place (file:line or --set), the key, the offending text and what is allowed.
#include "params/param_set.h"

#include "params/ini_line_reader.h"

#include <ini.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <type_traits>

namespace ejecta {

namespace {

// Every value must survive to_ini() and a read back: inih cuts a line at " ;" (inline comment) and
// reads at most 200 bytes per line, including the key (a number written with 180 leading zeros too).
constexpr std::size_t kMaxTextLength = 150;

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

enum class Parse { Ok, Invalid, Overflow };

// std::from_chars, unlike strtod, ignores the C locale (a GUI may set one with a decimal comma).
// It refuses a leading '+', which people do write, so that is skipped here.
template <class Num>
Parse parse_number(const std::string& text, Num& out) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b != e && *b == '+' && e - b > 1 && b[1] != '-') ++b;
  if (b == e) return Parse::Invalid;
  const auto [ptr, ec] = std::from_chars(b, e, out);
  if (ec == std::errc::result_out_of_range) return Parse::Overflow;
  if (ec != std::errc() || ptr != e) return Parse::Invalid;
  if constexpr (std::is_floating_point_v<Num>) {
    if (!std::isfinite(out)) return Parse::Invalid;  // "inf", "nan"
  }
  return Parse::Ok;
}

bool parse_bool(const std::string& text, bool& out) {
  const std::string t = lower(text);
  if (t == "true" || t == "1" || t == "yes" || t == "on") return out = true, true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return out = false, true;
  return false;
}

// 1 to 3 comma-separated reals; the components not given are 0 (1D/2D scenes write "0, -9.81").
// `parts` receives the trimmed component texts, for messages.
bool parse_vec3(const std::string& text, std::array<double, 3>& out,
                std::vector<std::string>& parts) {
  parts.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.push_back(
        trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() > 3) return false;
  out = {0, 0, 0};
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (parse_number(parts[i], out[i]) != Parse::Ok) return false;
  return true;
}

bool has_range(const ParamDesc& d) { return d.min > -1e299 || d.max < 1e299; }

std::string with_units(const std::string& s, const ParamDesc& d) {
  return d.units.empty() ? s : s + " " + d.units;
}

// "is out of range [1, 3]" for two-sided ranges, "must be >= 0" for one-sided ones.
std::string out_of_range(const ParamDesc& d) {
  const bool both = d.min > -1e299 && d.max < 1e299;
  return with_units((both ? "is out of range " : "must be ") + range_text(d), d);
}

std::string range_hint(const ParamDesc& d) {
  return has_range(d) ? " (range " + with_units(range_text(d), d) + ")" : "";
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// "" if `value` is valid for `d`, else the message (without the "<where>: " prefix).
std::string check_value(const ParamDesc& d, const std::string& key, const std::string& value) {
  if (value.size() > kMaxTextLength)
    return key + " is " + std::to_string(value.size()) + " characters long; at most " +
           std::to_string(kMaxTextLength) + " are allowed";
  const std::string quoted = key + " = '" + value + "'";
  const std::string plain = key + " = " + value;
  switch (d.type) {
    case ParamType::Real: {
      double x = 0;
      const Parse p = parse_number(value, x);
      if (p == Parse::Overflow && has_range(d)) return plain + " " + out_of_range(d);
      if (p != Parse::Ok) return quoted + " is not a real number" + range_hint(d);
      if (x < d.min || x > d.max) return plain + " " + out_of_range(d);
      return "";
    }
    case ParamType::Int: {
      long n = 0;
      const Parse p = parse_number(value, n);
      if (p == Parse::Overflow && has_range(d)) return plain + " " + out_of_range(d);
      if (p != Parse::Ok) return quoted + " is not an integer" + range_hint(d);
      if (n < d.min || n > d.max) return plain + " " + out_of_range(d);
      return "";
    }
    case ParamType::Bool: {
      bool b = false;
      if (!parse_bool(value, b))
        return quoted + " is not a boolean (use true/false, yes/no, on/off or 1/0)";
      return "";
    }
    case ParamType::Choice:
      if (std::find(d.choices.begin(), d.choices.end(), value) == d.choices.end())
        return quoted + " is not one of: " + join(d.choices, ", ");
      return "";
    case ParamType::Vec3: {
      std::array<double, 3> v{};
      std::vector<std::string> parts;
      if (!parse_vec3(value, v, parts))
        return quoted +
               " is not a vector (write 'x, y, z' with 1 to 3 real numbers; missing "
               "components are 0)";
      for (std::size_t i = 0; i < parts.size(); ++i)
        if (v[i] < d.min || v[i] > d.max)
          return plain + ": component " + "xyz"[i] + " = " + parts[i] + " " + out_of_range(d);
      return "";
    }
    case ParamType::String:
      for (char c : value)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
          return key + " must be a single line of text without control characters";
      if (value.find(" ;") != std::string::npos || value.find("\t;") != std::string::npos)
        return quoted + " contains ' ;', which starts a comment in a scene file";
      return "";
  }
  return "";
}

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string part;
  while (std::getline(in, part, '.')) out.push_back(part);
  if (!s.empty() && s.back() == '.') out.emplace_back();
  return out;
}

// For "block.0.min" or "block.x.min": the base of the numbered section whose index is wrong, "" if
// `key` does not have the shape of a numbered key at all.
std::string bad_index_section(const ParamRegistry& reg, const std::string& key) {
  const std::vector<std::string> k = split_dots(key);
  for (const ParamDesc& d : reg.all()) {
    const std::vector<std::string> p = split_dots(d.key);
    if (p.size() != k.size() || d.key.find('#') == std::string::npos) continue;
    bool shape = true;
    std::string base;
    for (std::size_t i = 0; i < p.size() && shape; ++i) {
      if (p[i] == "#") {
        shape = !k[i].empty();
        if (base.empty()) base = join(std::vector<std::string>(p.begin(), p.begin() + i), ".");
      } else {
        shape = p[i] == k[i];
      }
    }
    if (shape) return base;
  }
  return "";
}

std::string unknown_key_message(const ParamRegistry& reg, const std::string& key) {
  std::string msg = "unknown key '" + key + "'";
  const std::string base = bad_index_section(reg, key);
  if (!base.empty()) msg += ": numbered sections are [" + base + ".1], [" + base + ".2], ...";
  const std::string suggestion = reg.suggest(key);
  if (!suggestion.empty()) return msg + " (did you mean '" + suggestion + "'?)";
  return msg + " (`ejecta --list-params` lists all keys)";
}

std::string prefixed(const std::string& where, const std::string& msg) {
  return where.empty() ? msg : where + ": " + msg;
}

// Section part of a key or pattern: "block.#.min" -> "block.#", "fluid.rho0" -> "fluid".
std::string section_of(const std::string& key) { return key.substr(0, key.rfind('.')); }
std::string name_of(const std::string& key) { return key.substr(key.rfind('.') + 1); }

// Index at s[i] if it is a valid one (positive, no leading zero, followed by '.' or the end), else
// 0.
int index_at(const std::string& s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
  if (j == i || j - i > 9 || s[i] == '0' || (j < s.size() && s[j] != '.')) return 0;
  return std::stoi(s.substr(i, j - i));
}

}  // namespace

ParamSet::ParamSet(const ParamRegistry& reg) : reg_(&reg) {}

namespace {

// The text of `key` (set, else the default) after checking that the key exists and is asked with an
// allowed type; failures are programming errors in the caller, hence logic_error. A template only
// because the map's element type is private to ParamSet.
template <class Map>
std::string lookup(const ParamRegistry& reg, const Map& values, const std::string& key,
                   const char* getter, ParamType type, ParamType also) {
  const ParamDesc* d = reg.find(key);
  if (!d)
    throw std::logic_error(std::string("ParamSet::") + getter + ": unknown key '" + key + "'");
  if (d->type != type && d->type != also)
    throw std::logic_error(std::string("ParamSet::") + getter + ": '" + key + "' is a " +
                           to_string(d->type) + " parameter");
  const auto it = values.find(key);
  if (it != values.end()) return it->second.value;  // validated by set()
  // An unset key that inherits takes its parent's value as its model reads it (viscosity.solid.alpha:
  // viscosity.alpha if set, else the solid's default); a key with per-model defaults takes the scene's.
  const ParamDesc* from = d;
  std::string model;
  if (!d->inherits.empty()) {
    const auto parent = values.find(d->inherits);
    if (parent != values.end()) return parent->second.value;  // same type and range (a registry test checks)
    from = reg.find(d->inherits);
    if (!from) throw std::logic_error("parameter registry: " + key + " inherits the unknown key " + d->inherits);
    model = d->inherits_model;
  }
  if (model.empty() && !from->model_defaults.empty()) {
    const auto m = values.find("physics.model");
    model = m != values.end() ? m->second.value : reg.find("physics.model")->default_value;
  }
  const std::string& def = default_for(*from, model);
  const std::string err = check_value(*d, key, def);
  if (!err.empty()) throw std::logic_error("invalid default in the parameter registry: " + err);
  return def;
}

}  // namespace

double ParamSet::real(const std::string& key) const {
  double x = 0;
  parse_number(lookup(*reg_, values_, key, "real", ParamType::Real, ParamType::Real), x);
  return x;
}

long ParamSet::integer(const std::string& key) const {
  long n = 0;
  parse_number(lookup(*reg_, values_, key, "integer", ParamType::Int, ParamType::Int), n);
  return n;
}

bool ParamSet::flag(const std::string& key) const {
  bool b = false;
  parse_bool(lookup(*reg_, values_, key, "flag", ParamType::Bool, ParamType::Bool), b);
  return b;
}

std::string ParamSet::text(const std::string& key) const {
  return lookup(*reg_, values_, key, "text", ParamType::String, ParamType::Choice);
}

std::array<double, 3> ParamSet::vec3(const std::string& key) const {
  std::array<double, 3> v{};
  std::vector<std::string> parts;
  parse_vec3(lookup(*reg_, values_, key, "vec3", ParamType::Vec3, ParamType::Vec3), v, parts);
  return v;
}

void ParamSet::set(const std::string& key, const std::string& value, const std::string& where) {
  const ParamDesc* d = reg_->find(key);
  if (!d) {
    if (const ReplacedKey* r = reg_->replaced(key)) {
      const std::string section = r->new_key.substr(0, r->new_key.rfind('.'));
      const std::string name = r->new_key.substr(r->new_key.rfind('.') + 1);
      throw ParamError(prefixed(where, key + " was replaced by " + r->new_key + " (" + r->note + "); write '" + name +
                                           " = " + trim(value) + "' in [" + section + "], or --set " + r->new_key +
                                           "=" + trim(value) + " (docs/parameters.md)"));
    }
    throw ParamError(prefixed(where, unknown_key_message(*reg_, key)));
  }
  const std::string v = trim(value);
  const std::string err = check_value(*d, key, v);
  if (!err.empty()) throw ParamError(prefixed(where, err));
  values_[key] = Entry{v, where};
}

void ParamSet::apply_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos)
    throw ParamError("--set: '" + assignment +
                     "' is not an assignment; write --set key=value, e.g. --set fluid.rho0=1000");
  const std::string key = trim(assignment.substr(0, eq));
  if (key.empty())
    throw ParamError("--set: '" + assignment + "' has no key before '='; write --set key=value");
  set(key, assignment.substr(eq + 1), "--set");
}

bool ParamSet::is_set(const std::string& key) const { return values_.count(key) != 0; }

std::string ParamSet::where(const std::string& key) const {
  const auto it = values_.find(key);
  if (it != values_.end()) return it->second.where;
  return source_.empty() ? "built-in default of " + key : source_ + " (" + key + " not set: built-in default)";
}

void ParamSet::check_dimension() const {
  const long dim = integer("scene.dim");
  const char* uses[] = {"", "x only", "x and y"};
  for (const auto& [key, e] : values_) {
    const ParamDesc* d = reg_->find(key);
    if (!d || d->type != ParamType::Vec3 || key.compare(0, 5, "view.") == 0 || dim >= 3) continue;
    const std::array<double, 3> v = vec3(key);
    for (long c = dim; c < 3; ++c)
      if (v[c] != 0)
        throw ParamError(prefixed(e.where, key + " = " + e.value + " has a " + "xyz"[c] + " component (" +
                                               format_number(v[c]) + ") but scene.dim = " + std::to_string(dim) +
                                               " (" + where("scene.dim") + ") uses " + uses[dim] +
                                               ": remove that component or raise scene.dim"));
  }
}

std::vector<int> ParamSet::indices(const std::string& section) const {
  const std::string prefix = section + ".";
  std::set<int> found;
  // values_ is sorted, so the keys of this section are one contiguous run.
  for (auto it = values_.lower_bound(prefix); it != values_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    if (const int i = index_at(it->first, prefix.size())) found.insert(i);
  }
  return {found.begin(), found.end()};
}

std::string ParamSet::to_ini() const {
  // Sections in registry order; a numbered section pattern expands to its set indices in order.
  std::vector<std::string> patterns;
  for (const ParamDesc& d : reg_->all()) {
    const std::string s = section_of(d.key);
    if (std::find(patterns.begin(), patterns.end(), s) == patterns.end()) patterns.push_back(s);
  }
  std::ostringstream out;
  bool first = true;
  auto write_section = [&](const std::string& pattern, const std::string& index) {
    std::string body;
    std::string section;
    for (const ParamDesc& d : reg_->all()) {
      if (section_of(d.key) != pattern) continue;
      std::string key = d.key;
      if (const std::size_t h = key.find('#'); h != std::string::npos) key.replace(h, 1, index);
      section = section_of(key);
      const auto it = values_.find(key);
      if (it != values_.end()) body += name_of(key) + " = " + it->second.value + "\n";
    }
    if (body.empty()) return;
    out << (first ? "" : "\n") << "[" << section << "]\n" << body;
    first = false;
  };
  for (const std::string& pattern : patterns) {
    const std::size_t h = pattern.find('#');
    if (h == std::string::npos) {
      write_section(pattern, "");
    } else {
      for (int i : indices(pattern.substr(0, h - 1))) write_section(pattern, std::to_string(i));
    }
  }
  return out.str();
}

namespace {

// The sections a scene may have are those of the registry's keys ("fluid", "block.#"): declaring a
// key in builtin_params.cpp is all it takes to add a section. A '#' stands for an index (1, 2, ...; no
// leading zero, at most 9 digits).
std::vector<std::string> section_patterns(const ParamRegistry& reg) {
  std::vector<std::string> out;
  for (const ParamDesc& d : reg.all()) {
    const std::string s = section_of(d.key);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

bool section_matches(const std::string& pattern, const std::string& sec) {
  const std::size_t h = pattern.find('#');
  if (h == std::string::npos) return pattern == sec;
  return h + 1 == pattern.size() && sec.compare(0, h, pattern, 0, h) == 0 && index_at(sec, h) != 0 &&
         sec.find_first_not_of("0123456789", h) == std::string::npos;
}

// "" for a valid section name, else why not and what would be.
std::string section_problem(const ParamRegistry& reg, const std::string& sec) {
  const std::vector<std::string> patterns = section_patterns(reg);
  std::string best, all;
  std::size_t best_d = std::string::npos;
  for (const std::string& p : patterns) {
    if (section_matches(p, sec)) return "";
    const std::size_t h = p.find('#');
    if (h != std::string::npos && sec.compare(0, h, p, 0, h) == 0)
      return "[" + sec + "] is not a valid section name: numbered sections are [" + p.substr(0, h) + "1], [" +
             p.substr(0, h) + "2], ... (a whole number from 1, without leading zeros, at most 9 digits)";
    std::string concrete = p;
    if (h != std::string::npos) concrete.replace(h, 1, "1");
    all += (all.empty() ? "[" : ", [") + (h == std::string::npos ? p : p.substr(0, h) + "N") + "]";
    const std::size_t d = edit_distance(sec, concrete);
    if (d < best_d) best_d = d, best = concrete;
  }
  if (best_d <= std::max<std::size_t>(2, sec.size() / 3))
    return "unknown section [" + sec + "] (did you mean [" + best + "]?)";
  return "unknown section [" + sec + "]; the sections are " + all;
}

// inih calls back into C++ through these two functions. No exception may cross inih's C frames, so
// the first error is stored here and thrown once ini_parse_stream has returned.
struct ReadState : IniLineReader {
  ParamSet* params = nullptr;
  std::map<std::string, int> key_line;  // line of each key read, for "given twice"
};

char* read_line(char* str, int num, void* stream) {
  ReadState& s = *static_cast<ReadState*>(stream);
  std::string line;
  if (!s.next(line)) return nullptr;
  const std::string sec = s.header(line, "section");
  if (!sec.empty()) {
    const std::string problem = section_problem(s.params->registry(), sec);
    if (!problem.empty()) s.record(s.here() + ": " + problem);
  }
  return s.hand_over(str, num, line);
}

int on_pair(void* user, const char* section, const char* name, const char* value) {
  ReadState& s = *static_cast<ReadState*>(user);
  if (!s.error.empty()) return 1;  // only the first error is reported
  const std::string where = s.here();
  try {
    const std::string sec = trim(section ? section : "");
    const std::string key = trim(name ? name : "");
    const std::string val = value ? value : "";
    if (sec.empty()) {
      // Point at the section the key most likely belongs to.
      std::string hint = "a [section] header";
      for (const ParamDesc& d : s.params->registry().all()) {
        if (name_of(d.key) != key) continue;
        std::string sect = section_of(d.key);
        if (const std::size_t h = sect.find('#'); h != std::string::npos) sect.replace(h, 1, "1");
        hint = "[" + sect + "]";
        break;
      }
      s.record(where + ": '" + key + " = " + val + "' is outside any section; put it under " + hint);
      return 0;
    }
    const std::string full = sec + "." + key;
    if (const auto it = s.key_line.find(full); it != s.key_line.end()) {
      s.record(where + ": " + full + " is given twice (first at line " + std::to_string(it->second) +
               "); keep one of them");
      return 0;
    }
    s.params->set(full, val, where);
    s.key_line[full] = s.line;
    s.keyed.insert(sec);
    return 1;
  } catch (const std::exception& e) {
    s.record(e.what());
  } catch (...) {
    s.record(where + ": unexpected error");
  }
  return 0;
}

std::string syntax_message(const std::string& line) {
  if (!line.empty() && line[0] == '[')
    return "syntax error in '" + line + "': a section header needs a closing ']'";
  return "syntax error in '" + line +
         "': expected 'key = value', a [section] header or a ; comment";
}

}  // namespace

ParamSet read_scene_string(const std::string& text, const std::string& name) {
  ParamSet params;
  ReadState s;
  s.text = &text;
  s.name = name;
  s.params = &params;
  const int r = ini_parse_stream(read_line, &s, on_pair, &s);
  if (r == -2) throw ParamError(name + ": out of memory while reading the scene");
  // inih returns the first line with any error, ours (handler returned 0) or its own syntax error.
  if (!s.error.empty() && (r <= 0 || r >= s.error_line)) throw ParamError(s.error);
  if (r > 0) {
    const std::string line = r <= static_cast<int>(s.lines.size()) ? s.lines[r - 1] : "";
    throw ParamError(name + ":" + std::to_string(r) + ": " + syntax_message(line));
  }
  if (r != 0)
    throw ParamError(name + ": cannot parse the scene (inih error " + std::to_string(r) + ")");
  if (const std::string empty = s.empty_section_message(); !empty.empty()) throw ParamError(empty);
  params.set_source(name);
  return params;
}

ParamSet read_scene_file(const std::string& path) {
  std::string text;
  const std::string err = read_bounded_text_file(path, "scene file", &text);
  if (!err.empty()) throw ParamError(err);
  return read_scene_string(text, path);
}

}  // namespace ejecta
