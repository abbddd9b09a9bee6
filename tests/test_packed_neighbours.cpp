// The liquid's force pass reads its neighbours either from the store's arrays or from a packed
// mirror, with or without the fluid's pressure derived in the loop (physics/forces_wcsph_neighbours.h,
// fluid.neighbour_record). Same values, same arithmetic:
// on the CPU the two runs must end in the same state bit for bit, for every option of the pass. On the
// GPU the two kernels are compiled separately (FMA contraction may differ), so they agree to round-off.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ejecta {
namespace {

// Runs arrays, packed and packed_eos (in that order).
std::vector<std::unique_ptr<Simulation>> run_all(std::vector<std::string> overrides, Backend backend,
                                                  long steps) {
  std::vector<std::unique_ptr<Simulation>> out;
  for (const char* packed :
       {"fluid.neighbour_record=arrays", "fluid.neighbour_record=packed", "fluid.neighbour_record=packed_eos"}) {
    std::vector<std::string> o = overrides;
    o.push_back(packed);
    auto sim = make_simulation(test::shipped_scene("dambreak3d.ini", o), backend);
    StopRule rule;
    rule.max_steps = steps;
    StepLoop(*sim, rule).run();
    out.push_back(std::move(sim));
  }
  return out;
}

TEST(PackedNeighbours, SameStateAsArraysOnDamBreak3D_Float) {
  const auto s = run_all({"particles.dp=0.06"}, Backend::Cpu, 40);
  for (int k : {1, 2}) {
    // The packed runs hold their record (2 x 16 bytes a particle, in the sort buffers, 16, and the
    // store's scratch, 16, which the arrays' run does without: it reorders through the sort's dead
    // words): they did read from it.
    EXPECT_EQ(s[k]->device_bytes() - s[0]->device_bytes(), 16 * s[0]->download().n);
    test::expect_same_state(*s[0], *s[k]);
  }
}

// The packed record through the specialised passes' loops (issue 18): the one loop and row32 of
// fluid.force_specialised = defaults; the defaults' own (auto, fast) are the test above.
TEST(PackedNeighbours, SameStateAsArraysInTheSpecialisedLoops_Float) {
  for (const char* loop : {"fluid.neighbour_batch=off", "fluid.neighbour_batch=row32"}) {
    SCOPED_TRACE(loop);
    const auto s = run_all({"particles.dp=0.06", loop, "fluid.force_specialised=defaults"}, Backend::Cpu, 40);
    for (int k : {1, 2}) test::expect_same_state(*s[0], *s[k]);
  }
}

TEST(PackedNeighbours, SameStateAsArraysWithEveryOption_Double) {
  // Zhang's pair pressure, no-slip walls, XSPH, shifting, Molteni's diffusion as published.
  const auto s = run_all({"particles.dp=0.06", "scene.precision=double", "fluid.pressure_term=zhang2017",
                           "boundary.slip=no_slip", "fluid.xsph=0.1", "fluid.shifting=0.2",
                           "fluid.density_diffusion=molteni2009"},
                          Backend::Cpu, 40);
  for (int k : {1, 2}) {
    // Double: 2 x 32 bytes, in the sort buffers grown from 16 to 32 and the scratch from 24 to 32.
    EXPECT_EQ(s[k]->device_bytes() - s[0]->device_bytes(), 24 * s[0]->download().n);
    test::expect_same_state(*s[0], *s[k]);
  }
}

TEST(PackedNeighbours, CudaAgreesWithArraysOnDamBreak3D_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto s = run_all({"particles.dp=0.04"}, Backend::Cuda, 200);
  for (int k : {1, 2}) {
  const HostParticles a = s[0]->download(), b = s[k]->download();
  ASSERT_EQ(a.n, b.n);
  std::vector<double> xa(a.position.size()), xb(b.position.size());
  for (std::size_t i = 0; i < a.n; ++i)
    for (int d = 0; d < 3; ++d) {
      xa[a.id[i] * 3 + d] = a.position[i * 3 + d];
      xb[b.id[i] * 3 + d] = b.position[i * 3 + d];
    }
  double m = 0;
  for (std::size_t k = 0; k < xa.size(); ++k) m = std::max(m, std::fabs(xa[k] - xb[k]));
  std::printf("  %s against arrays on the GPU, 200 steps: max |dx| %.3g m\n", k == 1 ? "packed" : "packed_eos", m);
  EXPECT_LT(m, 1e-3 * 0.04) << "the same arithmetic: only rounding (FMA contraction) may differ";
  }
}

}  // namespace
}  // namespace ejecta
