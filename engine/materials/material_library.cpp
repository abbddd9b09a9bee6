// The material library reader (see material_library.h for the keys). inih does the INI syntax; we
// feed it one physical line at a time so that every message can name file:line.
#include "materials/material_library.h"

#include "materials/material_keys.h"

#include "params/ini_line_reader.h"
#include "params/param_registry.h"

#include <ini.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

namespace ejecta {

const char* to_string(EosKind k) { return k == EosKind::Tillotson ? "tillotson" : "murnaghan"; }
const char* to_string(YieldKind k) {
  switch (k) {
    case YieldKind::None: return "none";
    case YieldKind::Elastic: return "elastic";
    case YieldKind::VonMises: return "von_mises";
    case YieldKind::Lundborg: return "lundborg";
  }
  return "?";
}

namespace {

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

struct Entry {
  std::string value;
  int line = 0;
};
struct Section {
  int line = 0;
  std::map<std::string, Entry> keys;
};

struct ReadState : IniLineReader {
  std::string current;                    // section of the last pair
  std::map<std::string, Section> sections;
  std::vector<std::string> order;
};

char* read_line(char* str, int num, void* stream) {
  ReadState& s = *static_cast<ReadState*>(stream);
  std::string line;
  if (!s.next(line)) return nullptr;
  s.header(line, "material");
  return s.hand_over(str, num, line);
}

int on_pair(void* user, const char* section, const char* name, const char* value) {
  ReadState& s = *static_cast<ReadState*>(user);
  if (!s.error.empty()) return 1;
  const std::string where = s.name + ":" + std::to_string(s.line);
  const std::string sec = trim(section ? section : "");
  const std::string key = trim(name ? name : "");
  const std::string val = trim(value ? value : "");
  if (sec.empty()) {
    s.record(where + ": '" + key + "' is outside any material; put it under a [material] header");
    return 0;
  }
  if (!find_material_key(key)) {
    const std::string hint = suggest_material_key(key);
    s.record(where + ": [" + sec + "] unknown key '" + key + "'" +
                  (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
    return 0;
  }
  if (val.empty()) {
    s.record(where + ": [" + sec + "] " + key + " has no value");
    return 0;
  }
  auto it = s.sections.find(sec);
  if (it == s.sections.end()) {
    it = s.sections.emplace(sec, Section{}).first;
    it->second.line = s.header_line.count(sec) ? s.header_line[sec] : s.line;
    s.order.push_back(sec);
  }
  auto& keys = it->second.keys;
  if (keys.count(key)) {
    s.record(where + ": [" + sec + "] " + key + " is given twice (first at line " +
                  std::to_string(keys[key].line) + ")");
    return 0;
  }
  keys[key] = Entry{val, s.line};
  s.keyed.insert(sec);
  return 1;
}

// Builds one Material from its keys, throwing with file:line on anything missing or invalid.
class Builder {
 public:
  Builder(const std::string& file, const std::string& name, const Section& sec)
      : file_(file), name_(name), sec_(sec) {}

  bool has(const std::string& key) const { return sec_.keys.count(key) != 0; }

  [[noreturn]] void fail(int line, const std::string& msg) const {
    throw MaterialError(file_ + ":" + std::to_string(line) + ": [" + name_ + "] " + msg);
  }
  int line_of(const std::string& key) const {
    auto it = sec_.keys.find(key);
    return it == sec_.keys.end() ? sec_.line : it->second.line;
  }
  std::string word(const std::string& key) const { return sec_.keys.at(key).value; }

  // A number that must be present (because of `why`) and lie in the key table's range
  // (material_keys.cpp: the one place ranges are written).
  double number(const std::string& key, const std::string& why) const {
    auto it = sec_.keys.find(key);
    if (it == sec_.keys.end()) fail(sec_.line, "missing " + key + " (needed by " + why + ")");
    const std::string& text = it->second.value;
    double v = 0;
    const char* b = text.data();
    const char* e = b + text.size();
    if (b != e && *b == '+') ++b;
    const auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e || !std::isfinite(v))
      fail(it->second.line, key + " = '" + text + "' is not a number");
    const MaterialKeyDesc* d = find_material_key(key);
    if (d && ((d->min > -1e300 && (d->min_open ? !(v > d->min) : !(v >= d->min))) || (d->max < 1e300 && !(v <= d->max))))
      fail(it->second.line, key + " = " + text + " must be " + material_range_text(*d));
    return v;
  }
  double optional(const std::string& key, double fallback) const {
    return has(key) ? number(key, "") : fallback;
  }

 private:
  const std::string& file_;
  const std::string& name_;
  const Section& sec_;
};


// porosity = none | p_alpha | eps_alpha and its keys (physics/porous_model.h).
void build_porosity(const Builder& b, const Section& sec, Material& m) {
  const std::string por = b.has("porosity") ? b.word("porosity") : "none";
  auto reject_group = [&](const std::string& group, const std::string& model) {
    for (const auto& kv : sec.keys)
      if (kv.first.rfind(group + ".", 0) == 0)
        b.fail(kv.second.line, kv.first + " does not apply to porosity = " + model);
  };
  if (por == "none") {
    for (const char* g : {"porosity", "p_alpha", "eps_alpha"}) reject_group(g, "none");
    return;
  }
  PorousMaterial<double>& p = m.porous;
  const std::string why = "porosity = " + por;
  if (por == "p_alpha") {
    reject_group("eps_alpha", por);
    p.kind = kPorousPAlpha;
    p.alpha0 = b.number("porosity.alpha0", why);
    const double Pe = b.number("p_alpha.P_e", why), Ps = b.number("p_alpha.P_s", why);
    if (!(Ps > Pe)) b.fail(b.line_of("p_alpha.P_s"), "p_alpha.P_s must exceed p_alpha.P_e (full compaction above the elastic limit)");
    p.palpha = PAlphaCrush<double>{p.alpha0, Pe, Ps};
    p.c_e = b.optional("p_alpha.c_e", 0.0);
  } else if (por == "eps_alpha") {
    reject_group("p_alpha", por);
    p.kind = kPorousEpsAlpha;
    p.alpha0 = b.number("porosity.alpha0", why);
    const double kappa = b.number("eps_alpha.kappa", why);
    const double eps_e = b.optional("eps_alpha.eps_e", 0.0);
    const double eps_X = b.number("eps_alpha.eps_X", why);
    if (!(eps_X <= eps_e))
      b.fail(b.line_of("eps_alpha.eps_X"), "eps_alpha.eps_X must not exceed eps_alpha.eps_e (strains are negative in compression)");
    m.eps_thermal = true;
    if (b.has("eps_alpha.thermal_correction")) {
      const std::string t = b.word("eps_alpha.thermal_correction");
      if (t != "true" && t != "false")
        b.fail(b.line_of("eps_alpha.thermal_correction"), "eps_alpha.thermal_correction = '" + t + "' is not one of: true, false");
      m.eps_thermal = t == "true";
    }
    double thermal = 0;  // Gamma_s0 / c_s0^2 = (a + b) rho0 / A for the Tillotson matrix
    if (m.eps_thermal) {
      if (m.eos != EosKind::Tillotson)
        b.fail(b.has("eps_alpha.thermal_correction") ? b.line_of("eps_alpha.thermal_correction") : sec.line,
               "eps_alpha.thermal_correction = true needs eos = tillotson (its Grueneisen parameter a + b); set it false "
               "for eos = murnaghan");
      thermal = (m.tillotson.a + m.tillotson.b) * m.rho0 / m.tillotson.A;
    }
    p.eps = EpsAlphaCrush<double>::make(p.alpha0, kappa, eps_e, eps_X, thermal);
  } else {
    b.fail(b.line_of("porosity"), "porosity = '" + por + "' is not one of: none, p_alpha, eps_alpha");
  }
}

Material build(const std::string& file, const std::string& name, const Section& sec) {
  Builder b(file, name, sec);
  Material m;
  m.name = name;
  m.file = file;
  m.line = sec.line;
  if (!b.has("eos")) b.fail(sec.line, "missing eos (tillotson or murnaghan)");
  const std::string eos = b.word("eos");
  m.rho0 = b.number("rho0", "every material");
  if (eos == "tillotson") {
    m.eos = EosKind::Tillotson;
    const std::string why = "eos = tillotson";
    const double A = b.number("tillotson.A", why);
    const double B = b.number("tillotson.B", why);
    const double E0 = b.number("tillotson.E0", why);
    const double Eiv = b.number("tillotson.E_iv", why);
    const double Ecv = b.number("tillotson.E_cv", why);
    if (!(Ecv > Eiv))
      b.fail(b.line_of("tillotson.E_cv"), "tillotson.E_cv must exceed tillotson.E_iv");
    const double a = b.number("tillotson.a", why);
    const double bb = b.number("tillotson.b", why);
    const double alpha = b.number("tillotson.alpha", why);
    const double beta = b.number("tillotson.beta", why);
    const double frac = b.optional("tillotson.cs_min_frac", 0.1);
    m.tillotson = TillotsonEos<double>::make(m.rho0, A, B, E0, Eiv, Ecv, a, bb, alpha, beta, frac);
    m.bulk_modulus = b.optional("bulk_modulus", A);
  } else if (eos == "murnaghan") {
    m.eos = EosKind::Murnaghan;
    const double K0 = b.number("murnaghan.K0", "eos = murnaghan");
    const double n = b.number("murnaghan.n", "eos = murnaghan");
    m.murnaghan = MurnaghanEos<double>::make(m.rho0, K0, n);
    m.bulk_modulus = b.optional("bulk_modulus", K0);
  } else {
    b.fail(b.line_of("eos"), "eos = '" + eos + "' is not one of: tillotson, murnaghan");
  }
  for (const char* k : {"tillotson.A", "murnaghan.K0"}) {
    const bool til = std::string(k).rfind("tillotson", 0) == 0;
    if (b.has(k) && til != (m.eos == EosKind::Tillotson))
      b.fail(b.line_of(k), std::string(k) + " does not apply to eos = " + to_string(m.eos));
  }
  m.shear_modulus = b.optional("shear_modulus", 0.0);

  const std::string yield =
      b.has("yield") ? b.word("yield") : (m.shear_modulus > 0 ? "elastic" : "none");
  if (yield == "none") {
    m.yield = YieldKind::None;
    if (m.shear_modulus > 0)
      b.fail(b.line_of("yield"), "yield = none (a fluid) contradicts shear_modulus > 0");
  } else if (yield == "elastic" || yield == "von_mises" || yield == "lundborg") {
    if (!(m.shear_modulus > 0))
      b.fail(b.has("yield") ? b.line_of("yield") : sec.line,
             "yield = " + yield + " needs shear_modulus > 0");
    if (yield == "elastic") {
      m.yield = YieldKind::Elastic;
    } else if (yield == "von_mises") {
      m.yield = YieldKind::VonMises;
      m.von_mises.Y0 = b.number("von_mises.Y0", "yield = von_mises");
    } else {
      m.yield = YieldKind::Lundborg;
      const std::string why = "yield = lundborg";
      m.lundborg.Y0 = b.number("lundborg.Y0", why);
      m.lundborg.mu_i = b.number("lundborg.mu_i", why);
      m.lundborg.Y_M = b.number("lundborg.Y_M", why);
      if (!(m.lundborg.Y_M > m.lundborg.Y0))
        b.fail(b.line_of("lundborg.Y_M"), "lundborg.Y_M must exceed lundborg.Y0");
      m.lundborg.Y_d0 = b.number("lundborg.Y_d0", why);
      m.lundborg.mu_d = b.number("lundborg.mu_d", why);
    }
  } else {
    b.fail(b.line_of("yield"),
           "yield = '" + yield + "' is not one of: none, elastic, von_mises, lundborg");
  }
  for (const char* k : {"von_mises.Y0", "lundborg.Y0", "lundborg.mu_i", "lundborg.Y_M",
                        "lundborg.Y_d0", "lundborg.mu_d"}) {
    const bool vm = std::string(k).rfind("von_mises", 0) == 0;
    const YieldKind needs = vm ? YieldKind::VonMises : YieldKind::Lundborg;
    if (b.has(k) && m.yield != needs)
      b.fail(b.line_of(k), std::string(k) + " does not apply to yield = " + to_string(m.yield));
  }

  if (b.has("weibull.k") || b.has("weibull.m")) {
    const std::string why = "tensile damage (weibull.k and weibull.m go together)";
    m.damage = true;
    m.weibull_k = b.number("weibull.k", why);
    m.weibull_m = b.number("weibull.m", why);
  }
  if (b.has("melt.T_melt") || b.has("melt.xi")) {
    const std::string why = "melt weakening (melt.T_melt and melt.xi go together)";
    m.melt = true;
    m.t_melt = b.number("melt.T_melt", why);
    m.melt_xi = b.number("melt.xi", why);
    m.specific_heat = b.number("specific_heat",
                               "melt weakening (the temperature is T = solid.reference_temperature + u / "
                               "specific_heat)");
  } else if (b.has("specific_heat")) {
    m.specific_heat = b.number("specific_heat", "");
  }
  build_porosity(b, sec, m);
  return m;
}

std::string syntax_message(const std::string& line) {
  if (!line.empty() && line[0] == '[')
    return "syntax error in '" + line + "': a [material] header needs a closing ']'";
  return "syntax error in '" + line + "': expected 'key = value', a [material] header or a ; comment";
}

}  // namespace

MaterialLibrary parse_material_library(const std::string& text, const std::string& name) {
  ReadState s;
  s.text = &text;
  s.name = name;
  const int r = ini_parse_stream(read_line, &s, on_pair, &s);
  if (r == -2) throw MaterialError(name + ": out of memory while reading the material library");
  if (!s.error.empty() && (r <= 0 || r >= s.error_line)) throw MaterialError(s.error);
  if (r > 0) {
    const std::string line = r <= static_cast<int>(s.lines.size()) ? s.lines[r - 1] : "";
    throw MaterialError(name + ":" + std::to_string(r) + ": " + syntax_message(line));
  }
  if (r != 0) throw MaterialError(name + ": cannot parse (inih error " + std::to_string(r) + ")");
  if (const std::string empty = s.empty_section_message(); !empty.empty()) throw MaterialError(empty);
  MaterialLibrary lib;
  for (const std::string& sec : s.order) lib.emplace(sec, build(name, sec, s.sections.at(sec)));
  if (lib.empty()) throw MaterialError(name + ": no materials");
  return lib;
}

MaterialLibrary load_material_library(const std::string& path) {
  std::string text;
  const std::string err = read_bounded_text_file(path, "material library", &text);
  if (!err.empty()) throw MaterialError(err);
  return parse_material_library(text, path);
}

}  // namespace ejecta
