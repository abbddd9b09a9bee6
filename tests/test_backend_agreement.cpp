// The CPU and CUDA backends run the same functors; on the same scene they must agree. GPU-only: skips,
// saying why, where no CUDA device is found. Float and double must agree too (CPU only).
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ejecta {
namespace {

// Positions indexed by particle id (the engines keep their particles sorted by cell).
std::vector<double> positions_by_id(const Simulation& sim) {
  const HostParticles h = sim.download();
  std::vector<double> out(h.n * h.dim);
  for (std::size_t i = 0; i < h.n; ++i)
    for (int d = 0; d < h.dim; ++d) out[h.id[i] * h.dim + d] = h.position[i * h.dim + d];
  return out;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t k = 0; k < a.size(); ++k) m = std::max(m, std::fabs(a[k] - b[k]));
  return m;
}

struct Agreement {
  double max_dx;        // largest position difference [m]
  double energy_diff;   // relative difference of total energy
  double front_diff;    // difference of the largest fluid x [m]
};

Agreement compare(const ParamSet& p, Backend a, Backend b, long steps) {
  auto sa = make_simulation(p, a);
  auto sb = make_simulation(p, b);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sa, rule).run();
  StepLoop(*sb, rule).run();
  const auto xa = positions_by_id(*sa), xb = positions_by_id(*sb);
  const Diagnostics da = sa->diagnostics(), db = sb->diagnostics();
  const HostParticles ha = sa->download(), hb = sb->download();
  auto front = [](const HostParticles& h) {
    double m = -1e30;
    for (std::size_t i = 0; i < h.n; ++i)
      if (h.kind[i] == kFluid) m = std::max(m, h.position[i * h.dim]);
    return m;
  };
  return {max_abs_diff(xa, xb), std::fabs(da.total - db.total) / std::fabs(da.total),
          std::fabs(front(ha) - front(hb))};
}

TEST(BackendAgreement, CpuAndCudaAgreeOnDamBreak2D_Double) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"scene.precision=double"});
  const Agreement r = compare(p, Backend::Cpu, Backend::Cuda, 400);
  std::printf("  2D double, 400 steps: max |dx| %.3g m, energy %.3g, front %.3g m\n", r.max_dx,
              r.energy_diff, r.front_diff);
  EXPECT_LT(r.max_dx, 1e-9) << "same functors, same order: only rounding (FMA) may differ";
  EXPECT_LT(r.energy_diff, 1e-9);
}

TEST(BackendAgreement, CpuAndCudaAgreeOnDamBreak3D_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04"});
  const double dp = p.real("particles.dp");
  const Agreement r = compare(p, Backend::Cpu, Backend::Cuda, 200);
  std::printf("  3D float, 200 steps: max |dx| %.3g m (%.3g dp), energy %.3g, front %.3g m\n", r.max_dx,
              r.max_dx / dp, r.energy_diff, r.front_diff);
  EXPECT_LT(r.max_dx, 1e-3 * dp);
  EXPECT_LT(r.energy_diff, 1e-4);
}

TEST(BackendAgreement, CudaRestartContinuesExactly) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04"});
  StopRule n, two_n;
  n.max_steps = 100;
  two_n.max_steps = 200;
  auto whole = make_simulation(p, Backend::Cuda);
  StepLoop(*whole, two_n).run();
  auto first = make_simulation(p, Backend::Cuda);
  StepLoop(*first, n).run();
  const FrameData frame = first->capture_frame();
  auto resumed = make_simulation(p, Backend::Cuda);
  resumed->restore_frame(frame);
  StepLoop(*resumed, n).run();
  EXPECT_EQ(positions_by_id(*whole), positions_by_id(*resumed)) << "bit-identical on the same backend";
  EXPECT_EQ(whole->time(), resumed->time());
}

TEST(BackendAgreement, FloatAndDoubleAgreeOnDamBreak2D) {
  // Coarser than the validation run (dp = a/20) so that both precisions run in seconds.
  const ParamSet pf = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.0028575"});
  ParamSet pd = pf;
  pd.set("scene.precision", "double", "test");
  auto sf = make_simulation(pf, Backend::Cpu);
  auto sd = make_simulation(pd, Backend::Cpu);
  const double t_end = 0.1;  // T = 1.85, the surge well under way
  test::run_until(*sf, t_end);
  test::run_until(*sd, t_end);
  const Diagnostics df = sf->diagnostics(), dd = sd->diagnostics();
  auto front = [](const Simulation& s) {
    const HostParticles h = s.download();
    double m = 0;
    for (std::size_t i = 0; i < h.n; ++i)
      if (h.kind[i] == kFluid) m = std::max(m, h.position[2 * i]);
    return m;
  };
  const double ff = front(*sf), fd = front(*sd);
  std::printf("  front float %.5f m, double %.5f m; energy float %.6g J, double %.6g J\n", ff, fd,
              df.total, dd.total);
  EXPECT_NEAR(ff, fd, 0.01 * fd);
  EXPECT_NEAR(df.total, dd.total, 1e-3 * std::fabs(dd.total));
  EXPECT_NEAR(df.kinetic, dd.kinetic, 0.02 * dd.kinetic);
}

}  // namespace
}  // namespace ejecta
