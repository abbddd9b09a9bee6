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

// Zeros of the mass-weighted mean y velocity of the free particles (the plate), interpolated
// linearly between steps. With the first-mode velocity at t = 0 and no displacement,
// v(t) ~ cos(omega t): zeros at T/4, 3T/4, ...
std::vector<double> plate_velocity_zeros(const std::vector<std::string>& overrides, double until) {
  auto sim = make_simulation(test::shipped_scene("plate2d.ini", overrides), Backend::Cpu);
  double t_prev = 0, v_prev = 0;
  bool first = true;
  std::vector<double> zeros;
  auto sample = [&](const Simulation& s) {
    const HostParticles h = s.download();
    double mv = 0, m = 0;
    for (std::size_t i = 0; i < h.n; ++i)
      if (h.kind[i] == 0) mv += h.mass[i] * h.velocity[2 * i + 1], m += h.mass[i];
    const double v = mv / m;
    if (!first && (v_prev > 0) != (v > 0)) zeros.push_back(t_prev + (s.time() - t_prev) * v_prev / (v_prev - v));
    first = false;
    t_prev = s.time(), v_prev = v;
    return true;
  };
  test::run_until(*sim, until, sample);
  std::printf("plate: %ld steps to t = %.4f s; zeros:", sim->steps(), sim->time());
  for (double z : zeros) std::printf(" %.5f", z);
  std::printf("\n");
  return zeros;
}

TEST(SolidPlate, Explore) {
  const double T = plate_period(1e7, 0.4, 1010, 0.02, 0.2);
  std::printf("theory T = %.5f s\n", T);
  const auto z = plate_velocity_zeros({}, 0.9 * T);
  if (z.size() >= 2) std::printf("T from 2 (z2 - z1) = %.5f (%.2f%%)\n", 2 * (z[1] - z[0]), 100 * (2 * (z[1] - z[0]) / T - 1));
}

}  // namespace
}  // namespace ejecta
