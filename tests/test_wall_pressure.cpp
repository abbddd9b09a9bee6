// The walls' pressure of Adami et al. (2012) with `boundary.wall_pressure = fluid_acceleration`
// (physics/wall_pressure_adami2012.h), against the formula evaluated on the host from the step's own
// fields: p_w = max(0, (sum_f p_f W_wf + sum_f rho_f (g - a_f) . (x_w - x_f) W_wf) / sum_f W_wf) over
// the fluid within the support, with a_f each fluid particle's acceleration from the previous force
// pass. The walls' pass runs after the step's sort, which must carry the acceleration (not a
// persistent field): until commit aa79487 it was read in the previous sort's order, the acceleration of
// whichever particle had held each index (ParticleStore::ReorderPlan::carry, solver/uniform_liquid.h).
#include "io/frame.h"
#include "physics/kernels.h"
#include "scene/scene_builder.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ejecta {
namespace {

// The 2D Martin & Moyce column at a / 20 in double, flowing (t = 0.05 s, the front running along the
// floor, particles changing buckets every step). Tolerance: 1e-9 of rho0 g h_column (the host sums in
// another order); the previous order's acceleration is checked to miss by far more, so the test can fail.
TEST(WallPressure, FluidAccelerationReadsEachNeighboursOwnAcceleration) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.0028575", "scene.precision=double",
                                                            "boundary.wall_pressure=fluid_acceleration"});
  auto sim = make_simulation(p, Backend::Cpu);
  while (sim->time() < 0.05) sim->step();
  FrameData before, after;
  sim->capture_frame_into(before, {"acceleration", "id"});
  sim->step();
  sim->capture_frame_into(after, {"position", "density_predicted", "pressure", "kind", "id"});
  using test::frame_values;
  const std::vector<double> a0 = frame_values(before, "acceleration"), id0 = frame_values(before, "id");
  const std::vector<double> x = frame_values(after, "position"), rho = frame_values(after, "density_predicted"),
                            pr = frame_values(after, "pressure"), kind = frame_values(after, "kind"),
                            id = frame_values(after, "id");
  const std::size_t n = kind.size();
  // The previous force pass's acceleration of each particle by its id, and (the old bug) by its index.
  std::vector<double> a_by_id(2 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 2; ++d) a_by_id[2 * std::size_t(id0[i]) + d] = a0[2 * i + d];
  const SceneParticles scene = build_scene(p);
  const auto W = SmoothingKernel<double, 2>::make(KernelType::WendlandC2, scene.liquid.h);
  const double g[2] = {0, -9.81}, support = W.support();
  const auto wall_pressure = [&](std::size_t w, bool old_order) {
    double sw = 0, sp = 0, sa = 0;
    for (std::size_t f = 0; f < n; ++f) {
      if (kind[f] != kFluid) continue;
      const double r[2] = {x[2 * w] - x[2 * f], x[2 * w + 1] - x[2 * f + 1]}, r2 = r[0] * r[0] + r[1] * r[1];
      if (r2 >= support * support) continue;
      const double wf = W.W(std::sqrt(r2));
      const double* af = old_order ? &a0[2 * f] : &a_by_id[2 * std::size_t(id[f])];
      sw += wf;
      sp += pr[f] * wf;
      sa += ((g[0] - af[0]) * r[0] + (g[1] - af[1]) * r[1]) * rho[f] * wf;
    }
    return sw > 0 ? std::max(0.0, (sp + sa) / sw) : 0.0;
  };
  const double scale = 1000 * 9.81 * 0.1143;
  double worst = 0, worst_old = 0;
  std::size_t wet = 0;
  for (std::size_t w = 0; w < n; ++w) {
    if (kind[w] != kWall) continue;
    const double want = wall_pressure(w, false);
    wet += want > 0;
    worst = std::max(worst, std::abs(pr[w] - want) / scale);
    worst_old = std::max(worst_old, std::abs(pr[w] - wall_pressure(w, true)) / scale);
  }
  std::printf("  %zu wet walls at t = %.4f s: largest difference %.2e of rho0 g H (%.2e with the previous order's "
              "accelerations)\n", wet, sim->time(), worst, worst_old);
  EXPECT_GT(wet, 50u);
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(worst_old, 1e-3) << "the previous order's accelerations must give other wall pressures";
}

}  // namespace
}  // namespace ejecta
