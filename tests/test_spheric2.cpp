// SPHERIC benchmark 2 (Kleefsman et al. 2005; scenes/dambreak3d.ini) against the experiment's series in
// tests/data/spheric2_kleefsman2005.csv, measured by the scene's own probes and gauges (P1, H1-H4,
// sampled on the device every 1 ms; tests/spheric2_util.h).
//  - Spheric2.ExperimentFigures: the figure definitions reproduce the experiment's summary (README of
//    the data): P1 arrival 0.393 s, 5 ms peak 10.6 kPa, late mean 2826 Pa, H3 arrival 0.218 s.
//  - Spheric2.CoarseCpuMatchesExperiment (CI): dp = 0.05 on the CPU, to 1.5 s: P1's first arrival, the
//    front's arrival at x = 1.488 (H3) and P1's mean over 1.0-1.5 s, with tolerances from the resolution
//    study in docs/physics.md. The same run (the suite's most expensive) also carries the checks that
//    ran this scene at dp = 0.05 on their own before: the release against potential flow over its first
//    0.1 s (tests/test_spheric2_release.cpp) and, at 0.5 s, the surge past the obstacle with no leaks,
//    mass kept and no energy rise (formerly Scenes3D.DamBreakReachesTheObstacleWithoutLeaks). The probes
//    only read the state and the loop never shortens a step for them, so these see the same states as
//    the separate runs did (their figures, printed, are the same).
//  - Spheric2.GoalTableGpu (GPU only, skips without one): dp = 0.01 in float, issue 12's goal table, on
//    the experiment's clock (the run's times less 30 ms; raw figures printed beside).
// EJECTA_SPHERIC2_SET="key=value;key=value" adds overrides and EJECTA_SPHERIC2_CSV=FILE writes the
// probe series as the probe CSV of `ejecta --headless` (both for studies, e.g. scripts/plot-spheric2.py;
// the tests as committed use neither).
#include "spheric2_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ejecta {
namespace {

std::vector<std::string> study_overrides(std::vector<std::string> base) {
  if (const char* env = std::getenv("EJECTA_SPHERIC2_SET")) {
    std::stringstream ss(env);
    std::string kv;
    while (std::getline(ss, kv, ';'))
      if (!kv.empty()) base.push_back(kv);
  }
  return base;
}

// A probe series as P1 and H1-H4, written to EJECTA_SPHERIC2_CSV first when that is set.
test::Spheric2Series series(const ProbeSeries& ps) {
  if (const char* env = std::getenv("EJECTA_SPHERIC2_CSV")) write_probe_csv(ps, env);
  return test::spheric2_from_probes(ps);
}

// The run's probe series as P1 and H1-H4.
test::Spheric2Series run(const std::vector<std::string>& overrides, Backend backend, double end) {
  return series(test::run_spheric2_probes(study_overrides(overrides), backend, end));
}

// The 3D dam break at dp = 0.05 after 0.5 s (was Scenes3D.DamBreakReachesTheObstacleWithoutLeaks, its own
// run of the same scene to 0.5 s): the surge has crossed the 1.17 m from the water's front to the
// obstacle's back face (x = 0.8245 m) in the closed tank, no fluid particle is outside it, the mass is
// the start's and the total energy (sampled every 50 steps) never rose 0.5% above its start. Fed every
// step of the run; reads the state after the step that reaches 0.5 s, as run_until(sim, 0.5) ends there.
struct ObstacleAtHalfSecond {
  Diagnostics d0;
  double rise = 0, xmin = 1e9, mass = 0, time = 0;
  std::size_t outside = 0;
  long step = 0;
  bool done = false;
  explicit ObstacleAtHalfSecond(const Simulation& sim) : d0(sim.diagnostics()) {}
  void on_step(const Simulation& s) {
    if (done) return;
    if (++step % 50 == 0) rise = std::max(rise, (s.diagnostics().total - d0.total) / std::fabs(d0.total));
    if (s.time() < 0.5) return;
    done = true;
    time = s.time();
    mass = s.diagnostics().mass;
    const HostParticles h = s.download();
    for (std::size_t i = 0; i < h.n; ++i) {
      if (h.kind[i] != kFluid) continue;
      const double x = h.position[3 * i], y = h.position[3 * i + 1], z = h.position[3 * i + 2];
      xmin = std::min(xmin, x);
      if (x < 0 || x > 3.22 || y < 0 || y > 1 || z < 0 || z > 1) ++outside;
    }
  }
  void expect() const {
    ASSERT_TRUE(done);
    std::printf("  3D: front at x = %.3f m after 0.5 s (t = %.5f s), energy rise %.3g%%\n", xmin, time, 100 * rise);
    EXPECT_LT(xmin, 0.8245) << "the surge should have reached the obstacle by 0.5 s";
    EXPECT_EQ(outside, 0u) << "fluid particles outside the tank at 0.5 s";
    EXPECT_EQ(mass, d0.mass);
    EXPECT_LT(rise, 0.005) << "total energy rose above its start by 0.5 s";
  }
};

TEST(Spheric2, ExperimentFigures) {
  const test::Spheric2Series e = test::spheric2_experiment();
  ASSERT_GT(e.t.size(), 1900u) << "tests/data/spheric2_kleefsman2005.csv missing or short";
  const test::Spheric2Figures f = test::spheric2_figures(e);
  test::print_figures("experiment", f);
  EXPECT_NEAR(f.p1_arrival, 0.393, 0.001);
  EXPECT_NEAR(f.p1_peak_mean5, 10600, 100);
  EXPECT_NEAR(f.p1_mean_late, 2826, 5);
  EXPECT_NEAR(f.h3_arrival, 0.218, 0.001);
  EXPECT_NEAR(f.h2[0], 0.099, 0.002);
  EXPECT_NEAR(f.h4[2], 0.182, 0.002);
}

// The H4 fit of the clock offset recovers a known shift: the experiment's own series, delayed by 30 ms.
TEST(Spheric2, ClockOffsetFitRecoversAShift) {
  const test::Spheric2Series exp = test::spheric2_experiment();
  ASSERT_GT(exp.t.size(), 1900u);
  EXPECT_NEAR(test::spheric2_h4_clock_offset(test::spheric2_shifted(exp, -0.030), exp), 0.030, 0.0006);
  EXPECT_NEAR(test::spheric2_h4_clock_offset(exp, exp), 0.0, 0.0006);
}

TEST(Spheric2, CoarseCpuMatchesExperiment) {
  const test::Spheric2Figures e = test::spheric2_figures(test::spheric2_experiment());
  auto sim = make_simulation(test::spheric2_scene(study_overrides({"particles.dp=0.05"})), Backend::Cpu);
  ObstacleAtHalfSecond obstacle(*sim);
  const test::Spheric2Series s =
      series(test::run_probe_series(*sim, 1.5, [&](const Simulation& st) { obstacle.on_step(st); }));
  obstacle.expect();
  EXPECT_EQ(sim->diagnostics().mass, obstacle.d0.mass) << "mass at 1.5 s";
  test::expect_release_matches_potential_flow(s);
  const test::Spheric2Figures f = test::spheric2_figures(s);
  test::print_figures("experiment", e);
  test::print_figures("coarse", f);
  // Tolerances from the resolution study in docs/physics.md (defaults, float): at dp = 0.01 (GPU) the
  // run misses the experiment by +28.6 ms (P1 arrival), +26.4 ms (front at x = 1.488) and -2.6% (P1 late
  // mean); dp = 0.05 / 0.04 / 0.03 (CPU) add +7..+14 ms, +10..+28 ms and -9..-12% to that (measured at
  // dp = 0.05: +42.6 ms, +54.3 ms, -12.5%). Each band is the dp = 0.01 miss plus the coarse spread plus
  // 10 ms (5% on the mean): a run that falls behind what the dp = 0.01 run and the ladder show fails.
  // That study used host-side sensors; the scene's probes (docs/probes.md) differ in two ways that
  // move the coarse figures: P1 reads 0 until the fluid's kernel sum at the point reaches 0.1 (dry),
  // where the old sensor averaged whatever fluid was in reach (at dp = 0.05 the support is 13 cm), and
  // the gauges count the walls in the colour, so a thin film on the floor reads its height. Measured at
  // dp = 0.05 with the probes: +58.1 ms (P1 reads 0 to 0.450 s, then 3.8 kPa at 0.451 s), +41.1 ms,
  // -12.5%. The P1 band grows by that shift, 16 ms: a sensor's definition, not the flow.
  EXPECT_NEAR(f.p1_arrival, e.p1_arrival, 0.071) << "P1 first above 500 Pa";
  EXPECT_NEAR(f.h3_arrival, e.h3_arrival, 0.065) << "front at x = 1.488 (H3 above 0.02 m)";
  EXPECT_NEAR(f.p1_mean_late, e.p1_mean_late, 0.20 * e.p1_mean_late) << "P1 mean over 1.0-1.5 s";
}

// The goal table on the experiment's clock: the run's times less kSpheric2ClockOffset (30 ms, the
// evidence in tests/spheric2_util.h and docs/physics.md), the raw figures printed beside and the raw
// P1 tension checked on both clocks. The H4 fit of the offset is printed for the record.
TEST(Spheric2, GoalTableGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const test::Spheric2Series exp = test::spheric2_experiment();
  const test::Spheric2Figures e = test::spheric2_figures(exp);
  const double s = test::kSpheric2ClockOffset;
  // Run past 1.5 s by the offset, so the shifted series still reaches the experiment's 1.5 s.
  const test::Spheric2Series raw = run({"particles.dp=0.01", "scene.precision=float"}, Backend::Cuda, 1.5 + s + 0.005);
  const test::Spheric2Figures r = test::spheric2_figures(raw);
  const test::Spheric2Figures f = test::spheric2_figures(test::spheric2_shifted(raw, s));
  test::print_figures("experiment", e);
  test::print_figures("GPU, raw", r);
  test::print_figures("GPU, -30ms", f);
  std::printf("  H4 fit of the clock offset (0.1-0.5 s, for the record): %.1f ms\n",
              1000 * test::spheric2_h4_clock_offset(raw, exp));
  EXPECT_NEAR(f.p1_arrival, 0.393, 0.010) << "P1 first above 500 Pa (raw " << r.p1_arrival << " s)";
  EXPECT_NEAR(f.h3_arrival, 0.218, 0.010) << "front at x = 1.488 (raw " << r.h3_arrival << " s)";
  EXPECT_NEAR(f.p1_peak_mean5, 10600, 0.30 * 10600) << "P1 peak of the 5 ms running mean";
  EXPECT_GT(f.p1_min_after, -2000) << "P1 after the impact, 0.43-0.50 s (experiment's clock)";
  EXPECT_GT(r.p1_min_after, -2000) << "P1 after the impact, 0.43-0.50 s (raw clock)";
  EXPECT_NEAR(f.p1_mean_late, e.p1_mean_late, 0.05 * e.p1_mean_late) << "P1 mean over 1.0-1.5 s";
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(f.h2[k], e.h2[k], 0.05 * e.h2[k]) << "H2 at " << 0.5 * (k + 1) << " s (raw " << r.h2[k] << ")";
    EXPECT_NEAR(f.h4[k], e.h4[k], 0.05 * e.h4[k]) << "H4 at " << 0.5 * (k + 1) << " s (raw " << r.h4[k] << ")";
  }
}

}  // namespace
}  // namespace ejecta
