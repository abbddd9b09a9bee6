// The liquid's force pass by blocks of sorted particles with their candidates staged in shared memory
// (physics/forces_wcsph_cells.h, fluid.force_kernel = cell_blocks) against the particle pass
// (forces_wcsph.h): the same pair terms met in the same order, so on the CPU the two runs end in the
// same state bit for bit, with every option of the pass, in 1-3D, with cells of the support and of half
// of it. On the GPU the two kernels are compiled separately (FMA contraction may differ): round-off.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ejecta {
namespace {

// Runs the particle pass, then cell blocks, on a shipped scene.
std::vector<std::unique_ptr<Simulation>> run_both(const char* scene, std::vector<std::string> overrides,
                                                   Backend backend, long steps) {
  std::vector<std::unique_ptr<Simulation>> out;
  for (const char* kernel : {"fluid.force_kernel=particles", "fluid.force_kernel=cell_blocks"}) {
    std::vector<std::string> o = overrides;
    o.push_back(kernel);
    auto sim = make_simulation(test::shipped_scene(scene, o), backend);
    sim->set_count_pairs(true);
    StopRule rule;
    rule.max_steps = steps;
    StepLoop(*sim, rule).run();
    out.push_back(std::move(sim));
  }
  return out;
}

void expect_same(const std::vector<std::unique_ptr<Simulation>>& s) {
  test::expect_same_state(*s[0], *s[1]);
  const PairCounts a = s[0]->pair_counts(), b = s[1]->pair_counts();
  EXPECT_GT(a.real, 0);
  EXPECT_EQ(a.real, b.real) << "the same neighbours";
  EXPECT_EQ(a.candidate, b.candidate) << "the same candidates";
}

TEST(CellBlocks, SameStateAsParticlePassOnDamBreak3D_Float) {
  // 40 steps of the 3D dam break with half cells (the default): the column starts to fall.
  expect_same(run_both("dambreak3d.ini", {"particles.dp=0.06"}, Backend::Cpu, 40));
}

TEST(CellBlocks, SameStateAsParticlePassWithEveryOption_Double) {
  // Zhang's pair pressure, no-slip walls, XSPH, shifting, Molteni's diffusion, cells of the support.
  expect_same(run_both("dambreak3d.ini",
                       {"particles.dp=0.06", "scene.precision=double", "fluid.pressure_term=zhang2017",
                        "boundary.slip=no_slip", "fluid.xsph=0.1", "fluid.shifting=0.2",
                        "fluid.density_diffusion=molteni2009", "fluid.neighbour_cells=support"},
                       Backend::Cpu, 40));
}

TEST(CellBlocks, SameStateAsParticlePassOnDamBreak2D_Double) {
  // 2D: five rows of cells around a particle; 300 steps, the front runs along the floor.
  expect_same(run_both("dambreak2d.ini", {"scene.precision=double"}, Backend::Cpu, 300));
}

TEST(CellBlocks, CudaAgreesWithParticlePassOnDamBreak3D_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto s = run_both("dambreak3d.ini", {"particles.dp=0.04"}, Backend::Cuda, 200);
  const HostParticles a = s[0]->download(), b = s[1]->download();
  ASSERT_EQ(a.n, b.n);
  std::vector<double> xa(a.position.size()), xb(b.position.size());
  for (std::size_t i = 0; i < a.n; ++i)
    for (int d = 0; d < 3; ++d) {
      xa[a.id[i] * 3 + d] = a.position[i * 3 + d];
      xb[b.id[i] * 3 + d] = b.position[i * 3 + d];
    }
  double m = 0;
  for (std::size_t k = 0; k < xa.size(); ++k) m = std::max(m, std::fabs(xa[k] - xb[k]));
  std::printf("  cell blocks against the particle pass on the GPU, 200 steps: max |dx| %.3g m\n", m);
  EXPECT_LT(m, 1e-3 * 0.04) << "the same arithmetic: only rounding (FMA contraction) may differ";
  EXPECT_EQ(s[0]->pair_counts().candidate, s[1]->pair_counts().candidate);
}

TEST(CellBlocks, CudaAgreesWithCpuOnDamBreak3D_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  std::vector<std::unique_ptr<Simulation>> s;
  for (Backend be : {Backend::Cpu, Backend::Cuda}) {
    auto sim = make_simulation(
        test::shipped_scene("dambreak3d.ini", {"particles.dp=0.06", "fluid.force_kernel=cell_blocks"}), be);
    StopRule rule;
    rule.max_steps = 100;
    StepLoop(*sim, rule).run();
    s.push_back(std::move(sim));
  }
  const HostParticles a = s[0]->download(), b = s[1]->download();
  ASSERT_EQ(a.n, b.n);
  double m = 0;
  std::vector<double> xa(a.position.size()), xb(b.position.size());
  for (std::size_t i = 0; i < a.n; ++i)
    for (int d = 0; d < 3; ++d) {
      xa[a.id[i] * 3 + d] = a.position[i * 3 + d];
      xb[b.id[i] * 3 + d] = b.position[i * 3 + d];
    }
  for (std::size_t k = 0; k < xa.size(); ++k) m = std::max(m, std::fabs(xa[k] - xb[k]));
  std::printf("  cell blocks, CPU against CUDA, 100 steps: max |dx| %.3g m\n", m);
  EXPECT_LT(m, 1e-3 * 0.06);
}

}  // namespace
}  // namespace ejecta
