// Self-gravity hooked into the solid model: two elastic basalt spheres on a circular orbit about
// their common centre of mass (Kepler: T = 2 pi sqrt(d^3 / (G (M1 + M2))); a spherically symmetric
// body attracts as a point mass). G is scaled (gravity.G = 60) so that an orbit takes about 3000
// steps while the self-compression of each sphere stays small (central pressure 2 pi/3 G rho^2 R^2
// = 0.92 GPa, 3.4% of the bulk modulus; below the yield strength, 3.5 GPa). 2 x 81 particles
// (dp = R/2.5): coarse, but a sphere's field outside it is that of its mass at its centre.
// Goal of issue 16: the period within 1% over 5 orbits; also momentum, angular momentum and energy (with the self-gravity energy).
#include "params/param_set.h"
#include "scene/solid_scene.h"
#include "sim_test_util.h"
#include "simulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace ejecta {
namespace {

const char* const kOrbitScene = R"ini(
[scene]
name = gravity orbit
dim = 3
precision = double
[particles]
kernel = cubic_spline
[physics]
model = solid
gravity = 0, 0, 0
[gravity]
self = on
G = 60
theta = 0.5
[solid]
h_over_dp = 1.3
damage = false
[viscosity]
alpha = 1
beta = 2
[time]
cfl = 0.3
[solid_block.1]
shape = sphere
center = -2, 0, 0
radius = 1
dp = 0.4
material = basalt
[solid_block.2]
shape = sphere
center = 2, 0, 0
radius = 1
dp = 0.4
material = basalt
)ini";

TEST(GravityOrbit, TwoSpheresKeepTheKeplerPeriod) {
  ParamSet p = read_scene_string(kOrbitScene, "<orbit>");
  const SceneParticles init = build_solid_scene(p);
  double m1 = 0, m2 = 0;
  const std::size_t n = init.size(), half = n / 2;
  for (std::size_t i = 0; i < n; ++i) (i < half ? m1 : m2) += init.mass[i];
  ASSERT_NEAR(m1, m2, 1e-9 * m1);
  const double G = 60, d = 4, M = m1 + m2;
  const double v = 0.5 * std::sqrt(G * M / d);  // each body's speed about the centre of mass
  p.set("solid_block.1.velocity", "0, " + std::to_string(-v) + ", 0", "test");
  p.set("solid_block.2.velocity", "0, " + std::to_string(v) + ", 0", "test");
  const double T = 2 * M_PI * std::sqrt(d * d * d / (G * M));
  auto sim = make_simulation(p, Backend::Cpu);
  const Diagnostics d0 = sim->diagnostics();
  EXPECT_LT(d0.self_gravity, 0);

  // The separation's angle, unwrapped, sampled every 10 steps; 5 orbits = 10 pi.
  double angle = 0, last_raw = 0, t_prev = 0, a_prev = 0, t_five = -1, d_min = 1e9, d_max = 0;
  long k = 0;
  test::run_until(*sim, 5.3 * T, [&](const Simulation& s) {
    if (++k % 10 || t_five > 0) return true;
    const HostParticles h = s.download();
    double c[2][3] = {{0, 0, 0}, {0, 0, 0}}, w[2] = {0, 0};
    for (std::size_t i = 0; i < h.n; ++i) {
      const int b = h.id[i] < half ? 0 : 1;
      w[b] += h.mass[i];
      for (int q = 0; q < 3; ++q) c[b][q] += h.mass[i] * h.position[i * 3 + q];
    }
    const double dx = c[1][0] / w[1] - c[0][0] / w[0], dy = c[1][1] / w[1] - c[0][1] / w[0];
    const double raw = std::atan2(dy, dx);
    double step = raw - last_raw;
    if (step > M_PI) step -= 2 * M_PI;
    if (step < -M_PI) step += 2 * M_PI;
    angle += step;
    last_raw = raw;
    const double sep = std::hypot(dx, dy);
    d_min = std::min(d_min, sep);
    d_max = std::max(d_max, sep);
    if (angle >= 10 * M_PI) t_five = t_prev + (s.time() - t_prev) * (10 * M_PI - a_prev) / (angle - a_prev);
    t_prev = s.time();
    a_prev = angle;
    return true;
  });
  const Diagnostics d1 = sim->diagnostics();
  std::printf("orbit: %zu particles, Kepler T = %.5f s, 5 orbits in %.5f s (%.3f%%), separation %.4f..%.4f m, "
              "%ld steps; energy %.6e -> %.6e J (self-gravity %.4e -> %.4e)\n",
              n, T, t_five, 100 * (t_five / (5 * T) - 1), d_min, d_max, sim->steps(), d0.total, d1.total,
              d0.self_gravity, d1.self_gravity);
  ASSERT_GT(t_five, 0) << "5 orbits were not completed";
  EXPECT_NEAR(t_five / (5 * T), 1.0, 0.01);
  EXPECT_GT(d_min, 0.97 * d);
  EXPECT_LT(d_max, 1.03 * d);
  // Angular momentum about z: M v d / 2 at the start, conserved.
  EXPECT_NEAR(d1.angular_momentum[2], d0.angular_momentum[2], 1e-3 * std::fabs(d0.angular_momentum[2]));
  // Barnes-Hut cell forces are not pairwise antisymmetric, so momentum drifts a little. How much
  // depends on which cells the walk accepts: measured over 5 orbits, 2.2e-4 of M v with the particle
  // walk, below 1e-3 with the warp walk's consecutive groups, 1.39e-3 with its groups from the tree
  // (gravity.warp_groups = tree, the default since 2026-12-03: tighter group boxes accept more cells
  // as multipoles; the force error stays within issue 16's goal, median 1.9e-4 at theta 0.5).
  EXPECT_NEAR(d1.momentum[1], 0, 2e-3 * M * v);
  // The energy budget with the self-gravity's: kinetic of the orbit is G M^2/(8 d), comparable to the
  // binding energies; conserved to 1% of the orbital kinetic energy.
  EXPECT_NEAR(d1.total, d0.total, 0.01 * G * m1 * m2 / (2 * d));
}

}  // namespace
}  // namespace ejecta
