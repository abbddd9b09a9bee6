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

// Zeros of the y momentum of the plate (the clamp is at rest, so it is the total P_y of the
// diagnostics), interpolated linearly between steps. With the first-mode velocity at t = 0 and no
// displacement, P_y(t) ~ cos(omega t): zeros at T/4, 3T/4, ...
std::vector<double> plate_momentum_zeros(const std::vector<std::string>& overrides, double until) {
  auto sim = make_simulation(test::shipped_scene("plate2d.ini", overrides), Backend::Cpu);
  double t_prev = 0, v_prev = sim->diagnostics().momentum[1];
  std::vector<double> zeros;
  test::run_until(*sim, until, [&](const Simulation& s) {
    const double v = s.diagnostics().momentum[1];
    if ((v_prev > 0) != (v > 0)) zeros.push_back(t_prev + (s.time() - t_prev) * v_prev / (v_prev - v));
    t_prev = s.time(), v_prev = v;
    return true;
  });
  std::printf("plate:");
  for (const auto& o : overrides) std::printf(" %s", o.c_str());
  std::printf(" %ld steps to t = %.4f s; zeros:", sim->steps(), sim->time());
  for (double z : zeros) std::printf(" %.5f", z);
  std::printf("\n");
  std::fflush(stdout);
  return zeros;
}

TEST(SolidPlate, Explore) {
  const double T = plate_period(1e7, 0.4, 1010, 0.02, 0.2);
  std::printf("theory T = %.5f s\n", T);
  for (const auto& o : std::vector<std::vector<std::string>>{{"time.cfl=0.6"},
                                                             {"time.cfl=0.6", "solid.gradient_correction=true"},
                                                             {"time.cfl=0.6", "solid.artificial_stress=0"}}) {
    const auto z = plate_momentum_zeros(o, 0.9 * T);
    if (z.size() >= 2)
      std::printf("  T from 4 z1 = %.5f (%.2f%%), from 2 (z2 - z1) = %.5f (%.2f%%)\n", 4 * z[0], 100 * (4 * z[0] / T - 1),
                  2 * (z[1] - z[0]), 100 * (2 * (z[1] - z[0]) / T - 1));
  }
}

}  // namespace
}  // namespace ejecta
