// The table of material library keys (see material_keys.h) and what is generated from it.
#include "materials/material_keys.h"

#include "params/param_registry.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace ejecta {

const char* to_string(MaterialGroup g) {
  switch (g) {
    case MaterialGroup::Eos: return "Equation of state";
    case MaterialGroup::Elasticity: return "Elasticity";
    case MaterialGroup::Yield: return "Yield";
    case MaterialGroup::Damage: return "Damage";
    case MaterialGroup::Melt: return "Melt";
    case MaterialGroup::Porosity: return "Porosity";
  }
  return "?";
}

namespace {

using G = MaterialGroup;

std::string num(double v) { return format_number(v); }

bool always(const Material&) { return true; }
bool is_tillotson(const Material& m) { return m.eos == EosKind::Tillotson; }
bool is_murnaghan(const Material& m) { return m.eos == EosKind::Murnaghan; }
bool is_von_mises(const Material& m) { return m.yield == YieldKind::VonMises; }
bool is_lundborg(const Material& m) { return m.yield == YieldKind::Lundborg; }
bool has_damage(const Material& m) { return m.damage; }
bool has_melt(const Material& m) { return m.melt; }
bool has_specific_heat(const Material& m) { return m.melt || m.specific_heat > 0; }
bool is_porous(const Material& m) { return m.porous.kind != kPorousNone; }
bool is_palpha(const Material& m) { return m.porous.kind == kPorousPAlpha; }
bool has_ce(const Material& m) { return is_palpha(m) && m.porous.c_e > 0; }
bool is_epsalpha(const Material& m) { return m.porous.kind == kPorousEpsAlpha; }
std::string porosity_name(const Material& m) {
  return is_palpha(m) ? "p_alpha" : is_epsalpha(m) ? "eps_alpha" : "none";
}

// One number key; the modifiers below add its range.
MaterialKeyDesc number(std::string key, G group, std::string label, std::string units, std::string applies,
                       std::string need, std::string example, std::string help, bool (*uses)(const Material&),
                       std::string (*value)(const Material&)) {
  MaterialKeyDesc d;
  d.key = std::move(key);
  d.group = group;
  d.label = std::move(label);
  d.units = std::move(units);
  d.applies = std::move(applies);
  d.need = std::move(need);
  d.example = std::move(example);
  d.help = std::move(help);
  d.uses = uses;
  d.value = value;
  return d;
}
MaterialKeyDesc positive(MaterialKeyDesc d) {
  d.min = 0;
  d.min_open = true;
  return d;
}
MaterialKeyDesc non_negative(MaterialKeyDesc d) {
  d.min = 0;
  return d;
}
MaterialKeyDesc non_positive(MaterialKeyDesc d) {
  d.max = 0;
  return d;
}
MaterialKeyDesc word(std::string key, G group, std::string label, std::vector<std::string> choices,
                     std::string need, std::string help, std::string (*value)(const Material&)) {
  MaterialKeyDesc d;
  d.key = std::move(key);
  d.word = true;
  d.choices = std::move(choices);
  d.group = group;
  d.label = std::move(label);
  d.applies = "every material";
  d.need = std::move(need);
  d.example = d.choices.front();
  d.help = std::move(help);
  d.uses = always;
  d.value = value;
  return d;
}

std::vector<MaterialKeyDesc> make_table() {
  const std::string til = "eos = tillotson", mur = "eos = murnaghan", vm = "yield = von_mises",
                    lb = "yield = lundborg", dmg = "tensile damage", mlt = "melt weakening";
  const std::string req = "required";
  std::vector<MaterialKeyDesc> t;
  t.push_back(word("eos", G::Eos, "EOS", {"tillotson", "murnaghan"}, req,
                   "Equation of state: Tillotson (1962; impacts, with vaporisation) or Murnaghan (stiff, cold).",
                   [](const Material& m) { return std::string(to_string(m.eos)); }));
  t.push_back(positive(number("rho0", G::Eos, "Reference density", "kg/m^3", "every material", req, "2700",
                              "Density of the uncompressed material (zero pressure, zero internal energy).",
                              always, [](const Material& m) { return num(m.rho0); })));
  t.push_back(positive(number("tillotson.A", G::Eos, "Tillotson A", "Pa", til, req, "26.7e9",
                              "Linear coefficient of the compressed branch (about the bulk modulus).", is_tillotson,
                              [](const Material& m) { return num(m.tillotson.A); })));
  t.push_back(number("tillotson.B", G::Eos, "Tillotson B", "Pa", til, req, "26.7e9",
                     "Quadratic coefficient of the compressed branch.", is_tillotson,
                     [](const Material& m) { return num(m.tillotson.B); }));
  t.push_back(positive(number("tillotson.E0", G::Eos, "Tillotson E0", "J/kg", til, req, "487e6",
                              "Reference specific energy of the energy-dependent term.", is_tillotson,
                              [](const Material& m) { return num(m.tillotson.E0); })));
  t.push_back(non_negative(number("tillotson.E_iv", G::Eos, "Incipient vaporisation", "J/kg", til, req, "4.72e6",
                                  "Specific energy of incipient vaporisation (start of the expanded hot branch).",
                                  is_tillotson, [](const Material& m) { return num(m.tillotson.E_iv); })));
  t.push_back(positive(number("tillotson.E_cv", G::Eos, "Complete vaporisation", "J/kg", til, req, "18.2e6",
                              "Specific energy of complete vaporisation; must exceed tillotson.E_iv.", is_tillotson,
                              [](const Material& m) { return num(m.tillotson.E_cv); })));
  t.push_back(number("tillotson.a", G::Eos, "Tillotson a", "", til, req, "0.5",
                     "Dimensionless constant a of the Tillotson EOS (usually 0.5).", is_tillotson,
                     [](const Material& m) { return num(m.tillotson.a); }));
  t.push_back(number("tillotson.b", G::Eos, "Tillotson b", "", til, req, "1.5",
                     "Dimensionless constant b of the Tillotson EOS.", is_tillotson,
                     [](const Material& m) { return num(m.tillotson.b); }));
  t.push_back(non_negative(number("tillotson.alpha", G::Eos, "Tillotson alpha", "", til, req, "5",
                                  "Decay constant of the expanded branch in the density.", is_tillotson,
                                  [](const Material& m) { return num(m.tillotson.alpha); })));
  t.push_back(non_negative(number("tillotson.beta", G::Eos, "Tillotson beta", "", til, req, "5",
                                  "Decay constant of the expanded branch in the density (second exponent).",
                                  is_tillotson, [](const Material& m) { return num(m.tillotson.beta); })));
  t.push_back(non_negative(number(
      "tillotson.cs_min_frac", G::Eos, "Sound speed floor", "", til, "optional (default 0.1)", "0.1",
      "Floor of the sound speed in units of sqrt(A/rho0), for expanded and tensile states.", is_tillotson,
      [](const Material& m) {
        // Recovered from the floor make() computed; 12 digits so that a read-back reads the same.
        const double c0 = std::sqrt(m.tillotson.A / m.rho0);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.12g", c0 > 0 ? m.tillotson.cs_min / c0 : 0.1);
        return std::string(buf);
      })));
  t.push_back(positive(number("murnaghan.K0", G::Eos, "Murnaghan K0", "Pa", mur, req, "1e9",
                              "Bulk modulus at zero pressure of p = K0/n ((rho/rho0)^n - 1).", is_murnaghan,
                              [](const Material& m) { return num(m.murnaghan.K0); })));
  t.push_back(positive(number("murnaghan.n", G::Eos, "Murnaghan n", "", mur, req, "4",
                              "Pressure derivative of the bulk modulus (n = 1: linear EOS).", is_murnaghan,
                              [](const Material& m) { return num(m.murnaghan.n); })));
  t.push_back(positive(number("bulk_modulus", G::Elasticity, "Bulk modulus", "Pa", "every material",
                              "optional (default tillotson.A or murnaghan.K0)", "1e9",
                              "Bulk modulus K of the elastic wave speeds.", always,
                              [](const Material& m) { return num(m.bulk_modulus); })));
  t.push_back(non_negative(number("shear_modulus", G::Elasticity, "Shear modulus", "Pa", "every material",
                                  "optional (default 0: a fluid)", "1e9",
                                  "Shear modulus mu of Hooke's law for the deviatoric stress; 0 for a fluid.", always,
                                  [](const Material& m) { return num(m.shear_modulus); })));
  t.push_back(word("yield", G::Yield, "Yield model", {"none", "elastic", "von_mises", "lundborg"},
                   "optional (default elastic with a shear modulus, none without)",
                   "Strength model: none (a fluid), elastic (Hooke without a limit), von_mises (constant "
                   "limit) or lundborg (pressure-dependent, Lundborg 1968 / Collins et al. 2004).",
                   [](const Material& m) { return std::string(to_string(m.yield)); }));
  t.push_back(positive(number("von_mises.Y0", G::Yield, "Yield strength", "Pa", vm, req, "1e8",
                              "Von Mises limit: sqrt(3 J2) <= Y0.", is_von_mises,
                              [](const Material& m) { return num(m.von_mises.Y0); })));
  t.push_back(non_negative(number("lundborg.Y0", G::Yield, "Cohesion Y0", "Pa", lb, req, "1e7",
                                  "Strength at zero pressure (cohesion) of the intact material.", is_lundborg,
                                  [](const Material& m) { return num(m.lundborg.Y0); })));
  t.push_back(non_negative(number("lundborg.mu_i", G::Yield, "Friction mu_i", "", lb, req, "1.2",
                                  "Internal friction coefficient of the intact material.", is_lundborg,
                                  [](const Material& m) { return num(m.lundborg.mu_i); })));
  t.push_back(positive(number("lundborg.Y_M", G::Yield, "Limit Y_M", "Pa", lb, req, "2.5e9",
                              "Strength at infinite pressure (von Mises limit); must exceed lundborg.Y0.",
                              is_lundborg, [](const Material& m) { return num(m.lundborg.Y_M); })));
  t.push_back(non_negative(number("lundborg.Y_d0", G::Yield, "Damaged cohesion", "Pa", lb, req, "1e4",
                                  "Cohesion of the fully damaged material.", is_lundborg,
                                  [](const Material& m) { return num(m.lundborg.Y_d0); })));
  t.push_back(non_negative(number("lundborg.mu_d", G::Yield, "Damaged friction", "", lb, req, "0.6",
                                  "Friction coefficient of the fully damaged material.", is_lundborg,
                                  [](const Material& m) { return num(m.lundborg.mu_d); })));
  t.push_back(positive(number("weibull.k", G::Damage, "Weibull k", "m^-3", dmg,
                              "optional (weibull.k and weibull.m together)", "4e35",
                              "Number density of flaws n(eps) = k eps^m activated at tensile strain eps "
                              "(Grady & Kipp 1980, Benz & Asphaug 1994).",
                              has_damage, [](const Material& m) { return num(m.weibull_k); })));
  t.push_back(positive(number("weibull.m", G::Damage, "Weibull m", "", dmg,
                              "optional (weibull.k and weibull.m together)", "9",
                              "Weibull exponent of the flaw distribution.", has_damage,
                              [](const Material& m) { return num(m.weibull_m); })));
  t.push_back(positive(number("melt.T_melt", G::Melt, "Melt temperature", "K", mlt,
                              "optional (melt.T_melt and melt.xi together)", "1500",
                              "Melt temperature of the weakening Y tanh(xi (T_melt/T - 1)).", has_melt,
                              [](const Material& m) { return num(m.t_melt); })));
  t.push_back(positive(number("melt.xi", G::Melt, "Melt xi", "", mlt, "optional (melt.T_melt and melt.xi together)",
                              "1.2", "Steepness xi of the melt weakening.", has_melt,
                              [](const Material& m) { return num(m.melt_xi); })));
  t.push_back(positive(number("specific_heat", G::Melt, "Specific heat", "J/(kg K)", mlt,
                              "required with melt.*, else optional", "840",
                              "Specific heat c_v: the temperature of melt weakening is T = "
                              "solid.reference_temperature + u / c_v.",
                              has_specific_heat, [](const Material& m) { return num(m.specific_heat); })));
  const std::string pa = "porosity = p_alpha", ea = "porosity = eps_alpha", po = "porosity";
  MaterialKeyDesc por = word("porosity", G::Porosity, "Porosity model", {"none", "p_alpha", "eps_alpha"},
                             "optional (default none)",
                             "Compaction of a porous solid: p_alpha (Jutzi, Benz & Michel 2008) or eps_alpha "
                             "(Wuennemann, Collins & Melosh 2006; Collins et al. 2011). rho0 is the matrix density.",
                             porosity_name);
  por.uses = is_porous;
  por.applies = po;
  t.push_back(por);
  MaterialKeyDesc a0 = number("porosity.alpha0", G::Porosity, "Distention alpha_0", "", po, req, "2",
                              "Initial distention rho_s/rho (1: no pores); a body starts at rho0 / alpha0.", is_porous,
                              [](const Material& m) { return num(m.porous.alpha0); });
  a0.min = 1;
  t.push_back(a0);
  t.push_back(non_negative(number("p_alpha.P_e", G::Porosity, "Elastic limit P_e", "Pa", pa, req, "1e6",
                                  "Pressure where compaction starts (the crush curve's elastic limit).", is_palpha,
                                  [](const Material& m) { return num(m.porous.palpha.P_e); })));
  t.push_back(positive(number("p_alpha.P_s", G::Porosity, "Compaction P_s", "Pa", pa, req, "2.13e8",
                              "Pressure of full compaction (alpha = 1); must exceed p_alpha.P_e.", is_palpha,
                              [](const Material& m) { return num(m.porous.palpha.P_s); })));
  t.push_back(positive(number("p_alpha.c_e", G::Porosity, "Porous sound speed", "m/s", pa,
                              "optional (default: the matrix's)", "1000",
                              "Sound speed of the uncompacted porous material; interpolated to the matrix's as alpha "
                              "falls to 1.",
                              has_ce, [](const Material& m) { return num(m.porous.c_e); })));
  MaterialKeyDesc kap = positive(number("eps_alpha.kappa", G::Porosity, "kappa", "", ea, req, "0.98",
                                        "Rate of the exponential compaction branch, 0 < kappa <= 1 (1: the matrix "
                                        "is not compressed while pores close).",
                                        is_epsalpha, [](const Material& m) { return num(m.porous.eps.kappa); }));
  kap.max = 1;
  t.push_back(kap);
  t.push_back(non_positive(number("eps_alpha.eps_e", G::Porosity, "Elastic strain eps_e", "", ea,
                                  "optional (default 0)", "0",
                                  "Volumetric strain (negative in compression) where compaction starts.", is_epsalpha,
                                  [](const Material& m) { return num(m.porous.eps.eps_e); })));
  t.push_back(non_positive(number("eps_alpha.eps_X", G::Porosity, "Transition strain eps_X", "", ea, req, "-0.5",
                                  "End of the exponential branch; the power law (exponent 2) follows to full "
                                  "compaction at eps_C = 2 (1 - alpha_X)/(kappa alpha_X) + eps_X.",
                                  is_epsalpha, [](const Material& m) { return num(m.porous.eps.eps_X); })));
  MaterialKeyDesc th = word("eps_alpha.thermal_correction", G::Porosity, "Thermal correction", {"true", "false"},
                            "optional (default true)",
                            "Collins et al. (2011): the matrix's thermal expansion (Gamma_s0/c_s0^2) du/dt does not "
                            "crush pores (needs eos = tillotson).",
                            [](const Material& m) { return std::string(m.eps_thermal ? "true" : "false"); });
  th.uses = is_epsalpha;
  th.applies = ea;
  t.push_back(th);
  return t;
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

}  // namespace

const std::vector<MaterialKeyDesc>& material_keys() {
  static const std::vector<MaterialKeyDesc> table = make_table();
  return table;
}

const MaterialKeyDesc* find_material_key(const std::string& key) {
  for (const MaterialKeyDesc& d : material_keys())
    if (d.key == key) return &d;
  return nullptr;
}

std::string suggest_material_key(const std::string& key) {
  std::string best;
  std::size_t best_d = key.size() / 3 + 1;  // at most a third of the key wrong
  for (const MaterialKeyDesc& k : material_keys()) {
    const std::string& c = k.key;
    const std::size_t d = edit_distance(key, c);
    if (d < best_d || (d == best_d && best.empty() && d <= 2)) best = c, best_d = d;
    // A key written without its group ("A" for "tillotson.A") is suggested too.
    const std::size_t dot = c.find('.');
    if (best.empty() && dot != std::string::npos && c.substr(dot + 1) == key) best = c;
  }
  return best;
}

std::string material_range_text(const MaterialKeyDesc& d) {
  if (d.word) return "";
  std::string lo = d.min <= -1e300 ? "" : (d.min_open ? "> " : ">= ") + format_number(d.min);
  std::string hi = d.max >= 1e300 ? "" : "<= " + format_number(d.max);
  return lo.empty() ? hi : hi.empty() ? lo : lo + " and " + hi;
}

std::string material_to_ini(const Material& m) {
  std::string out = "[" + m.name + "]\n";
  for (const MaterialKeyDesc& d : material_keys())
    if (d.uses(m)) out += d.key + " = " + d.value(m) + "\n";
  return out;
}

Material edit_material(const Material& m, const std::string& key, const std::string& value) {
  const MaterialKeyDesc* desc = find_material_key(key);
  if (!desc) {
    const std::string hint = suggest_material_key(key);
    throw MaterialError("[" + m.name + "] unknown key '" + key + "'" +
                        (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
  }
  // The keys the material uses, in table order, with the edit; a switched eos or yield model brings
  // the keys of its new group at their example values, and drops those of the old one.
  std::map<std::string, std::string> values;
  for (const MaterialKeyDesc& d : material_keys())
    if (d.uses(m)) values[d.key] = d.value(m);
  auto group_of = [](const std::string& k) { return k.substr(0, k.find('.')); };
  // Damage and melt weakening take both of their keys or neither: adding one brings its partner at
  // its example value, removing one (value "") removes both.
  const std::string group = group_of(key);
  const bool paired = group == "weibull" || group == "melt";
  if (value.empty()) {
    values.erase(key);
    if (paired)
      for (const MaterialKeyDesc& d : material_keys())
        if (group_of(d.key) == group) values.erase(d.key);
  } else {
    if (paired && !values.count(key))
      for (const MaterialKeyDesc& d : material_keys())
        if (group_of(d.key) == group) values[d.key] = d.example;
    // Melt weakening needs a temperature, so a specific heat comes with it.
    if (group == "melt" && !values.count("specific_heat")) values["specific_heat"] = find_material_key("specific_heat")->example;
    values[key] = value;
  }
  if (key == "porosity") {  // alpha0 comes with any model and goes with none
    if (value == "none") values.erase(key);
    if (value == "none") values.erase("porosity.alpha0");
    else if (!values.count("porosity.alpha0")) values["porosity.alpha0"] = find_material_key("porosity.alpha0")->example;
  }
  if (key == "eos" || key == "yield" || key == "porosity") {
    const std::vector<std::string> prefixes =
        key == "eos" ? std::vector<std::string>{"tillotson", "murnaghan"}
        : key == "yield" ? std::vector<std::string>{"von_mises", "lundborg"}
                         : std::vector<std::string>{"p_alpha", "eps_alpha"};
    for (const MaterialKeyDesc& d : material_keys()) {
      const std::string g = group_of(d.key);
      bool in_switch = false;
      for (const std::string& p : prefixes) in_switch = in_switch || g == p;
      if (!in_switch) continue;
      if (g == value) {
        const bool optional = key == "porosity" && d.need.rfind("optional", 0) == 0;  // p_alpha.c_e, ...
        if (!values.count(d.key) && !optional) values[d.key] = d.example;
      } else {
        values.erase(d.key);
      }
    }
    // The default bulk modulus follows the new EOS.
    if (key == "eos" && value != to_string(m.eos)) values.erase("bulk_modulus");
  }
  std::string text = "[" + m.name + "]\n";
  for (const MaterialKeyDesc& d : material_keys()) {
    auto it = values.find(d.key);
    if (it != values.end()) text += d.key + " = " + it->second + "\n";
  }
  MaterialLibrary lib = parse_material_library(text, m.file.empty() ? "<material edit>" : m.file + " (edited)");
  Material out = lib.begin()->second;
  out.file = m.file;
  out.line = m.line;
  return out;
}

std::string material_keys_markdown() {
  std::ostringstream md;
  md << "# Material keys\n\n"
     << "_This page is generated from `engine/materials/material_keys.cpp` by `ejecta --list-material-keys`; do not "
        "edit._\n\n"
     << "The material library (`solid.materials`, default `assets/materials.ini`) is an INI file with one "
        "`[section]` per material, SI units. Solid blocks name their material (`solid_block.N.material`). The "
        "viewer shows one section per material of the running scene with the keys below (only those the "
        "material uses) and applies edits between steps; ranges are checked by the library reader.\n";
  for (G g : {G::Eos, G::Elasticity, G::Yield, G::Damage, G::Melt, G::Porosity}) {
    md << "\n## " << to_string(g) << "\n\n"
       << "| Key | Range / choices | Units | Used by | Needed | Description |\n"
       << "|---|---|---|---|---|---|\n";
    for (const MaterialKeyDesc& d : material_keys()) {
      if (d.group != g) continue;
      std::string range = material_range_text(d);
      if (d.word) {
        for (const std::string& c : d.choices) range += (range.empty() ? "" : ", ") + ("`" + c + "`");
      }
      md << "| `" << d.key << "` | " << md_escape(range) << " | " << md_escape(d.units) << " | "
         << md_escape(d.applies) << " | " << md_escape(d.need) << " | " << md_escape(d.help) << " |\n";
    }
  }
  return md.str();
}

}  // namespace ejecta
