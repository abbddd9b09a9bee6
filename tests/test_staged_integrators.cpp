// The generic staged integrators (integrators/staged_integrators.h) on a system with a known
// solution, without SPH: the harmonic oscillator x' = v, v' = -x (x(0) = 1, v(0) = 0), as a
// one-particle OdeVar state on the CPU backend. Checks each scheme's order at fixed dt against
// cos t, and rk23's error control: a too-large first step is rejected and retried, and every
// accepted step's scaled error is at most 1. leapfrog_predicted (the liquid's hooks) on the same
// oscillator written the liquid's way: the same leapfrog, to the bit.
#include "exec/exec_cpu.h"
#include "integrators/staged_integrators.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ejecta {
namespace {

struct Oscillator {
  std::vector<double> x{1.0}, v{0.0}, a{-1.0};
  std::vector<double> bx = std::vector<double>(4), bv = std::vector<double>(4);
  std::vector<double> xb[4], vb[4];
  std::vector<OdeVar<double>> list;
  int evaluations = 0;
  Oscillator() {
    for (int k = 0; k < 4; ++k) {
      xb[k].assign(1, 0.0);
      vb[k].assign(1, 0.0);
    }
    OdeVar<double> X;
    X.y = x.data();
    X.rate = v.data();
    X.count = 1;
    X.position = true;
    X.drift_from = 1;
    X.y0 = xb[0].data();
    X.k1 = xb[1].data();
    X.k2 = xb[2].data();
    X.k3 = xb[3].data();
    OdeVar<double> V;
    V.y = v.data();
    V.rate = a.data();
    V.count = 1;
    V.y0 = vb[0].data();
    V.k1 = vb[1].data();
    V.k2 = vb[2].data();
    V.k3 = vb[3].data();
    list = {X, V};
  }
  std::vector<OdeVar<double>>& vars() { return list; }
  double evaluate() {
    ++evaluations;
    a[0] = -x[0];
    return 1e30;  // no CFL limit
  }
};

double error_at_pi(Scheme s, int steps) {
  CpuExec exec;
  IntegratorSettings set;
  set.scheme = s;
  set.adaptive = false;
  StagedIntegrator<double, CpuExec> integ(exec, set);
  Oscillator osc;
  const double T = 3.14159265358979323846, dt = T / steps;
  for (int k = 0; k < steps; ++k) integ.step(osc, dt);
  return std::hypot(osc.x[0] - std::cos(T), osc.v[0] + std::sin(T));
}

void expect_order(Scheme s, double order) {
  for (int n : {40, 80, 160}) {
    const double measured = std::log2(error_at_pi(s, n) / error_at_pi(s, 2 * n));
    EXPECT_NEAR(measured, order, 0.1) << "steps " << n;
  }
}

TEST(StagedIntegrators, LeapfrogOrder2) { expect_order(Scheme::Leapfrog, 2); }
TEST(StagedIntegrators, PredictorCorrectorOrder2) { expect_order(Scheme::PredictorCorrector, 2); }
TEST(StagedIntegrators, Rk23Order3) { expect_order(Scheme::Rk23, 3); }

TEST(StagedIntegrators, EvaluationsPerStep) {
  for (auto [s, n] : {std::pair{Scheme::Leapfrog, 1}, {Scheme::PredictorCorrector, 2}, {Scheme::Rk23, 3}}) {
    CpuExec exec;
    IntegratorSettings set;
    set.scheme = s;
    set.adaptive = false;
    StagedIntegrator<double, CpuExec> integ(exec, set);
    Oscillator osc;
    integ.step(osc, 0.01);
    EXPECT_EQ(osc.evaluations, n);
  }
}

TEST(StagedIntegrators, Rk23RejectsTooLargeStepsAndMeetsTheTolerance) {
  CpuExec exec;
  IntegratorSettings set;
  set.scheme = Scheme::Rk23;
  set.rtol = 1e-8;
  set.atol = 1e-8;
  StagedIntegrator<double, CpuExec> integ(exec, set);
  Oscillator osc;
  double t = 0, dt = 1.0;  // far too large for 1e-8
  int rejections = 0, steps = 0;
  while (t < 3.0) {
    const StepReport r = integ.step(osc, dt);
    rejections += r.rejections;
    EXPECT_LE(r.error, 1.0);
    EXPECT_LE(r.dt_error, set.growth_max * r.dt_taken * (1 + 1e-12));
    t += r.dt_taken;
    dt = r.dt_error;
    ++steps;
  }
  EXPECT_GE(rejections, 1);
  const double err = std::hypot(osc.x[0] - std::cos(t), osc.v[0] + std::sin(t));
  std::printf("  rk23 tol 1e-8: %d steps, %d rejections, global error %.2e at t = %.3f\n", steps, rejections, err, t);
  EXPECT_LT(err, 100 * 1e-8);
}

// The oscillator with the hooks of Scheme::LeapfrogPredicted, written as the liquid's KickDrift and
// Kick (integrators/leapfrog_kdk.h): the half-step velocity in v, the predicted one in vp, the
// acceleration from x only (the oscillator's rate ignores vp); the limit after the closing kick is
// |v| there, to check where it is measured.
struct OscillatorHooks {
  double x = 1.0, v = 0.0, vp = 0.0, a = -1.0;
  int evaluations = 0;
  double v_at_limit = -1;
  std::vector<OdeVar<double>> none;
  std::vector<OdeVar<double>>& vars() { return none; }
  void kick_drift(double dt) {
    const double half = 0.5 * dt;
    v = v + a * half;
    x += v * dt;
    vp = v + a * half;
  }
  void evaluate_rates() {
    ++evaluations;
    a = -x;
  }
  double kick_and_limit(double dt) {
    v += a * (0.5 * dt);
    v_at_limit = v;
    return 1e30;
  }
  double evaluate() {
    evaluate_rates();
    return 1e30;
  }
};

TEST(StagedIntegrators, LeapfrogPredictedIsTheLeapfrogBitForBit) {
  CpuExec exec;
  IntegratorSettings lf, lp;
  lf.scheme = Scheme::Leapfrog;
  lp.scheme = Scheme::LeapfrogPredicted;
  StagedIntegrator<double, CpuExec> generic(exec, lf), hooked(exec, lp);
  Oscillator osc;
  OscillatorHooks hk;
  const double dt = 3.14159265358979323846 / 80;
  for (int k = 0; k < 80; ++k) {
    const StepReport r = hooked.step(hk, dt);
    generic.step(osc, dt);
    EXPECT_EQ(r.dt_taken, dt);
    EXPECT_EQ(hk.x, osc.x[0]) << "step " << k;
    EXPECT_EQ(hk.v, osc.v[0]) << "step " << k;
    EXPECT_EQ(hk.v_at_limit, hk.v) << "the limit is measured after the closing kick";
  }
  EXPECT_EQ(hk.evaluations, 80);
  EXPECT_NEAR(hk.x, -1.0, 1e-3);  // cos(pi); the leapfrog error is about t dt^2 / 24 = 2e-4
}

TEST(StagedIntegrators, LeapfrogPredictedNeedsTheHooks) {
  CpuExec exec;
  IntegratorSettings set;
  set.scheme = Scheme::LeapfrogPredicted;
  StagedIntegrator<double, CpuExec> integ(exec, set);
  Oscillator osc;  // OdeVars only
  EXPECT_THROW(integ.step(osc, 0.01), std::logic_error);
}

}  // namespace
}  // namespace ejecta
