// The release of SPHERIC benchmark 2's column (scenes/dambreak3d.ini) against the potential-flow
// solution at the instant of release, and the experiment's clock (issue 12, docs/physics.md).
//
// At t = 0+ an incompressible column released from rest has, in 2D (x from the gate into the
// reservoir, depth H, back wall at x = L), the pressure p = rho g (H - z) + phi with phi harmonic,
// phi = 0 on the free surface z = H, d phi/dz = 0 on the floor, d phi/dx = 0 at the back wall and
// p = 0 on the released face x = 0. In cosines k_n = (2n + 1) pi / (2H):
//   phi = -sum_n (2 rho g / (H k_n^2)) cos(k_n z) cosh(k_n (L - x)) / cosh(k_n L),
// so the free surface starts to fall with the acceleration
//   a(x) = -(1/rho) d phi / dz (z = H) = -g sum_n (-1)^n (2 / (H k_n)) cosh(k_n (L - x)) / cosh(k_n L)
// (the small-time problem of dam-break flow, see Stansby, Chegini & Barnes 1998, J. Fluid Mech. 374,
// 407; the tank is 1 m wide and the release is uniform across it, so it is 2D). At the reservoir gauge H4
// (x = 0.646 m, H = 0.55 m, L = 1.228 m) a = -0.207 g: the level falls 0.5 |a| t^2, 3.6 mm by 60 ms.
//
// expect_release_matches_potential_flow (checked on the first 0.1 s of Spheric2.CoarseCpuMatchesExperiment's
// run, CPU, dp = 0.05; it had a run of its own to 0.1 s before): the simulated H4 falls like that
// within 15% at 60 and 80 ms. A column that started compressed, stuck to the walls or was released
// late would lag. The experiment's H4 falls 3.9 mm in the first 20 ms, which needs a downward
// acceleration of 2.0 g: its series starts after the water began to move (printed for the record).
#include "spheric2_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ejecta {
namespace {

// Surface acceleration at distance x from the released face (potential flow at t = 0+, above).
double release_acceleration(double x, double H, double L, double g) {
  const double pi = std::acos(-1.0);
  double a = 0;
  for (int n = 0; n < 40; ++n) {
    const double k = (2 * n + 1) * pi / (2 * H);
    // cosh(k (L - x)) / cosh(k L), written without overflow
    const double c = (std::exp(-k * x) + std::exp(-k * (2 * L - x))) / (1 + std::exp(-2 * k * L));
    a -= g * (n % 2 ? -1.0 : 1.0) * (2 / (H * k)) * c;
  }
  return a;
}

// Linear interpolation of series a(t) at T.
double at(const std::vector<double>& t, const std::vector<double>& a, double T) {
  for (std::size_t i = 1; i < t.size(); ++i)
    if (t[i] >= T) return a[i - 1] + (a[i] - a[i - 1]) * (T - t[i - 1]) / (t[i] - t[i - 1]);
  return a.back();
}

TEST(Spheric2, ReleaseAccelerationIsPotentialFlow) {
  // Semi-infinite reservoir limit: the leading term -(4/pi) g exp(-pi x / 2H) dominates far from the
  // gate, and the surface at the gate falls at g (the series of (-1)^n / (2n + 1) sums to pi / 4).
  const double g = 9.81, pi = std::acos(-1.0);
  EXPECT_NEAR(release_acceleration(0.646, 0.55, 1e3, g), -(4 / pi) * g * std::exp(-pi * 0.646 / 1.1), 0.002 * g);
  EXPECT_NEAR(release_acceleration(0.0, 0.55, 1e3, g), -g, 0.02 * g);
  EXPECT_NEAR(release_acceleration(0.646, 0.55, 1.228, g), -0.207 * g, 0.001 * g);
}

}  // namespace

namespace test {
// The run's H4 (scenes/dambreak3d.ini at dp = 0.05 on the CPU, Spheric2.CoarseCpuMatchesExperiment: the
// first 0.1 s of its run) against the potential flow at the release.
void expect_release_matches_potential_flow(const Spheric2Series& s) {
  const test::Spheric2Series e = test::spheric2_experiment();
  ASSERT_GT(s.t.size(), 10u);
  ASSERT_GT(e.t.size(), 100u);
  // H4 of scenes/dambreak3d.ini stands at x = 2.638, 0.646 m behind the column's face at x = 1.992.
  const double x = 2.638 - 1.992, a = release_acceleration(x, 0.55, 1.228, 9.81);
  const std::vector<double>& h4 = s.h[3];
  for (double T : {0.02, 0.04, 0.06, 0.08, 0.1}) {
    const double drop = h4[0] - at(s.t, h4, T), theory = -0.5 * a * T * T;
    const double measured = e.h[3][0] - at(e.t, e.h[3], T);
    std::printf("  t %.2f s  H4 drop: run %.2f mm, potential flow 0.5|a|t^2 %.2f mm, experiment %.2f mm\n", T,
                1e3 * drop, 1e3 * theory, 1e3 * measured);
    // 15% at 60 and 80 ms: earlier the drop is below the gauge's resolution at dp = 0.05 (1 mm is
    // dp/50), later the small-time expansion no longer holds (the falling surface spreads).
    if (T > 0.05 && T < 0.09) EXPECT_NEAR(drop, theory, 0.15 * theory) << "H4 drop at t = " << T;
  }
}

}  // namespace test
}  // namespace ejecta
