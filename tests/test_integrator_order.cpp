// Convergence order of the time integrators through the real step path (the store's gas: sort, h
// iteration, forces, the staged integrator), at fixed dt, on a smooth problem: a 1D slab of ideal
// gas (rho = 1, u = 1, 100 particles) expanding freely into vacuum at both ends, without artificial
// viscosity (whose switch-on at approach, v_ij.r_ij < 0, makes the rates only Lipschitz), h solved
// to 1e-12. The error at t = 0.04 is the max over particles of |x - x_ref| and |v - v_ref| against
// a run with rk23 at a 16 times smaller dt than the finest one; the order is log2 of the ratio of
// errors of successive halvings of dt.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ejecta {
namespace {

const char* kSlab = R"(
[scene]
name = slab1d
dim = 1
precision = double
[particles]
kernel = cubic_spline
[physics]
model = gas
gravity = 0, 0, 0
[gas]
h_tolerance = 1e-12
[viscosity]
alpha = 0
[time]
cfl = 0.3
dt_max = 1
[gas_block.1]
min = -0.5
max = 0.5
dp = 0.01
density = 1
internal_energy = 1
)";

constexpr double kEnd = 0.04;

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// Positions then velocities, indexed by particle id, at t = end (fixed dt: end / dt steps;
// adaptive, dt = 0: the first step that reaches end, the time reached returned in *t_reached).
std::vector<double> run_fixed(const std::string& integrator, double dt, const std::vector<std::string>& extra = {},
                              double end = kEnd, double* t_reached = nullptr) {
  ParamSet p = read_scene_string(kSlab, "slab1d");
  p.apply_override("time.integrator=" + integrator);
  if (dt > 0) p.apply_override("time.dt_fixed=" + num(dt));
  for (const auto& o : extra) p.apply_override(o);
  auto sim = make_simulation(p, Backend::Cpu);
  StopRule rule;
  if (dt > 0)
    rule.max_steps = std::lround(end / dt);
  else
    rule.until_time = end;
  StepLoop(*sim, rule).run();
  if (t_reached) *t_reached = sim->time();
  const HostParticles h = sim->download();
  std::vector<double> out(2 * h.n);
  for (std::size_t i = 0; i < h.n; ++i) {
    out[h.id[i]] = h.position[i];
    out[h.n + h.id[i]] = h.velocity[i];
  }
  return out;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t k = 0; k < a.size(); ++k) m = std::max(m, std::fabs(a[k] - b[k]));
  return m;
}

const std::vector<double>& reference() {
  static const std::vector<double> ref = run_fixed("rk23", 1e-3 / 8 / 16);
  return ref;
}

// Errors at dt = 1e-3 / 2^k, k = 0..3, and the orders between them.
std::vector<double> orders(const std::string& integrator) {
  std::vector<double> err;
  for (int k = 0; k < 4; ++k) err.push_back(max_diff(run_fixed(integrator, 1e-3 / (1 << k)), reference()));
  std::vector<double> ord;
  std::printf("  %s: errors", integrator.c_str());
  for (double e : err) std::printf(" %.3e", e);
  std::printf("; orders");
  for (std::size_t k = 1; k < err.size(); ++k) {
    ord.push_back(std::log2(err[k - 1] / err[k]));
    std::printf(" %.2f", ord.back());
  }
  std::printf("\n");
  return ord;
}

TEST(IntegratorOrder, LeapfrogIsSecondOrder) {
  for (double o : orders("leapfrog")) EXPECT_NEAR(o, 2.0, 0.3);
}

TEST(IntegratorOrder, PredictorCorrectorIsSecondOrder) {
  for (double o : orders("predictor_corrector")) EXPECT_NEAR(o, 2.0, 0.3);
}

TEST(IntegratorOrder, Rk23IsThirdOrder) {
  for (double o : orders("rk23")) EXPECT_NEAR(o, 3.0, 0.4);
}

// Adaptive rk23: the global error at the end follows the tolerance. The error control bounds each
// step's local error by atol + rtol |y|; the global error is the sum of the propagated local errors,
// so it is bounded by (steps x tolerance) in the worst case and is usually of the order of the
// tolerance. Checked: the global error stays below 10 x tolerance (|y| <= 1 here, so the
// tolerance scale is at most atol + rtol), and a 100 x tighter tolerance gives a >= 10 x smaller error.
TEST(IntegratorOrder, Rk23MeetsItsTolerance) {
  std::vector<double> err;
  for (double tol : {1e-5, 1e-7}) {
    const std::string t = num(tol);
    double t_end = 0;
    const auto y = run_fixed("rk23", 0, {"time.rtol=" + t, "time.atol=" + t, "time.cfl=1"}, kEnd, &t_end);
    // The reference at the time the adaptive run reached (it stops on the first step past kEnd).
    err.push_back(max_diff(y, run_fixed("rk23", t_end / 2048, {}, t_end)));
    std::printf("  rk23 rtol = atol = %.0e: global error %.3e (%.2f x tolerance)\n", tol, err.back(),
                err.back() / (2 * tol));
    EXPECT_LE(err.back(), 10 * 2 * tol);
  }
  EXPECT_GE(err[0] / err[1], 10.0);
}

}  // namespace
}  // namespace ejecta
