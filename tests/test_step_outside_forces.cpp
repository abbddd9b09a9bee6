// The liquid's step outside the force pass (issue 18, helper speed11; docs/benchmarks.md, "the step
// outside the force pass"): the bucket table in two passes (neighbors/bucket_offsets.h) against
// std::lower_bound; the walls' pressure pass over the wet walls' list (boundary.wall_threads = wet)
// against every thread, bit for bit.
#include "exec/exec_cpu.h"
#include "neighbors/bucket_offsets.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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

// boundary.wall_threads = warp: a warp per wet wall, its lanes over the wall's candidates and the lanes'
// sums added across the warp (wall_pressure_adami2012.h, WallPressureWarp_Adami2012): the same pairs as
// the one-thread pass in another order, so the walls' values differ from wet's by rounding only. Checked
// after one step (one wall pass on the same state): each wall's pressure within 4 ulp-scale of the largest
// (float 2e-6, double 1e-14 of it) and its predicted velocity likewise; and after 40 steps the state
// within 1e-3 dp (float) of wet's, the pairs the same.
std::vector<double> field_by_id(const FrameData& f, const std::string& name) {
  const FieldData* ids = f.find("id");
  const FieldData* v = f.find(name);
  EXPECT_TRUE(ids && v) << name;
  if (!ids || !v) return {};
  const std::size_t n = ids->count(), c = std::size_t(v->info.components);
  std::vector<double> out(n * c);
  for (std::size_t i = 0; i < n; ++i) {
    uint32_t id = 0;
    std::memcpy(&id, ids->bytes.data() + 4 * i, 4);
    for (std::size_t k = 0; k < c; ++k) {
      double x = 0;
      if (v->info.scalar == ScalarType::Float32) {
        float y;
        std::memcpy(&y, v->bytes.data() + 4 * (i * c + k), 4);
        x = y;
      } else if (v->info.scalar == ScalarType::UInt8) {
        x = v->bytes[i * c + k];
      } else if (v->info.scalar == ScalarType::UInt32) {
        uint32_t y;
        std::memcpy(&y, v->bytes.data() + 4 * (i * c + k), 4);
        x = y;
      } else {
        std::memcpy(&x, v->bytes.data() + 8 * (i * c + k), 8);
      }
      out[std::size_t(id) * c + k] = x;
    }
  }
  return out;
}

double max_abs(const std::vector<double>& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::fabs(x));
  return m;
}
double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

void expect_warp_walls_round_off(std::vector<std::string> o, double rel) {
  std::vector<std::string> wet = o, warp = o;
  wet.push_back("boundary.wall_threads=wet");
  warp.push_back("boundary.wall_threads=warp");
  const auto a = run_dam_break(wet, 1), b = run_dam_break(warp, 1);
  const std::vector<std::string> fields = {"id", "pressure", "velocity_predicted", "kind"};
  const FrameData fa = a->capture_frame(fields), fb = b->capture_frame(fields);
  const std::vector<double> pa = field_by_id(fa, "pressure"), pb = field_by_id(fb, "pressure");
  const std::vector<double> ka = field_by_id(fa, "kind");
  // The walls' pressures (the fluid's come from the EOS, not this pass).
  std::vector<double> wa, wb;
  for (std::size_t i = 0; i < ka.size(); ++i)
    if (ka[i] == 1.0) {
      wa.push_back(pa[i]);
      wb.push_back(pb[i]);
    }
  const double top = max_abs(wa), diff = max_abs_difference(wa, wb);
  std::printf("  walls %zu, largest wall pressure %.6g Pa, warp against one thread %.3g Pa (%.3g of it)\n", wa.size(), top,
              diff, diff / top);
  EXPECT_GT(top, 100.0) << "the walls feel the column";
  EXPECT_LE(diff, rel * top);
  EXPECT_GT(diff, 0.0) << "the warp's order rounds somewhere (else the one-thread pass ran)";
  const double dv = max_abs_difference(field_by_id(fa, "velocity_predicted"), field_by_id(fb, "velocity_predicted"));
  EXPECT_LE(dv, 1e-3) << "the no-slip walls' mirrored velocity";
}

TEST(WallThreads, WarpWallsDifferByRoundOff_Float) {
  expect_warp_walls_round_off({"particles.dp=0.06", "boundary.slip=no_slip"}, 2e-6);
}
TEST(WallThreads, WarpWallsDifferByRoundOff_Double) {
  expect_warp_walls_round_off({"particles.dp=0.06", "scene.precision=double", "fluid.neighbour_cells=support",
                               "boundary.wall_pressure=fluid_acceleration"},
                              1e-14);
}
TEST(WallThreads, WarpKeepsTheStateOfTheThreadPass_40Steps) {
  const auto a = run_dam_break({"particles.dp=0.06", "boundary.wall_threads=wet"}, 40);
  const auto b = run_dam_break({"particles.dp=0.06", "boundary.wall_threads=warp"}, 40);
  const test::ParticleDifference d = test::max_difference_by_id(a->download(), b->download());
  std::printf("  40 steps, warp against one thread: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n", d.position, d.velocity,
              d.density);
  EXPECT_LT(d.position, 1e-3 * 0.06);
  EXPECT_LT(d.density, 1e-2);
}

// On the GPU the warp's shuffles against the CPU's emulated warp, and against the one-thread pass: 200 steps
// of the 3D dam break at dp = 0.04, float, within 1e-3 dp of each.
TEST(WallThreads, CudaWarpAgreesWithCpuAndWithOneThread) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const auto run_on = [](const char* threads, Backend backend) {
    auto sim = make_simulation(test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04", threads}), backend);
    StopRule rule;
    rule.max_steps = 200;
    StepLoop(*sim, rule).run();
    return sim;
  };
  const auto gpu_warp = run_on("boundary.wall_threads=warp", Backend::Cuda);
  const auto gpu_wet = run_on("boundary.wall_threads=wet", Backend::Cuda);
  const auto cpu_warp = run_on("boundary.wall_threads=warp", Backend::Cpu);
  for (const auto& [other, name] : {std::pair{gpu_wet.get(), "GPU, one thread a wall"}, std::pair{cpu_warp.get(), "CPU, warp"}}) {
    const test::ParticleDifference d = test::max_difference_by_id(gpu_warp->download(), other->download());
    std::printf("  GPU warp against %s, 200 steps: |dx| %.3g m, |dv| %.3g m/s, |drho| %.3g\n", name, d.position, d.velocity,
                d.density);
    EXPECT_LT(d.position, 1e-3 * 0.04) << name;
  }
}

}  // namespace
}  // namespace ejecta
