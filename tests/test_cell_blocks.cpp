// The liquid's force pass by blocks of sorted particles with their candidates staged in shared memory
// (physics/forces_wcsph_cells.h, fluid.force_kernel = cell_blocks) against the particle pass
// (forces_wcsph.h): the same pair terms met in the same order, so on the CPU the two runs end in the
// same state bit for bit, with every option of the pass, in 1-3D, with cells of the support and of half
// of it. On the GPU the two kernels are compiled separately (FMA contraction may differ): round-off.
#include "exec/exec_cpu.h"
#include "neighbors/cell_index.h"
#include "physics/forces_wcsph_cells.h"
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
  // The particle pass's general kernel, whose pair terms the cell blocks run (fluid.force_specialised
  // = fast, the default, takes the GPU's approximate reciprocal and square root: another trajectory by
  // round-off, which moves a few candidates across the clipped rows' ends).
  const auto s = run_both("dambreak3d.ini", {"particles.dp=0.04", "fluid.force_specialised=off"}, Backend::Cuda, 200);
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

namespace ejecta {
namespace {

// The functor alone on a jittered block of water over a wall floor (float, 3D, cells of h): each
// block's results equal the particle pass's bit for bit, and most blocks do stage their candidates
// (the fallback to the particle pass would pass the comparison too, so it is counted).
TEST(CellBlocks, FunctorStagesAndMatchesParticlePass) {
  using T = float;
  constexpr int D = 3;
  const double dp = 0.01, h = 1.5 * dp;
  std::vector<Vec<T, D>> x, v;
  std::vector<T> rho, p, m;
  std::vector<uint8_t> kind;
  uint32_t seed = 12345;
  auto jitter = [&] {
    seed = seed * 1664525u + 1013904223u;
    return (double(seed >> 8) / double(1u << 24) - 0.5) * 0.2 * dp;
  };
  for (int k = -3; k < 14; ++k)
    for (int j = 0; j < 14; ++j)
      for (int i = 0; i < 40; ++i) {
        const bool wall = k < 0;
        x.push_back(Vec<T, D>{{T(i * dp + (wall ? 0 : jitter())), T(j * dp + (wall ? 0 : jitter())),
                               T(k * dp + (wall ? 0 : jitter()))}});
        v.push_back(Vec<T, D>{{T(jitter() * 10), T(jitter() * 10), T(jitter() * 10)}});
        rho.push_back(T(1000 + jitter() * 1000));
        p.push_back(T(100 + jitter() * 1e4));
        m.push_back(T(1000 * dp * dp * dp));
        kind.push_back(wall ? kWall : kFluid);
      }
  const std::size_t n = x.size();
  double lo[3] = {-0.01, -0.01, -0.04}, hi[3] = {0.41, 0.15, 0.15};
  CpuExec exec;
  std::size_t tally = 0;
  CellIndex<T, D, CpuExec> cells(exec, make_cell_grid<T, D>(lo, hi, 2 * h, n, 2), n, &tally);
  cells.build(x.data());
  const uint32_t* perm = cells.permutation();
  auto sorted = [&](auto& a) {
    auto b = a;
    for (std::size_t i = 0; i < n; ++i) b[i] = a[perm[i]];
    a = b;
  };
  sorted(x), sorted(v), sorted(rho), sorted(p), sorted(m), sorted(kind);
  std::vector<Vec<T, D>> acc(n), acc2(n);
  std::vector<T> drho(n), drho2(n);
  std::vector<uint32_t> real(n), cand(n), real2(n), cand2(n);
  WcsphModel<T, D> model{};
  model.kernel = SmoothingKernel<T, D>::make(KernelType::WendlandC2, h);
  model.eos = TaitEos<T>::make(1000, 20, 7);
  model.gravity = Vec<T, D>{{0, 0, T(-9.81)}};
  model.alpha = T(0.02), model.beta = 0, model.wall_visc = 1, model.delta = T(0.1), model.xsph = 0;
  model.eta2 = T(0.01 * h * h), model.slip = kSlipNoSlip, model.diffusion_hydrostatic = true;
  ParticleView<T, D> pv{};
  pv.x = DevicePtr<Vec<T, D>>::adopt(x.data()), pv.vp = DevicePtr<Vec<T, D>>::adopt(v.data());
  pv.rhop = DevicePtr<T>::adopt(rho.data()), pv.p = DevicePtr<T>::adopt(p.data());
  pv.m = DevicePtr<const T>::adopt(m.data()), pv.kind = DevicePtr<const uint8_t>::adopt(kind.data());
  pv.a = DevicePtr<Vec<T, D>>::adopt(acc.data()), pv.drho = DevicePtr<T>::adopt(drho.data());
  pv.pair_real = DevicePtr<uint32_t>::adopt(real.data()), pv.pair_cand = DevicePtr<uint32_t>::adopt(cand.data());
  const CellGrid<T, D> grid = cells.grid();
  exec.for_each_balanced(n, Forces_WCSPH_Monaghan1992<T, D>{model, grid, pv, true});
  ParticleView<T, D> pv2 = pv;
  pv2.a = DevicePtr<Vec<T, D>>::adopt(acc2.data()), pv2.drho = DevicePtr<T>::adopt(drho2.data());
  pv2.pair_real = DevicePtr<uint32_t>::adopt(real2.data()), pv2.pair_cand = DevicePtr<uint32_t>::adopt(cand2.data());
  using F = Forces_WCSPH_CellBlocks<T, D>;
  std::vector<uint8_t> modes(F::blocks(n), 9);
  for_each_block(exec, F::blocks(n), F::words(), F{{model, grid, pv2, true}, n, modes.data()});
  std::size_t fluid = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (kind[i] != kFluid) continue;
    ++fluid;
    for (int d = 0; d < D; ++d) ASSERT_EQ(acc[i][d], acc2[i][d]) << "particle " << i;
    ASSERT_EQ(drho[i], drho2[i]) << "particle " << i;
    ASSERT_EQ(real[i], real2[i]);
    ASSERT_EQ(cand[i], cand2[i]);
    ASSERT_GT(real[i], 20u);
  }
  int count[3] = {0, 0, 0};
  for (uint8_t k : modes) {
    ASSERT_LT(k, 3);
    ++count[k];
  }
  std::printf("  %zu particles (%zu fluid), %zu blocks: %d walls only, %d staged, %d by the particle pass\n", n,
              fluid, modes.size(), count[0], count[1], count[2]);
  EXPECT_GT(count[1], 0.8 * (count[1] + count[2]));
}

}  // namespace
}  // namespace ejecta
