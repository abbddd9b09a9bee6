// The one table of material keys (engine/materials/material_keys.h): it is what the library reader
// accepts, a material written from it reads back the same, edits go through the reader's rules, the
// docs page is generated from it; and the solid solver's stress invariant (von_mises_stress).
#include "materials/material_keys.h"
#include "material_test_data.h"
#include "sim_test_util.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace ejecta {
namespace {

MaterialLibrary shipped_library() { return load_material_library(test::source_dir() + "/assets/materials.ini"); }

using test::kEveryGroup;

TEST(MaterialKeys, EveryKeyIsUsedByAMaterialAndReadsBack) {
  const MaterialLibrary lib = parse_material_library(kEveryGroup, "every.ini");
  std::set<std::string> used;
  for (const auto& [name, m] : lib) {
    const Material back = parse_material_library(material_to_ini(m), "back.ini").at(name);
    for (const MaterialKeyDesc& d : material_keys()) {
      ASSERT_NE(d.uses, nullptr) << d.key;
      if (!d.uses(m)) continue;
      used.insert(d.key);
      EXPECT_TRUE(d.uses(back)) << name << " " << d.key;
      if (d.word) EXPECT_EQ(d.value(back), d.value(m)) << name << " " << d.key;
      else EXPECT_NEAR(std::stod(d.value(back)), std::stod(d.value(m)), 1e-12 * std::fabs(std::stod(d.value(m))))
               << name << " " << d.key;
    }
  }
  EXPECT_EQ(used.size(), material_keys().size()) << "the test library uses every key of the table";
  EXPECT_EQ(lib.at("rock").tillotson.cs_min, 0.2 * std::sqrt(26.7e9 / 2700));
}

TEST(MaterialKeys, TheShippedLibraryReadsBackFromTheTable) {
  for (const auto& [name, m] : shipped_library()) {
    const std::string ini = material_to_ini(m);
    EXPECT_EQ(material_to_ini(parse_material_library(ini, "back.ini").at(name)), ini) << name;
  }
}

TEST(MaterialKeys, TheReaderEnforcesTheTablesRanges) {
  const MaterialLibrary lib = parse_material_library(kEveryGroup, "every.ini");
  int checked = 0;
  for (const MaterialKeyDesc& d : material_keys()) {
    if (d.word || d.min <= -1e300) continue;
    for (const auto& [name, m] : lib) {
      if (!d.uses(m)) continue;
      const std::string bad = format_number(d.min_open ? d.min : d.min - 1);
      try {
        edit_material(m, d.key, bad);
        ADD_FAILURE() << d.key << " = " << bad << " was accepted";
      } catch (const MaterialError& e) {
        EXPECT_NE(std::string(e.what()).find(d.key + " = " + bad + " must be " + material_range_text(d)),
                  std::string::npos)
            << e.what();
      }
      if (!d.min_open) {
        try {  // the end itself is allowed (another rule may still object: mu = 0 with a yield model)
          edit_material(m, d.key, format_number(d.min));
        } catch (const MaterialError& e) {
          EXPECT_EQ(std::string(e.what()).find("must be " + material_range_text(d)), std::string::npos) << e.what();
        }
      }
      ++checked;
      break;
    }
  }
  EXPECT_GE(checked, 20);
}

TEST(MaterialKeys, ReaderSuggestsFromTheTable) {
  EXPECT_EQ(suggest_material_key("tillotson.Eiv"), "tillotson.E_iv");
  EXPECT_EQ(suggest_material_key("A"), "tillotson.A");
  EXPECT_EQ(suggest_material_key("sheer_modulus"), "shear_modulus");
  EXPECT_EQ(suggest_material_key("completely_else"), "");
  try {
    parse_material_library("[x]\neos = murnaghan\nrho0 = 1\nmurnaghan.K0 = 1\nmurnaghan.n = 1\nweibul.k = 3\n", "t.ini");
    FAIL() << "an unknown key is an error";
  } catch (const MaterialError& e) {
    EXPECT_STREQ(e.what(), "t.ini:6: [x] unknown key 'weibul.k' (did you mean 'weibull.k'?)");
  }
  for (const MaterialKeyDesc& d : material_keys()) {
    EXPECT_EQ(find_material_key(d.key), &d);
    EXPECT_FALSE(d.label.empty() || d.help.empty() || d.applies.empty() || d.need.empty()) << d.key;
    EXPECT_FALSE(d.example.empty()) << d.key;
  }
}

TEST(MaterialKeys, EditsFollowTheReadersRules) {
  const Material rubber = shipped_library().at("rubber");
  const Material stiffer = edit_material(rubber, "shear_modulus", "7e6");
  EXPECT_EQ(stiffer.shear_modulus, 7e6);
  EXPECT_EQ(stiffer.murnaghan.K0, rubber.murnaghan.K0);
  EXPECT_EQ(stiffer.name, "rubber");
  EXPECT_EQ(stiffer.file, rubber.file);
  // Out of range, contradictory, unknown: the reader's messages.
  EXPECT_THROW(edit_material(rubber, "shear_modulus", "-1"), MaterialError);
  EXPECT_THROW(edit_material(rubber, "yield", "none"), MaterialError) << "a fluid with a shear modulus";
  EXPECT_THROW(edit_material(rubber, "murnaghan.K0", "abc"), MaterialError);
  try {
    edit_material(rubber, "sheer_modulus", "1");
    FAIL();
  } catch (const MaterialError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'shear_modulus'"), std::string::npos) << e.what();
  }
  // A new yield model brings its keys at the table's example values; the old model's go.
  const Material vm = edit_material(rubber, "yield", "von_mises");
  EXPECT_EQ(vm.yield, YieldKind::VonMises);
  EXPECT_EQ(vm.von_mises.Y0, std::stod(find_material_key("von_mises.Y0")->example));
  const Material lb = edit_material(vm, "yield", "lundborg");
  EXPECT_EQ(lb.yield, YieldKind::Lundborg);
  EXPECT_EQ(material_to_ini(lb).find("von_mises"), std::string::npos);
  // A new EOS: its keys at example values, the default bulk modulus follows it.
  const Material til = edit_material(rubber, "eos", "tillotson");
  EXPECT_EQ(til.eos, EosKind::Tillotson);
  EXPECT_EQ(til.bulk_modulus, til.tillotson.A);
  EXPECT_EQ(material_to_ini(til).find("murnaghan"), std::string::npos);
  EXPECT_EQ(til.rho0, rubber.rho0);
  // Damage and melt come and go in pairs; removing a required key is the reader's error.
  const Material flawed = edit_material(rubber, "weibull.k", "1e30");
  EXPECT_TRUE(flawed.damage);
  EXPECT_EQ(flawed.weibull_k, 1e30);
  EXPECT_EQ(flawed.weibull_m, std::stod(find_material_key("weibull.m")->example));
  EXPECT_FALSE(edit_material(flawed, "weibull.m", "").damage);
  EXPECT_TRUE(edit_material(rubber, "melt.xi", "2").melt);
  EXPECT_THROW(edit_material(rubber, "rho0", ""), MaterialError);
  EXPECT_THROW(edit_material(rubber, "shear_modulus", ""), MaterialError) << "yield = elastic needs mu > 0";
  // rho0 reaches the EOS.
  EXPECT_EQ(edit_material(rubber, "rho0", "1200").murnaghan.rho0, 1200);
}

TEST(MaterialKeys, DocsPageIsUpToDate) {
  const std::string path = test::source_dir() + "/docs/materials.md";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path << "; run `ejecta --list-material-keys > docs/materials.md`";
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(text.str() == material_keys_markdown())
      << path << " is out of date with engine/materials/material_keys.cpp; regenerate it with "
      << "`ejecta --list-material-keys > docs/materials.md`";
  for (const MaterialKeyDesc& d : material_keys())
    EXPECT_NE(text.str().find("`" + d.key + "`"), std::string::npos) << d.key;
}

// ---- The stress invariant of the solid solver ----

std::vector<double> values_of(const FieldData& f) {
  std::vector<double> v(f.bytes.size() / (f.info.scalar == ScalarType::Float64 ? 8 : 4));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = f.info.scalar == ScalarType::Float64 ? reinterpret_cast<const double*>(f.bytes.data())[i]
                                                : reinterpret_cast<const float*>(f.bytes.data())[i];
  return v;
}

void set_stress(FrameData& f, const std::vector<double>& s) {
  for (FieldData& fd : f.fields) {
    if (fd.info.name != "deviatoric_stress") continue;
    ASSERT_EQ(fd.info.scalar, ScalarType::Float64);
    double* p = reinterpret_cast<double*>(fd.bytes.data());
    for (std::size_t i = 0; i < f.particles; ++i)
      for (std::size_t k = 0; k < s.size(); ++k) p[i * s.size() + k] = s[k];
  }
}

TEST(SolidStressInvariants, VonMisesStressOfKnownStates) {
  auto sim = make_simulation(test::shipped_scene("bar2d.ini", {"solid_block.1.dp=0.02", "solid_block.2.dp=0.02"}),
                             Backend::Cpu);
  bool listed = false;
  for (const FieldInfo& f : sim->fields())
    if (f.name == "von_mises_stress") {
      listed = true;
      EXPECT_EQ(f.units, "Pa");
      EXPECT_FALSE(f.persistent) << "derived from the deviatoric stress, not state";
    }
  EXPECT_TRUE(listed) << "the viewer's colour-by lists registered fields";
  FrameData f = sim->capture_frame();
  // Plane strain: S_zz = -(S_xx + S_yy). (1, 2, 0.5) MPa: J2 = (1 + 4 + 9)/2 + 0.25 = 7.25 MPa^2.
  set_stress(f, {1e6, 2e6, 0.5e6});
  sim->restore_frame(f);
  for (double v : values_of(sim->capture_frame({"von_mises_stress"}).fields[0]))
    ASSERT_NEAR(v, std::sqrt(3 * 7.25e12), 1e-3);
  // Pure shear tau: sqrt(3) tau.
  set_stress(f, {0, 0, 2e5});
  sim->restore_frame(f);
  for (double v : values_of(sim->capture_frame({"von_mises_stress"}).fields[0])) ASSERT_NEAR(v, std::sqrt(3.0) * 2e5, 1e-6);
}

TEST(SolidStressInvariants, FollowsTheStressThroughSteps) {
  // After steps (and the per-step reordering) the field is sqrt(3 J2) of each particle's own stress.
  auto sim = make_simulation(test::shipped_scene("bar2d.ini", {"solid_block.1.dp=0.02", "solid_block.2.dp=0.02"}),
                             Backend::Cpu);
  test::step_n(*sim, 15);
  const FrameData f = sim->capture_frame({"deviatoric_stress", "von_mises_stress"});
  const std::vector<double> S = values_of(*f.find("deviatoric_stress"));
  const std::vector<double> vm = values_of(*f.find("von_mises_stress"));
  double peak = 0;
  for (std::size_t i = 0; i < f.particles; ++i) {
    const double xx = S[3 * i], yy = S[3 * i + 1], xy = S[3 * i + 2], zz = -(xx + yy);
    const double expect = std::sqrt(3 * (0.5 * (xx * xx + yy * yy + zz * zz) + xy * xy));
    ASSERT_NEAR(vm[i], expect, 1e-9 * (1 + expect)) << i;
    peak = std::max(peak, vm[i]);
  }
  EXPECT_GT(peak, 1e3) << "the colliding halves are stressed";
}

}  // namespace
}  // namespace ejecta
