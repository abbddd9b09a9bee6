// The wall model option boundary.model = dbc_crespo2007 (dynamic boundary particles, Crespo, Gomez-Gesteira
// & Dalrymple 2007; physics/boundary_dbc_crespo2007.h) against the default adami2012:
//  - BoundaryModel.DbcChangesOnlyTheWalls (unit): on the 2D dam break, the fluid's start state is the
//    same; only wall particles change (hydrostatic density and mass beside the column, rho0 and zero
//    pressure where dry), each wall's pressure is the Tait EOS of its density, and at the first force
//    evaluation every fluid particle farther than the kernel support from every wall has bit for bit the
//    same acceleration and density rate under both models, while the fluid next to the walls differs;
//  - BoundaryModel.DbcRestartContinuesExactly (unit): N + N steps = 2N bit for bit, the walls' density,
//    predicted density, pressure and density rate included;
//  - BoundaryModel.DbcWallsCompressUnderTheImpact (unit): in the 2D dam break (a / dp = 20) the far
//    wall's pressure rises when the surge hits it and every wall's density stays >= rho0;
//  - BoundaryModel.CpuAndCudaAgreeOnDbcDamBreak3D_Float (GPU only): the 3D dam break at dp = 0.04, 200
//    steps, as BackendAgreement's default test.
// The still tank and Martin & Moyce with DBC are in test_hydrostatic.cpp and test_dambreak2d.cpp.
#include "scene/scene_builder.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ejecta {
namespace {

// A field of a captured frame as doubles, indexed by particle id.
std::vector<double> by_id(const FrameData& f, const std::string& name) {
  const FieldData* fd = f.find(name);
  const FieldData* id = f.find("id");
  EXPECT_TRUE(fd && id) << name;
  if (!fd || !id) return {};
  const std::size_t n = fd->count(), c = std::size_t(fd->info.components);
  std::vector<double> out(n * c);
  for (std::size_t i = 0; i < n; ++i) {
    uint32_t k;
    std::memcpy(&k, id->bytes.data() + 4 * i, 4);
    for (std::size_t d = 0; d < c; ++d) {
      const unsigned char* at = fd->bytes.data() + scalar_bytes(fd->info.scalar) * (i * c + d);
      double v = 0;
      if (fd->info.scalar == ScalarType::Float64) {
        std::memcpy(&v, at, 8);
      } else if (fd->info.scalar == ScalarType::Float32) {
        float x;
        std::memcpy(&x, at, 4);
        v = x;
      } else if (fd->info.scalar == ScalarType::UInt8) {
        v = *at;
      } else {
        uint32_t x;
        std::memcpy(&x, at, 4);
        v = x;
      }
      out[k * c + d] = v;
    }
  }
  return out;
}

struct ById {
  std::vector<double> x, v, rho, m, p, a, drho;
  std::vector<int> kind;
};
ById state(const Simulation& s) {
  const FrameData f = s.capture_frame();
  ById b{by_id(f, "position"), by_id(f, "velocity"),     by_id(f, "density_predicted"), by_id(f, "mass"),
         by_id(f, "pressure"), by_id(f, "acceleration"), by_id(f, "density_rate"),     {}};
  for (double k : by_id(f, "kind")) b.kind.push_back(int(k));
  return b;
}

TEST(BoundaryModel, DbcChangesOnlyTheWalls) {
  const std::vector<std::string> base = {"scene.precision=double"};
  const ParamSet pa = test::shipped_scene("dambreak2d.ini", base);
  std::vector<std::string> dbc = base;
  dbc.push_back("boundary.model=dbc_crespo2007");
  const ParamSet pb = test::shipped_scene("dambreak2d.ini", dbc);
  auto sa = make_simulation(pa, Backend::Cpu);
  auto sb = make_simulation(pb, Backend::Cpu);
  const ById a = state(*sa), b = state(*sb);
  const std::size_t n = a.kind.size();
  ASSERT_EQ(n, b.kind.size());
  const double rho0 = pa.real("fluid.rho0"), gamma = pa.real("fluid.gamma");
  const double h = pa.real("particles.dp") * pa.real("particles.h_over_dp");
  const double c0 = build_scene(pa).liquid.c0, B = c0 * c0 * rho0 / gamma;
  std::vector<std::size_t> walls;
  std::size_t wet_walls = 0, dry_walls = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(a.kind[i], b.kind[i]);
    if (a.kind[i] == kFluid) {
      for (int d = 0; d < 2; ++d) {
        EXPECT_EQ(a.x[2 * i + d], b.x[2 * i + d]);
        EXPECT_EQ(a.v[2 * i + d], b.v[2 * i + d]);
      }
      EXPECT_EQ(a.m[i], b.m[i]);
      EXPECT_EQ(a.rho[i], b.rho[i]);
      EXPECT_EQ(a.p[i], b.p[i]);
      continue;
    }
    walls.push_back(i);
    // A dynamic boundary particle's pressure is the fluid's EOS of its own density (Crespo 2007, eq. 3).
    EXPECT_NEAR(b.p[i], B * (std::pow(b.rho[i] / rho0, gamma) - 1), 1e-9 * B) << "wall " << i;
    EXPECT_GE(b.rho[i], rho0);
    EXPECT_NEAR(b.m[i] / b.rho[i], a.m[i] / rho0, 1e-12 * a.m[i] / rho0) << "a wall's volume is its cell";
    if (b.rho[i] > rho0) ++wet_walls;
    else {
      EXPECT_EQ(b.p[i], 0.0);
      ++dry_walls;
    }
  }
  std::printf("  walls: %zu hydrostatic (beside the column), %zu at rho0\n", wet_walls, dry_walls);
  EXPECT_GT(wet_walls, 100u);
  EXPECT_GT(dry_walls, 100u);
  std::size_t far = 0, near = 0, near_differ = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (a.kind[i] != kFluid) continue;
    double r2min = 1e300;
    for (std::size_t w : walls)
      r2min = std::min(r2min, std::pow(a.x[2 * i] - a.x[2 * w], 2) + std::pow(a.x[2 * i + 1] - a.x[2 * w + 1], 2));
    if (r2min >= 4 * h * h) {
      ++far;
      EXPECT_EQ(a.a[2 * i], b.a[2 * i]);
      EXPECT_EQ(a.a[2 * i + 1], b.a[2 * i + 1]);
      EXPECT_EQ(a.drho[i], b.drho[i]);
    } else {
      ++near;
      if (a.a[2 * i] != b.a[2 * i] || a.a[2 * i + 1] != b.a[2 * i + 1]) ++near_differ;
    }
  }
  std::printf("  fluid: %zu beyond the support from every wall (identical), %zu within it (%zu differ)\n", far,
              near, near_differ);
  EXPECT_GT(far, 1000u);
  EXPECT_GT(near_differ, near / 2) << "the wall model should act on the fluid next to the walls";
}

TEST(BoundaryModel, DbcRestartContinuesExactly) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"boundary.model=dbc_crespo2007"});
  test::expect_exact_restart(p, 150, 150, {"density_predicted", "pressure", "density_rate", "acceleration"});
}

TEST(BoundaryModel, DbcWallsCompressUnderTheImpact) {
  // a / dp = 20 (dp = 2.8575 mm) to keep the test short.
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"boundary.model=dbc_crespo2007", "particles.dp=0.0028575"});
  const double rho0 = p.real("fluid.rho0");
  auto sim = make_simulation(p, Backend::Cpu);
  // The surge reaches the far wall (x = 0.4 m, 7 a) at about 0.25 s; run to 0.3 s.
  double far_max = 0;
  test::run_until(*sim, 0.30, [&](const Simulation&) { return true; });
  const ById s = state(*sim);
  double rho_min = 1e300;
  for (std::size_t i = 0; i < s.kind.size(); ++i) {
    if (s.kind[i] == kFluid) continue;
    rho_min = std::min(rho_min, s.rho[i]);
    if (s.x[2 * i] > 0.4 && s.x[2 * i + 1] < 0.02) far_max = std::max(far_max, s.p[i]);
  }
  std::printf("  far wall's largest pressure at the floor at 0.3 s: %.0f Pa; smallest wall density %.3f\n", far_max,
              rho_min);
  EXPECT_GE(rho_min, rho0);
  EXPECT_GT(far_max, 100.0) << "the far wall should feel the surge";
}

TEST(BoundaryModel, CpuAndCudaAgreeOnDbcDamBreak3D_Float) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04", "boundary.model=dbc_crespo2007"});
  const double dp = p.real("particles.dp");
  auto sa = make_simulation(p, Backend::Cpu);
  auto sb = make_simulation(p, Backend::Cuda);
  StopRule rule;
  rule.max_steps = 200;
  StepLoop(*sa, rule).run();
  StepLoop(*sb, rule).run();
  const ById a = state(*sa), b = state(*sb);
  double dx = 0, dp_wall = 0, p_scale = 0;
  for (std::size_t i = 0; i < a.kind.size(); ++i) {
    for (int d = 0; d < 3; ++d) dx = std::max(dx, std::fabs(a.x[3 * i + d] - b.x[3 * i + d]));
    if (a.kind[i] != kFluid) {
      dp_wall = std::max(dp_wall, std::fabs(a.p[i] - b.p[i]));
      p_scale = std::max(p_scale, std::fabs(a.p[i]));
    }
  }
  std::printf("  3D float DBC, 200 steps: max |dx| %.3g m (%.3g dp); walls' pressure: max |dp| %.3g Pa of %.3g Pa\n",
              dx, dx / dp, dp_wall, p_scale);
  EXPECT_LT(dx, 1e-3 * dp);
  EXPECT_LT(dp_wall, 1e-3 * p_scale + 1.0);
  EXPECT_GT(p_scale, 0.0);
}

}  // namespace
}  // namespace ejecta
