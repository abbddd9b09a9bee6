// Sod's shock tube (scenes/sod1d.ini) against the exact Riemann solution (engine/physics/riemann_exact.h) at
// t = 0.2. Measures, over x in [-0.5, 0.5] (untouched by the free ends, see the scene):
//  - L1 = mean over particles |rho_i - rho_exact(x_i)|;
//  - plateaus: mean density over the middle half of the exact post-shock [contact, shock] and
//    rarefaction-plateau [tail, contact] intervals, relative to the exact star densities;
//  - shock and contact: where the density crosses the half-way value of the exact jump (shock:
//    (rho*_R + rho_R)/2 scanning from the right; contact: (rho*_L + rho*_R)/2 left of the shock),
//    linearly interpolated between particles, against u* t and S t;
//  - total energy drift |E(t) - E(0)| / E(0) over the whole tube.
#include "physics/riemann_exact.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ejecta {
namespace {

struct SodResult {
  double L1 = 0, post_err = 0, rare_err = 0, shock = 0, shock_exact = 0, contact = 0, contact_exact = 0;
  double energy_drift = 0, p_star_err = 0, t = 0;
  long steps = 0;
};

SodResult run_sod(const std::vector<std::string>& overrides) {
  const ParamSet p = test::shipped_scene("sod1d.ini", overrides);
  auto sim = make_simulation(p, Backend::Cpu);
  const double e0 = sim->diagnostics().total;
  test::run_until(*sim, p.real("scene.end_time"));
  SodResult r;
  r.t = sim->time();
  r.steps = sim->steps();
  r.energy_drift = std::fabs(sim->diagnostics().total - e0) / std::fabs(e0);
  const double gamma = p.real("gas.gamma");
  const GasState L{1.0, 0.0, (gamma - 1) * 1.0 * 2.5}, R{0.25, 0.0, (gamma - 1) * 0.25 * 1.795};
  const ExactRiemann ex(L, R, gamma);
  const HostParticles h = sim->download();
  std::vector<std::pair<double, std::pair<double, double>>> pts;  // x, (rho, p)
  for (std::size_t i = 0; i < h.n; ++i)
    if (std::fabs(h.position[i]) <= 0.5) pts.push_back({h.position[i], {h.density[i], h.pressure[i]}});
  std::sort(pts.begin(), pts.end());
  const double t = r.t;
  for (auto& q : pts) r.L1 += std::fabs(q.second.first - ex.sample(q.first / t).rho);
  r.L1 /= double(pts.size());
  r.contact_exact = ex.u_star() * t;
  r.shock_exact = ex.shock_speed() * t;
  const double tail = ex.rarefaction_tail() * t;
  auto plateau = [&](double a, double b, int field) {
    double s = 0;
    int n = 0;
    for (auto& q : pts)
      if (q.first >= a + 0.25 * (b - a) && q.first <= a + 0.75 * (b - a)) {
        s += field == 0 ? q.second.first : q.second.second;
        ++n;
      }
    return n ? s / n : 0.0;
  };
  r.post_err = std::fabs(plateau(r.contact_exact, r.shock_exact, 0) / ex.rho_star_right() - 1);
  r.rare_err = std::fabs(plateau(tail, r.contact_exact, 0) / ex.rho_star_left() - 1);
  r.p_star_err = std::fabs(plateau(tail, r.shock_exact, 1) / ex.p_star() - 1);
  auto crossing = [&](double level, std::size_t from) {  // scanning leftwards from index `from`
    for (std::size_t k = from; k-- > 0;)
      if (pts[k].second.first >= level) {
        const double x0 = pts[k].first, x1 = pts[k + 1].first;
        const double r0 = pts[k].second.first, r1 = pts[k + 1].second.first;
        return std::pair<double, std::size_t>{x0 + (level - r0) / (r1 - r0) * (x1 - x0), k};
      }
    return std::pair<double, std::size_t>{0.0, 0};
  };
  const auto sh = crossing(0.5 * (ex.rho_star_right() + R.rho), pts.size() - 1);
  r.shock = sh.first;
  r.contact = crossing(0.5 * (ex.rho_star_left() + ex.rho_star_right()), sh.second).first;
  std::printf("  t = %.4f (%ld steps): L1 %.5f, post-shock %.3f%%, rarefaction plateau %.3f%%, p* %.3f%%, "
              "shock %.4f (exact %.4f), contact %.4f (exact %.4f), energy drift %.2e\n",
              r.t, r.steps, r.L1, 100 * r.post_err, 100 * r.rare_err, 100 * r.p_star_err, r.shock,
              r.shock_exact, r.contact, r.contact_exact, r.energy_drift);
  return r;
}

// L1 of the continuity-density run as measured when ContinuityDensityDocumented was written.
constexpr double kContinuityL1Measured = 0.0097;  // plateaus 1.3% and 1.9% off

void expect_sod_quality(const SodResult& r) {
  const double h = 0.01;  // the scene's nominal h (gas.h)
  EXPECT_LE(r.L1, 0.01);
  EXPECT_LE(r.post_err, 0.01);
  EXPECT_LE(r.rare_err, 0.01);
  EXPECT_LE(std::fabs(r.shock - r.shock_exact), 2 * h);
  EXPECT_LE(std::fabs(r.contact - r.contact_exact), 2 * h);
  EXPECT_LE(r.energy_drift, 0.005);
}

TEST(GasSod1D, ExactRiemannSolverSanity) {
  // Toro (2009) table 4.2, test 1 (Sod, gamma = 1.4): p* = 0.30313, u* = 0.92745.
  const ExactRiemann ex({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  EXPECT_NEAR(ex.p_star(), 0.30313, 1e-5);
  EXPECT_NEAR(ex.u_star(), 0.92745, 1e-5);
  EXPECT_NEAR(ex.rho_star_left(), 0.42632, 1e-5);
  EXPECT_NEAR(ex.rho_star_right(), 0.26557, 1e-5);
}

TEST(GasSod1D, SummationDensityVariableHLeapfrog) { expect_sod_quality(run_sod({})); }

TEST(GasSod1D, PredictorCorrector) { expect_sod_quality(run_sod({"time.integrator=predictor_corrector"})); }

TEST(GasSod1D, Rk23) { expect_sod_quality(run_sod({"time.integrator=rk23"})); }

TEST(GasSod1D, FixedH) { expect_sod_quality(run_sod({"gas.h_mode=fixed"})); }

TEST(GasSod1D, ConductivityAndSwitch) {
  expect_sod_quality(run_sod({"gas.conductivity=1", "viscosity.switch=morris_monaghan"}));
}

TEST(GasSod1D, FloatPrecision) { expect_sod_quality(run_sod({"scene.precision=float"})); }

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

// Continuity density on the same set-up: the density starts as the two block values, a step that
// the summation estimate would have smoothed; integrating drho/dt keeps the initial jump's
// mismatch between density and particle spacing, which shows as a spike and oscillation at the
// contact (the "wall heating"/blip region). Documented, not hidden: the measured L1 is printed and
// bounded above by the value measured when this test was written, with 25% headroom (the bound
// documents the behaviour; summation, the default, is held to L1 <= 0.01).
TEST(GasSod1D, ContinuityDensityDocumented) {
  const SodResult r = run_sod({"gas.density=continuity"});
  std::printf("  continuity density: L1 = %.5f (summation: see SummationDensityVariableHLeapfrog)\n", r.L1);
  EXPECT_LE(r.L1, kContinuityL1Measured * 1.25);
  EXPECT_GT(r.L1, run_sod({}).L1) << "continuity density is expected to be the less accurate choice here";
  EXPECT_LE(r.energy_drift, 0.005);
}

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {

// The 2D tube (scenes/sod2d.ini, 10680 particles) along its axis, |y| < 0.05, against the exact
// solution: a measurement for the docs, too slow for CI on two cores (run it with
// --gtest_also_run_disabled_tests). Same criteria as 1D.
TEST(GasSod2D, DISABLED_AxisProfile) {
  const ParamSet p = test::shipped_scene("sod2d.ini");
  auto sim = make_simulation(p, Backend::Cpu);
  const double e0 = sim->diagnostics().total;
  test::run_until(*sim, 0.2);
  const double gamma = p.real("gas.gamma");
  const ExactRiemann ex({1.0, 0.0, (gamma - 1) * 2.5}, {0.25, 0.0, (gamma - 1) * 0.25 * 1.795}, gamma);
  const HostParticles h = sim->download();
  double L1 = 0;
  int n = 0;
  for (std::size_t i = 0; i < h.n; ++i) {
    const double x = h.position[2 * i], y = h.position[2 * i + 1];
    if (std::fabs(y) < 0.05 && std::fabs(x) <= 0.5) {
      L1 += std::fabs(h.density[i] - ex.sample(x / sim->time()).rho);
      ++n;
    }
  }
  L1 /= n;
  const double drift = std::fabs(sim->diagnostics().total - e0) / e0;
  std::printf("  Sod 2D axis: L1 %.5f over %d particles, energy drift %.2e, %ld steps\n", L1, n, drift, sim->steps());
  EXPECT_LE(L1, 0.01);
  EXPECT_LE(drift, 0.005);
}

}  // namespace
}  // namespace ejecta
