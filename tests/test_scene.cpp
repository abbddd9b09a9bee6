// Scene builder: lattice counts, wall shells, hydrostatic start, geometry checks, shipped scenes.
#include "core/types.h"
#include "params/param_set.h"
#include "scene/scene_builder.h"
#include "sim_test_util.h"
#include "simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ejecta;

namespace {

const std::string kName = "test.ini";

ParamSet parse(const std::string& ini) { return read_scene_string(ini, kName); }

// "test.ini:N" for the line of `key = ...` inside section [section] of `ini` (1-based, as inih).
std::string loc(const std::string& ini, const std::string& section, const std::string& key) {
  std::istringstream in(ini);
  std::string line, current;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto a = line.find_first_not_of(" \t");
    if (a == std::string::npos) continue;
    if (line[a] == '[') {
      current = line.substr(a + 1, line.find(']') - a - 1);
    } else if (current == section) {
      const auto eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string k = line.substr(a, eq - a);
      k.erase(k.find_last_not_of(" \t") + 1);
      if (k == key) return kName + ":" + std::to_string(n);
    }
  }
  ADD_FAILURE() << "no " << section << "." << key << " in the test scene";
  return "?";
}

// Smallest distance between any two particles, with a hash grid of cell dp (a closer pair is always
// in the same or an adjacent cell).
double min_distance(const SceneParticles& p) {
  const int dim = p.dim;
  const double dp = p.liquid.dp;
  auto cell = [&](std::size_t i, int d) {
    return static_cast<int64_t>(std::floor(p.position[i * dim + d] / dp));
  };
  auto key = [](int64_t x, int64_t y, int64_t z) {
    return ((x + (1 << 20)) << 42) ^ ((y + (1 << 20)) << 21) ^ (z + (1 << 20));
  };
  std::unordered_map<int64_t, std::vector<std::size_t>> grid;
  for (std::size_t i = 0; i < p.size(); ++i)
    grid[key(cell(i, 0), dim > 1 ? cell(i, 1) : 0, dim > 2 ? cell(i, 2) : 0)].push_back(i);
  double best = 1e300;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const int64_t c[3] = {cell(i, 0), dim > 1 ? cell(i, 1) : 0, dim > 2 ? cell(i, 2) : 0};
    for (int dz = (dim > 2 ? -1 : 0); dz <= (dim > 2 ? 1 : 0); ++dz)
      for (int dy = (dim > 1 ? -1 : 0); dy <= (dim > 1 ? 1 : 0); ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const auto it = grid.find(key(c[0] + dx, c[1] + dy, c[2] + dz));
          if (it == grid.end()) continue;
          for (std::size_t j : it->second) {
            if (j <= i) continue;
            double r2 = 0;
            for (int d = 0; d < dim; ++d) {
              const double e = p.position[i * dim + d] - p.position[j * dim + d];
              r2 += e * e;
            }
            best = std::min(best, std::sqrt(r2));
          }
        }
  }
  return best;
}

std::size_t count_kind(const SceneParticles& p, uint8_t k) {
  return static_cast<std::size_t>(std::count(p.kind.begin(), p.kind.end(), k));
}

void expect_consistent(const SceneParticles& p) {
  const std::size_t n = p.size();
  EXPECT_EQ(p.position.size(), n * p.dim);
  EXPECT_EQ(p.velocity.size(), n * p.dim);
  EXPECT_EQ(p.density.size(), n);
  EXPECT_EQ(p.mass.size(), n);
  // Mass = density times the lattice cell: rho0 dp^dim for walls, the hydrostatic density for fluid.
  const double cell = std::pow(p.liquid.dp, p.dim);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_DOUBLE_EQ(p.mass[i], p.density[i] * cell) << "particle " << i;
    if (p.kind[i] == kWall) {
      ASSERT_EQ(p.density[i], p.liquid.rho0);
      for (int d = 0; d < p.dim; ++d) ASSERT_EQ(p.velocity[i * p.dim + d], 0.0);
    }
  }
  EXPECT_GT(p.liquid.c0, 0);
  EXPECT_GE(min_distance(p), p.liquid.dp * 0.999);
}

// Tank [0,1]^2 with dp 0.1 (10 x 10 cells), 3 wall layers, open top; water 0.4 wide, 0.6 high.
const std::string k2D = R"(
[scene]
dim = 2
[particles]
dp = 0.1
h_over_dp = 1.5
[fluid]
rho0 = 1000
gamma = 7
c0 = 20
[physics]
gravity = 0, -10
[boundary]
wall_layers = 3
[tank.1]
min = 0, 0
max = 1, 1
[block.1]
min = 0, 0
max = 0.4, 0.6
velocity = 0.5, 0
)";

TEST(Scene, Counts2D) {
  const auto p = build_scene(parse(k2D));
  EXPECT_EQ(p.dim, 2);
  EXPECT_DOUBLE_EQ(p.liquid.dp, 0.1);
  EXPECT_DOUBLE_EQ(p.liquid.h, 0.15);
  EXPECT_DOUBLE_EQ(p.liquid.c0, 20);
  EXPECT_DOUBLE_EQ(p.gravity[0], 0);
  EXPECT_DOUBLE_EQ(p.gravity[1], -10);
  EXPECT_DOUBLE_EQ(p.gravity[2], 0);
  const std::size_t fluid = 4 * 6;
  // Floor strip under the tank and both side walls: (10 + 2*3) x 3, plus 2 x (3 x 10).
  const std::size_t walls = (10 + 2 * 3) * 3 + 2 * 3 * 10;
  EXPECT_EQ(p.fluid_count(), fluid);
  EXPECT_EQ(count_kind(p, kWall), walls);
  EXPECT_EQ(p.size(), fluid + walls);
  expect_consistent(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double x = p.position[2 * i], y = p.position[2 * i + 1];
    if (p.kind[i] == kFluid) {
      EXPECT_GT(x, 0);
      EXPECT_LT(x, 0.4);
      EXPECT_GT(y, 0);
      EXPECT_LT(y, 0.6);
      EXPECT_DOUBLE_EQ(p.velocity[2 * i], 0.5);
      EXPECT_DOUBLE_EQ(p.velocity[2 * i + 1], 0);
    } else {
      // Walls are outside the inner box, at most 3 layers deep, and nothing above the open top.
      EXPECT_TRUE(x < 0 || x > 1 || y < 0) << x << " " << y;
      EXPECT_GT(x, -0.3);
      EXPECT_LT(x, 1.3);
      EXPECT_GT(y, -0.3);
      EXPECT_LT(y, 1.0);
    }
  }
  // The lattice: the first fluid and first wall layers are dp/2 either side of the inner face.
  double min_fluid_y = 1e9, max_wall_floor_y = -1e9;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double y = p.position[2 * i + 1];
    if (p.kind[i] == kFluid) min_fluid_y = std::min(min_fluid_y, y);
    if (p.kind[i] == kWall && y < 0) max_wall_floor_y = std::max(max_wall_floor_y, y);
  }
  EXPECT_NEAR(min_fluid_y, 0.05, 1e-12);
  EXPECT_NEAR(max_wall_floor_y, -0.05, 1e-12);
}

TEST(Scene, Deterministic) {
  const auto a = build_scene(parse(k2D));
  const auto b = build_scene(parse(k2D));
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.density, b.density);
}

// Closed tank 0.6 x 0.4 x 0.5 with dp 0.1, 4 layers; two blocks sharing the face x = 0.2.
const std::string k3D = R"(
[scene]
dim = 3
[particles]
dp = 0.1
[physics]
gravity = 0, 0, -9.81
[boundary]
wall_layers = 4
[tank.1]
min = -0.1, 0, 0
max = 0.5, 0.4, 0.5
open_top = false
[block.1]
min = -0.1, 0, 0
max = 0.2, 0.4, 0.3
[block.2]
min = 0.2, 0, 0
max = 0.3, 0.2, 0.2
[obstacle.1]
min = 0.3, 0.1, 0
max = 0.5, 0.3, 0.1
)";

TEST(Scene, Counts3D) {
  const auto p = build_scene(parse(k3D));
  const std::size_t nx = 6, ny = 4, nz = 5, L = 4;
  const std::size_t fluid = 3 * 4 * 3 + 1 * 2 * 2;
  // Closed tank: floor and ceiling slabs over the full outer footprint, then the x-walls over the
  // full outer y range, then the y-walls between them.
  const std::size_t tank = 2 * (nx + 2 * L) * (ny + 2 * L) * L + 2 * L * (ny + 2 * L) * nz +
                           2 * nx * L * nz;
  const std::size_t obstacle = 2 * 2 * 1;
  EXPECT_EQ(p.fluid_count(), fluid);
  EXPECT_EQ(count_kind(p, kWall), tank + obstacle);
  EXPECT_EQ(p.size(), fluid + tank + obstacle);
  expect_consistent(p);
  // Nothing of the closed tank is missing at the top: the highest walls are 4 layers above z = 0.5.
  double zmax = -1e9;
  for (std::size_t i = 0; i < p.size(); ++i) zmax = std::max(zmax, p.position[3 * i + 2]);
  EXPECT_NEAR(zmax, 0.5 + 3.5 * 0.1, 1e-12);
}

TEST(Scene, OneDimension) {
  const std::string ini = R"(
[scene]
dim = 1
[particles]
dp = 0.1
[physics]
gravity = -9.81
[boundary]
wall_layers = 3
[tank.1]
min = 0
max = 1
[block.1]
min = 0
max = 0.5
)";
  const auto p = build_scene(parse(ini));
  EXPECT_EQ(p.fluid_count(), 5u);
  EXPECT_EQ(count_kind(p, kWall), 3u);  // the "top" in 1D is x = max: open
  expect_consistent(p);
}

// rho = rho0 (1 + p/B)^(1/gamma), B = c0^2 rho0 / gamma, with p the weight of the water above (the
// solution of dp/dz = -rho(p) g, integrated numerically by the test helper).
double tait(double rho0, double c0, double gamma, double g, double depth) {
  const double B = c0 * c0 * rho0 / gamma;
  return rho0 * std::pow(1 + test::tait_hydrostatic_pressure(rho0, c0, gamma, g * depth) / B, 1 / gamma);
}

TEST(Scene, HydrostaticDensity) {
  const auto p = build_scene(parse(k2D));
  bool found = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.kind[i] != kFluid) continue;
    const double y = p.position[2 * i + 1];
    EXPECT_NEAR(p.density[i], tait(1000, 20, 7, 10, 0.6 - y), 1e-9);
    if (std::fabs(y - 0.05) < 1e-12) {
      found = true;
      // Above the linear estimate rho0 g depth: the water above is itself compressed.
      EXPECT_GT(p.density[i], 1000 * std::pow(1 + 1000 * 10 * 0.55 / (400 * 1000 / 7.0), 1 / 7.0));
      EXPECT_LT(p.density[i], 1000 * std::pow(1 + 1.02 * 1000 * 10 * 0.55 / (400 * 1000 / 7.0), 1 / 7.0));
      EXPECT_GT(p.density[i], 1000);
    }
  }
  EXPECT_TRUE(found);
}

TEST(Scene, HydrostaticFollowsGravityDirection) {
  // Gravity along -x: the block's top (the face farthest along -g) is its max-x face.
  std::string ini = k2D;
  ini.replace(ini.find("gravity = 0, -10"), 16, "gravity = -10, 0");
  const auto p = build_scene(parse(ini));
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.kind[i] != kFluid) continue;
    EXPECT_NEAR(p.density[i], tait(1000, 20, 7, 10, 0.4 - p.position[2 * i]), 1e-9);
  }
}

TEST(Scene, AutomaticSoundSpeed) {
  std::string ini = k2D;
  ini.replace(ini.find("c0 = 20"), 7, "c0 = 0");
  // Tallest block along gravity: 0.6 m -> c0 = 10 sqrt(2 g H).
  EXPECT_NEAR(build_scene(parse(ini)).liquid.c0, 10 * std::sqrt(2 * 10 * 0.6), 1e-12);
  // No gravity: ten times the fastest block's speed.
  ini.replace(ini.find("gravity = 0, -10"), 16, "gravity = 0, 0");
  const auto p = build_scene(parse(ini));
  EXPECT_NEAR(p.liquid.c0, 10 * 0.5, 1e-12);
  for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p.density[i], 1000);
}

TEST(Scene, ObstacleCrossingTankWallIsClipped) {
  std::string ini = k2D + R"(
[obstacle.1]
min = 0.6, -0.2
max = 0.8, 0.2
)";
  const auto p = build_scene(parse(ini));
  // Only the 2 x 2 cells inside the inner box are added; the part in the floor is the floor.
  EXPECT_EQ(count_kind(p, kWall), (10 + 2 * 3) * 3 + 2 * 3 * 10 + 4u);
  expect_consistent(p);
}

// ---- errors ----

// Expects build_scene to throw a ParamError whose message contains every piece.
void expect_error(const std::string& ini, const std::vector<std::string>& pieces) {
  try {
    build_scene(parse(ini));
    ADD_FAILURE() << "no error for:\n" << ini;
  } catch (const ParamError& e) {
    const std::string m = e.what();
    for (const auto& s : pieces) EXPECT_NE(m.find(s), std::string::npos) << m << "\nlacks: " << s;
  }
}

TEST(SceneErrors, NoFluid) {
  std::string ini = k2D;
  ini.erase(ini.find("[block.1]"));
  expect_error(ini, {"no fluid", "[block.1]", kName});
}

TEST(SceneErrors, EmptyBlock) {
  const std::string ini = k2D + R"(
[block.2]
min = 0.5, 0.5
max = 0.7, 0.3
)";
  expect_error(ini, {"empty geometry", "block.2", "max.y <= min.y", loc(ini, "block.2", "min")});
}

TEST(SceneErrors, EmptyTankAndObstacle) {
  std::string ini = k2D;
  ini.replace(ini.find("max = 1, 1"), 10, "max = 0, 1");
  expect_error(ini, {"empty geometry", "tank.1", "max.x <= min.x", loc(ini, "tank.1", "min")});
  const std::string ini2 = k2D + "[obstacle.3]\nmin = 0.6, 0.1\nmax = 0.8, 0.1\n";
  expect_error(ini2, {"empty geometry", "obstacle.3", "max.y", loc(ini2, "obstacle.3", "min")});
}

TEST(SceneErrors, BlockOutsideTanks) {
  const std::string ini = k2D + R"(
[block.2]
min = 0.8, 0
max = 1.1, 0.2
)";
  expect_error(ini, {"block.2", "outside every tank", loc(ini, "block.2", "min")});
}

TEST(SceneErrors, BlocksOverlap) {
  const std::string ini = k2D + R"(
[block.2]
min = 0.3, 0.5
max = 0.6, 0.8
)";
  expect_error(ini, {"block.2", "block.1", "overlaps", loc(ini, "block.2", "min")});
  // Sharing a face is fine.
  const std::string touching = k2D + "[block.2]\nmin = 0.4, 0\nmax = 0.6, 0.2\n";
  const auto p = build_scene(parse(touching));
  EXPECT_EQ(p.fluid_count(), 24u + 4u);
  EXPECT_GE(min_distance(p), 0.1 * 0.999);
}

TEST(SceneErrors, BlockOverlapsObstacle) {
  const std::string ini = k2D + R"(
[obstacle.1]
min = 0.3, 0.0
max = 0.5, 0.2
)";
  expect_error(ini, {"block.1", "obstacle.1", "overlaps", loc(ini, "block.1", "min")});
}

TEST(SceneErrors, ObstacleOutsideTanks) {
  const std::string ini = k2D + R"(
[obstacle.2]
min = 2, 0
max = 2.2, 0.2
)";
  expect_error(ini, {"obstacle.2", "outside every tank", loc(ini, "obstacle.2", "min")});
}

TEST(SceneErrors, TooManyParticles) {
  std::string ini = k3D;
  ini.replace(ini.find("dp = 0.1"), 8, "dp = 0.0001");
  expect_error(ini, {"2^31", "particles.dp", loc(ini, "particles", "dp")});
}

// ---- shipped scenes ----

std::string scene_path(const std::string& name) {
  return std::string(EJECTA_SOURCE_DIR) + "/scenes/" + name;
}

TEST(ShippedScenes, BuildAndAreSane) {
  for (const char* name : {"dambreak2d.ini", "dambreak3d.ini", "hydrostatic2d.ini"}) {
    SCOPED_TRACE(name);
    const ParamSet ps = read_scene_file(scene_path(name));
    const auto p = build_scene(ps);
    EXPECT_GT(p.fluid_count(), 0u);
    EXPECT_GT(count_kind(p, kWall), 0u);
    expect_consistent(p);
    // All fluid inside the tank's inner box.
    const auto lo = ps.vec3("tank.1.min"), hi = ps.vec3("tank.1.max");
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p.kind[i] == kFluid)
        for (int d = 0; d < p.dim; ++d) {
          ASSERT_GT(p.position[i * p.dim + d], lo[d]);
          ASSERT_LT(p.position[i * p.dim + d], hi[d]);
        }
  }
}

TEST(ShippedScenes, DamBreak2DColumn) {
  const auto p = build_scene(read_scene_file(scene_path("dambreak2d.ini")));
  EXPECT_EQ(p.dim, 2);
  EXPECT_DOUBLE_EQ(p.liquid.dp, 0.05715 / 40);
  EXPECT_EQ(p.fluid_count(), 40u * 80u);  // a = 40 dp wide, 2a high
}

TEST(ShippedScenes, DefaultEqualsDamBreak2D) {
  const ParamSet file = read_scene_file(scene_path("dambreak2d.ini"));
  const ParamSet embedded = read_scene_string(default_scene_ini(), "default scene");
  EXPECT_EQ(file.to_ini(), embedded.to_ini());
  const auto a = build_scene(file), b = build_scene(embedded);
  EXPECT_EQ(a.dim, b.dim);
  EXPECT_EQ(a.liquid.dp, b.liquid.dp);
  EXPECT_EQ(a.liquid.h, b.liquid.h);
  EXPECT_EQ(a.liquid.c0, b.liquid.c0);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.density, b.density);
  EXPECT_EQ(a.mass, b.mass);
  EXPECT_EQ(a.kind, b.kind);
}

TEST(ShippedScenes, DamBreak3DObstacle) {
  const ParamSet ps = read_scene_file(scene_path("dambreak3d.ini"));
  const auto p = build_scene(ps);
  ASSERT_EQ(p.dim, 3);
  const double dp = p.liquid.dp;
  // Kleefsman et al. (2005): box 0.161 x 0.403 x 0.161 m, front face at x = 0.8245 m, centred in y.
  const double lo[3] = {0.6635, 0.2985, 0.0}, hi[3] = {0.8245, 0.7015, 0.161};
  std::size_t inside = 0;
  double bmin[3] = {1e9, 1e9, 1e9}, bmax[3] = {-1e9, -1e9, -1e9};
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double* x = &p.position[3 * i];
    bool in = true;
    for (int d = 0; d < 3; ++d) in = in && x[d] > lo[d] && x[d] < hi[d];
    if (!in) continue;
    EXPECT_EQ(p.kind[i], kWall);
    ++inside;
    for (int d = 0; d < 3; ++d) {
      bmin[d] = std::min(bmin[d], x[d]);
      bmax[d] = std::max(bmax[d], x[d]);
    }
  }
  // Its faces snap to the scene lattice (anchored at the tank corner 0, 0, 0): planes k dp.
  std::size_t expected = 1;
  for (int d = 0; d < 3; ++d) {
    const long k0 = std::lround(lo[d] / dp), k1 = std::lround(hi[d] / dp);
    expected *= static_cast<std::size_t>(k1 - k0);
    EXPECT_NEAR(bmin[d], (k0 + 0.5) * dp, 1e-9);
    EXPECT_NEAR(bmax[d], (k1 - 0.5) * dp, 1e-9);
    EXPECT_NEAR(bmin[d], lo[d], dp) << "snapping moves a face by at most dp/2";
  }
  EXPECT_EQ(inside, expected);
  // The water column stands against the far wall x = 3.22, 0.55 m deep.
  double fx_min = 1e9, fx_max = -1e9, fz_max = -1e9;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.kind[i] == kFluid) {
      fx_min = std::min(fx_min, p.position[3 * i]);
      fx_max = std::max(fx_max, p.position[3 * i]);
      fz_max = std::max(fz_max, p.position[3 * i + 2]);
    }
  EXPECT_NEAR(fx_min, std::lround(1.992 / dp) * dp + dp / 2, 1e-9);
  EXPECT_NEAR(fx_max, 3.22 - dp / 2, 1e-9) << "flush with the far wall";
  EXPECT_NEAR(fz_max, std::lround(0.55 / dp) * dp - dp / 2, 1e-9);
}

}  // namespace
