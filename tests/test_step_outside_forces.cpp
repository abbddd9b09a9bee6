// The liquid's step outside the force pass (issue 18, helper speed11; docs/benchmarks.md, "the step
// outside the force pass"): the bucket table in two passes (neighbors/bucket_offsets.h) against
// std::lower_bound; the walls' pressure pass over the wet walls' list (boundary.wall_threads = wet)
// against every thread, bit for bit.
#include "exec/exec_cpu.h"
#include "neighbors/bucket_offsets.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace ejecta {
namespace {

// Sorted keys with long empty runs (the air over the water), crowded keys and the last keys empty.
void expect_offsets_match(std::size_t n, uint32_t m, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys(n);
  for (auto& k : keys) {
    const uint32_t r = rng() % 4;
    k = r == 0 ? rng() % std::max(1u, m / 3) : r == 1 ? m / 2 + rng() % 3 : rng() % std::max(1u, m - m / 8);
    k = std::min(k, m - 1);
  }
  std::sort(keys.begin(), keys.end());
  CpuExec exec;
  std::vector<uint32_t> offset(std::size_t(m) + 1, 0xdeadbeefu);
  build_bucket_offsets(exec, keys.data(), offset.data(), uint32_t(n), m);
  for (uint32_t b = 0; b <= m; ++b)
    ASSERT_EQ(offset[b], uint32_t(std::lower_bound(keys.begin(), keys.end(), b) - keys.begin()))
        << "key " << b << " of " << m << ", n " << n;
}

TEST(BucketTable, TwoPassesMatchLowerBound) {
  expect_offsets_match(5000, 10000, 1u);  // about 2 keys a particle, as the liquid's grid
  expect_offsets_match(5000, 6400, 2u);   // m a multiple of 64
  expect_offsets_match(300, 100000, 3u);  // mostly empty
  expect_offsets_match(20000, 70, 4u);    // crowded, m just over one stretch
  expect_offsets_match(10, 1, 5u);        // one key
  expect_offsets_match(0, 130, 6u);       // no particle
}

// boundary.wall_threads = wet: the wall pass over the wet walls' list, each wall's sums as over every
// particle, so the same state bit for bit (40 steps of the 3D dam break at dp 0.06, float, half cells;
// in double with cells of the support, no-slip walls and the walls' pressure with the fluid's acceleration).
std::unique_ptr<Simulation> run_dam_break(std::vector<std::string> o, long steps) {
  auto sim = make_simulation(test::shipped_scene("dambreak3d.ini", o), Backend::Cpu);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  return sim;
}

void expect_wet_list_same_state(std::vector<std::string> o, long steps) {
  std::vector<std::string> all = o, wet = o;
  all.push_back("boundary.wall_threads=all");
  wet.push_back("boundary.wall_threads=wet");
  const auto a = run_dam_break(all, steps), b = run_dam_break(wet, steps);
  test::expect_same_state(*a, *b);
  // The walls' values too, the dry walls' included (given by the flag pass over the list; no fluid
  // particle reads them, so the state alone would not tell).
  const std::vector<std::string> walls = {"pressure", "density_predicted", "velocity_predicted"};
  const FrameData fa = a->capture_frame(walls), fb = b->capture_frame(walls);
  ASSERT_EQ(fa.fields.size(), walls.size());
  for (std::size_t k = 0; k < walls.size(); ++k) EXPECT_EQ(fa.fields[k].bytes, fb.fields[k].bytes) << walls[k];
}

TEST(WallThreads, WetListSameState_DamBreak3D_Float) { expect_wet_list_same_state({"particles.dp=0.06"}, 40); }
TEST(WallThreads, WetListSameState_Double) {
  expect_wet_list_same_state({"particles.dp=0.06", "scene.precision=double", "fluid.neighbour_cells=support",
                              "boundary.slip=no_slip", "boundary.wall_pressure=fluid_acceleration"},
                             30);
}

}  // namespace
}  // namespace ejecta
