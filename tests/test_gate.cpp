// [gate.N]: an obstacle of the liquid's path (physics.model = wcsph) that moves at a constant velocity,
// the lifted door of SPHERIC 2's dam break (docs/physics.md, "Fourteenth session"). The drift moves its
// particles by v_w dt (integrators/leapfrog_kdk.h), the wall passes give the fluid v_w as the wall's
// velocity (wall_velocity, physics/wcsph_model.h), mDBC's and the wall normals' box moves with it
// (UniformLiquid::move_gates). What it must be: at rest, the obstacle at its box bit for bit; moving, its
// particles at x0 + v_w t, restarted bit for bit; a lifted gate holds the water above its lower edge and
// lets it out below; a bad section names its key, range and fix.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace ejecta {
namespace {

// A 2D tank 0.5 x 0.4 m (open top), water 0.3 m long and 0.2 m deep against the far wall x = 0.5, held by
// a plate 3 dp thick at x = 0.17-0.2 as an obstacle ("obstacle") or a gate lifted at `speed` ("gate"; the
// string form: its velocity's value and any further keys of [gate.1]).
std::string tank(const std::string& plate, const std::string& velocity, const std::string& extra = "") {
  std::string s = R"(
[scene]
dim = 2
[particles]
dp = 0.01
[physics]
gravity = 0, -9.81
[tank.1]
min = 0, 0
max = 0.5, 0.4
open_top = true
[block.1]
min = 0.2, 0
max = 0.5, 0.2
)";
  s += "[" + plate + ".1]\nmin = 0.17, 0\nmax = 0.2, 0.3\n";
  if (plate == "gate") s += "velocity = " + velocity + "\n";
  return s + extra;
}
std::string tank(const std::string& plate, double speed, const std::string& extra = "") {
  return tank(plate, "0, " + format_number(speed), extra);
}

// The tank's top closed (a roof at y = 0.4).
std::string closed_top(std::string ini) {
  return ini.replace(ini.find("open_top = true"), 15, "open_top = false");
}

// The boundary settings of the measured runs: the defaults (Adami's at-rest walls), the wall law on mDBC
// with the wall-normal pressure (wl-cf0.008 of scripts/spheric2-variant-sets.sh), and DBC.
const char* kWallLaw = R"(
[boundary]
model = mdbc_english2022
slip = wall_law
friction = 0.008
[fluid]
pressure_term = zhang2017_wall_normal
)";
const char* kDbc = "\n[boundary]\nmodel = dbc_crespo2007\n";

void run_steps(Simulation& sim, long steps) {
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(sim, rule).run();
}

TEST(Gate, AtRestIsTheObstacleBitForBit) {
  for (const std::string extra : {std::string(), std::string(kWallLaw), std::string(kDbc)}) {
    auto obstacle = make_simulation(read_scene_string(tank("obstacle", 0, extra), "obstacle.ini"), Backend::Cpu);
    auto gate = make_simulation(read_scene_string(tank("gate", 0, extra), "gate.ini"), Backend::Cpu);
    run_steps(*obstacle, 200);
    run_steps(*gate, 200);
    test::expect_same_state(*obstacle, *gate);
    const FrameData a = obstacle->capture_frame({"pressure", "velocity_predicted"}),
                    b = gate->capture_frame({"pressure", "velocity_predicted"});
    for (std::size_t k = 0; k < a.fields.size(); ++k) EXPECT_EQ(a.fields[k].bytes, b.fields[k].bytes);
  }
}

// The gate's particles (walls above the floor within its x range) at time t: the lowest centre.
double gate_bottom(const Simulation& sim) {
  const FrameData f = sim.capture_frame({"kind", "position"});
  const auto kind = test::frame_values(f, "kind"), x = test::frame_values(f, "position");
  double bottom = 1e9;
  for (std::size_t i = 0; i < kind.size(); ++i)
    if (kind[i] == 1 && x[2 * i] > 0.17 && x[2 * i] < 0.2 && x[2 * i + 1] > 0) bottom = std::min(bottom, x[2 * i + 1]);
  return bottom;
}

TEST(Gate, MovesAtItsVelocityAndRestartsBitForBit) {
  for (const std::string extra : {std::string(kWallLaw), std::string(kDbc)}) {
    const ParamSet p = read_scene_string(tank("gate", 1.0, extra), "gate.ini");
    auto sim = make_simulation(p, Backend::Cpu);
    run_steps(*sim, 300);
    // Its lowest row's centres stood dp/2 above the floor at t = 0; the gate's 3 x 30 particles all moved.
    EXPECT_NEAR(gate_bottom(*sim), 0.005 + 1.0 * sim->time(), 1e-5) << "t = " << sim->time();
    // A restart from a frame of the moving gate continues it exactly (its velocity is in the frame, its
    // box follows the clock).
    test::expect_exact_restart(p, 150, 150, {"velocity_predicted", "pressure", "density_predicted"});
  }
}

// The gate's particles (walls in its x range, above the floor and below the roof y = 0.4): their lowest
// and highest centres, and the largest speed among them.
struct GateSpan {
  double bottom = 1e9, top = -1e9, speed = 0;
};
GateSpan gate_span(const Simulation& sim) {
  const FrameData f = sim.capture_frame({"kind", "position", "velocity"});
  const auto kind = test::frame_values(f, "kind"), x = test::frame_values(f, "position"),
             v = test::frame_values(f, "velocity");
  GateSpan g;
  for (std::size_t i = 0; i < kind.size(); ++i)
    if (kind[i] == 1 && x[2 * i] > 0.17 && x[2 * i] < 0.2 && x[2 * i + 1] > 0 && x[2 * i + 1] < 0.4) {
      g.bottom = std::min(g.bottom, x[2 * i + 1]);
      g.top = std::max(g.top, x[2 * i + 1]);
      g.speed = std::max(g.speed, std::hypot(v[2 * i], v[2 * i + 1]));
    }
  return g;
}

// gate.1.travel: lifted at 1 m/s by a travel it reaches between steps 150 and 300 (from the clock of a run
// without it), in the tank with its top closed (the raised gate stays under the roof y = 0.4).
TEST(Gate, StopsAfterItsTravelAndRestartsAcrossTheStopBitForBit) {
  for (const std::string extra : {std::string(kWallLaw), std::string(kDbc)}) {
    auto clock = make_simulation(read_scene_string(tank("gate", 1.0, extra), "gate.ini"), Backend::Cpu);
    run_steps(*clock, 150);
    const double t150 = clock->time();
    run_steps(*clock, 150);
    const double travel = 0.5 * (t150 + clock->time());
    const std::string ini = closed_top(tank("gate", "0, 1\ntravel = " + format_number(travel), extra));
    const ParamSet p = read_scene_string(ini, "travel.ini");
    auto sim = make_simulation(p, Backend::Cpu);
    run_steps(*sim, 150);
    const FrameData moving = sim->capture_frame();
    run_steps(*sim, 150);
    const GateSpan stopped = gate_span(*sim);
    std::printf("travel %.6f m (stop at t = %.6f s), t = %.6f s: the gate's centres %.7f - %.7f m, speed %g\n",
                travel, travel, sim->time(), stopped.bottom, stopped.top, stopped.speed);
    // Its 30 rows stood at 0.005 .. 0.295 at t = 0: every particle ends at x0 + travel (float rounding of
    // the drift), not a fraction of a step past it, and is at rest.
    EXPECT_GT(sim->time(), travel);
    EXPECT_NEAR(stopped.bottom, 0.005 + travel, 2e-6);
    EXPECT_NEAR(stopped.top, 0.295 + travel, 2e-6);
    EXPECT_EQ(stopped.speed, 0.0);
    run_steps(*sim, 100);
    const GateSpan later = gate_span(*sim);
    EXPECT_EQ(later.bottom, stopped.bottom);
    EXPECT_EQ(later.top, stopped.top);
    // Rewound in the same simulation to the moving gate's frame, it stops again at the same place.
    sim->restore_frame(moving);
    run_steps(*sim, 150);
    const GateSpan again = gate_span(*sim);
    EXPECT_EQ(again.bottom, stopped.bottom);
    EXPECT_EQ(again.top, stopped.top);
    EXPECT_EQ(again.speed, 0.0);
    // Restarted before the stop, the gate moves on and stops at the same place; after it, it stays.
    test::expect_exact_restart(p, 150, 150, {"velocity_predicted", "pressure", "density_predicted"});
    test::expect_exact_restart(p, 250, 50, {"velocity_predicted", "pressure", "density_predicted"});
  }
}

// The water past the gate's dry face x = 0.17 at time t.
struct Past {
  int count = 0;
  double top = 0, speed = 0;  // the highest such particle (m); the fastest fluid particle anywhere (m/s)
};
Past past_the_gate(const Simulation& sim) {
  const FrameData f = sim.capture_frame({"kind", "position", "velocity"});
  const auto kind = test::frame_values(f, "kind"), x = test::frame_values(f, "position"),
             v = test::frame_values(f, "velocity");
  Past r;
  for (std::size_t i = 0; i < kind.size(); ++i) {
    if (kind[i] != 0) continue;
    r.speed = std::max(r.speed, std::hypot(v[2 * i], v[2 * i + 1]));
    if (x[2 * i] < 0.17) ++r.count, r.top = std::max(r.top, x[2 * i + 1]);
  }
  return r;
}

TEST(Spheric2, WcsphGateHoldsTheWaterAndReleasesItUnderTheGate) {
  const double t = 0.1, dp = 0.01;
  for (const std::string extra : {std::string(), std::string(kWallLaw)}) {
    // At rest: the water stays behind the plate and still (the hydrostatic start's settling only).
    auto held = make_simulation(read_scene_string(tank("gate", 0, extra), "held.ini"), Backend::Cpu);
    test::run_until(*held, t);
    const Past h = past_the_gate(*held);
    EXPECT_EQ(h.count, 0);
    EXPECT_LT(h.speed, 0.05);
    // Lifted at 1 m/s: water leaves under it, and only under it (nothing past the gate above its edge).
    auto lifted = make_simulation(read_scene_string(tank("gate", 1.0, extra), "lifted.ini"), Backend::Cpu);
    test::run_until(*lifted, t);
    const Past l = past_the_gate(*lifted);
    const double bottom = gate_bottom(*lifted);
    std::printf("gate at rest: %d particles past it, fastest %.4f m/s; lifted at 1 m/s to t = %.3f s: its "
                "lowest centre at %.4f m, %d particles past it, the highest at %.4f m\n",
                h.count, h.speed, lifted->time(), bottom, l.count, l.top);
    EXPECT_NEAR(bottom, 0.5 * dp + lifted->time(), 1e-4);
    EXPECT_GT(l.count, 10);
    EXPECT_LT(l.top, bottom + 0.5 * dp);
  }
}

TEST(Gate, BadSectionsNameTheKeyAndTheFix) {
  auto error = [](const std::string& ini) {
    const std::string e = test::scene_error(ini);
    std::printf("%s\n", e.c_str());
    return e;
  };
  const std::string sideways = error(tank("gate", "1, 0"));
  EXPECT_NE(sideways.find("bad.ini:"), std::string::npos);
  EXPECT_NE(sideways.find("gate.1.velocity.x = 1"), std::string::npos);
  EXPECT_NE(sideways.find("set the other components to 0"), std::string::npos);
  const std::string down = error(tank("gate", -1, ""));
  EXPECT_NE(down.find("gate.1.velocity.y = -1"), std::string::npos);
  EXPECT_NE(down.find(">= 0"), std::string::npos);
  const std::string roof = error(closed_top(tank("gate", 1, "")));
  EXPECT_NE(roof.find("tank.1.open_top = true"), std::string::npos);
  const std::string noslip = error(tank("gate", 1, "\n[boundary]\nslip = no_slip\n"));
  EXPECT_NE(noslip.find("boundary.slip = no_slip"), std::string::npos);
  EXPECT_NE(noslip.find("at_rest"), std::string::npos);
  // A gate at rest is an obstacle: no_slip and a closed top are fine.
  EXPECT_EQ(error(tank("gate", 0, "\n[boundary]\nslip = no_slip\n")), "");
  // Faster than 0.3 c0 (c0 = 10 sqrt(2 g 0.2) = 19.8 m/s here): outside the weakly compressible model.
  const std::string fast = error(tank("gate", 7, ""));
  EXPECT_NE(fast.find("gate.1.velocity.y = 7 m/s: allowed range < 0.3 c0"), std::string::npos);
  EXPECT_NE(fast.find("raise fluid.c0"), std::string::npos);
  EXPECT_EQ(error(tank("gate", 5, "")), "");
  const std::string through = error(tank("gate", 1, "[obstacle.1]\nmin = 0.15, 0.32\nmax = 0.25, 0.36\n"));
  EXPECT_NE(through.find("would be lifted through obstacle.1"), std::string::npos);
  // A travel: positive; in the closed tank (roof at y = 0.4, the gate's top at 0.3) up to 0.1 m, and then
  // not through an obstacle above its raised top.
  const std::string zero = error(tank("gate", "0, 1\ntravel = 0"));
  EXPECT_NE(zero.find("bad.ini:"), std::string::npos);
  EXPECT_NE(zero.find("gate.1.travel = 0 m: allowed range > 0"), std::string::npos);
  EXPECT_NE(error(tank("gate", "0, 1\ntravel = -0.1")).find("allowed range > 0"), std::string::npos);
  EXPECT_EQ(error(closed_top(tank("gate", "0, 1\ntravel = 0.1"))), "");
  const std::string high = error(closed_top(tank("gate", "0, 1\ntravel = 0.15")));
  EXPECT_NE(high.find("gate.1 raised by its travel 0.15 m reaches y = 0.45, above the roof of tank.1"),
            std::string::npos);
  EXPECT_NE(high.find("allowed range <= 0.1 m"), std::string::npos);
  EXPECT_NE(high.find("tank.1.open_top = true"), std::string::npos);
  EXPECT_NE(roof.find("gate.1.travel"), std::string::npos);
  EXPECT_EQ(error(tank("gate", "0, 1\ntravel = 0.01", "[obstacle.1]\nmin = 0.15, 0.32\nmax = 0.25, 0.36\n")), "");
}

}  // namespace
}  // namespace ejecta
