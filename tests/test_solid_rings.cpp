// Colliding rubber rings (scenes/rings2d.ini; Gray, Monaghan & Swift 2001, CMAME 190, 6641, "GMS01",
// the colliding-rings test; Monaghan 2000, J. Comput. Phys. 159, 290). With the artificial stress
// (epsilon = 0.3, n = 4; GMS01 sec. 4, Monaghan 2000) the rings flatten, bounce and
// separate intact; without it the tension in the ring walls clumps particles and breaks the rings (the
// tensile instability, Swegle, Hicks & Attaway 1995, J. Comput. Phys. 116, 123). Both are checked, at
// dp = 2 mm (5 particles across the 1 cm wall, 548 per ring; GMS01 use about 10) to keep each run
// near 6 s on one core; the scene itself ships with dp = 1 mm.
#include "ring_metrics.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace ejecta {
namespace {

struct RingRun {
  double min_sep = 1e30;          // smallest particle separation over the samples, in dp
  double min_sep_within = 1e30;   // the same within one ring (the rest is across the contact)
  std::size_t pieces_max = 0;     // most pieces of either ring over the samples (links < 1.5 dp)
  double v0 = 0;                  // initial x velocity of ring 1 (ring 2: -v0)
  double v1_end = 0, v2_end = 0;  // centre-of-mass x velocities at the end
  double energy_drift = 0;        // max over the steps of |E - E0| / E0, E = kinetic + internal
  double momentum_x = 0;          // max |P_x| over the steps, in units of sum m |v0|
};

// Runs the scene at dp = 2 mm to t = 12 ms (contact at 0.2 ms, separation by about 11 ms) and samples
// the particle measures every 20 steps, the energy every step.
RingRun run_rings(std::vector<std::string> overrides, double dp = 0.002) {
  overrides.push_back("solid_block.1.dp=" + std::to_string(dp));
  overrides.push_back("solid_block.2.dp=" + std::to_string(dp));
  const ParamSet p = test::shipped_scene("rings2d.ini", overrides);
  const double until = 0.012;
  auto sim = make_simulation(p, Backend::Cpu);
  const HostParticles h0 = sim->download();
  const std::size_t n = h0.n;
  std::size_t n1 = 0;  // block 1 (the left ring) comes first in the layout: ids 0 .. n1 - 1
  for (std::size_t i = 0; i < n; ++i)
    if (h0.position[2 * i] < 0) ++n1;
  RingRun r;
  r.v0 = test::body_velocity(h0, test::body_of(h0, 0, n1), 0);
  double pscale = 0;
  for (std::size_t i = 0; i < n; ++i) pscale += h0.mass[i] * std::fabs(h0.velocity[2 * i]);
  const Diagnostics d0 = sim->diagnostics();
  long k = 0;
  test::run_until(*sim, until, [&](const Simulation& s) {
    const Diagnostics d = s.diagnostics();
    r.energy_drift = std::max(r.energy_drift, std::fabs(d.total / d0.total - 1));
    r.momentum_x = std::max(r.momentum_x, std::fabs(d.momentum[0]) / pscale);
    if (++k % 20) return true;
    const HostParticles h = s.download();
    r.min_sep = std::min(r.min_sep, test::min_separation_2d(h, 1.5 * dp) / dp);
    for (const auto& body : {test::body_of(h, 0, n1), test::body_of(h, n1, n)}) {
      r.pieces_max = std::max(r.pieces_max, test::pieces_2d(h, body, 1.5 * dp).size());
      r.min_sep_within = std::min(r.min_sep_within, test::min_separation_within_2d(h, body, 1.5 * dp) / dp);
    }
    return true;
  });
  const HostParticles h = sim->download();
  r.v1_end = test::body_velocity(h, test::body_of(h, 0, n1), 0);
  r.v2_end = test::body_velocity(h, test::body_of(h, n1, n), 0);
  std::printf("rings (%s): n = %zu (%zu + %zu), %ld steps to t = %.4f s; v0 = %.3f m/s, v_end = %.3f, %.3f m/s; "
              "min separation %.3f dp (%.3f dp within a ring); most pieces %zu; energy drift %.2e; |P_x| %.1e\n",
              overrides.size() > 2 ? overrides[0].c_str() : "solid.artificial_stress=0.3", n, n1, n - n1, sim->steps(), sim->time(),
              r.v0, r.v1_end, r.v2_end, r.min_sep, r.min_sep_within, r.pieces_max, r.energy_drift, r.momentum_x);
  return r;
}

TEST(SolidRings, BounceApartIntactWithArtificialStress) {
  const RingRun r = run_rings({});
  // Measured (dp = 2 mm): v0 = 7.579 m/s, v_end = -5.518 / +5.518 m/s (0.73 v0: the rest stays in
  // the rings' vibration), min separation 0.667 dp, one piece per ring throughout, energy drift
  // 1.2e-3 (without the artificial-stress work in du/dt it was 2.9e-2).
  EXPECT_NEAR(r.v0, 7.579, 1e-3);
  EXPECT_LT(r.v1_end, -0.5 * r.v0) << "ring 1 must rebound";
  EXPECT_GT(r.v2_end, 0.5 * r.v0) << "ring 2 must rebound";
  EXPECT_GT(r.min_sep, 0.5) << "no clumping: particles stay more than dp/2 apart";
  EXPECT_EQ(r.pieces_max, 1u) << "no fracture: each ring stays one set linked below 1.5 dp";
  EXPECT_LT(r.energy_drift, 0.01);
  EXPECT_LT(r.momentum_x, 1e-12);
}

// Documents the tensile instability the artificial stress cures; fails if it stops appearing (e.g.
// if a change elsewhere stabilises tension, the artificial stress tests above need a harder case).
TEST(SolidRings, TensileInstabilityWithoutArtificialStress) {
  const RingRun r = run_rings({"solid.artificial_stress=0"});
  // Measured: min separation 0.003 dp (below 0.5 dp from t ~ 1.7 ms), 4 pieces per ring (from
  // t ~ 5.5 ms), and the rings barely separate (v_end = -0.467 / +0.467 m/s = 0.06 v0); energy drift
  // 4.0e-3 (energy stays conserved: the instability is a wrong but conservative dynamics).
  EXPECT_LT(r.min_sep, 0.25) << "expected clumping (pairs closer than dp/4) without artificial stress";
  EXPECT_GE(r.pieces_max, 2u) << "expected the rings to break without artificial stress";
  EXPECT_LT(std::fabs(r.v1_end), 0.3 * r.v0) << "expected the clumped rings not to rebound cleanly";
  EXPECT_LT(r.energy_drift, 0.01);
}

// The shipped resolution (dp = 1 mm, 10 particles across the wall as in GMS01, 2196 per ring): about
// 75 s on one core, so not run by default (--gtest_also_run_disabled_tests). Measured: 9069 steps,
// v_end = -5.855 / +5.855 m/s (0.77 v0), one piece per ring, energy drift 1.9e-3, min separation
// 0.487 dp (within a ring; where and when was not examined): closer than at dp = 2 mm (0.667) but far
// from the collapse without artificial stress (0.003), hence the bound 0.4 dp here.
TEST(SolidRings, DISABLED_ShippedResolutionBouncesApartIntact) {
  const RingRun r = run_rings({}, 0.001);
  EXPECT_LT(r.v1_end, -0.5 * r.v0);
  EXPECT_GT(r.v2_end, 0.5 * r.v0);
  EXPECT_GT(r.min_sep, 0.4);
  EXPECT_EQ(r.pieces_max, 1u);
  EXPECT_LT(r.energy_drift, 0.01);
}

}  // namespace
}  // namespace ejecta
