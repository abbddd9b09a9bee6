// Fuzz target: the scene reader (INI through inih, the registry's validation, the strict checks of
// param_set.cpp) and the scene builders up to their particle count, on arbitrary bytes.
//
// Any input must end in a ParamSet or a ParamError; anything else (a crash, a sanitizer report, another
// exception, a hang) is a bug. A scene that reads must also survive its own to_ini() and read back
// equal (param_set.h promises it). Builders see the particle count before they allocate through their
// SizeCheck hook, which refuses more than kMaxParticles here, so no input can exhaust memory; small
// scenes also get their CPU solver built (its own parameter checks), which is all allocation-bounded.
#include "params/param_set.h"
#include "scene/gas_scene.h"
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"
#include "simulation.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

constexpr double kMaxParticles = 2e4;       // scene builders only
constexpr double kMaxSolverParticles = 500;  // also build the CPU solver

void build(const ejecta::ParamSet& ps) {
  using namespace ejecta;
  double count = 0;
  const SizeCheck cap = [&](const SceneSize& s) {
    count = s.particles;
    if (s.particles > kMaxParticles) throw ParamError("fuzz: more than 2e4 particles, not built");
  };
  const std::string model = ps.text("physics.model");
  if (model == "gas")
    build_gas_scene(ps, cap);
  else if (model == "solid")
    build_solid_scene(ps, cap);
  else
    build_scene(ps, cap);
  if (count <= kMaxSolverParticles) {
    try {
      make_simulation(ps, Backend::Cpu);
    } catch (const BlowUpError&) {
      // An impossible initial state (step 0) is a valid outcome of a valid scene.
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Solid scenes name their material library relative to the source tree.
  setenv("EJECTA_SOURCE_DIR", EJECTA_SOURCE_DIR, 0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ejecta;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ParamSet ps;
  try {
    ps = read_scene_string(text, "fuzz.ini");
  } catch (const ParamError&) {
    return 0;
  }
  const std::string ini = ps.to_ini();
  if (read_scene_string(ini, "fuzz.ini (written back)").to_ini() != ini) std::abort();
  try {
    build(ps);
  } catch (const ParamError&) {
  }
  return 0;
}
