// The liquid force pass's A/B variants of issue 18 (solver/terms/liquid_uniform_terms.h, variant()):
// fluid.force_threads = fluid launches the pass over a list of the fluid's sorted indices (flag, scan,
// scatter each pass) instead of every particle; fluid.force_registers = 64 bounds the CUDA kernel to 64
// registers (8 blocks of 128 a SM) in float. Each particle runs the same functor over the same
// candidates in the same order, so on the CPU the runs end in the same state bit for bit; on the GPU
// the variants are separately compiled kernels (FMA contraction may differ): round-off.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace ejecta {
namespace {

std::unique_ptr<Simulation> run(std::vector<std::string> o, Backend backend, long steps) {
  auto sim = make_simulation(test::shipped_scene("dambreak3d.ini", o), backend);
  sim->set_count_pairs(true);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  return sim;
}

void expect_same_pairs(const Simulation& a, const Simulation& b) {
  const PairCounts pa = a.pair_counts(), pb = b.pair_counts();
  EXPECT_GT(pa.real, 0);
  EXPECT_EQ(pa.real, pb.real) << "the same neighbours";
  EXPECT_EQ(pa.candidate, pb.candidate) << "the same candidates";
}

// 40 steps of the 3D dam break at dp = 0.06 (the column starts to fall), float, half cells (the default).
TEST(ForceVariants, FluidListSameStateAsEveryThread_DamBreak3D_Float) {
  // Every thread and 72 registers (the former defaults) against the fluid list and 64 (the defaults now).
  const auto a = run({"particles.dp=0.06", "fluid.force_threads=all", "fluid.force_registers=72"}, Backend::Cpu, 40);
  const auto b = run({"particles.dp=0.06", "fluid.force_threads=fluid", "fluid.force_registers=64"}, Backend::Cpu, 40);
  test::expect_same_state(*a, *b);
  expect_same_pairs(*a, *b);
}

// In double with cells of the support, Zhang's pair pressure, no-slip walls and XSPH (shifting off: the
// variants are built without it, and with shifting on the default pass runs whatever the keys say).
TEST(ForceVariants, FluidListSameStateAsEveryThread_Double) {
  const std::vector<std::string> o = {"particles.dp=0.06", "scene.precision=double", "fluid.pressure_term=zhang2017",
                                      "boundary.slip=no_slip", "fluid.xsph=0.1", "fluid.neighbour_cells=support"};
  std::vector<std::string> u = o, v = o;
  u.push_back("fluid.force_threads=all");
  v.push_back("fluid.force_threads=fluid");
  const auto a = run(u, Backend::Cpu, 40), b = run(v, Backend::Cpu, 40);
  test::expect_same_state(*a, *b);
  expect_same_pairs(*a, *b);
}

// On the GPU, each variant against the every-thread, 72-register kernel (the former default) over 200 steps
// at dp = 0.04, float.
TEST(ForceVariants, CudaVariantsAgreeWithTheDefaultPass_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto base = run({"particles.dp=0.04", "fluid.force_threads=all", "fluid.force_registers=72"}, Backend::Cuda, 200);
  for (const char* v : {"fluid.force_threads=fluid", "fluid.force_registers=64"}) {
    const auto s = run({"particles.dp=0.04", v}, Backend::Cuda, 200);
    const test::ParticleDifference d = test::max_difference_by_id(base->download(), s->download());
    std::printf("  %s against every thread and 72 registers, GPU, 200 steps: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n", v, d.position,
                d.velocity, d.density);
    EXPECT_LT(d.position, 1e-3 * 0.04) << v;
  }
}

}  // namespace
}  // namespace ejecta
