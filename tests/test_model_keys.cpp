// Each registry key names the physics models that read it: a scene that sets a key its model does
// not read is refused naming the model, and listings filter by model.
#include "params/model_keys.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>

namespace ejecta {
namespace {

std::string model_error(const std::string& scene, const std::vector<std::string>& sets) {
  try {
    check_model_keys(test::shipped_scene(scene, sets));
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelKeys, GasKeyOnTheLiquidIsAnErrorNamingTheModel) {
  const std::string e = model_error("dambreak2d.ini", {"gas.gamma=1.4"});
  EXPECT_EQ(e, "--set: gas.gamma is read by the gas model only, and this scene's physics.model is wcsph "
               "(" + test::source_dir() + "/scenes/dambreak2d.ini (physics.model not set: built-in default)); "
               "remove it or set physics.model = gas");
  // make_simulation refuses it too (the check every front end goes through).
  ParamSet p = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.02", "time.dt_fixed=1e-4"});
  try {
    make_simulation(p, Backend::Cpu);
    FAIL() << "time.dt_fixed accepted on the liquid";
  } catch (const ParamError& err) {
    EXPECT_NE(std::string(err.what()).find("time.dt_fixed is read by the gas, solid and mixed models only"),
              std::string::npos)
        << err.what();
  }
}

TEST(ModelKeys, ErrorsPointAtTheLineAndCoverNumberedSections) {
  const std::string ini = "[physics]\nmodel = gas\n[gas_block.1]\nmax = 1\n[tank.2]\nmax = 1, 1\n";
  try {
    check_model_keys(read_scene_string(ini, "x.ini"));
    FAIL() << "tank.2.max accepted in a gas scene";
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()), "x.ini:6: tank.2.max is read by the wcsph model only, and this scene's "
                                     "physics.model is gas (x.ini:2); remove it or set physics.model = wcsph");
  }
  EXPECT_EQ(keys_unused_by_model(read_scene_string(ini, "x.ini")), std::vector<std::string>{"tank.2.max"});
  EXPECT_NE(model_error("bar2d.ini", {"fluid.rho0=1000"}).find("fluid.rho0 is read by the wcsph model only"),
            std::string::npos);
  // Keys of every model and keys the model reads pass.
  EXPECT_EQ(model_error("sod1d.ini", {"time.rtol=1e-5", "physics.gravity=0", "view.colour_by=pressure"}), "");
}

TEST(ModelKeys, EveryShippedSceneSetsOnlyKeysItsModelReads) {
  DIR* dir = opendir((test::source_dir() + "/scenes").c_str());
  ASSERT_NE(dir, nullptr);
  std::vector<std::string> names;
  while (const dirent* e = readdir(dir)) {
    const std::string n = e->d_name;
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".ini") == 0) names.push_back(n);
  }
  closedir(dir);
  EXPECT_GE(names.size(), 10u);
  for (const auto& n : names) EXPECT_EQ(keys_unused_by_model(test::shipped_scene(n)), std::vector<std::string>{}) << n;
  // And the built-in default scene.
  EXPECT_TRUE(keys_unused_by_model(read_scene_string(default_scene_ini(), "<default>")).empty());
}

TEST(ModelKeys, ListingFiltersByModel) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  const std::string gas = reg.listing("gas"), all = reg.listing();
  EXPECT_NE(gas.find("gas.gamma"), std::string::npos);
  EXPECT_NE(gas.find("time.dt_fixed"), std::string::npos);
  EXPECT_NE(gas.find("scene.end_time"), std::string::npos) << "keys of every model are listed";
  EXPECT_EQ(gas.find("fluid.rho0"), std::string::npos);
  EXPECT_EQ(gas.find("solid_block.#.material"), std::string::npos);
  EXPECT_NE(all.find("fluid.rho0"), std::string::npos);
  EXPECT_NE(all.find("[gas, solid and mixed]"), std::string::npos) << "the unfiltered listing names each key's models";
  const std::string wcsph = reg.listing("wcsph");
  EXPECT_EQ(wcsph.find("time.dt_fixed"), std::string::npos);
  EXPECT_NE(wcsph.find("tank.#.min"), std::string::npos);
  // The docs page is grouped by model: every-model keys first, then one heading per model set.
  const std::string md = reg.markdown();
  const auto every = md.find("\n## Every model\n"), liquid = md.find("\n## The wcsph model (physics.model = wcsph)\n"),
             both = md.find("\n## The gas, solid and mixed models (physics.model = gas or solid or mixed)\n");
  ASSERT_NE(every, std::string::npos);
  ASSERT_NE(liquid, std::string::npos);
  ASSERT_NE(both, std::string::npos);
  EXPECT_LT(every, liquid);
  EXPECT_GT(md.find("| `fluid.rho0` |"), liquid);
  EXPECT_GT(md.find("| `time.dt_fixed` |"), both);
  EXPECT_LT(md.find("| `scene.end_time` |"), liquid);
}

}  // namespace
}  // namespace ejecta
