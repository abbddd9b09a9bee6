// DEM contact laws as pure per-pair functions (engine/physics/dem_contact_*.h): two grains collide
// head-on, integrated here with velocity Verlet at 1/4000 of the contact time, against the analytic
// damped oscillator (linear spring-dashpot: restitution e = exp(-pi zeta / sqrt(1 - zeta^2)) within
// 1%, duration pi / omega_d within 2%) and Hertz's elastic contact time (Johnson 1985, eq. 11.24).
#include "physics/dem_contact_hertz_mindlin.h"
#include "physics/dem_contact_linear.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace ejecta {
namespace {

using V2 = Vec<double, 2>;

V2 v2(double x, double y) { return V2{{x, y}}; }

struct Collision {
  double restitution = 0;  // separation speed / approach speed
  double duration = 0;     // from first touch to the overlap's return to zero (interpolated)
  double max_overlap = 0;
};

// Grains A (at -gap) and B (at +gap) on the x axis, radius r, mass m, approaching at v0 each. `force`
// gives the force on A; B gets minus it.
Collision collide(double r, double m, double v0, double dt,
                  const std::function<V2(const V2&, const V2&, const V2&, const V2&)>& force) {
  V2 xa = v2(-r - 2 * v0 * dt, 0), xb = v2(r + 2 * v0 * dt, 0), va = v2(v0, 0), vb = v2(-v0, 0);
  auto overlap = [&] { return 2 * r - (xb[0] - xa[0]); };
  V2 fa = force(xa, va, xb, vb);
  double t = 0, t_in = -1, t_out = -1;
  Collision c;
  for (long k = 0; k < 10000000 && t_out < 0; ++k) {
    const double before = overlap();
    va += fa * (0.5 * dt / m);
    vb -= fa * (0.5 * dt / m);
    xa += va * dt;
    xb += vb * dt;
    fa = force(xa, va, xb, vb);
    va += fa * (0.5 * dt / m);
    vb -= fa * (0.5 * dt / m);
    const double after = overlap();
    c.max_overlap = std::max(c.max_overlap, after);
    if (before <= 0 && after > 0) t_in = t + dt * (-before) / (after - before);
    if (t_in >= 0 && before > 0 && after <= 0) t_out = t + dt * before / (before - after);
    t += dt;
  }
  c.duration = t_out - t_in;
  c.restitution = (vb[0] - va[0]) / (2 * v0);
  return c;
}

TEST(DemContact, LinearDashpotRestitutionAndDurationMatchTheDampedOscillator) {
  const double r = 1e-3, m = 4e-6, k = 1e3, v0 = 0.5;
  const double m_star = m / 2;
  for (double zeta : {0.05, 0.2, 0.4}) {
    DemLinearParams<double> p;
    p.spring = k;
    p.damping = 2 * zeta * std::sqrt(k * m_star);
    const double omega_d = std::sqrt(k / m_star) * std::sqrt(1 - zeta * zeta);
    const double t_c = M_PI / omega_d;
    const double e = std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
    const Collision c = collide(r, m, v0, t_c / 4000, [&](const V2& xa, const V2& va, const V2& xb, const V2& vb) {
      return dem_linear_force(xa, va, r, xb, vb, r, p);
    });
    std::printf("zeta %.2f: e %.6f (analytic %.6f), t_c %.6e s (analytic %.6e s)\n", zeta, c.restitution, e, c.duration,
                t_c);
    EXPECT_NEAR(c.restitution, e, 0.01 * e) << "zeta " << zeta;
    EXPECT_NEAR(c.duration, t_c, 0.02 * t_c) << "zeta " << zeta;
    // The inverse used to set a damping from a wanted restitution.
    EXPECT_NEAR(dem_linear_damping_for_restitution(e, k, m_star), p.damping, 1e-12 * p.damping);
  }
}

TEST(DemContact, LinearShearAndAttractionActAlongTheirDirections) {
  DemLinearParams<double> p;
  p.shear = 2;
  p.attraction = 3;
  // Touching (overlap 0.1), B sliding past A in +y at 1 m/s: A is dragged along +y by shear * 1.
  const V2 f = dem_linear_force(v2(0, 0), v2(0, 0), 1.0, v2(1.9, 0), v2(0, 1), 1.0, p);
  EXPECT_DOUBLE_EQ(f[1], 2.0);
  EXPECT_DOUBLE_EQ(f[0], 3 * 1.9);  // cohesion pulls A towards B
  // Apart: no force at all.
  const V2 g = dem_linear_force(v2(0, 0), v2(0, 0), 1.0, v2(2.1, 0), v2(0, 1), 1.0, p);
  EXPECT_EQ(g[0], 0.0);
  EXPECT_EQ(g[1], 0.0);
}

TEST(DemContact, HertzElasticContactTimeAndRestitutionOne) {
  // Glass-like grains: E = 63 GPa, nu = 0.24, r = 1 mm, rho = 2500 kg/m^3.
  const double r = 1e-3, rho = 2500, m = rho * 4.0 / 3.0 * M_PI * r * r * r, v0 = 0.5;
  DemHertzMindlinParams<double> p;
  p.youngs_a = p.youngs_b = 63e9;
  p.poisson_a = p.poisson_b = 0.24;
  p.restitution = 1;
  const double e_star = 1 / (2 * (1 - 0.24 * 0.24) / 63e9), r_star = r / 2, m_star = m / 2, v = 2 * v0;
  const double t_c = 2.868 * std::pow(m_star * m_star / (r_star * e_star * e_star * v), 0.2);
  V2 xi = V2::zero();
  const Collision c = collide(r, m, v0, t_c / 4000, [&](const V2& xa, const V2& va, const V2& xb, const V2& vb) {
    return dem_hertz_mindlin_force(xa, va, r, m, xb, vb, r, m, p, xi, t_c / 4000).force;
  });
  std::printf("Hertz: t_c %.6e s (analytic %.6e s), e %.6f\n", c.duration, t_c, c.restitution);
  EXPECT_NEAR(c.duration, t_c, 0.02 * t_c);
  EXPECT_NEAR(c.restitution, 1.0, 1e-3);
  // The damped one: Tsuji's dashpot for Hertz gives the asked restitution (measured 0.7000 for 0.7).
  p.restitution = 0.7;
  const Collision d = collide(r, m, v0, t_c / 4000, [&](const V2& xa, const V2& va, const V2& xb, const V2& vb) {
    return dem_hertz_mindlin_force(xa, va, r, m, xb, vb, r, m, p, xi, t_c / 4000).force;
  });
  std::printf("Hertz damped: e %.4f (asked 0.7)\n", d.restitution);
  EXPECT_NEAR(d.restitution, 0.7, 0.01 * 0.7);
}

TEST(DemContact, MindlinSpringSticksThenCoulombCapsTheTangentialForce) {
  DemHertzMindlinParams<double> p;
  p.youngs_a = p.youngs_b = 1e7;
  p.poisson_a = p.poisson_b = 0.3;
  p.friction = 0.5;
  const double r = 0.01, m = 1e-3, dt = 1e-6;
  V2 xi = V2::zero();
  // Fixed overlap 1e-4 m, B moving tangentially at 1 mm/s: the spring loads linearly (stick) ...
  const V2 xa = v2(0, 0), xb = v2(2 * r - 1e-4, 0), va = v2(0, 0), vb = v2(0, 1e-3);
  auto f = dem_hertz_mindlin_force(xa, va, r, m, xb, vb, r, m, p, xi, dt);
  ASSERT_TRUE(f.touching);
  EXPECT_FALSE(f.sliding);
  EXPECT_GT(f.force[1], 0.0);  // A dragged along B's motion
  const double first = f.force[1];
  // ... and after long enough slides at exactly mu F_n.
  for (int k = 0; k < 2000000 && !f.sliding; ++k) f = dem_hertz_mindlin_force(xa, va, r, m, xb, vb, r, m, p, xi, dt);
  ASSERT_TRUE(f.sliding);
  EXPECT_GT(f.force[1], first);
  EXPECT_NEAR(std::fabs(f.force[1]), p.friction * f.normal, 1e-9 * f.normal);
  // Apart: no force, and the spring forgets.
  const V2 far = v2(3 * r, 0);
  f = dem_hertz_mindlin_force(xa, va, r, m, far, vb, r, m, p, xi, dt);
  EXPECT_FALSE(f.touching);
  EXPECT_EQ(xi[1], 0.0);
}

}  // namespace
}  // namespace ejecta
