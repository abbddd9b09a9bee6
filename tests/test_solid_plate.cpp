// The oscillating cantilever plate (scenes/plate2d.ini; Gray, Monaghan & Swift 2001, CMAME 190, 6641,
// the oscillating plate test): its period against thin-plate theory.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace ejecta {
namespace {

// Thin-plate (Kirchhoff) theory for the first mode of a cantilever of free length L, thickness H,
// plane strain (a plate of infinite width; Landau & Lifshitz, Theory of Elasticity, sec. 25, with the
// plate's flexural rigidity E H^3 / (12 (1 - nu^2))): omega^2 = E H^2 k^4 / (12 rho (1 - nu^2)),
// cos(kL) cosh(kL) = -1, kL = 1.87510407.
double plate_period(double E, double nu, double rho, double H, double L) {
  const double k = 1.87510407 / L;
  const double w2 = E * H * H * std::pow(k, 4) / (12 * rho * (1 - nu * nu));
  return 2 * M_PI / std::sqrt(w2);
}

// The plate's y momentum P_y (the clamp is at rest, so it is the total P_y of the diagnostics) and
// its time integral Y = int P_y dt (trapezoids; M times the mean deflection). With the first-mode
// velocity at t = 0 and no displacement, P_y ~ cos(omega t) and Y ~ sin(omega t): P_y changes sign
// at T/4 (z_p), Y at T/2 (z_y); both interpolated linearly between steps.
struct PlateZeros {
  double z_p = 0, z_y = 0;
};

PlateZeros plate_zeros(const std::vector<std::string>& overrides, double until) {
  auto sim = make_simulation(test::shipped_scene("plate2d.ini", overrides), Backend::Cpu);
  double t_prev = 0, p_prev = sim->diagnostics().momentum[1], y_prev = 0;
  PlateZeros z;
  test::run_until(*sim, until, [&](const Simulation& s) {
    const double p = s.diagnostics().momentum[1];
    const double y = y_prev + 0.5 * (p + p_prev) * (s.time() - t_prev);
    if (z.z_p == 0 && (p_prev > 0) != (p > 0)) z.z_p = t_prev + (s.time() - t_prev) * p_prev / (p_prev - p);
    if (z.z_y == 0 && t_prev > 0 && (y_prev > 0) != (y > 0))
      z.z_y = t_prev + (s.time() - t_prev) * y_prev / (y_prev - y);
    t_prev = s.time(), p_prev = p, y_prev = y;
    return !(z.z_p > 0 && z.z_y > 0);
  });
  std::printf("plate:");
  for (const auto& o : overrides) std::printf(" %s", o.c_str());
  std::printf(" %zu particles, %ld steps to t = %.4f s; P_y = 0 at %.5f s, Y = 0 at %.5f s\n", sim->download().n,
              sim->steps(), sim->time(), z.z_p, z.z_y);
  std::fflush(stdout);
  return z;
}

// scenes/plate2d.ini: rubber (E = 1e7 Pa, nu = 0.4, rho0 = 1010 kg/m^3), L = 0.2 m from the clamp
// face x = 0 (the last clamp column sits at -dp/2, the first plate column at +dp/2), H = 0.02 m.
const double kE = 1e7, kNu = 0.4, kRho = 1010, kH = 0.02, kL = 0.2;

// Timoshenko beam (shear, kappa = 5/6, G = mu, and rotary inertia; plane strain E/(1 - nu^2)) for the
// same cantilever: its first root, by shooting on the Timoshenko equations (Han, Benaroya & Wei 1999,
// J. Sound Vib. 225, 935, the clamped-free case), is T = 0.11513 s, +0.96% on thin-plate theory at
// L/H = 10 (Cowper's kappa = 10 (1 + nu)/(12 + 11 nu) gives +0.94%); the 2D elastic plate the SPH
// solves converges to it (below), not to the thin-plate value.
const double kTimoshenkoPeriod = 0.11513;

// The shipped scene: H/dp = 14, h = 1.3 dp, cubic spline, gradient correction with the corrected
// force (solid.corrected_force: the stress divergence with the corrected gradient too, Bonet & Lok
// 1999), no artificial stress. Measured: 2058 particles, P_y = 0 at 0.02966 s, Y = 0 at 0.05933 s
// (15511 steps, about 40 s on one core): T = 4 z_p = 2 z_y = 0.11865 s against thin-plate theory
// 0.11404 s (+4.04%) and Timoshenko 0.11513 s (+3.06%). The error is second order in dp (against
// Timoshenko, first P_y zero: H/dp = 10 +5.72%, 12 +4.08%, 14 +3.06%, 20 +1.53%; the DISABLED_ test
// below). Without the corrected force (the velocity gradient corrected, the force not) and with
// artificial stress 0.3, the old set-up, 10 rows gave +15.5%; docs/physics.md has the table.
// Criterion (issue 6): both estimates of T within 5% of thin-plate theory, above it (the discrete
// plate is softer, and Timoshenko's T is above thin-plate theory), and a clean single mode (the two
// estimates within 1%).
TEST(SolidPlate, PeriodOfTheFirstModeAgainstThinPlateTheory) {
  const double T = plate_period(kE, kNu, kRho, kH, kL);
  const PlateZeros z = plate_zeros({}, 0.7 * T);
  ASSERT_GT(z.z_p, 0);
  ASSERT_GT(z.z_y, 0);
  const double t1 = 4 * z.z_p, t2 = 2 * z.z_y;
  std::printf("plate2d: theory T = %.5f s (Timoshenko %.5f s); SPH 4 z_p = %.5f s (%+.2f%%), 2 z_y = %.5f s "
              "(%+.2f%%; %+.2f%% on Timoshenko)\n",
              T, kTimoshenkoPeriod, t1, 100 * (t1 / T - 1), t2, 100 * (t2 / T - 1), 100 * (t2 / kTimoshenkoPeriod - 1));
  EXPECT_GT(t1, T);
  EXPECT_GT(t2, T);
  EXPECT_LT(t1 / T - 1, 0.05);
  EXPECT_LT(t2 / T - 1, 0.05);
  EXPECT_LT(std::fabs(t1 / t2 - 1), 0.01);
}

// The convergence study behind the numbers above (H/dp = 10 and 20, first quarter period only);
// 188 s measured (sharing two cores with another run), so not run by default
// (--gtest_also_run_disabled_tests). Measured:
// T_10 = 0.12171 s, T_20 = 0.11689 s; the errors on Timoshenko fall 3.7-fold for half the spacing
// (second order), and the second-order extrapolation (4 T_20 - T_10)/3 = 0.11528 s is Timoshenko's
// 0.11513 s to 0.13% (thin-plate theory +1.1%). Criterion: within 1% of Timoshenko.
TEST(SolidPlate, DISABLED_ExtrapolatedPeriodIsTimoshenkos) {
  const double T = plate_period(kE, kNu, kRho, kH, kL);
  const PlateZeros z10 = plate_zeros({"solid_block.1.dp=0.002", "solid_block.2.dp=0.002"}, 0.32 * T);
  const PlateZeros z20 = plate_zeros({"solid_block.1.dp=0.001", "solid_block.2.dp=0.001"}, 0.32 * T);
  ASSERT_GT(z10.z_p, 0);
  ASSERT_GT(z20.z_p, 0);
  const double t10 = 4 * z10.z_p, t20 = 4 * z20.z_p, tinf = (4 * t20 - t10) / 3;
  std::printf("plate2d: T_10 = %.5f, T_20 = %.5f, extrapolated %.5f s (%+.2f%% on Timoshenko %.5f s, %+.2f%% on "
              "thin-plate %.5f s)\n",
              t10, t20, tinf, 100 * (tinf / kTimoshenkoPeriod - 1), kTimoshenkoPeriod, 100 * (tinf / T - 1), T);
  EXPECT_LT(t20, t10);
  EXPECT_LT(std::fabs(tinf / kTimoshenkoPeriod - 1), 0.01);
}

TEST(SolidPlate, CantileverProfileNeedsABox) {
  const char* ini =
      "[scene]\ndim = 2\n[physics]\nmodel = solid\n[solid_block.1]\nshape = shell\ncenter = 0, 0\n"
      "radius = 0.04\ninner_radius = 0.03\ndp = 0.002\nmaterial = rubber\nvelocity_profile = cantilever\n";
  std::string what;
  try {
    make_simulation(read_scene_string(ini, "bad.ini"), Backend::Cpu);
  } catch (const ParamError& e) {
    what = e.what();
  }
  EXPECT_EQ(what.rfind("bad.ini:12: ", 0), 0u) << what;
  EXPECT_NE(what.find("velocity_profile = cantilever needs solid_block.1.shape = box"), std::string::npos) << what;
}

}  // namespace
}  // namespace ejecta
