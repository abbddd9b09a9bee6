// Adding fluid to a running liquid simulation (engine/scene/fluid_drop.h) and restarting a frame
// whose particle count is not the scene's: mass added exactly, the old particles untouched, no NaN,
// the run goes on; CPU and CUDA build the same drop.
#include "io/h5_reader.h"
#include "io/h5_recorder.h"
#include "scene/fluid_drop.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numeric>
#include <unistd.h>

namespace ejecta {
namespace {

// A small closed 2D tank (40 x 40 cells of 5 mm) with a 20 x 20 block of water in a corner.
ParamSet small_tank(const std::string& precision = "double") {
  return read_scene_string(
      "[scene]\ndim = 2\nprecision = " + precision +
          "\n[particles]\ndp = 0.005\n[tank.1]\nmin = 0, 0, 0\nmax = 0.2, 0.2, 0\n"
          "[block.1]\nmin = 0, 0, 0\nmax = 0.1, 0.1, 0\n[obstacle.1]\nmin = 0.17, 0, 0\nmax = 0.2, 0.03, 0\n",
      "small_tank.ini");
}

double total_mass(const Simulation& s) {
  const HostParticles h = s.download();
  double m = 0;
  for (std::size_t i = 0; i < h.n; ++i) m += h.mass[i];
  return m;
}

FluidDrop sphere(double x, double y, double r) {
  FluidDrop d;
  d.center[0] = x;
  d.center[1] = y;
  d.size = r;
  return d;
}

TEST(FluidDrop, SitesOnTheLatticeClearOfParticlesTanksAndObstacles) {
  const ParamSet p = small_tank();
  auto sim = make_simulation(p, Backend::Cpu);
  const HostParticles h = sim->download();
  // A disc of radius 4 dp in free space: the lattice sites within it (about pi 4^2 = 50).
  const std::vector<double> free = drop_sites(p, sphere(0.15, 0.15, 0.02), h.position);
  EXPECT_NEAR(double(free.size() / 2), M_PI * 16, 8);
  for (std::size_t j = 0; j < free.size(); j += 2) {
    EXPECT_NEAR(std::fmod(free[j] / 0.005, 1.0), 0.5, 1e-9) << "cell centres of the scene's lattice";
    EXPECT_LE(std::hypot(free[j] - 0.15, free[j + 1] - 0.15), 0.02 + 1e-12);
  }
  // Half in the water, half in the air: only the air half; every site clear of every particle.
  const std::vector<double> half = drop_sites(p, sphere(0.1, 0.05, 0.03), h.position);
  EXPECT_GT(half.size(), 0u);
  EXPECT_LT(half.size() / 2, std::size_t(M_PI * 36 * 0.6));
  for (std::size_t j = 0; j < half.size(); j += 2)
    for (std::size_t i = 0; i < h.n; ++i)
      ASSERT_GE(std::hypot(half[j] - h.position[2 * i], half[j + 1] - h.position[2 * i + 1]), 0.9 * 0.005 - 1e-12);
  // Across the tank wall and over the obstacle: only sites inside the inner box, outside the obstacle.
  FluidDrop block = sphere(0.19, 0.02, 0.03);
  block.shape = DropShape::Block;
  for (double v : drop_sites(p, block, h.position)) EXPECT_TRUE(v >= 0 && v <= 0.2);
  const std::vector<double> b = drop_sites(p, block, h.position);
  for (std::size_t j = 0; j < b.size(); j += 2) EXPECT_FALSE(b[j] >= 0.17 && b[j + 1] <= 0.03) << "in the obstacle";
  EXPECT_FALSE(b.empty());
  // Inside the water block: no room.
  EXPECT_THROW(add_fluid(*sim, p, sphere(0.05, 0.05, 0.01)), std::invalid_argument);
  ParamSet gas = p;
  gas.set("physics.model", "gas", "test");
  EXPECT_THROW(add_fluid(*sim, gas, sphere(0.15, 0.15, 0.02)), std::logic_error);
}

TEST(FluidDrop, AddsMassKeepsTheOldStateAndRunsOn) {
  const ParamSet p = small_tank();
  auto sim = make_simulation(p, Backend::Cpu);
  StopRule rule;
  rule.max_steps = 5;
  StepLoop(*sim, rule).run();
  const HostParticles before = sim->download();
  const double m0 = total_mass(*sim);
  FluidDrop d = sphere(0.15, 0.15, 0.02);
  d.velocity[0] = -0.5;
  d.velocity[1] = -0.5;
  std::size_t k = 0;
  auto grown = add_fluid(*sim, p, d, &k);
  ASSERT_GT(k, 30u);
  EXPECT_EQ(grown->particle_count(), before.n + k);
  EXPECT_EQ(grown->fluid_count(), sim->fluid_count() + k);
  EXPECT_EQ(grown->time(), sim->time());
  EXPECT_EQ(grown->steps(), sim->steps());
  EXPECT_LE(grown->dt(), sim->dt());
  // Mass: k particles of rho0 dp^2 (the builder's fluid mass).
  EXPECT_NEAR(total_mass(*grown) - m0, double(k) * 1000 * 0.005 * 0.005, 1e-12 * m0);
  // The old particles exactly as they were (matched by id); the new ones at rest density, moving as dropped.
  const HostParticles after = grown->download();
  std::vector<long> slot(after.n, -1);
  for (std::size_t i = 0; i < before.n; ++i) slot[before.id[i]] = long(i);
  std::size_t new_ones = 0;
  double c0x = 0, c0y = 0;
  for (std::size_t i = 0; i < after.n; ++i) {
    if (after.id[i] >= before.n) {
      ++new_ones;
      EXPECT_EQ(after.velocity[2 * i], -0.5);
      EXPECT_EQ(after.density[i], 1000);
      EXPECT_EQ(after.kind[i], kFluid);
      c0x += after.position[2 * i] / double(k);
      c0y += after.position[2 * i + 1] / double(k);
      continue;
    }
    const std::size_t j = std::size_t(slot[after.id[i]]);
    EXPECT_EQ(after.position[2 * i], before.position[2 * j]);
    EXPECT_EQ(after.position[2 * i + 1], before.position[2 * j + 1]);
    EXPECT_EQ(after.velocity[2 * i + 1], before.velocity[2 * j + 1]);
    EXPECT_EQ(after.density[i], before.density[j]);
  }
  EXPECT_EQ(new_ones, k);
  // Runs on: 100 steps, no blow-up, no NaN, mass kept; the drop flies as a free body would:
  // x - x0 = v t, y - y0 = v t - g t^2 / 2 (its centroid, within 10%: it is a fluid).
  const double t0 = grown->time();
  rule.max_steps = 100;
  StepLoop(*grown, rule).run();
  const double t = grown->time() - t0;
  const HostParticles end = grown->download();
  double cx = 0, cy = 0;
  for (std::size_t i = 0; i < end.n; ++i) {
    for (int e = 0; e < 2; ++e) ASSERT_TRUE(std::isfinite(end.position[2 * i + e]) && std::isfinite(end.velocity[2 * i + e]));
    if (end.id[i] >= before.n) cx += end.position[2 * i] / double(k), cy += end.position[2 * i + 1] / double(k);
  }
  const double ex = -0.5 * t, ey = -0.5 * t - 0.5 * 9.81 * t * t;
  EXPECT_NEAR(cx - c0x, ex, 0.1 * std::fabs(ex)) << "after " << t << " s";
  EXPECT_NEAR(cy - c0y, ey, 0.1 * std::fabs(ey));
  EXPECT_NEAR(total_mass(*grown), m0 + double(k) * 0.025, 1e-12 * m0);
}

// A snapshot (the recorder's single-frame write) of a run with fluid added restarts as the run goes on.
TEST(FluidDrop, SnapshotAfterADropRestartsBitExactly) {
  const ParamSet p = small_tank("float");
  auto sim = make_simulation(p, Backend::Cpu);
  StopRule rule;
  rule.max_steps = 5;
  StepLoop(*sim, rule).run();
  auto grown = add_fluid(*sim, p, sphere(0.15, 0.15, 0.02));
  StepLoop(*grown, rule).run();
  const std::string path = (std::filesystem::temp_directory_path() / ("ejecta-drop-" + std::to_string(getpid()) + ".h5")).string();
  {
    RunInfo info;
    info.dim = 2;
    info.precision = "float";
    info.backend = "cpu";
    info.scene_ini = p.to_ini();
    H5Recorder rec(path, info, RecordOptions{});
    rec.write_frame(grown->capture_frame());
  }
  const H5Reader reader(path);
  const ParamSet recorded = read_scene_string(reader.info().scene_ini, "recorded");
  auto resumed = make_simulation_from_frame(recorded, Backend::Cpu, reader.read_frame(0));
  std::filesystem::remove(path);
  std::filesystem::remove(path.substr(0, path.size() - 3) + ".xdmf");
  rule.max_steps = 15;
  StepLoop(*grown, rule).run();
  StepLoop(*resumed, rule).run();
  test::expect_same_state(*grown, *resumed);
}

TEST(FluidDrop, CudaAddsTheSameDrop) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = small_tank();
  auto cpu = make_simulation(p, Backend::Cpu);
  auto gpu = make_simulation(p, Backend::Cuda);
  std::size_t kc = 0, kg = 0;
  cpu = add_fluid(*cpu, p, sphere(0.15, 0.15, 0.02), &kc);
  gpu = add_fluid(*gpu, p, sphere(0.15, 0.15, 0.02), &kg);
  EXPECT_EQ(kc, kg);
  EXPECT_EQ(gpu->backend(), Backend::Cuda);
  StopRule rule;
  rule.max_steps = 100;
  StepLoop(*cpu, rule).run();
  StepLoop(*gpu, rule).run();
  const test::ParticleDifference d = test::max_difference_by_id(cpu->download(), gpu->download());
  EXPECT_LT(d.position, 1e-9) << "double precision, the same functors";
  EXPECT_NEAR(total_mass(*gpu), total_mass(*cpu), 1e-12);
}

}  // namespace
}  // namespace ejecta
