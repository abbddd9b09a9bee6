// The wall law of boundary.slip = wall_law (physics/wall_friction.h): the quadratic drag
// tau_w = rho C_f |u_t| u_t spread over the fluid next to a wall through the wall particles' kernel sum.
//  - WallFriction.UniformFlowOverTheFloorFeelsTauTimesTheArea (unit): the shipped 2D and 3D dam breaks'
//    tank walls as built; a column of fluid particles over the middle of the floor, one dp wide, every
//    particle moving along the floor at the same speed: the force on the column (sum of m_i a_i) is
//    -tau_w times the floor's area under it (dp in 2D, dp^2 in 3D) within 5%, and along the floor only;
//    flow straight into the floor and fluid at rest feel none.
// The still tank and Martin & Moyce with the law are in test_hydrostatic.cpp and test_dambreak2d.cpp.
#include "physics/boundary_mdbc_setup.h"
#include "physics/wall_friction.h"
#include "scene/scene_builder.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ejecta {
namespace {

// The acceleration of a fluid particle at xi with velocity vi from every wall particle of the scene.
template <int D>
Vec<double, D> friction_on(const SceneParticles& init, const MdbcGeometry<double, D>& walls,
                           const SmoothingKernel<double, D>& kernel, double cf, double rho0,
                           const Vec<double, D>& xi, const Vec<double, D>& vi) {
  Vec<double, D> a = Vec<double, D>::zero();
  const double support = kernel.support();
  for (std::size_t j = 0; j < init.kind.size(); ++j) {
    if (init.kind[j] != kWall) continue;
    Vec<double, D> xj;
    for (int d = 0; d < D; ++d) xj[d] = init.position[j * D + d];
    const Vec<double, D> xij = xi - xj;
    const double r = std::sqrt(norm2(xij));
    if (!(r < support)) continue;
    a += wall_friction_accel(walls, cf, vi, xj, xij, kernel.F(r), init.mass[j] / rho0);
  }
  return a;
}

template <int D>
void check_floor(const char* scene, const std::vector<std::string>& overrides) {
  const ParamSet p = test::shipped_scene(scene, overrides);
  const SceneParticles init = build_scene(p);
  const MdbcGeometry<double, D> walls = make_mdbc_walls<double, D>(p, init).geometry;
  const double dp = init.liquid.dp, rho0 = init.liquid.rho0, cf = 0.01;
  const auto kernel = SmoothingKernel<double, D>::make(
      p.text("particles.kernel") == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2, init.liquid.h);
  const WallBox& tank = init.wall_boxes[0];
  // The column over the middle of the floor (the lattice's cell centres), up past the kernel's support.
  Vec<double, D> x0;
  for (int d = 0; d < D; ++d) {
    const double cells = std::floor((tank.hi[d] - tank.lo[d]) / dp / 2);
    x0[d] = tank.lo[d] + (cells + 0.5) * dp;
  }
  const int up = D - 1;  // gravity's axis: y in 2D, z in 3D
  auto column_force = [&](const Vec<double, D>& v) {
    Vec<double, D> f = Vec<double, D>::zero();
    for (int m = 0; (m + 0.5) * dp < kernel.support() + dp; ++m) {
      Vec<double, D> xi = x0;
      xi[up] = tank.lo[up] + (m + 0.5) * dp;
      f += friction_on<D>(init, walls, kernel, cf, rho0, xi, v) * (rho0 * std::pow(dp, D));
    }
    return f;
  };
  const double u = 1.5, area = std::pow(dp, D - 1);
  Vec<double, D> along = Vec<double, D>::zero();
  along[0] = u;
  const Vec<double, D> f = column_force(along);
  const double expected = -rho0 * cf * u * u * area;
  std::printf("  %s: force on the column %.6g, tau_w times the area %.6g (%+.2f%%)\n", scene, f[0], expected,
              100 * (f[0] / expected - 1));
  EXPECT_NEAR(f[0], expected, 0.05 * std::fabs(expected));
  for (int d = 1; d < D; ++d) EXPECT_NEAR(f[d], 0.0, 1e-12 * std::fabs(expected)) << "axis " << d;
  // Along the floor at an angle in 3D: the stress is along u_t, |u_t| u_t.
  if constexpr (D == 3) {
    const Vec<double, D> skew{{u * 0.6, u * 0.8, 0}};
    const Vec<double, D> fs = column_force(skew);
    EXPECT_NEAR(fs[0], expected * 0.6, 0.05 * std::fabs(expected));
    EXPECT_NEAR(fs[1], expected * 0.8, 0.05 * std::fabs(expected));
  }
  // Straight into the floor: no tangential velocity, no stress. At rest: none.
  Vec<double, D> into = Vec<double, D>::zero();
  into[up] = -u;
  const Vec<double, D> fi = column_force(into), f0 = column_force(Vec<double, D>::zero());
  for (int d = 0; d < D; ++d) {
    EXPECT_NEAR(fi[d], 0.0, 1e-12 * std::fabs(expected)) << "axis " << d;
    EXPECT_EQ(f0[d], 0.0) << "axis " << d;
  }
}

TEST(WallFriction, UniformFlowOverTheFloorFeelsTauTimesTheArea) {
  check_floor<2>("dambreak2d.ini", {"particles.dp=0.004"});
  check_floor<3>("dambreak3d.ini", {"particles.dp=0.04"});
}

}  // namespace
}  // namespace ejecta
