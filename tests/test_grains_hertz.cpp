// DEM grains with the frictional contact (dem.contact = hertz_mindlin, physics/dem_grains_hertz_mindlin.h)
// through the engine: a sphere (3D) and a disc (2D) launched sliding on the floor start rolling at the
// analytic speed and time (Coulomb friction with rotation), a head-on pair keeps Hertz's contact time and
// the restitution, an oblique free collision of two blocks conserves linear and angular momentum
// (orbital plus spin), the contact list's overflow stops the run naming the grain and the capacity, a
// restart is bit-exact with the springs and angular velocities in the frame, and the term and its
// keys are checked (CPU, double, one core).
#include "grain_test_util.h"
#include "sim_test_util.h"

#include "physics/dem_grains_hertz_mindlin.h"
#include "solver/model_recipes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ejecta {
namespace {

constexpr double kPi = 3.14159265358979323846;
using test::num;

std::string hm_header(int dim, const std::string& gravity, double youngs, double restitution, double mu,
                      const std::string& box_min, const std::string& box_max) {
  return "[scene]\ndim = " + std::to_string(dim) + "\nprecision = double\n[physics]\nmodel = mixed\ngravity = " +
         gravity + "\n[dem]\ncontact = hertz_mindlin\nyoungs_modulus = " + num(youngs) +
         "\npoisson_ratio = 0.3\nrestitution = " + num(restitution) + "\nfriction = " + num(mu) +
         "\nbox_min = " + box_min + "\nbox_max = " + box_max + "\n";
}

// One grain of radius r touching the floor (3D: sphere; 2D: disc), launched along x at v0 without
// spin. Kinetic friction mu m g slows it and spins it up until the contact point stops slipping:
// sphere (I = 2/5 m r^2): rolling from t = 2 v0 / (7 mu g) at 5/7 v0; disc (I = 1/2 m r^2): from
// t = v0 / (3 mu g) at 2/3 v0 (e.g. Goldstein; any mechanics text: the bowling-ball problem).
TEST(GrainsHertz, SlidingGrainStartsRollingAtTheAnalyticSpeedAndTime) {
  const double r = 0.005, v0 = 1.0, mu = 0.5, g = 9.81;
  for (int dim : {3, 2}) {
    const std::string grav = dim == 3 ? "0, 0, -9.81" : "0, -9.81";
    const std::string lo = dim == 3 ? "0, 0, 0" : "0, 0", hi = dim == 3 ? "0.5, 0.1, 0.1" : "0.5, 0.1";
    const std::string mn = dim == 3 ? "0.01, 0.01, 0" : "0.01, 0";
    const std::string mx = dim == 3 ? "0.0201, 0.0201, 0.0101" : "0.0201, 0.0101";
    // 2D: a disc of unit thickness weighs 150 times the sphere; E = 1e9 keeps its overlap on the floor at
    // 0.2% of r (the lever arm is r - delta/2), as E = 1e7 does for the sphere.
    const std::string ini = hm_header(dim, grav, dim == 3 ? 1e7 : 1e9, 0.5, mu, lo, hi) + "[grains.1]\nmin = " + mn + "\nmax = " + mx +
                            "\nradius = " + num(r) + "\ndensity = 2500\nvelocity = " + num(v0) +
                            (dim == 3 ? ", 0, 0\n" : ", 0\n");
    auto sim = make_simulation(read_scene_string(ini, "<rolling>"), Backend::Cpu);
    ASSERT_EQ(sim->particle_count(), 1u);
    const double k = dim == 3 ? 0.4 : 0.5;  // I / (m r^2)
    const double t_roll = v0 * k / ((1 + k) * mu * g), v_roll = v0 / (1 + k);
    // The moment the contact point stops slipping: v - w r (3D: w about y; 2D: about z, v + w r).
    double t_stick = -1;
    test::run_until(*sim, 2.5 * t_roll, [&](const Simulation& s) {
      if (t_stick < 0) {
        const HostParticles p = s.download();
        const std::vector<double> w = test::field_by_id(s, "angular_velocity");
        const double slip = dim == 3 ? p.velocity[0] - w[1] * r : p.velocity[0] + w[0] * r;
        if (slip < 1e-3 * v0) t_stick = s.time();
      }
      return true;
    });
    const HostParticles p = sim->download();
    const std::vector<double> w = test::field_by_id(*sim, "angular_velocity");
    const double spin_speed = dim == 3 ? w[1] * r : -w[0] * r;
    std::printf("%dD grain sliding at %.2f m/s, mu %.2f: rolls from t = %.5f s (analytic %.5f s, %+.2f%%) at "
                "%.6f m/s (analytic %.6f, %+.3f%%); w r = %.6f m/s; %ld steps\n",
                dim, v0, mu, t_stick, t_roll, 100 * (t_stick / t_roll - 1), p.velocity[0], v_roll,
                100 * (p.velocity[0] / v_roll - 1), spin_speed, sim->steps());
    EXPECT_NEAR(p.velocity[0], v_roll, 0.005 * v_roll) << dim << "D";
    EXPECT_NEAR(spin_speed, v_roll, 0.005 * v_roll) << dim << "D: rolling without slip";
    EXPECT_NEAR(t_stick, t_roll, 0.03 * t_roll) << dim << "D";
    // The energy budget counts the spin: rolling, the kinetic energy is 1/2 m v^2 + 1/2 I w^2 =
    // 1/2 m v^2 (1 + k) (the diagnostics' `kinetic`; without the spin it would be 1/2 m v^2).
    const double m = test::field_by_id(*sim, "mass")[0];
    const double ke = sim->diagnostics().kinetic, want = 0.5 * m * (p.velocity[0] * p.velocity[0] + k * spin_speed * spin_speed);
    std::printf("  kinetic energy %.9g J, 1/2 m v^2 + 1/2 I w^2 = %.9g J (translation alone %.9g J)\n", ke, want,
                0.5 * m * p.velocity[0] * p.velocity[0]);
    EXPECT_NEAR(ke, want, 1e-3 * want) << dim << "D";
  }
}

// Two grains head-on through the engine (no gravity): Hertz's elastic contact time and the restitution
// of the Tsuji dashpot (test_dem_contact.cpp checks the bare law the same way).
TEST(GrainsHertz, HeadOnPairKeepsHertzContactTimeAndRestitution) {
  const double r = 1e-3, rho = 2500, E = 1e8, nu = 0.3, v0 = 0.5;
  for (double e : {1.0, 0.7}) {
    auto block = [&](int n, double cx, double v) {
      return "[grains." + std::to_string(n) + "]\nmin = " + num(cx - r) + ", " + num(-r) + ", " + num(-r) +
             "\nmax = " + num(cx + 1.5 * r) + ", " + num(1.5 * r) + ", " + num(1.5 * r) + "\nradius = " + num(r) +
             "\ndensity = " + num(rho) + "\nvelocity = " + num(v) + ", 0, 0\n";
    };
    std::string ini = hm_header(3, "0, 0, 0", E, e, 0.5, "-1, -1, -1", "1, 1, 1") + "steps_per_contact = 200\n" +
                      block(1, -1.05 * r, v0) + block(2, 1.05 * r, -v0);
    auto sim = make_simulation(read_scene_string(ini, "<hertz pair>"), Backend::Cpu);
    ASSERT_EQ(sim->particle_count(), 2u);
    const test::PairContact pc = test::measure_pair_contact(*sim, r, 200000);
    const double t_in = pc.t_in, t_out = pc.t_out, vrel = pc.vrel;
    ASSERT_GT(t_out, 0);
    const double m = rho * 4.0 / 3.0 * kPi * r * r * r, m_star = m / 2, r_star = r / 2;
    const double e_star = E / (2 * (1 - nu * nu));
    const double t_hertz = 2.868 * std::pow(m_star * m_star / (r_star * e_star * e_star * 2 * v0), 0.2);
    std::printf("Hertz pair through the engine, e = %.2f: restitution %.5f, contact %.5e s (elastic Hertz %.5e s), "
                "%ld steps\n", e, vrel / (2 * v0), t_out - t_in, t_hertz, sim->steps());
    EXPECT_NEAR(vrel / (2 * v0), e, 0.01 * e);
    if (e == 1.0) EXPECT_NEAR(t_out - t_in, t_hertz, 0.02 * t_hertz);
  }
}

// Two blocks of grains (2D, 3D) meet off-centre in free space (no gravity, no walls reached): the pair
// forces cancel (linear momentum to round-off) and the torques balance the moment of the tangential
// forces and the rolling resistance's pair torques cancel (angular momentum, sum of m x cross v plus
// I w, to round-off), while the grains spin up.
TEST(GrainsHertz, FreeCollisionConservesLinearAndAngularMomentum) {
  for (int dim : {2, 3}) {
    const double r = 0.005;
    auto v3 = [&](double a, double b, double c) {
      return num(a) + ", " + num(b) + (dim == 3 ? ", " + num(c) : std::string());
    };
    std::string ini = hm_header(dim, v3(0, 0, 0), 1e7, 0.6, 0.5, v3(-1, -1, -1), v3(1, 1, 1)) +
                      "rolling_friction = 0.05\n[grains.1]\nmin = " + v3(-0.06, -0.03, -0.02) + "\nmax = " + v3(-0.005, 0.02, 0.02) +
                      "\nradius = " + num(r) + "\nspacing = 0.0106\njitter = 0.05\ndensity = 2500\nvelocity = " +
                      v3(1, 0, 0) + "\n[grains.2]\nmin = " + v3(0.005, -0.015, -0.02) + "\nmax = " +
                      v3(0.06, 0.035, 0.02) + "\nradius = " + num(r) + "\nspacing = 0.0106\njitter = 0.05\n"
                      "density = 2500\nvelocity = " + v3(-1, 0, 0) + "\n";
    auto sim = make_simulation(read_scene_string(ini, "<free collision>"), Backend::Cpu);
    const std::size_t n = sim->particle_count();
    auto momenta = [&](double p[3], double L[3], double& spin2) {
      const HostParticles h = sim->download();
      const std::vector<double> w = test::field_by_id(*sim, "angular_velocity");
      std::vector<double> x(h.position), v(h.velocity), m(h.mass);
      for (int k = 0; k < 3; ++k) p[k] = L[k] = 0;
      spin2 = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t id = h.id[i];
        const double* xi = &x[i * dim];
        const double* vi = &v[i * dim];
        const double I = (dim == 3 ? 0.4 : 0.5) * m[i] * r * r;
        for (int d = 0; d < dim; ++d) p[d] += m[i] * vi[d];
        if (dim == 3) {
          L[0] += m[i] * (xi[1] * vi[2] - xi[2] * vi[1]) + I * w[3 * id];
          L[1] += m[i] * (xi[2] * vi[0] - xi[0] * vi[2]) + I * w[3 * id + 1];
          L[2] += m[i] * (xi[0] * vi[1] - xi[1] * vi[0]) + I * w[3 * id + 2];
          for (int d = 0; d < 3; ++d) spin2 += w[3 * id + d] * w[3 * id + d];
        } else {
          L[2] += m[i] * (xi[0] * vi[1] - xi[1] * vi[0]) + I * w[id];
          spin2 += w[id] * w[id];
        }
      }
    };
    double p0[3], L0[3], s0 = 0;
    momenta(p0, L0, s0);
    test::run_until(*sim, 0.05);
    double p1[3], L1[3], s1 = 0;
    momenta(p1, L1, s1);
    double m_tot = 0;
    for (double mi : sim->download().mass) m_tot += mi;
    // Scales: the momentum of one block, and its angular momentum about the origin.
    const double p_scale = 0.5 * m_tot * 1.0, L_scale = p_scale * 0.03;
    double dp = 0, dL = 0;
    for (int d = 0; d < 3; ++d) dp = std::max(dp, std::fabs(p1[d] - p0[d])), dL = std::max(dL, std::fabs(L1[d] - L0[d]));
    std::printf("%dD free collision of %zu grains, %ld steps: momentum drift %.2e of %.3g kg m/s, angular momentum "
                "drift %.2e of %.3g kg m^2/s; mean spin %.3g rad/s\n",
                dim, n, sim->steps(), dp, p_scale, dL, L_scale, std::sqrt(s1 / double(n)));
    EXPECT_GT(std::sqrt(s1 / double(n)), 1.0) << "the friction of the oblique impact spins the grains";
    EXPECT_LT(dp, 1e-12 * p_scale);
    EXPECT_LT(dL, 1e-10 * L_scale);
  }
}

// A grain with more contacts than its list holds stops the run: a big disc among small ones (2D, 8 slots).
TEST(GrainsHertz, ContactListOverflowStopsTheRunNamingTheGrain) {
  const std::string ini = hm_header(2, "0, -9.81", 1e7, 0.5, 0.5, "0, 0", "1, 1") +
                          "[grains.1]\nmin = 0.2, 0.2\nmax = 0.3, 0.3\nradius = 0.005\ndensity = 2500\n"
                          "[grains.2]\nmin = 0.225, 0.225\nmax = 0.276, 0.276\nradius = 0.025\ndensity = 2500\n";
  std::string e;
  try {
    make_simulation(read_scene_string(ini, "<overflow>"), Backend::Cpu);
  } catch (const BlowUpError& err) {
    e = err.what();
  }
  std::printf("overflow: %s\n", e.c_str());
  EXPECT_NE(e.find("grain particle 100 touches"), std::string::npos) << e;
  EXPECT_NE(e.find("more than the contact list of a grain holds (8 in 2D"), std::string::npos) << e;
}

// A 2D pile in contact, Hertz-Mindlin: 300 + 100 steps equal 400, bit for bit, with the contact lists,
// springs and angular velocities (persistent fields, sorted with the rest and in the frame).
std::string hm_pile2d(double mu = 0.5) {
  return hm_header(2, "0, -9.81", 1e7, 0.5, mu, "0, 0", "0.1, 0.3") +
         "[grains.1]\nmin = 0.003, 0.0003\nmax = 0.097, 0.06\nradius = 0.005\nspacing = 0.0106\njitter = 0.05\n"
         "density = 2500\nvelocity = 0.3, 0\n";
}

TEST(GrainsHertz, RestartIsBitExactWithContactHistoryAndSpin) {
  ParamSet p = read_scene_string(hm_pile2d(), "<restart>");
  {  // the pile is in contact and spinning at the restart point
    auto sim = make_simulation(p, Backend::Cpu);
    StopRule rule;
    rule.max_steps = 300;
    StepLoop(*sim, rule).run();
    const std::vector<double> count = test::field_by_id(*sim, "contact_count");
    const std::vector<double> w = test::field_by_id(*sim, "angular_velocity");
    double contacts = 0, spin = 0;
    for (double c : count) contacts += c;
    for (double x : w) spin = std::max(spin, std::fabs(x));
    std::printf("pile at step 300: %zu grains, %.0f contacts, max spin %.3g rad/s\n", count.size(), contacts, spin);
    EXPECT_GT(contacts, double(count.size()));
    EXPECT_GT(spin, 0.0);
  }
  test::expect_exact_restart(p, 300, 100,
                             {"angular_velocity", "contact_partner", "contact_spring", "contact_count", "acceleration"});
}

// Frictional grains in a liquid (2D): the coupling takes them as moving walls as it does the linear
// ones; heavy grains sink, slower than in free fall (0.5 g t^2 = 0.110 m in 0.15 s).
TEST(GrainsHertz, HeavyGrainsSinkInTheLiquid) {
  const std::string ini =
      "[scene]\ndim = 2\n[physics]\nmodel = mixed\ngravity = 0, -9.81\n[particles]\ndp = 0.01\n"
      "[fluid]\nc0 = 20\n[tank.1]\nmin = 0, 0\nmax = 0.3, 0.4\n[block.1]\nmin = 0, 0\nmax = 0.3, 0.3\n"
      "[dem]\ncontact = hertz_mindlin\nyoungs_modulus = 1e9\nbox_min = 0, 0\nbox_max = 0.3, 0.4\n"
      "[grains.1]\nmin = 0.1, 0.1\nmax = 0.2, 0.16\nradius = 0.01\ndensity = 2600\n";
  auto sim = make_simulation(read_scene_string(ini, "<hertz in water>"), Backend::Cpu);
  auto mean_grain_y = [&] {
    const HostParticles p = sim->download();
    const std::vector<double> r = test::field_by_id(*sim, "grain_radius");
    double s = 0;
    int c = 0;
    for (std::size_t i = 0; i < p.n; ++i)
      if (r[p.id[i]] > 0) s += p.position[2 * i + 1], ++c;
    return s / c;
  };
  const double y0 = mean_grain_y();
  test::run_until(*sim, 0.15);
  const double dy = mean_grain_y() - y0;
  std::printf("Hertz-Mindlin grains of 2600 kg/m^3 in water: mean height change %+.4f m in %.2f s (%ld steps)\n", dy,
              sim->time(), sim->steps());
  EXPECT_LT(dy, -0.01);
  EXPECT_GT(dy, -0.5 * 9.81 * 0.15 * 0.15 * 0.9);
}

TEST(GrainsHertz, TermKeysAndIntegratorAreChecked) {
  auto sim = make_simulation(read_scene_string(hm_pile2d(), "<terms>"), Backend::Cpu);
  std::vector<std::string> fields;
  for (const FieldInfo& f : sim->fields()) fields.push_back(f.name);
  bool found = false;
  for (const TermInfo& t : mixed_recipe(false, true, true)) {
    EXPECT_NE(t.name, "contact_linear_green2010");
    found = found || t.name == "contact_hertz_mindlin_tsuji1992";
    for (const auto* list : {&t.reads, &t.writes})
      for (const std::string& f : *list)
        EXPECT_NE(std::find(fields.begin(), fields.end(), f), fields.end()) << t.name << " " << f;
    for (const std::string& k : t.params) EXPECT_NE(ParamRegistry::builtin().find(k), nullptr) << k;
  }
  EXPECT_TRUE(found);
  std::string e = test::scene_error(hm_pile2d() + "[time]\nintegrator = rk23\n");
  EXPECT_NE(e.find("time.integrator = rk23 with dem.contact = hertz_mindlin"), std::string::npos) << e;
  EXPECT_NE(e.find("needs the one evaluation per step of time.integrator = leapfrog"), std::string::npos) << e;
  e = test::scene_error(hm_pile2d(-1));
  EXPECT_NE(e.find("dem.friction"), std::string::npos) << e;
}

}  // namespace
}  // namespace ejecta
