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
  std::printf(" %ld steps to t = %.4f s; P_y = 0 at %.5f s, Y = 0 at %.5f s\n", sim->steps(), sim->time(), z.z_p,
              z.z_y);
  std::fflush(stdout);
  return z;
}

// scenes/plate2d.ini: rubber (E = 1e7 Pa, nu = 0.4, rho0 = 1010 kg/m^3), L = 0.2 m from the clamp
// face x = 0 (the last clamp column sits at -dp/2, the first plate column at +dp/2), H = 0.02 m.
const double kE = 1e7, kNu = 0.4, kRho = 1010, kH = 0.02, kL = 0.2;

// The shipped scene: H/dp = 10, h = 1.3 dp, gradient correction, artificial stress 0.3. Measured:
// P_y = 0 at 0.03292 s, Y = 0 at 0.06586 s (12299 steps, 18 s on one core): T = 4 z_p = 0.13167 s
// and 2 z_y = 0.13172 s against 0.11404 s (+15.5%; from the second P_y zero, 2 (z2 - z1) = 0.13171 s).
// The SPH plate is too soft: the kernel deficit of the free-surface rows, which carry most of the
// bending stiffness (the outer row of ten about half of I), and the artificial stress in the tension
// half (without the correction +18.8%, of which the artificial stress 4.6%: +14.1% without it). The
// error falls with resolution (H/dp = 20: +9.6%; the first-order extrapolation of 10 and 20 rows,
// 0.11840 s, is +3.8%: the DISABLED_ test below), so 5% at one resolution needs about 40 rows, beyond
// a unit test's budget. This test holds the 10-row result to its measured band: T above theory by
// less than 18% (a regression that softens the plate, e.g. a loose clamp, or one that makes it stiffer
// than theory fails), and a clean single mode (the two estimates of T within 1%).
TEST(SolidPlate, PeriodOfTheFirstModeAgainstThinPlateTheory) {
  const double T = plate_period(kE, kNu, kRho, kH, kL);
  const PlateZeros z = plate_zeros({}, 0.7 * T);
  ASSERT_GT(z.z_p, 0);
  ASSERT_GT(z.z_y, 0);
  const double t1 = 4 * z.z_p, t2 = 2 * z.z_y;
  std::printf("plate2d: theory T = %.5f s; SPH 4 z_p = %.5f s (%+.2f%%), 2 z_y = %.5f s (%+.2f%%)\n", T, t1,
              100 * (t1 / T - 1), t2, 100 * (t2 / T - 1));
  EXPECT_GT(t2, T);
  EXPECT_LT(t2 / T - 1, 0.18);
  EXPECT_LT(std::fabs(t1 / t2 - 1), 0.01);
}

// The convergence study behind the numbers above (H/dp = 10 and 20, first quarter period only);
// 96 s on one core (measured), so not run by default (--gtest_also_run_disabled_tests).
// First-order Richardson extrapolation T_inf = 2 T_20 - T_10 within 5% of thin-plate theory.
TEST(SolidPlate, DISABLED_ExtrapolatedPeriodWithinFivePercentOfTheory) {
  const double T = plate_period(kE, kNu, kRho, kH, kL);
  const PlateZeros z10 = plate_zeros({}, 0.32 * T);
  const PlateZeros z20 = plate_zeros({"solid_block.1.dp=0.001", "solid_block.2.dp=0.001"}, 0.32 * T);
  ASSERT_GT(z10.z_p, 0);
  ASSERT_GT(z20.z_p, 0);
  const double t10 = 4 * z10.z_p, t20 = 4 * z20.z_p, tinf = 2 * t20 - t10;
  std::printf("plate2d: T_10 = %.5f, T_20 = %.5f, extrapolated %.5f s (%+.2f%%) vs %.5f s\n", t10, t20, tinf,
              100 * (tinf / T - 1), T);
  EXPECT_LT(t20, t10);
  EXPECT_LT(std::fabs(tinf / T - 1), 0.05);
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
