// Particle shifting (engine/physics/shifting_sun2017.h) on a 2D lattice, dp = 1, h = 1.5 dp, Wendland
// C2, unit volumes:
//  - on the undisturbed lattice the shift vanishes (the concentration gradient is zero);
//  - a particle moved towards a neighbour is shifted back, along the move;
//  - on a free surface (the lattice's top row) there is no shift, one row down only a tangential one.
#include "physics/kernels.h"
#include "physics/shifting_sun2017.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ejecta {
namespace {

using V2 = Vec<double, 2>;

// Shifting velocity (coefficient 1) of the particle at xi among the lattice points pts, h = hr dp.
V2 shift_at(const V2& xi, const std::vector<V2>& pts, double hr = 1.5) {
  const auto k = SmoothingKernel<double, 2>::make(KernelType::WendlandC2, hr);
  ShiftingSums<double, 2> s;
  for (const V2& xj : pts) {
    const V2 xij = xi - xj;
    const double r = std::sqrt(dot(xij, xij));
    if (r < 0.5 || r >= k.support()) continue;  // the particle's own lattice slot
    s.add(1.0, k.W(r), xij * k.F(r), 1.0 / k.W(1.0));
  }
  return s.velocity(1.0, k.W(0.0));
}

// Lattice points (x, y), -10 <= x <= 10, -10 <= y <= top.
std::vector<V2> lattice(int top) {
  std::vector<V2> pts;
  for (int y = -10; y <= top; ++y)
    for (int x = -10; x <= 10; ++x) pts.push_back(V2{{double(x), double(y)}});
  return pts;
}

TEST(Shifting, VanishesOnALattice) {
  const V2 u = shift_at(V2{{0, 0}}, lattice(10));
  EXPECT_LT(std::sqrt(dot(u, u)), 1e-12);
}

TEST(Shifting, PushesAParticleBackFromANeighbour) {
  const V2 u = shift_at(V2{{0.2, 0}}, lattice(10));  // towards the neighbour at (1, 0)
  EXPECT_LT(u[0], -1e-3) << "shifted away from the neighbour it approached";
  EXPECT_NEAR(u[1], 0, 1e-12);
}

TEST(Shifting, OnlyTangentialBelowAFreeSurface) {
  const std::vector<V2> pts = lattice(0);  // free surface at y = 0
  const V2 top = shift_at(V2{{0.2, 0.1}}, pts);
  EXPECT_EQ(top[0], 0.0) << "a particle on the surface is not shifted";
  EXPECT_EQ(top[1], 0.0);
  // One row down (colour 0.986 at h = 1.5 dp): a particle at its lattice slot stays there (the
  // truncated kernel's gradient, normal to the surface, is taken out), a vertical move is not
  // shifted back, a sideways one is.
  const V2 rest = shift_at(V2{{0, -1}}, pts);
  EXPECT_LT(std::sqrt(dot(rest, rest)), 1e-12);
  const V2 up = shift_at(V2{{0, -0.9}}, pts);
  EXPECT_LT(std::sqrt(dot(up, up)), 1e-12);
  const V2 side = shift_at(V2{{0.2, -1}}, pts);
  EXPECT_LT(side[0], -1e-3);
  // Deep inside a vertical move is shifted back.
  const V2 deep = shift_at(V2{{0, -4.9}}, pts);
  EXPECT_LT(deep[1], -1e-3);
}

}  // namespace
}  // namespace ejecta
