// Parameter registry, ParamSet validation and the INI scene reader. Error messages are compared
// exactly where the brief fixes their wording, since users act on them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "params/param_set.h"

using namespace ejecta;

namespace {

// The complete message of the ParamError `f` throws ("" and a test failure if it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ParamError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ParamError";
  return "";
}

std::string concrete(const std::string& pattern, int index = 1) {
  std::string key = pattern;
  if (const std::size_t h = key.find('#'); h != std::string::npos)
    key.replace(h, 1, std::to_string(index));
  return key;
}

const char* kScene = R"(; a dam break
[scene]
name = dam break
dim = 2
precision = double

[particles]
dp = 0.005
kernel = cubic_spline   ; inline comment

[fluid]
rho0 = 998.2
gamma = 7

[physics]
gravity = 0, -9.81

[tank.1]
min = 0, 0
max = 1.6, 0.8
open_top = yes

[block.2]
min = 0, 0
max = 0.4, 0.3
velocity = 0.5

[block.1]
min = 0.6, 0
max = 0.8, 0.2

[obstacle.3]
min = 1, 0
max = 1.1, 0.1
)";

}  // namespace

TEST(ParamRegistry, FindsPlainAndNumberedKeys) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  ASSERT_NE(reg.find("fluid.rho0"), nullptr);
  EXPECT_EQ(reg.find("fluid.rho0")->key, "fluid.rho0");
  ASSERT_NE(reg.find("block.12.min"), nullptr);
  EXPECT_EQ(reg.find("block.12.min")->key, "block.#.min");
  EXPECT_EQ(reg.find("block.1.velocity")->key, "block.#.velocity");
  EXPECT_EQ(reg.find("block.0.min"), nullptr);   // indices start at 1
  EXPECT_EQ(reg.find("block.01.min"), nullptr);  // one spelling per index
  EXPECT_EQ(reg.find("block.-1.min"), nullptr);
  EXPECT_EQ(reg.find("block.x.min"), nullptr);
  EXPECT_EQ(reg.find("block.min"), nullptr);
  EXPECT_EQ(reg.find("block.#.min"), nullptr);  // the pattern itself is not a key
  EXPECT_EQ(reg.find("fluid"), nullptr);
  EXPECT_EQ(reg.find(""), nullptr);
}

TEST(ParamRegistry, SuggestsCloseKeys) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  EXPECT_EQ(reg.suggest("fluid.rho"), "fluid.rho0");
  EXPECT_EQ(reg.suggest("block.2.mni"), "block.2.min");
  EXPECT_EQ(reg.suggest("block.17.velocty"), "block.17.velocity");
  EXPECT_EQ(reg.suggest("block.min"), "block.1.min");
  EXPECT_EQ(reg.suggest("block.0.min"), "block.1.min");
  EXPECT_EQ(reg.suggest("fluids.rho0"), "fluid.rho0");
  EXPECT_EQ(reg.suggest("time.dtmax"), "time.dt_max");
  EXPECT_EQ(reg.suggest("completely.unrelated"), "");
  EXPECT_EQ(reg.suggest("xyz"), "");
}

TEST(ParamRegistry, DefaultsAreValidValuesOfTheirOwnType) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  ASSERT_FALSE(reg.all().empty());
  for (const ParamDesc& d : reg.all()) {
    SCOPED_TRACE(d.key);
    EXPECT_FALSE(d.group.empty());
    EXPECT_FALSE(d.label.empty());
    EXPECT_FALSE(d.help.empty());
    const std::string key = concrete(d.key, 3);
    ASSERT_EQ(reg.find(key), &d);
    ParamSet ps;
    EXPECT_NO_THROW(ps.set(key, d.default_value, "default"));
    // The unset getter parses the default too, and agrees with the explicitly set one.
    ParamSet unset;
    switch (d.type) {
      case ParamType::Real: EXPECT_EQ(ps.real(key), unset.real(key)); break;
      case ParamType::Int: EXPECT_EQ(ps.integer(key), unset.integer(key)); break;
      case ParamType::Bool: EXPECT_EQ(ps.flag(key), unset.flag(key)); break;
      case ParamType::Vec3: EXPECT_EQ(ps.vec3(key), unset.vec3(key)); break;
      case ParamType::Choice:
        EXPECT_NE(std::find(d.choices.begin(), d.choices.end(), d.default_value), d.choices.end());
        [[fallthrough]];
      case ParamType::String: EXPECT_EQ(ps.text(key), unset.text(key)); break;
    }
  }
}

TEST(ParamRegistry, TableMatchesTheBrief) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  // 32 keys of the engine foundation, 29 of the gas model (physics.model, [gas], [blast],
  // [gas_block.N], time.rtol/atol/growth_max/dt_fixed), 5 of the viewer's collider sphere, 16 of the
  // solid model ([solid] and [solid_block.N] with its shapes and motion), 3 of solid damage and melt
  // (solid.damage, solid.damage_seed, solid.reference_temperature), 13 of the viewer's scene look
  // ([view]), 2 of the plate and plane stress (solid_block.N.velocity_profile, solid.plane), 1 of the
  // corrected force (solid.corrected_force), 15 of the probes and gauges ([probe.N]: position, name,
  // fields, source, diameter, normal, interval, reference, reference_column; [gauge.N]: position, top, name,
  // interval, reference, reference_column), 4 of the WCSPH options of issue 12 (fluid.density_diffusion,
  // fluid.pressure_term, viscosity.wall_factor, fluid.shifting), 1 of the pictures (view.theme), 7 of
  // the teaching scenes ([teach]: title, text, look, why, fix, paper, measure; issue 17), 4 of
  // self-gravity (gravity.self, gravity.G, gravity.theta, gravity.softening; issue 16), 2 of its walk
  // (gravity.walk, gravity.group; issue 16), 24 of the
  // DEM grains ([grains.N]: min, max, radius, spacing, jitter, density, velocity, fixed, size_spread;
  // [dem]: spring, damping, shear, attraction, boundary_damping, global_damping, box_min, box_max,
  // steps_per_contact, contact, youngs_modulus, poisson_ratio, restitution, friction,
  // rolling_friction; issue 17), 2 of the distributed runs (dist.skin, dist.rebalance_threshold; issue 19).
  // Issue 14's one viscosity description left the count as it was: gas.alpha, gas.beta, gas.switch,
  // gas.alpha_min, gas.switch_decay, solid.alpha and solid.beta went (replaced keys, refused with their
  // successor), viscosity.switch, viscosity.alpha_min, viscosity.switch_decay and
  // viscosity.liquid.alpha/beta, viscosity.solid.alpha/beta came. 1 of the force pass's neighbour record (fluid.neighbour_record; issue 18),
  // 1 of the SPHERIC 2 impact (boundary.wall_pressure; issue 12), 1 of the liquid's neighbour cells
  // (fluid.neighbour_cells; issue 18), 4 of the gravity walk's variants (gravity.leaf_size,
  // gravity.warp_eval, gravity.warp_targets, gravity.warp_groups; issue 16), 1 of the wall model
  // (boundary.model; issue 12), 1 of the gas's tree neighbour search (gas.neighbour_search; issue 16), 1 of
  // the distributed run's halo (dist.halo; issue 19), 2 of the modified dynamic boundary particles
  // (boundary.mdbc_det_threshold, boundary.mdbc_min_density; issue 12), 2 of the gravity tree's build
  // and walk nodes (gravity.build, gravity.warp_nodes; issue 16), 1 of the force pass's layout
  // (fluid.force_kernel; issue 18), 1 of the distributed halo's overlap (dist.overlap; issue 19), 3 of
  // the bucket order's bands and the force pass's variants (neighbours.band_rows, fluid.force_threads,
  // fluid.force_registers; issue 18), 1 of the force pass's two-phase neighbour loop
  // (fluid.neighbour_batch; issue 18), 1 of the density diffusion against walls (fluid.wall_diffusion;
  // issue 12), 1 of the walls' pressure pass's threads (boundary.wall_threads; issue 18), 1 of the wall
  // law's drag coefficient (boundary.friction; issue 12), 4 of the gate ([gate.N]: gate.#.min, gate.#.max,
  // gate.#.velocity, gate.#.travel; issue 12), 8 of the loads ([force.N]: force.#.min, force.#.max,
  // force.#.name, force.#.interval, force.#.reference, force.#.reference_column, force.#.area,
  // force.#.normal; issue 12), 1 of the force pass compiled for the default options
  // (fluid.force_specialised; issue 18).
  EXPECT_EQ(reg.all().size(), 196u);
  const ParamDesc* dim = reg.find("scene.dim");
  ASSERT_NE(dim, nullptr);
  EXPECT_EQ(dim->type, ParamType::Int);
  EXPECT_TRUE(dim->needs_rebuild);
  EXPECT_EQ(range_text(*dim), "[1, 3]");
  EXPECT_EQ(range_text(*reg.find("time.dt_max")), "[1e-12, 1e3]");
  EXPECT_EQ(range_text(*reg.find("fluid.rho0")), "[1e-3, 1e5]");
  EXPECT_EQ(range_text(*reg.find("block.1.min")), "");
  ParamSet ps;
  EXPECT_EQ(ps.text("particles.kernel"), "wendland_c2");
  EXPECT_EQ(ps.vec3("physics.gravity"), (std::array<double, 3>{0, -9.81, 0}));
  EXPECT_TRUE(ps.flag("tank.4.open_top"));
  EXPECT_DOUBLE_EQ(ps.real("time.dt_max"), 1e-3);
  EXPECT_EQ(ps.integer("boundary.wall_layers"), 3);
}

TEST(ParamRegistry, FormatsNumbersShortly) {
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(20), "20");
  EXPECT_EQ(format_number(-9.81), "-9.81");
  EXPECT_EQ(format_number(0.01), "0.01");
  EXPECT_EQ(format_number(1e-3), "1e-3");
  EXPECT_EQ(format_number(1e9), "1e9");
  EXPECT_EQ(format_number(1.01), "1.01");
  EXPECT_EQ(format_number(123456), "123456");
  EXPECT_EQ(format_number(2.5e-12), "2.5e-12");
}

TEST(ParamRegistry, RejectsDuplicateKeys) {
  ParamRegistry reg;
  ParamDesc d;
  d.key = "a.b";
  reg.add(d);
  EXPECT_THROW(reg.add(d), std::logic_error);
}

TEST(ParamRegistry, ListingHasEveryKeyGroupedByGroup) {
  const std::string list = ParamRegistry::builtin().listing();
  for (const ParamDesc& d : ParamRegistry::builtin().all()) {
    EXPECT_NE(list.find(d.key), std::string::npos) << d.key;
    EXPECT_NE(list.find("\n" + d.group + "\n"), std::string::npos) << d.group;
  }
  EXPECT_LT(list.find("scene.dim"), list.find("fluid.rho0"));
}

TEST(ParamRegistry, MarkdownHasOneTablePerGroup) {
  const std::string md = ParamRegistry::builtin().markdown();
  EXPECT_EQ(md.rfind("# ", 0), 0u);
  EXPECT_NE(md.find("generated from `engine/params/builtin_params.cpp` by `ejecta --list-params "
                    "--markdown`; do not edit"),
            std::string::npos);
  EXPECT_NE(md.find("### Geometry\n"), std::string::npos);
  EXPECT_NE(md.find("| `fluid.gamma` | real | `7` | [1, 20] |  | "), std::string::npos);
  EXPECT_NE(
      md.find("| `particles.kernel` | choice | `wendland_c2` | `cubic_spline`, `wendland_c2` |"),
      std::string::npos);
  EXPECT_NE(md.find("**(rebuild)**"), std::string::npos);
  EXPECT_NE(md.find("2 \\|g\\| H"), std::string::npos);  // '|' escaped inside tables
}

TEST(ParamRegistry, DocsPageIsUpToDate) {
  const std::string path = EJECTA_SOURCE_DIR "/docs/parameters.md";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path
                  << "; run `ejecta --list-params --markdown > docs/parameters.md`";
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(text.str() == ParamRegistry::builtin().markdown())
      << path << " is out of date with engine/params/builtin_params.cpp; regenerate it with "
      << "`ejecta --list-params --markdown > docs/parameters.md`";
}

TEST(ParamSet, GettersReturnDefaultsUntilSet) {
  ParamSet ps;
  EXPECT_FALSE(ps.is_set("fluid.rho0"));
  EXPECT_EQ(ps.where("fluid.rho0"), "built-in default of fluid.rho0");
  EXPECT_DOUBLE_EQ(ps.real("fluid.rho0"), 1000);
  ps.set("fluid.rho0", " 998.2 ", "here:1");
  EXPECT_TRUE(ps.is_set("fluid.rho0"));
  EXPECT_EQ(ps.where("fluid.rho0"), "here:1");
  EXPECT_DOUBLE_EQ(ps.real("fluid.rho0"), 998.2);
  EXPECT_EQ(ps.text("scene.name"), "unnamed");
}

TEST(ParamSet, WrongTypeOrUnknownKeyIsAProgrammingError) {
  ParamSet ps;
  EXPECT_THROW(ps.real("fluid.rho"), std::logic_error);
  EXPECT_THROW(ps.integer("fluid.rho0"), std::logic_error);
  EXPECT_THROW(ps.real("scene.dim"), std::logic_error);
  EXPECT_THROW(ps.flag("scene.name"), std::logic_error);
  EXPECT_THROW(ps.text("physics.gravity"), std::logic_error);
  EXPECT_THROW(ps.vec3("tank.1.open_top"), std::logic_error);
  EXPECT_NO_THROW(ps.text("scene.precision"));  // Choice reads as text
  // Not a ParamError: callers must not report it as a user mistake.
  try {
    ps.real("nope.nope");
    FAIL();
  } catch (const ParamError&) {
    FAIL() << "ParamError for a programming error";
  } catch (const std::logic_error&) {
  }
}

TEST(ParamSet, ErrorMessagesAreComplete) {
  ParamSet ps;
  EXPECT_EQ(error_of([&] { ps.set("fluid.rho", "1000", "scenes/a.ini:7"); }),
            "scenes/a.ini:7: unknown key 'fluid.rho' (did you mean 'fluid.rho0'?)");
  EXPECT_EQ(error_of([&] { ps.set("fluid.gamma", "abc", "--set"); }),
            "--set: fluid.gamma = 'abc' is not a real number (range [1, 20])");
  EXPECT_EQ(error_of([&] { ps.set("particles.h_over_dp", "5", "scenes/a.ini:9"); }),
            "scenes/a.ini:9: particles.h_over_dp = 5 is out of range [1, 3]");
  EXPECT_EQ(error_of([&] { ps.set("particles.kernel", "gauss", "scenes/a.ini:3"); }),
            "scenes/a.ini:3: particles.kernel = 'gauss' is not one of: cubic_spline, wendland_c2");
  EXPECT_EQ(error_of([&] { ps.set("time.dt_max", "5000", "f:1"); }),
            "f:1: time.dt_max = 5000 is out of range [1e-12, 1e3] s");
  EXPECT_EQ(error_of([&] { ps.set("scene.dim", "2.5", "f:2"); }),
            "f:2: scene.dim = '2.5' is not an integer (range [1, 3])");
  EXPECT_EQ(error_of([&] { ps.set("scene.dim", "4", "f:2"); }),
            "f:2: scene.dim = 4 is out of range [1, 3]");
  EXPECT_EQ(
      error_of([&] { ps.set("tank.1.open_top", "maybe", "f:3"); }),
      "f:3: tank.1.open_top = 'maybe' is not a boolean (use true/false, yes/no, on/off or 1/0)");
  EXPECT_EQ(error_of([&] { ps.set("physics.gravity", "0, -1e5", "f:4"); }),
            "f:4: physics.gravity = 0, -1e5: component y = -1e5 is out of range [-1e4, 1e4] m/s^2");
  EXPECT_EQ(error_of([&] { ps.set("physics.gravity", "0, -9.81, 0, 1", "f:5"); }),
            "f:5: physics.gravity = '0, -9.81, 0, 1' is not a vector (write 'x, y, z' with 1 to 3 "
            "real numbers; missing components are 0)");
  EXPECT_EQ(error_of([&] { ps.set("block.0.min", "0", "f:6"); }),
            "f:6: unknown key 'block.0.min': numbered sections are [block.1], [block.2], ... "
            "(did you mean 'block.1.min'?)");
  EXPECT_EQ(error_of([&] { ps.set("foo.bar", "1", "f:7"); }),
            "f:7: unknown key 'foo.bar' (`ejecta --list-params` lists all keys)");
  EXPECT_NE(error_of([&] { ps.set("scene.name", "a ; b", "f:8"); }).find("comment"),
            std::string::npos);
  EXPECT_NE(error_of([&] { ps.set("scene.name", "a\nb", "f:8"); }).find("single line"),
            std::string::npos);
  EXPECT_NE(error_of([&] { ps.set("scene.name", std::string(200, 'x'), "f:8"); }).find("at most"),
            std::string::npos);
  // A failed set leaves the value as it was.
  EXPECT_FALSE(ps.is_set("scene.dim"));
}

TEST(ParamSet, RejectsNonNumbers) {
  ParamSet ps;
  for (const char* bad : {"", "nan", "inf", "-inf", "1e400", "1,5", "0x10", "1.0.0", "7 7", "--7"})
    EXPECT_THROW(ps.set("fluid.gamma", bad, "t"), ParamError) << "'" << bad << "'";
  for (const char* bad : {"", "3.0", "3e0", "1e30", "99999999999999999999", "three"})
    EXPECT_THROW(ps.set("boundary.wall_layers", bad, "t"), ParamError) << "'" << bad << "'";
  for (const char* bad : {"", ",", "1,", ",1", "1,,2", "a, b", "1 2"})
    EXPECT_THROW(ps.set("block.1.min", bad, "t"), ParamError) << "'" << bad << "'";
  EXPECT_NO_THROW(ps.set("fluid.gamma", "+7", "t"));
  EXPECT_NO_THROW(ps.set("fluid.gamma", "7.", "t"));
  EXPECT_NO_THROW(ps.set("fluid.gamma", "1.5e1", "t"));
  EXPECT_DOUBLE_EQ(ps.real("fluid.gamma"), 15);
}

TEST(ParamSet, RangeEdgesAreInclusive) {
  ParamSet ps;
  EXPECT_NO_THROW(ps.set("particles.h_over_dp", "1", "t"));
  EXPECT_NO_THROW(ps.set("particles.h_over_dp", "3", "t"));
  EXPECT_THROW(ps.set("particles.h_over_dp", "0.9999999", "t"), ParamError);
  EXPECT_THROW(ps.set("particles.h_over_dp", "3.0000001", "t"), ParamError);
  EXPECT_NO_THROW(ps.set("boundary.wall_layers", "1", "t"));  // the teaching leak (scenes/teaching)
  EXPECT_NO_THROW(ps.set("boundary.wall_layers", "8", "t"));
  EXPECT_THROW(ps.set("boundary.wall_layers", "0", "t"), ParamError);
  EXPECT_THROW(ps.set("boundary.wall_layers", "9", "t"), ParamError);
  EXPECT_NO_THROW(ps.set("time.dt_min", "0", "t"));
  EXPECT_NO_THROW(ps.set("time.dt_max", "1e-12", "t"));
  EXPECT_NO_THROW(ps.set("physics.gravity", "-1e4, 1e4, -10000", "t"));
  EXPECT_THROW(ps.set("physics.gravity", "0, 0, 10000.001", "t"), ParamError);
  EXPECT_NO_THROW(ps.set("fault.max_density_ratio", "1.01", "t"));
  EXPECT_THROW(ps.set("fault.max_density_ratio", "1.0099", "t"), ParamError);
}

TEST(ParamSet, Vec3ShortForms) {
  ParamSet ps;
  ps.set("physics.gravity", "0, -9.81", "t");
  EXPECT_EQ(ps.vec3("physics.gravity"), (std::array<double, 3>{0, -9.81, 0}));
  ps.set("physics.gravity", "-3", "t");
  EXPECT_EQ(ps.vec3("physics.gravity"), (std::array<double, 3>{-3, 0, 0}));
  ps.set("physics.gravity", "1,2,3", "t");
  EXPECT_EQ(ps.vec3("physics.gravity"), (std::array<double, 3>{1, 2, 3}));
  ps.set("block.4.velocity", " 1.5 ,  -2 , 1e-3 ", "t");
  EXPECT_EQ(ps.vec3("block.4.velocity"), (std::array<double, 3>{1.5, -2, 1e-3}));
}

TEST(ParamSet, BoolSpellings) {
  ParamSet ps;
  for (const char* t : {"true", "1", "yes", "on", "TRUE", "Yes", "On"}) {
    ps.set("tank.1.open_top", t, "t");
    EXPECT_TRUE(ps.flag("tank.1.open_top")) << t;
  }
  for (const char* f : {"false", "0", "no", "off", "False", "NO", "OFF"}) {
    ps.set("tank.1.open_top", f, "t");
    EXPECT_FALSE(ps.flag("tank.1.open_top")) << f;
  }
}

TEST(ParamSet, Overrides) {
  ParamSet ps;
  ps.apply_override("fluid.gamma=3");
  EXPECT_DOUBLE_EQ(ps.real("fluid.gamma"), 3);
  EXPECT_EQ(ps.where("fluid.gamma"), "--set");
  ps.apply_override(" physics.gravity = 0, -1 ");
  EXPECT_EQ(ps.vec3("physics.gravity"), (std::array<double, 3>{0, -1, 0}));
  ps.apply_override("scene.name=a=b");  // only the first '=' splits
  EXPECT_EQ(ps.text("scene.name"), "a=b");
  EXPECT_EQ(error_of([&] { ps.apply_override("fluid.gamma=abc"); }),
            "--set: fluid.gamma = 'abc' is not a real number (range [1, 20])");
  EXPECT_EQ(error_of([&] { ps.apply_override("fluid.rho=1"); }),
            "--set: unknown key 'fluid.rho' (did you mean 'fluid.rho0'?)");
  const std::string no_eq = error_of([&] { ps.apply_override("fluid.gamma"); });
  EXPECT_EQ(no_eq.rfind("--set: 'fluid.gamma' is not an assignment", 0), 0u) << no_eq;
  EXPECT_NE(no_eq.find("key=value"), std::string::npos);
  EXPECT_NE(error_of([&] { ps.apply_override("=3"); }).find("no key"), std::string::npos);
}

TEST(ParamSet, IndicesOfNumberedSections) {
  ParamSet ps;
  EXPECT_TRUE(ps.indices("block").empty());
  ps.set("block.10.min", "0", "t");
  ps.set("block.2.min", "0", "t");
  ps.set("block.2.max", "1", "t");
  ps.set("block.9.velocity", "1", "t");
  ps.set("obstacle.1.min", "0", "t");
  EXPECT_EQ(ps.indices("block"), (std::vector<int>{2, 9, 10}));
  EXPECT_EQ(ps.indices("obstacle"), (std::vector<int>{1}));
  EXPECT_TRUE(ps.indices("tank").empty());
  EXPECT_TRUE(ps.indices("bloc").empty());
}

TEST(SceneReader, ReadsAScene) {
  const ParamSet ps = read_scene_string(kScene, "scenes/dam.ini");
  EXPECT_EQ(ps.text("scene.name"), "dam break");
  EXPECT_EQ(ps.integer("scene.dim"), 2);
  EXPECT_EQ(ps.where("scene.dim"), "scenes/dam.ini:4");
  EXPECT_EQ(ps.text("particles.kernel"), "cubic_spline");  // inline comment stripped
  EXPECT_EQ(ps.where("particles.kernel"), "scenes/dam.ini:9");
  EXPECT_DOUBLE_EQ(ps.real("fluid.rho0"), 998.2);
  EXPECT_EQ(ps.vec3("physics.gravity"), (std::array<double, 3>{0, -9.81, 0}));
  EXPECT_TRUE(ps.flag("tank.1.open_top"));
  EXPECT_EQ(ps.vec3("block.2.velocity"), (std::array<double, 3>{0.5, 0, 0}));
  EXPECT_EQ(ps.where("block.2.velocity"), "scenes/dam.ini:26");
  EXPECT_EQ(ps.indices("block"), (std::vector<int>{1, 2}));
  EXPECT_EQ(ps.indices("tank"), (std::vector<int>{1}));
  EXPECT_EQ(ps.indices("obstacle"), (std::vector<int>{3}));
  EXPECT_FALSE(ps.is_set("fluid.c0"));
}

TEST(SceneReader, RoundTripsThroughToIni) {
  const ParamSet a = read_scene_string(kScene, "a.ini");
  const std::string ini = a.to_ini();
  const ParamSet b = read_scene_string(ini, "b.ini");
  EXPECT_EQ(b.to_ini(), ini);
  int set_keys = 0;
  for (const ParamDesc& d : a.registry().all()) {
    for (int i : {1, 2, 3}) {
      const std::string key = concrete(d.key, i);
      if (d.key.find('#') == std::string::npos && i > 1) continue;
      SCOPED_TRACE(key);
      ASSERT_EQ(a.is_set(key), b.is_set(key));
      if (!a.is_set(key)) continue;
      ++set_keys;
      switch (d.type) {
        case ParamType::Real: EXPECT_EQ(a.real(key), b.real(key)); break;
        case ParamType::Int: EXPECT_EQ(a.integer(key), b.integer(key)); break;
        case ParamType::Bool: EXPECT_EQ(a.flag(key), b.flag(key)); break;
        case ParamType::Vec3: EXPECT_EQ(a.vec3(key), b.vec3(key)); break;
        case ParamType::Choice:
        case ParamType::String: EXPECT_EQ(a.text(key), b.text(key)); break;
      }
    }
  }
  EXPECT_EQ(set_keys, 18);
}

TEST(SceneReader, ToIniOrdersSections) {
  ParamSet ps;
  ps.set("block.10.min", "1", "t");
  ps.set("block.2.max", "2", "t");
  ps.set("block.2.min", "3", "t");
  ps.set("tank.1.max", "4", "t");
  ps.set("time.cfl", "0.3", "t");
  ps.set("scene.dim", "3", "t");
  EXPECT_EQ(ps.to_ini(),
            "[scene]\ndim = 3\n\n[time]\ncfl = 0.3\n\n[tank.1]\nmax = 4\n\n"
            "[block.2]\nmin = 3\nmax = 2\n\n[block.10]\nmin = 1\n");
  EXPECT_EQ(ParamSet().to_ini(), "");
}

TEST(SceneReader, KeysAndSectionsMayNotRepeat) {
  // Once "the last one wins" silently; now both lines are named (tests/test_strict_input.cpp has more).
  EXPECT_EQ(error_of([] { read_scene_string("[fluid]\ngamma = 3\ngamma = 4\n", "d.ini"); }),
            "d.ini:3: fluid.gamma is given twice (first at line 2); keep one of them");
  EXPECT_EQ(error_of([] { read_scene_string("[block.1]\nmin = 1\n[fluid]\nrho0 = 1\n[block.1]\nmax = 2\n", "d.ini"); }),
            "d.ini:5: section [block.1] is defined twice (first at line 1); put all its keys under one header");
}

TEST(SceneReader, IndentationIsNotAContinuation) {
  // inih would otherwise append an indented line to the previous value.
  const ParamSet ps = read_scene_string("[fluid]\n  gamma = 3\n\trho0 = 2\r\n", "i.ini");
  EXPECT_DOUBLE_EQ(ps.real("fluid.gamma"), 3);
  EXPECT_DOUBLE_EQ(ps.real("fluid.rho0"), 2);
  EXPECT_EQ(ps.where("fluid.rho0"), "i.ini:3");
}

TEST(SceneReader, ReportsTheFirstErrorWithFileAndLine) {
  EXPECT_EQ(error_of([] {
              read_scene_string("; c\n[fluid]\nrho0 = 1\n\n\n\nrho = 3\n", "scenes/a.ini");
            }),
            "scenes/a.ini:7: unknown key 'fluid.rho' (did you mean 'fluid.rho0'?)");
  EXPECT_EQ(error_of([] {
              read_scene_string("\n\n[particles]\n\n\n\n\n\nh_over_dp = 5\ndp = -1\n",
                                "scenes/a.ini");
            }),
            "scenes/a.ini:9: particles.h_over_dp = 5 is out of range [1, 3]");
  EXPECT_EQ(error_of([] { read_scene_string("[particles]\n\nkernel = gauss\n", "scenes/a.ini"); }),
            "scenes/a.ini:3: particles.kernel = 'gauss' is not one of: cubic_spline, wendland_c2");
  EXPECT_EQ(error_of([] { read_scene_string("[block.2]\nmni = 0, 0\n", "s.ini"); }),
            "s.ini:2: unknown key 'block.2.mni' (did you mean 'block.2.min'?)");
  EXPECT_EQ(error_of([] { read_scene_string("[fluids]\nrho0 = 1\n", "s.ini"); }),
            "s.ini:1: unknown section [fluids] (did you mean [fluid]?)");
}

TEST(SceneReader, KeyOutsideAnySection) {
  EXPECT_EQ(error_of([] { read_scene_string("; top\ndim = 2\n[scene]\n", "s.ini"); }),
            "s.ini:2: 'dim = 2' is outside any section; put it under [scene]");
  EXPECT_EQ(error_of([] { read_scene_string("min = 0\n", "s.ini"); }),
            "s.ini:1: 'min = 0' is outside any section; put it under [tank.1]");
  EXPECT_EQ(error_of([] { read_scene_string("what = 0\n", "s.ini"); }),
            "s.ini:1: 'what = 0' is outside any section; put it under a [section] header");
}

TEST(SceneReader, SyntaxErrors) {
  EXPECT_EQ(error_of([] { read_scene_string("[scene]\ndim = 2\njust words\n", "s.ini"); }),
            "s.ini:3: syntax error in 'just words': expected 'key = value', a [section] header or "
            "a ; comment");
  EXPECT_EQ(error_of([] { read_scene_string("[scene\ndim = 2\n", "s.ini"); }),
            "s.ini:1: syntax error in '[scene': a section header needs a closing ']'");
  // The earlier of a syntax error and a value error wins, whichever inih or we found.
  EXPECT_EQ(error_of([] { read_scene_string("[scene]\ndim = 9\noops\n", "s.ini"); }),
            "s.ini:2: scene.dim = 9 is out of range [1, 3]");
  EXPECT_EQ(error_of([] {
              read_scene_string("[scene]\noops\ndim = 9\n", "s.ini").to_ini();
            }).rfind("s.ini:2: syntax error", 0),
            0u);
  const std::string long_line = error_of(
      [] { read_scene_string("[scene]\nname = " + std::string(300, 'x') + "\n", "s.ini"); });
  EXPECT_EQ(long_line.rfind("s.ini:2: line is too long (307 characters", 0), 0u) << long_line;
}

TEST(SceneReader, Files) {
  EXPECT_EQ(error_of([] { read_scene_file("/nonexistent/x.ini"); }),
            "cannot open scene file '/nonexistent/x.ini': No such file or directory");
  EXPECT_EQ(error_of([] { read_scene_file(EJECTA_TEST_DATA_DIR); }),
            std::string("cannot read scene file '") + EJECTA_TEST_DATA_DIR + "': Is a directory");
  const std::string path = testing::TempDir() + "ejecta_test_params.ini";
  {
    std::ofstream out(path, std::ios::binary);
    out << kScene;
  }
  const ParamSet ps = read_scene_file(path);
  EXPECT_EQ(ps.where("scene.dim"), path + ":4");
  EXPECT_EQ(ps.to_ini(), read_scene_string(kScene, "x").to_ini());
  std::remove(path.c_str());
}
