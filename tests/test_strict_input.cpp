// Issue 11, "strict scenes and command line": every malformed scene, materials file and numeric flag
// that used to run (exit 0) is refused with file:line (or the flag) and exit 2; scenes too large for the
// machine are refused before anything is allocated; a non-finite wall or frozen gas particle is a
// blow-up like any other.
#include "integrators/step_monitor.h"
#include "materials/material_library.h"
#include "params/ini_line_reader.h"
#include "physics/gas_diagnostics.h"
#include "scene/scene_builder.h"
#include "sim_test_util.h"
#include "viewer/binary_util.h"
#include "step_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

namespace ejecta {
namespace {

// The ParamError of reading `ini` as "s.ini", "" if it reads.
std::string read_error(const std::string& ini) {
  try {
    read_scene_string(ini, "s.ini");
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kFluidIni = "[fluid]\nrho0 = 1000\n";

// ---- the reader ----

TEST(StrictScene, ControlCharactersAreRefusedNotReadAsContinuations) {
  // inih reads a line that starts with whitespace (isspace: \f \v \r too) as more of the value above.
  EXPECT_EQ(read_error(std::string(kFluidIni) + "\f2000\n"),
            "s.ini:3: control character 0x0c (form feed) at column 1: scene and material files are plain text; "
            "remove it (a line may start with spaces or tabs only)");
  EXPECT_NE(read_error(std::string(kFluidIni) + "\v2000\n").find("s.ini:3: control character 0x0b (vertical tab)"),
            std::string::npos);
  // A NUL would end the value for inih: "1000\0junk" read as 1000.
  EXPECT_NE(read_error(std::string("[fluid]\nrho0 = 1000") + '\0' + "junk\n").find("s.ini:2: control character 0x00 (NUL) at column 12"),
            std::string::npos);
  // A lone CR ends a line (below), so "\r2000" is a line of its own: not a key = value.
  EXPECT_EQ(read_error(std::string(kFluidIni) + "\r2000\n"),
            "s.ini:4: syntax error in '2000': expected 'key = value', a [section] header or a ; comment");
}

TEST(StrictScene, CarriageReturnLineEndsReadLikeNewlines) {
  const std::string lf = test::shipped_scene("dambreak2d.ini").to_ini();
  std::string cr = lf, crlf;
  for (char& c : cr)
    if (c == '\n') c = '\r';
  for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(read_scene_string(cr, "cr.ini").to_ini(), lf);
  EXPECT_EQ(read_scene_string(crlf, "crlf.ini").to_ini(), lf);
}

TEST(StrictScene, DuplicateKeysAndSectionsNameBothLines) {
  EXPECT_EQ(read_error(std::string(kFluidIni) + "c0 = 20\nrho0 = 2000\n"),
            "s.ini:4: fluid.rho0 is given twice (first at line 2); keep one of them");
  EXPECT_EQ(read_error(std::string(kFluidIni) + "[particles]\ndp = 0.01\n[fluid]\nc0 = 20\n"),
            "s.ini:5: section [fluid] is defined twice (first at line 1); put all its keys under one header");
}

TEST(StrictScene, TextAfterASectionHeaderIsRefused) {
  EXPECT_EQ(read_error("[fluid] extra\nrho0 = 1000\n"),
            "s.ini:1: text after the section header [fluid]: 'extra'; a header stands alone on its line (write a "
            "comment as '; ...')");
  EXPECT_EQ(read_error("[fluid] ; water\nrho0 = 1000\n"), "");
}

TEST(StrictScene, BadlyNamedAndEmptySectionsAreRefused) {
  EXPECT_EQ(read_error("[nosuch]\n").rfind("s.ini:1: unknown section [nosuch]; the sections are [scene], ", 0), 0u)
      << read_error("[nosuch]\n");
  EXPECT_EQ(read_error("[fluids]\nrho0 = 1\n"), "s.ini:1: unknown section [fluids] (did you mean [fluid]?)");
  const std::string numbered =
      ": numbered sections are [block.1], [block.2], ... (a whole number from 1, without leading zeros, at most 9 "
      "digits)";
  EXPECT_EQ(read_error("[block.0]\n"), "s.ini:1: [block.0] is not a valid section name" + numbered);
  EXPECT_EQ(read_error("[block.x]\n"), "s.ini:1: [block.x] is not a valid section name" + numbered);
  EXPECT_NE(read_error("[tank.999999999999]\n").find("s.ini:1: [tank.999999999999] is not a valid section name"),
            std::string::npos);
  EXPECT_EQ(read_error("[]\n"), "s.ini:1: a section header needs a name inside the [ ]");
  // A well-named section that sets nothing (an empty [tank.1] builds no tank) is refused too.
  EXPECT_EQ(read_error("[tank.1]\n; nothing yet\n[fluid]\nrho0 = 1000\n"),
            "s.ini:1: [tank.1] has no keys; add its keys or remove the header");
  EXPECT_EQ(read_error("[block.123456789]\nmin = 0, 0\n"), "");
}

TEST(StrictScene, OversizedFilesAndDevicesAreRefusedBeforeReading) {
  const auto t0 = std::chrono::steady_clock::now();
  try {
    read_scene_file("/dev/zero");
    FAIL() << "read /dev/zero";
  } catch (const ParamError& e) {
    EXPECT_STREQ(e.what(),
                 "scene file '/dev/zero' is larger than 1 MiB; a scene file is a small text file (is it the right file?)");
  }
  const std::string big = ::testing::TempDir() + "/strict_big.ini";
  {
    std::ofstream f(big);
    f << "[scene]\n";
    for (int i = 0; i < 40000; ++i) f << "; a comment line to make the file larger than a MiB\n";
  }
  try {
    read_scene_file(big);
    FAIL() << "read a 2 MB scene";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("is larger than 1 MiB"), std::string::npos) << e.what();
  }
  std::remove(big.c_str());
  try {
    load_material_library("/dev/zero");
    FAIL() << "read /dev/zero as materials";
  } catch (const MaterialError& e) {
    EXPECT_NE(std::string(e.what()).find("material library '/dev/zero' is larger than 1 MiB"), std::string::npos);
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
}

// ---- the scene builders ----

TEST(StrictScene, DimensionBelowTheGeometryIsRefused) {
  // dim = 1 on the 2D dam break used to drop the y extents silently.
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"scene.dim=1"});
  try {
    build_scene(p);
    FAIL() << "built a 2D scene in 1D";
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(test::source_dir() + "/scenes/dambreak2d.ini:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("has a y component (0.1143) but scene.dim = 1 (--set) uses x only"),
              std::string::npos)
        << e.what();
  }
}

TEST(StrictScene, NoFluidNamesTheFileAndWhatToAdd) {
  EXPECT_EQ(test::scene_error("[tank.1]\nmin = 0, 0\nmax = 1, 1\n"),
            "bad.ini: the scene has no fluid (physics.model = wcsph): add a [block.1] section with min and max, the "
            "corners of the fluid's box (inside a [tank.N] when the scene has one)");
  EXPECT_NE(test::scene_error("[gas_block.1]\nmin = 0, 0\nmax = 1, 1\ndp = 0.1\n")
                .find("set physics.model = gas"),  // the model-key check names the model to set
            std::string::npos);
}

TEST(StrictScene, AKeyAtItsDefaultPointsAtTheScene) {
  const ParamSet p = read_scene_string("[fluid]\nrho0 = 1000\n", "s.ini");
  EXPECT_EQ(p.where("particles.dp"), "s.ini (particles.dp not set: built-in default)");
  EXPECT_EQ(p.where("fluid.rho0"), "s.ini:2");
}

// ---- memory ----

TEST(StrictMemory, ATinySpacingIsRefusedAtOnceWithTheSpacingThatFits) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string msg;
  try {
    make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=1e-6"}), Backend::Cpu);
  } catch (const ParamError& e) {
    msg = e.what();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(msg.empty()) << "1.2e11 particles were not refused";
  // The column alone, 0.05715 x 0.1143 m, is 6.5e9 particles at this spacing.
  EXPECT_EQ(msg.rfind("--set: 6535245018 particles need ", 0), 0u) << msg;
  EXPECT_NE(msg.find(" particles need "), std::string::npos) << msg;
  EXPECT_NE(msg.find(" of host memory, "), std::string::npos) << msg;
  EXPECT_NE(msg.find(" available; raise particles.dp to "), std::string::npos) << msg;
  EXPECT_LT(seconds, 5.0);
}

// Fenced to 30 MB, the 3D dam break (about 3e5 particles) is refused; at the spacing the message
// suggests, it passes the check and builds.
TEST(StrictMemory, TheSuggestedSpacingFits) {
  setenv("EJECTA_HOST_MEMORY_LIMIT", "30000000", 1);
  std::string msg;
  try {
    make_simulation(test::shipped_scene("dambreak3d.ini"), Backend::Cpu);
  } catch (const ParamError& e) {
    msg = e.what();
  }
  ASSERT_FALSE(msg.empty()) << "not refused under a 30 MB fence";
  EXPECT_NE(msg.find("30 MB available"), std::string::npos) << msg;
  const std::string key = "raise particles.dp to ";
  const std::size_t at = msg.find(key);
  ASSERT_NE(at, std::string::npos) << msg;
  const std::string dp = msg.substr(at + key.size(), msg.find(' ', at + key.size()) - at - key.size());
  std::unique_ptr<Simulation> sim;
  EXPECT_NO_THROW(sim = make_simulation(test::shipped_scene("dambreak3d.ini", {"particles.dp=" + dp}), Backend::Cpu))
      << msg;
  unsetenv("EJECTA_HOST_MEMORY_LIMIT");
  if (sim) std::printf("  %s\n  at particles.dp = %s: %zu particles\n", msg.c_str(), dp.c_str(), sim->particle_count());
}

// ---- non-finite values on particles that do not move ----

double component(const FieldData& f, std::size_t i) {
  return f.info.scalar == ScalarType::Float32 ? reinterpret_cast<const float*>(f.bytes.data())[i]
                                              : reinterpret_cast<const double*>(f.bytes.data())[i];
}

// Runs `scene` a few steps, writes NaN into `field` (component 0) of one particle of kind `kind`,
// restores and steps: the blow-up message. The particle is the one farthest from the moving fluid, so
// that the NaN reaches no neighbour and the particle itself is the one reported: in 1D the smallest x
// (the Sod tube's left end), else the largest last coordinate (the top of a tank's wall).
std::string nan_blow_up(const ParamSet& p, Backend backend, const std::string& field, uint8_t kind) {
  auto sim = make_simulation(p, backend);
  test::step_n(*sim, 3);
  FrameData f = sim->capture_frame();
  const FieldData* kinds = f.find("kind");
  const FieldData* x = f.find("position");
  const int dim = x->info.components;
  std::size_t i = kinds->bytes.size();
  for (std::size_t j = 0; j < kinds->bytes.size(); ++j) {
    if (kinds->bytes[j] != kind) continue;
    const double key = dim == 1 ? -component(*x, j) : component(*x, j * dim + dim - 1);
    if (i == kinds->bytes.size() || key > (dim == 1 ? -component(*x, i) : component(*x, i * dim + dim - 1))) i = j;
  }
  EXPECT_LT(i, kinds->bytes.size()) << "no particle of kind " << int(kind);
  for (FieldData& fd : f.fields) {
    if (fd.info.name != field) continue;
    const std::size_t at = i * std::size_t(fd.info.components);
    if (fd.info.scalar == ScalarType::Float32)
      reinterpret_cast<float*>(fd.bytes.data())[at] = std::numeric_limits<float>::quiet_NaN();
    else
      reinterpret_cast<double*>(fd.bytes.data())[at] = std::numeric_limits<double>::quiet_NaN();
  }
  sim->restore_frame(f);
  try {
    test::step_n(*sim, 3);
  } catch (const BlowUpError& e) {
    return e.what();
  }
  return "";
}

void expect_wall_and_frozen_nans_caught(Backend backend) {
  const ParamSet dam = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"});
  for (const char* field : {"density", "velocity", "position"}) {
    const std::string msg = nan_blow_up(dam, backend, field, kWall);
    EXPECT_NE(msg.find(" wall particle "), std::string::npos) << field << ": " << msg;
    EXPECT_NE(msg.find(std::string(" has ") + field + " = (nan"), std::string::npos) << msg;
  }
  // The Sod tube's frozen ends keep their state: a NaN there never reached a moving particle's check.
  const ParamSet sod = test::shipped_scene("sod1d.ini");
  for (const char* field : {"density", "internal_energy"}) {
    const std::string msg = nan_blow_up(sod, backend, field, kWall);
    EXPECT_NE(msg.find(" frozen gas particle "), std::string::npos) << field << ": " << msg;
  }
}

TEST(StrictNan, WallAndFrozenParticlesAreChecked_Cpu) { expect_wall_and_frozen_nans_caught(Backend::Cpu); }

TEST(StrictNan, WallAndFrozenParticlesAreChecked_Cuda) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  expect_wall_and_frozen_nans_caught(Backend::Cuda);
}

// The per-step reduction itself (one functor for both backends): a wall's NaN is found, and a good
// wall changes neither the time-step extremes nor the verdict.
TEST(StrictNan, TheReductionCoversWalls) {
  Vec<double, 2> x[3] = {{{0, 0}}, {{1, 0}}, {{2, 0}}}, v[3] = {{{0, 1}}, {{0, 0}}, {{0, 0}}},
                 a[3] = {{{0, -9.81}}, {{5, 5}}, {{0, 0}}};
  double rho[3] = {1000, 1000, 1000};
  uint8_t kind[3] = {kFluid, kWall, kWall};
  ParticleView<double, 2> pv{};
  pv.x = host_as_device(x), pv.v = host_as_device(v), pv.a = host_as_device(a), pv.rho = host_as_device(rho),
  pv.kind = host_as_device(kind);
  const MeasureExtremes<double, 2> m{pv, 500.0, 2000.0};
  auto reduce = [&] {
    StepExtremes<double> e{0, 0, 0xffffffffu, kBadNone};
    for (int i = 0; i < 3; ++i) e = CombineExtremes<double>{}(e, m(i));
    return e;
  };
  StepExtremes<double> e = reduce();
  EXPECT_EQ(e.bad_index, 0xffffffffu);
  EXPECT_DOUBLE_EQ(e.max_a2, 9.81 * 9.81);  // the wall's a is not the fluid's
  rho[2] = std::numeric_limits<double>::quiet_NaN();
  e = reduce();
  EXPECT_EQ(e.bad_index, 2u);
  EXPECT_EQ(e.bad_field, uint32_t(kBadDensity));
  x[1][1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(reduce().bad_index, 1u);
  EXPECT_EQ(reduce().bad_field, uint32_t(kBadPosition));
}

// ---- the command line (the real binary) ----

TEST(StrictCli, BadNumbersAreRefusedWithTheFlag) {
  if (access(test::ejecta_binary().c_str(), X_OK) != 0)
    GTEST_SKIP() << "needs the ejecta binary at " << test::ejecta_binary();
  const std::pair<const char*, const char*> cases[] = {
      {"--headless --steps 99999999999999999999", "--steps: '99999999999999999999' is out of range: give a whole "
                                                   "number of steps from 0 to 1e15"},
      {"--headless --steps 010", "--steps: '010' is not a whole number of steps"},
      {"--headless --steps 1.5", "--steps: '1.5' is not a whole number of steps"},
      {"--headless --until inf", "--until: 'inf' is not a finite number >= 0"},
      {"--headless --until nan", "--until: 'nan' is not a finite number >= 0"},
      {"--benchmark --benchmark-sizes 1e4,,1e5", "--benchmark-sizes: empty entry in '1e4,,1e5'"},
      {"--benchmark --benchmark-sizes 1e4,x", "--benchmark-sizes: 'x' is not a particle count"},
      {"--threads 99999999999999999999", "--threads: '99999999999999999999' is out of range"},
      {"--headless --record x.h5 --record-every inf", "--record-every: 'inf' is not a finite number > 0"},
  };
  for (const auto& [args, expected] : cases) {
    const test::RunResult r = test::run_binary(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(expected), std::string::npos) << args << "\n" << r.out;
  }
  const test::RunResult r = test::run_binary("/dev/zero --headless --steps 1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("scene file '/dev/zero' is larger than 1 MiB"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ejecta
