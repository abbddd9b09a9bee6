// The 2D SPHERIC 2 slice with the experiment's gate (scenes/spheric2_slice2d_gate.ini; docs/physics.md,
// "Thirteenth session"): the water is released by a gate lifted at a constant speed, a prescribed solid
// of the mixed model acting as a moving wall of the liquid (coupling_adami2012.h). What the scene needs of
// it: the gate moves as prescribed, holds the water above its lower edge, and lets it out underneath, as
// a thin jet along the floor (the long thin front the thirteenth session measures), where a gate that
// clears the water at once releases the whole face.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace ejecta {
namespace {

struct Released {
  double gate_bottom = 1e9;   // lowest gate particle's centre (m)
  double top = 0;             // highest liquid particle past the gate's dry face (m)
  int count = 0;              // liquid particles past the gate's dry face
  double tip = 1e9;           // the most advanced liquid particle (m; the water runs towards -x)
};

// The slice at dp = 0.02 (the gate and the box too) with the gate lifted at `speed`, at time t.
Released release(double speed, double t) {
  auto sim = make_simulation(test::shipped_scene("spheric2_slice2d_gate.ini",
                                                 {"particles.dp=0.02", "solid_block.1.dp=0.02", "solid_block.2.dp=0.02",
                                                  "solid_block.1.velocity=0, " + std::to_string(speed)}),
                             Backend::Cpu);
  test::run_until(*sim, t);
  const FrameData f = sim->capture_frame({"phase", "position"});
  const auto ph = test::frame_values(f, "phase"), x = test::frame_values(f, "position");
  Released r;
  for (std::size_t i = 0; i < ph.size(); ++i) {
    const double xi = x[2 * i], yi = x[2 * i + 1];
    if (ph[i] == 2 && xi > 1.9) r.gate_bottom = std::min(r.gate_bottom, yi);  // the gate (the box is at x < 0.83)
    if (ph[i] == 0) r.tip = std::min(r.tip, xi);
    if (ph[i] == 0 && xi < 1.962) r.top = std::max(r.top, yi), ++r.count;
  }
  std::printf("gate at %.1f m/s, t = %.3f s: gate's lowest particle at %.4f m, %d liquid particles past it, the "
              "highest at %.4f m, the tip at x = %.4f m\n", speed, t, r.gate_bottom, r.count, r.top, r.tip);
  return r;
}

TEST(Spheric2, GateSliceReleasesTheWaterUnderTheGate) {
  const double t = 0.08, dp = 0.02;
  const Released slow = release(1.5, t), fast = release(30, t);
  // The gate moves as prescribed: its lowest row (centres dp/2 above the floor at t = 0) rose by V t.
  EXPECT_NEAR(slow.gate_bottom, 0.5 * dp + 1.5 * t, 0.1 * dp);
  // Water has left under it, and only under it: nothing past the gate stands above its lower edge.
  EXPECT_GT(slow.count, 0);
  EXPECT_LT(slow.top, slow.gate_bottom - 0.5 * dp + dp);
  // The water leaves under the slow gate as a jet along the floor, which runs ahead of the toe of a
  // face released at once (a gate that clears the water in 18 ms), and the released face stands higher.
  EXPECT_LT(slow.tip, fast.tip - dp);
  EXPECT_GT(fast.top, slow.top + dp);
}

}  // namespace
}  // namespace ejecta
