// The pair pressure of Zhang, Hu & Adams (2017) (physics/pressure_zhang2017.h), fluid.pressure_term =
// zhang2017 and zhang2017_wall_normal, on SPHERIC 2's walls (the tank and the box, their normals from
// the scene's geometry as mDBC's ghost nodes):
//  - PressureZhang2017.WallNormalLeavesFlowAlongTheWallUndamped (unit): a fluid particle running along
//    the floor gets no dissipation from a floor particle ahead of it with the wall-normal Riemann
//    problem (P* = the mean of the two pressures, exactly), where the pair-line form adds one; moving
//    into the floor it gets the dissipation of twice its normal speed (U_L - U_R = 2 |v . n|), and
//    moving away none; between two fluid particles both forms are the same.
// The still tank and Martin & Moyce with the option are in test_hydrostatic.cpp and test_dambreak2d.cpp.
#include "physics/boundary_mdbc_setup.h"
#include "physics/pressure_zhang2017.h"
#include "scene/scene_builder.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ejecta {
namespace {

TEST(PressureZhang2017, WallNormalLeavesFlowAlongTheWallUndamped) {
  const ParamSet p = test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04"});
  const SceneParticles init = build_scene(p);
  ASSERT_EQ(init.wall_boxes.size(), 2u);
  WcsphModel<double, 3> model{};
  model.eos = TaitEos<double>::make(1000, 33, 7);
  model.wall_geometry = make_mdbc_walls<double, 3>(p, init).geometry;
  const double dp = 0.04, c0 = 33;
  const WallBox& tank = init.wall_boxes[0];
  // Fluid particle i in the first layer over open floor; wall particle j in the floor's first layer,
  // one dp ahead of it in x: e_ij = (1, 0, -1)/sqrt(2).
  const Vec<double, 3> xi{{tank.lo[0] + 40.5 * dp, tank.lo[1] + 10.5 * dp, tank.lo[2] + 0.5 * dp}};
  const Vec<double, 3> xj{{xi[0] + dp, xi[1], tank.lo[2] - 0.5 * dp}};
  const Vec<double, 3> xij = xi - xj;
  const double r = std::sqrt(norm2(xij));
  const double rhoi = 1002, rhoj = 1001, p_i = 3000, p_j = 2500;
  const double mean = 2 * (rhoj * p_i + rhoi * p_j) / (rhoi + rhoj) / (rhoi * rhoj);
  auto pair = [&](int term, const Vec<double, 3>& vi, bool wall) {
    model.pressure = term;
    // The wall at rest: v_ij = v_i.
    return zhang2017_pair_pressure(model, vi, xj, xij, wall, dot(vi, xij), r, rhoi, rhoj, p_i, p_j);
  };
  // Along the floor at 2 m/s: the pair-line form sees U_L - U_R = 2 / sqrt(2) and dissipates.
  const Vec<double, 3> along{{2, 0, 0}};
  const double du_line = 2 / std::sqrt(2.0);
  EXPECT_NEAR(pair(kPressureZhang2017, along, true),
              mean + 2 * std::min(3 * du_line, c0) * du_line / (rhoi + rhoj), 1e-15);
  EXPECT_EQ(pair(kPressureZhang2017WallNormal, along, true), mean);
  // Into the floor at 1 m/s (with the same flow along it): U_L - U_R = 2, beta = 6.
  const Vec<double, 3> into{{2, 0, -1}};
  EXPECT_NEAR(pair(kPressureZhang2017WallNormal, into, true), mean + 2 * 6.0 * 2.0 / (rhoi + rhoj), 1e-15);
  // Away from it: no dissipation (the limiter).
  const Vec<double, 3> away{{2, 0, 1}};
  EXPECT_EQ(pair(kPressureZhang2017WallNormal, away, true), mean);
  // Fluid pairs: the two forms are one.
  EXPECT_EQ(pair(kPressureZhang2017WallNormal, into, false), pair(kPressureZhang2017, into, false));
  // The box's front face (normal +x): a particle running into it at 3 m/s gets beta = min(18, c0).
  const WallBox& box = init.wall_boxes[1];
  const Vec<double, 3> xb{{box.hi[0] - 0.5 * dp, box.lo[1] + 3.5 * dp, box.lo[2] + 1.5 * dp}};
  const Vec<double, 3> xf{{box.hi[0] + 0.5 * dp, xb[1], xb[2]}};
  const Vec<double, 3> vf{{-3, 0, 0}};
  model.pressure = kPressureZhang2017WallNormal;
  const double pb = zhang2017_pair_pressure(model, vf, xb, xf - xb, true, dot(vf, xf - xb), dp, rhoi, rhoj, p_i, p_j);
  EXPECT_NEAR(pb, mean + 2 * 18.0 * 6.0 / (rhoi + rhoj), 1e-15);
  // Behind the face's plane (a particle past a convex edge, x_ij . n_w < 0): the face's normal problem
  // does not hold there; the pair takes the pair-line problem, as zhang2017. The same particle moving
  // towards the wall particle along the pair's line: U_L - U_R = 3 along e_ij.
  const Vec<double, 3> xe{{xb[0] - 0.5 * dp, xb[1], box.hi[2] + 0.5 * dp}};
  const Vec<double, 3> xeb = xe - xb;
  const double re = std::sqrt(norm2(xeb));
  const Vec<double, 3> ve = xeb * (-3.0 / re);
  const double pe = zhang2017_pair_pressure(model, ve, xb, xeb, true, dot(ve, xeb), re, rhoi, rhoj, p_i, p_j);
  model.pressure = kPressureZhang2017;
  EXPECT_NEAR(pe, zhang2017_pair_pressure(model, ve, xb, xeb, true, dot(ve, xeb), re, rhoi, rhoj, p_i, p_j), 1e-15);
  EXPECT_NEAR(pe, mean + 2 * 9.0 * 3.0 / (rhoi + rhoj), 1e-12);
}

}  // namespace
}  // namespace ejecta
