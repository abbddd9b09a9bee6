// Colliding rubber rings (scenes/rings2d.ini; Gray, Monaghan & Swift 2001, CMAME 190, 6641).
#include "ring_metrics.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace ejecta {
namespace {

struct RingRun {
  double min_sep = 1e30;         // smallest particle separation over the run / dp
  std::size_t pieces_max = 0;    // most pieces of either ring over the samples
  double v1_end = 0, v2_end = 0; // centre-of-mass x velocities at the end
  double v0 = 0;
  double energy_drift = 0;       // max |E - E0| / E0
  double t_end = 0;
  long steps = 0;
};

RingRun run_rings(const std::vector<std::string>& overrides, double until, bool verbose) {
  const ParamSet p = test::shipped_scene("rings2d.ini", overrides);
  const double dp = p.real("solid_block.1.dp");
  auto sim = make_simulation(p, Backend::Cpu);
  HostParticles h = sim->download();
  const std::size_t n = h.n;
  std::size_t n1 = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (h.position[2 * i] < 0) ++n1;
  RingRun r;
  const Diagnostics d0 = sim->diagnostics();
  const std::vector<std::size_t> b1 = test::body_of(h, 0, n1);
  r.v0 = test::body_velocity(h, b1, 0);
  long k = 0;
  auto sample = [&](const Simulation& s) {
    const Diagnostics d = s.diagnostics();
    r.energy_drift = std::max(r.energy_drift, std::fabs(d.total / d0.total - 1));
    if (++k % 20) return true;
    const HostParticles hh = s.download();
    const auto r1 = test::body_of(hh, 0, n1), r2 = test::body_of(hh, n1, n);
    r.min_sep = std::min(r.min_sep, test::min_separation_2d(hh, 1.5 * dp) / dp);
    const std::size_t p1 = test::pieces_2d(hh, r1, 1.5 * dp).size(), p2 = test::pieces_2d(hh, r2, 1.5 * dp).size();
    r.pieces_max = std::max({r.pieces_max, p1, p2});
    if (verbose && k % 100 == 0)
      std::printf("t=%.5f step %ld v1=%.3f v2=%.3f x1=%.5f minsep=%.3f pieces %zu %zu E=%.6e K=%.4e drift=%.2e\n",
                  s.time(), s.steps(), test::body_velocity(hh, r1, 0), test::body_velocity(hh, r2, 0),
                  test::body_centre(hh, r1, 0), test::min_separation_2d(hh, 1.5 * dp) / dp, p1, p2, d.total,
                  d.kinetic, d.total / d0.total - 1), std::fflush(stdout);
    return true;
  };
  test::run_until(*sim, until, sample);
  h = sim->download();
  r.v1_end = test::body_velocity(h, test::body_of(h, 0, n1), 0);
  r.v2_end = test::body_velocity(h, test::body_of(h, n1, n), 0);
  r.t_end = sim->time();
  r.steps = sim->steps();
  std::printf("rings: n = %zu (%zu + %zu), %ld steps to t = %.4f s; v0 = %.3f m/s, v_end = %.3f, %.3f m/s; min "
              "separation %.3f dp; most pieces %zu; energy drift %.3e\n",
              n, n1, n - n1, r.steps, r.t_end, r.v0, r.v1_end, r.v2_end, r.min_sep, r.pieces_max, r.energy_drift);
  return r;
}

TEST(SolidRings, Explore) {
  const std::vector<std::string> c = {"solid_block.1.dp=0.002", "solid_block.2.dp=0.002"};
  run_rings(c, 0.012, true);
  auto c2 = c;
  c2.push_back("solid.artificial_stress=0");
  run_rings(c2, 0.012, true);
}

}  // namespace
}  // namespace ejecta
