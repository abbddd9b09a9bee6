// The viewer's outline of the scene's boxes (viewer/scene_view.h, geometry_outline; no GL): a [gate.N]
// is drawn where the solver has it, its box moved by v min(t, t_s), t_s = travel / |v| where its travel
// stops it (docs/physics.md, "Fourteenth session"), not where it starts.
#include "params/param_set.h"
#include "viewer/scene_view.h"

#include <gtest/gtest.h>

namespace ejecta {
namespace {

// A 2D tank with a gate 0.17-0.2 x 0-0.3 lifted at 2 m/s by `travel` (none when empty) and an obstacle.
ParamSet scene(const std::string& travel) {
  std::string ini = R"(
[scene]
dim = 2
[tank.1]
min = 0, 0
max = 0.5, 0.4
[block.1]
min = 0.2, 0
max = 0.5, 0.2
[obstacle.1]
min = 0.3, 0.3
max = 0.35, 0.35
[gate.1]
min = 0.17, 0
max = 0.2, 0.3
velocity = 0, 2
)";
  if (!travel.empty()) ini += "travel = " + travel + "\n";
  return read_scene_string(ini, "outline.ini");
}

TEST(GeometryOutline, GateDrawnWhereItIsAndWhereItStops) {
  const ParamSet stops = scene("0.05"), free = scene("");
  // The tank, the obstacle, then the gate.
  ASSERT_EQ(viewer::geometry_outline(stops, 2).size(), 3u);
  for (const ParamSet* p : {&stops, &free}) {
    const render::Bounds start = viewer::geometry_outline(*p, 2, 0.0)[2];
    EXPECT_FLOAT_EQ(start.lo[1], 0.f);
    EXPECT_FLOAT_EQ(start.hi[1], 0.3f);
    // At 0.01 s, moving (2 cm up), sideways and in z unchanged.
    const render::Bounds moving = viewer::geometry_outline(*p, 2, 0.01)[2];
    EXPECT_FLOAT_EQ(moving.lo[1], 0.02f);
    EXPECT_FLOAT_EQ(moving.hi[1], 0.32f);
    EXPECT_FLOAT_EQ(moving.lo[0], 0.17f);
    EXPECT_FLOAT_EQ(moving.hi[0], 0.2f);
    EXPECT_EQ(moving.lo[2], 0.f);
    // The tank and the obstacle stay.
    EXPECT_FLOAT_EQ(viewer::geometry_outline(*p, 2, 0.01)[1].lo[1], 0.3f);
    EXPECT_FLOAT_EQ(viewer::geometry_outline(*p, 2, 0.01)[0].hi[1], 0.4f);
  }
  // Past its stop (t_s = 0.025 s): raised by its travel and there for good; without one it moves on.
  for (const double t : {0.025, 0.1, 10.0}) {
    EXPECT_FLOAT_EQ(viewer::geometry_outline(stops, 2, t)[2].lo[1], 0.05f) << "t = " << t;
    EXPECT_FLOAT_EQ(viewer::geometry_outline(stops, 2, t)[2].hi[1], 0.35f) << "t = " << t;
  }
  EXPECT_FLOAT_EQ(viewer::geometry_outline(free, 2, 0.1)[2].lo[1], 0.2f);
}

}  // namespace
}  // namespace ejecta
