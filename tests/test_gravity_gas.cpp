// Self-gravity hooked into the gas model: a relaxed n = 1 polytrope (Lane-Emden, rho ~ sin(xi)/xi)
// in hydrostatic equilibrium, and the adiabatic collapse of Evrard (1988, MNRAS 235, 911): a cold
// gas sphere with rho ~ 1/r (M = R = G = 1, u = 0.05), whose total energy must stay constant while
// about half the binding energy turns into heat (docs/physics.md, "Self-gravity").
// Both spheres are built here: a cubic lattice cut to the unit sphere and stretched radially so that
// the enclosed mass follows the profile (the gas scene syntax has boxes only).
#include "params/param_set.h"
#include "sim_test_util.h"
#include "simulation.h"
#include "solver/solver_factory.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace ejecta {
namespace {

const char* const kGasSphere = R"ini(
[scene]
name = self-gravitating gas sphere
dim = 3
precision = double
[particles]
kernel = cubic_spline
[physics]
model = gas
gravity = 0, 0, 0
[gravity]
self = on
G = 1
theta = 0.5
[gas]
eta = 1.2
[viscosity]
alpha = 1
beta = 2
[time]
integrator = leapfrog
cfl = 0.3
dt_max = 0.05
)ini";

// Lattice points of spacing dp inside the unit sphere, moved radially to r(r0) with
// enclosed_mass(r) = r0^3 (the unit sphere's mass fraction), mass 1 in all.
SceneParticles stretched_sphere(double dp, double gamma, const std::function<double(double)>& enclosed_mass,
                            const std::function<double(double)>& density, const std::function<double(double)>& energy) {
  SceneParticles g;
  g.dim = 3;
  g.recipe = "gas";
  g.gas.gamma = gamma;
  const int k = int(std::ceil(1 / dp));
  std::vector<double> r0s;
  for (int i = -k; i <= k; ++i)
    for (int j = -k; j <= k; ++j)
      for (int l = -k; l <= k; ++l) {
        const double x = (i + 0.5) * dp, y = (j + 0.5) * dp, z = (l + 0.5) * dp;
        const double r0 = std::sqrt(x * x + y * y + z * z);
        if (r0 >= 1) continue;
        // r with enclosed_mass(r) = r0^3, by bisection (enclosed_mass rises from 0 at 0 to 1 at 1).
        double lo = 0, hi = 1;
        for (int it = 0; it < 60; ++it) ((enclosed_mass(0.5 * (lo + hi)) < r0 * r0 * r0) ? lo : hi) = 0.5 * (lo + hi);
        const double r = 0.5 * (lo + hi), s = r / r0;
        g.position.insert(g.position.end(), {x * s, y * s, z * s});
        r0s.push_back(r);
      }
  const std::size_t n = r0s.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double rho = density(r0s[i]);
    g.velocity.insert(g.velocity.end(), {0, 0, 0});
    g.mass.push_back(1.0 / double(n));
    g.density.push_back(rho);
    g.energy.push_back(energy(rho));
    g.h.push_back(1.2 * std::cbrt(1.0 / (double(n) * rho)));
    g.kind.push_back(kFluid);
    g.phase.push_back(kPhaseGas);  // the store reads each particle's model and material
    g.material.push_back(0);
  }
  return g;
}

// The field `name` of a frame as doubles (double precision runs).
double* field_doubles(FrameData& f, const char* name) {
  for (auto& fd : f.fields)
    if (fd.info.name == name) return reinterpret_cast<double*>(fd.bytes.data());
  return nullptr;
}

// n = 1 polytrope, G = M = R = 1: rho = rho_c sin(xi)/xi, xi = pi r, rho_c = pi/4, P = K rho^2 with
// K = 2/pi (R = pi sqrt(K / (2 pi G))); enclosed mass (sin xi - xi cos xi) / pi. gamma = 2 keeps
// P = K rho^2 along adiabats with u = K rho.
constexpr double kPolyK = 2 / M_PI, kPolyRhoC = M_PI / 4;
double poly_density(double r) { return r < 1e-9 ? kPolyRhoC : kPolyRhoC * std::sin(M_PI * r) / (M_PI * r); }
double poly_mass(double r) { return (std::sin(M_PI * r) - M_PI * r * std::cos(M_PI * r)) / M_PI; }

// Relaxed (velocities zeroed and u reset to K rho every 3 steps for 6 time units, about four sound
// crossings of the centre), then free for 4 time units (c = 1 at the centre, so 4 crossings of the
// inner half). The goal of issue 16: the density within 5% of the analytic profile, the radius
// within 2%. Radius: that of 90% of the mass (analytic 0.7459, from poly_mass), and the density
// compared in radial shells of the mass-weighted SPH density inside r < 0.75 (where the profile
// is resolved by more than two smoothing lengths from the surface).
void run_polytrope(double dp, double t_relax, double t_free, int zero_every, bool viscosity_switch = false) {
  ParamSet p = read_scene_string(kGasSphere, "<polytrope>");
  p.set("gas.gamma", "2", "test");
  if (viscosity_switch) p.set("viscosity.switch", "morris_monaghan", "test");
  const SceneParticles init = stretched_sphere(dp, 2.0, poly_mass, poly_density, [](double rho) { return kPolyK * rho; });
  auto sim = make_cpu_store_solver(p, init, Precision::Double);
  const std::size_t n = init.size();
  long k = 0;
  test::run_until(*sim, t_relax, [&](const Simulation& s) {
    if (++k % zero_every) return true;
    FrameData f = s.capture_frame();
    double* v = field_doubles(f, "velocity");
    double* u = field_doubles(f, "internal_energy");
    const double* rho = field_doubles(f, "density");
    for (std::size_t i = 0; i < n; ++i) {
      v[3 * i] = v[3 * i + 1] = v[3 * i + 2] = 0;
      u[i] = kPolyK * rho[i];
    }
    const_cast<Simulation&>(s).restore_frame(f);
    return true;
  });
  const double t_relaxed = sim->time();
  const Diagnostics d0 = sim->diagnostics();
  double r90_ana = 0;
  {
    double lo = 0, hi = 1;
    for (int it = 0; it < 60; ++it) ((poly_mass(0.5 * (lo + hi)) < 0.9) ? lo : hi) = 0.5 * (lo + hi);
    r90_ana = 0.5 * (lo + hi);
  }
  double worst_density = 0, worst_radius = 0;
  auto measure = [&](const char* when) {
    const HostParticles h = sim->download();
    std::vector<double> r(n);
    for (std::size_t i = 0; i < n; ++i)
      r[i] = std::sqrt(h.position[3 * i] * h.position[3 * i] + h.position[3 * i + 1] * h.position[3 * i + 1] +
                       h.position[3 * i + 2] * h.position[3 * i + 2]);
    std::vector<double> sorted = r;
    std::sort(sorted.begin(), sorted.end());
    const double r90 = sorted[std::size_t(0.9 * double(n))];
    const double rad_err = r90 / r90_ana - 1;
    const int bins = 5;
    double dens_err = 0;
    std::string row;
    for (int b = 0; b < bins; ++b) {
      const double lo = 0.75 * b / bins, hi = 0.75 * (b + 1) / bins;
      double sum = 0, ana = 0;
      int cnt = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (r[i] >= lo && r[i] < hi) {
          sum += h.density[i];
          ana += poly_density(r[i]);
          ++cnt;
        }
      const double e = sum / ana - 1;
      dens_err = std::max(dens_err, std::fabs(e));
      char buf[32];
      std::snprintf(buf, sizeof buf, " %+.3f", e);
      row += buf;
    }
    std::printf("polytrope %s t = %.2f: r90 %.4f (analytic %.4f, %+.2f%%), shell density errors%s\n", when,
                sim->time(), r90, r90_ana, 100 * rad_err, row.c_str());
    worst_density = std::max(worst_density, dens_err);
    worst_radius = std::max(worst_radius, std::fabs(rad_err));
  };
  measure("relaxed");
  test::run_until(*sim, t_relaxed + t_free, [&](const Simulation& s) {
    if (++k % 100 == 0) measure("free");
    return s.time() >= 0;
  });
  measure("end");
  const Diagnostics d1 = sim->diagnostics();
  std::printf("polytrope: %zu particles, %ld steps; energy %.5f -> %.5f (self-gravity %.5f; analytic -3/4 = -0.75)\n",
              n, sim->steps(), d0.total, d1.total, d0.self_gravity);
  EXPECT_LE(worst_density, 0.05);
  EXPECT_LE(worst_radius, 0.02);
  // The potential energy of an n = 1 polytrope is -3/(5 - n) G M^2 / R = -0.75 (Chandrasekhar 1939).
  EXPECT_NEAR(d0.self_gravity, -0.75, 0.05 * 0.75);
  EXPECT_NEAR(d1.total, d0.total, 0.01 * 0.75);
}

// CI: lattice dp = 0.12 (2440 particles), relaxed for 5, free for 3 time units. The longer run
// below: dp = 0.1 (4224 particles), 6 + 4. Both with the Morris & Monaghan viscosity switch: with
// alpha = 1 throughout, the longer run's envelope is heated by the viscosity after the release and
// r90 grows to +2.9% (measured; with the switch +1.8%).
TEST(GravityPolytrope, RelaxedN1StaysInEquilibrium) { run_polytrope(0.12, 5, 3, 3, true); }
TEST(GravityPolytrope, DISABLED_RelaxedN1StaysInEquilibriumFine) { run_polytrope(0.1, 6, 4, 3, true); }

// Evrard's collapse: rho = 1 / (2 pi r) (r = r0^(3/2) from the lattice), u = 0.05, gamma = 5/3; spline
// softening eps = 0.02. Initial energies: W = -2/3 (analytic for rho ~ 1/r), U = 0.05; goal of issue
// 16: the total conserved to 1% (of |W0|) up to t = 3.
void run_evrard(double dp) {
  ParamSet p = read_scene_string(kGasSphere, "<evrard>");
  p.set("gravity.softening", "0.02", "test");
  const SceneParticles init = stretched_sphere(
      dp, 5.0 / 3.0, [](double r) { return r * r; }, [](double r) { return 1 / (2 * M_PI * std::max(r, 1e-3)); },
      [](double) { return 0.05; });
  auto sim = make_cpu_store_solver(p, init, Precision::Double);
  const Diagnostics d0 = sim->diagnostics();
  double max_drift = 0, max_thermal = 0, t_thermal = 0, min_w = 0, max_kin = 0, t_kin = 0;
  long k = 0;
  auto sample = [&](const Simulation& s) {
    const Diagnostics d = s.diagnostics();
    max_drift = std::max(max_drift, std::fabs(d.total - d0.total));
    if (d.internal > max_thermal) {
      max_thermal = d.internal;
      t_thermal = d.time;
    }
    if (d.kinetic > max_kin) {
      max_kin = d.kinetic;
      t_kin = d.time;
    }
    min_w = std::min(min_w, d.self_gravity);
    if (k % 200 == 0)
      std::printf("evrard t %.3f: kinetic %.4f thermal %.4f potential %.4f total %.4f\n", d.time, d.kinetic,
                  d.internal, d.self_gravity, d.total);
  };
  test::run_until(*sim, 3.0, [&](const Simulation& s) {
    ++k;
    sample(s);
    return true;
  });
  const Diagnostics d1 = sim->diagnostics();
  std::printf("evrard: %zu particles, %ld steps; W0 %.4f U0 %.4f E0 %.4f; kinetic max %.3f at t %.2f, thermal max "
              "%.3f at t %.2f, potential min %.3f; E(3) %.4f, largest drift %.2e (%.2f%% of |W0|)\n",
              init.size(), sim->steps(), d0.self_gravity, d0.internal, d0.total, max_kin, t_kin, max_thermal, t_thermal,
              min_w, d1.total, max_drift, 100 * max_drift / std::fabs(d0.self_gravity));
  EXPECT_NEAR(d0.self_gravity, -2.0 / 3.0, 0.03);
  EXPECT_NEAR(d0.internal, 0.05, 1e-9);
  EXPECT_LE(max_drift, 0.01 * std::fabs(d0.self_gravity));
  EXPECT_GT(max_thermal, 0.5) << "the collapse heats the gas";
}

// CI: lattice dp = 0.15 (about 1200 particles); the longer run: dp = 0.1 (4224 particles).
TEST(GravityEvrard, CollapseConservesEnergy) { run_evrard(0.15); }
TEST(GravityEvrard, DISABLED_CollapseConservesEnergyFine) { run_evrard(0.1); }

}  // namespace
}  // namespace ejecta
