// The line profile without GL: the Shepard average along a segment, against a brute-force sum over
// every particle, a uniform field (reproduced exactly) and a linear one (within the first moment of
// the weights), walls left out, no value where no particle is near.
#include "sim_test_util.h"
#include "viewer/line_profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace ejecta::viewer {
namespace {

// The same average by brute force: every particle against every sample.
double brute(const std::vector<double>& x, const std::vector<double>& f, const std::vector<uint8_t>& kind,
             glm::dvec3 p, double R) {
  double sw = 0, swf = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (kind[i] == kWall) continue;
    const double q2 = (std::pow(x[3 * i] - p.x, 2) + std::pow(x[3 * i + 1] - p.y, 2) + std::pow(x[3 * i + 2] - p.z, 2)) / (R * R);
    if (q2 >= 1) continue;
    sw += (1 - q2) * (1 - q2);
    swf += (1 - q2) * (1 - q2) * f[i];
  }
  return sw > 0 ? swf / sw : NAN;
}

TEST(LineProfile, MatchesTheBruteForceSumIn3D) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  const std::size_t n = 4000;
  std::vector<double> x(3 * n), f(n);
  std::vector<uint8_t> kind(n, kFluid);
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) x[3 * i + d] = u(rng);
    f[i] = std::sin(5 * x[3 * i]) + x[3 * i + 2];
    if (i % 7 == 0) kind[i] = kWall, f[i] = 1e6;  // walls would spoil any average they entered
  }
  const glm::dvec3 a(0.1, 0.2, 0.3), b(0.9, 0.7, 0.6);
  const double R = 0.08;
  const LineProfile lp = line_profile(x, 3, f, kind, a, b, 50, R);
  ASSERT_EQ(lp.s.size(), 50u);
  EXPECT_DOUBLE_EQ(lp.s.back(), glm::length(b - a));
  for (std::size_t k = 0; k < lp.s.size(); ++k) {
    const glm::dvec3 p = a + (b - a) * (lp.s[k] / lp.s.back());
    EXPECT_NEAR(lp.value[k], brute(x, f, kind, p, R), 1e-12) << k;
    EXPECT_LT(lp.value[k], 10) << "no wall value";
  }
}

TEST(LineProfile, UniformExactLinearCloseNoValueOutside) {
  // A 2D lattice of spacing dp on [0, 1] x [0, 0.5].
  const double dp = 0.01;
  std::vector<double> x;
  std::vector<double> uniform, linear;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 50; ++j) {
      const double px = (i + 0.5) * dp, py = (j + 0.5) * dp;
      x.push_back(px);
      x.push_back(py);
      uniform.push_back(1000);
      linear.push_back(3 + 2 * px - py);
    }
  // From inside the lattice to beyond it (x = 1.5): no particle there.
  const glm::dvec3 a(0.1, 0.25, 0), b(1.5, 0.25, 0);
  const LineProfile lu = line_profile(x, 2, uniform, {}, a, b, 141, 2 * dp);
  const LineProfile ll = line_profile(x, 2, linear, {}, a, b, 141, 2 * dp);
  int inside = 0, outside = 0;
  for (std::size_t k = 0; k < lu.s.size(); ++k) {
    const double px = a.x + lu.s[k];
    if (px < 1 - 2 * dp) {
      ++inside;
      EXPECT_NEAR(lu.value[k], 1000, 1e-9) << "Shepard reproduces a constant";
      // Inside, the lattice is symmetric about the line y = 0.25 (a lattice line between rows) and the
      // weights' first moment along x is at most a fraction of dp: |error| <= |df/dx| dp / 2.
      EXPECT_NEAR(ll.value[k], 3 + 2 * px - 0.25, 2 * dp / 2) << px;
    }
    if (px > 1 + 2 * dp) {
      ++outside;
      EXPECT_TRUE(std::isnan(lu.value[k])) << "no particle within the radius at x = " << px;
    }
  }
  EXPECT_GT(inside, 80);
  EXPECT_GT(outside, 40);
}

TEST(LineProfile, PlotOfARunningSimulation) {
  auto sim = make_simulation(test::shipped_scene("dambreak2d.ini"), Backend::Cpu);
  const HostParticles h = sim->download();
  // Vertically through the water column at rest: the hydrostatic pressure rises downwards.
  const PlotSpec spec = line_profile_plot(*sim, "pressure", -1, glm::dvec3(0.05, 0.2, 0), glm::dvec3(0.05, 0.01, 0), 40, 0.006);
  EXPECT_EQ(spec.y_units, "Pa");
  EXPECT_EQ(spec.x_units, "m");
  ASSERT_EQ(spec.series.size(), 1u);
  const std::vector<double>& p = spec.series[0].y;
  ASSERT_EQ(p.size(), 40u);
  EXPECT_GT(p.back(), p[20]) << "deeper is higher";
  const PlotSpec v = line_profile_plot(*sim, "velocity", 1, glm::dvec3(0.05, 0.2, 0), glm::dvec3(0.05, 0.01, 0), 40, 0.006);
  EXPECT_EQ(v.y_label, "velocity.y");
}

}  // namespace
}  // namespace ejecta::viewer
