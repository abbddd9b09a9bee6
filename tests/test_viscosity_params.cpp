// The one viscosity description (issue 14): viscosity.alpha/beta with per-model defaults, the gas's
// switch keys under [viscosity], [viscosity.liquid] / [viscosity.solid] for a mixed scene's materials,
// and the replaced keys (gas.alpha, solid.beta, ...) refused with the key that took their place.
#include <gtest/gtest.h>

#include <string>

#include "params/model_keys.h"
#include "params/param_set.h"

using namespace ejecta;

namespace {

std::string error_of(const std::string& ini) {
  try {
    check_model_keys(read_scene_string(ini, "x.ini"));
  } catch (const ParamError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ParamError for\n" << ini;
  return "";
}

ParamSet scene(const std::string& model) {
  ParamSet p;
  p.set("physics.model", model, "test");
  return p;
}

}  // namespace

// Each model's defaults are the values its solver read before the three alphas became one: the
// liquid's weak viscosity (0.02, 0) and the shock viscosity of gas and solid (Monaghan 1992: 1, 2).
TEST(ViscosityParams, DefaultsDependOnTheModel) {
  EXPECT_EQ(scene("wcsph").real("viscosity.alpha"), 0.02);
  EXPECT_EQ(scene("wcsph").real("viscosity.beta"), 0.0);
  EXPECT_EQ(scene("gas").real("viscosity.alpha"), 1.0);
  EXPECT_EQ(scene("gas").real("viscosity.beta"), 2.0);
  EXPECT_EQ(scene("solid").real("viscosity.alpha"), 1.0);
  EXPECT_EQ(scene("solid").real("viscosity.beta"), 2.0);
  EXPECT_EQ(ParamSet().real("viscosity.alpha"), 0.02);  // physics.model defaults to wcsph
  ParamSet set = scene("gas");
  set.set("viscosity.alpha", "0.5", "test");
  EXPECT_EQ(set.real("viscosity.alpha"), 0.5);
  EXPECT_EQ(set.real("viscosity.beta"), 2.0);
}

// A mixed scene's materials each read their model's default, unless viscosity.alpha is set (then all
// take it), unless their own [viscosity.liquid] / [viscosity.solid] key is set.
TEST(ViscosityParams, MixedScenePerMaterial) {
  ParamSet p = scene("mixed");
  EXPECT_EQ(p.real("viscosity.liquid.alpha"), 0.02);
  EXPECT_EQ(p.real("viscosity.liquid.beta"), 0.0);
  EXPECT_EQ(p.real("viscosity.solid.alpha"), 1.0);
  EXPECT_EQ(p.real("viscosity.solid.beta"), 2.0);
  p.set("viscosity.alpha", "0.3", "test");
  EXPECT_EQ(p.real("viscosity.liquid.alpha"), 0.3);
  EXPECT_EQ(p.real("viscosity.solid.alpha"), 0.3);
  EXPECT_EQ(p.real("viscosity.solid.beta"), 2.0);
  p.set("viscosity.solid.alpha", "0.7", "test");
  EXPECT_EQ(p.real("viscosity.solid.alpha"), 0.7);
  EXPECT_EQ(p.real("viscosity.liquid.alpha"), 0.3);
}

// The docs and --list-params show a per-model default as such, and an inheriting key's source.
TEST(ViscosityParams, DefaultsListedPerModel) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  EXPECT_EQ(default_text(*reg.find("viscosity.alpha")), "0.02 (wcsph); 1 (gas and solid)");
  EXPECT_EQ(default_text(*reg.find("viscosity.beta")), "0 (wcsph); 2 (gas and solid)");
  EXPECT_EQ(default_text(*reg.find("viscosity.solid.alpha")), "= viscosity.alpha");
  EXPECT_NE(reg.listing("gas").find("0.02 (wcsph); 1 (gas and solid)"), std::string::npos);
  EXPECT_NE(reg.markdown().find("`0.02 (wcsph); 1 (gas and solid)`"), std::string::npos);
}

// The registry's own consistency: every per-model default is a valid value, every inheriting key
// inherits a key of its type and range, every replaced key names a key that exists and no longer
// exists itself.
TEST(ViscosityParams, RegistryConsistent) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  for (const ParamDesc& d : reg.all()) {
    for (const auto& md : d.model_defaults) {
      ParamSet p;
      EXPECT_NO_THROW(p.set(d.key, md.second, "default")) << d.key << " for " << md.first;
      EXPECT_TRUE(uses_model(d, md.first)) << d.key << " has a default for " << md.first << ", which does not read it";
    }
    if (d.inherits.empty()) continue;
    const ParamDesc* parent = reg.find(d.inherits);
    ASSERT_NE(parent, nullptr) << d.key;
    EXPECT_EQ(parent->type, d.type) << d.key;
    EXPECT_EQ(parent->min, d.min) << d.key;
    EXPECT_EQ(parent->max, d.max) << d.key;
    EXPECT_EQ(d.default_value, default_for(*parent, d.inherits_model)) << d.key;
  }
  ASSERT_EQ(reg.all_replaced().size(), 7u);
  for (const ReplacedKey& r : reg.all_replaced()) {
    EXPECT_EQ(reg.find(r.old_key), nullptr) << r.old_key;
    EXPECT_NE(reg.find(r.new_key), nullptr) << r.new_key;
  }
}

// An old key in a scene or on the command line: the file and line, the key, that it was replaced, by
// which key, and how to write it now.
TEST(ViscosityParams, ReplacedKeysRefused) {
  EXPECT_EQ(error_of("[physics]\nmodel = gas\n[gas]\ngamma = 1.4\nalpha = 0.5\n"),
            "x.ini:5: gas.alpha was replaced by viscosity.alpha (one artificial viscosity for every model); "
            "write 'alpha = 0.5' in [viscosity], or --set viscosity.alpha=0.5 (docs/parameters.md)");
  const std::string solid = error_of("[physics]\nmodel = solid\n[solid]\nbeta = 2\n");
  EXPECT_NE(solid.find("x.ini:4: solid.beta was replaced by viscosity.beta"), std::string::npos) << solid;
  EXPECT_NE(solid.find("viscosity.solid.alpha/beta"), std::string::npos) << solid;
  EXPECT_NE(error_of("[physics]\nmodel = gas\n[gas]\nswitch = morris_monaghan\n")
                .find("x.ini:4: gas.switch was replaced by viscosity.switch"),
            std::string::npos);
  for (const char* old : {"gas.alpha_min=0.1", "gas.switch_decay=0.1", "gas.beta=2", "solid.alpha=1"}) {
    ParamSet p;
    try {
      p.apply_override(old);
      ADD_FAILURE() << old << " was accepted";
    } catch (const ParamError& e) {
      const std::string key = std::string(old).substr(0, std::string(old).find('='));
      EXPECT_EQ(std::string(e.what()).rfind("--set: " + key + " was replaced by viscosity.", 0), 0u) << e.what();
    }
  }
}

// The model check covers the new keys: the gas's switch in a liquid scene, a material override in a
// single-model scene, a liquid key in a solid scene.
TEST(ViscosityParams, ModelChecks) {
  EXPECT_NE(error_of("[viscosity]\nswitch = morris_monaghan\n").find("viscosity.switch is read by the gas model only"),
            std::string::npos);
  EXPECT_NE(error_of("[physics]\nmodel = solid\n[viscosity.solid]\nalpha = 1\n")
                .find("viscosity.solid.alpha is read by the mixed model only"),
            std::string::npos);
  EXPECT_NE(error_of("[physics]\nmodel = solid\n[viscosity]\nwall_factor = 0.5\n")
                .find("viscosity.wall_factor is read by the wcsph model only"),
            std::string::npos);
  EXPECT_NO_THROW(check_model_keys(read_scene_string("[physics]\nmodel = gas\n[viscosity]\nalpha = 1\nswitch = "
                                                     "morris_monaghan\nalpha_min = 0.05\n",
                                                     "x.ini")));
}
