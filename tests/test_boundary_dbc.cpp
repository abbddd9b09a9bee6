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
// The modified dynamic boundary particles, boundary.model = mdbc_english2022 (English et al. 2022;
// physics/boundary_mdbc_english2022.h), against the default:
//  - BoundaryModel.MdbcGhostsMirrorAcrossTheWalls (unit): on SPHERIC 2's geometry, a floor particle's,
//    a tank corner's and the box obstacle's ghost nodes, worked out by hand;
//  - BoundaryModel.MdbcChangesOnlyTheWalls (unit): as DBC's test, and the walls under the still
//    column take the hydrostatic pressure of their own depth from the extrapolation;
//  - BoundaryModel.MdbcRestartContinuesExactly (unit), also from a frame recorded with Adami's walls;
//  - BoundaryModel.CpuAndCudaAgreeOnMdbcDamBreak3D_Float (GPU only).
// fluid.wall_diffusion (the delta-SPH term against wall particles too):
//  - BoundaryModel.WallDiffusionActsOnlyNextToTheWalls (unit): on the 2D dam break with mDBC's walls, the
//    first evaluation's density rates; beyond the support from every wall the same bit for bit; next to
//    the floor under the still column nearly none with Fourtakas's hydrostatic part (mDBC's walls are
//    hydrostatic there), and with Molteni's form (no hydrostatic part) the deeper, denser floor raises
//    the fluid's density.
// The still tank and Martin & Moyce with DBC and mDBC are in test_hydrostatic.cpp and test_dambreak2d.cpp.
#include "physics/boundary_mdbc_setup.h"
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

// 2D, the first force evaluation under two wall models: every fluid particle farther than the support
// (2h) from every wall has bit for bit the same acceleration and density rate, and most of those within
// it differ.
void expect_only_the_walls_act(const ById& a, const ById& b, const std::vector<std::size_t>& walls, double h) {
  const std::size_t n = a.kind.size();
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

// The 3D dam break at dp = 0.04 with a wall model (`model`: a boundary.model value), 200 steps in float
// on the CPU and on CUDA: positions within 1e-3 dp, the walls' pressures within 1e-3 of their largest.
void expect_cpu_and_cuda_agree(const std::string& model, const std::vector<std::string>& extra = {}) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  std::vector<std::string> overrides{"particles.dp=0.04", "boundary.model=" + model};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  std::string extras;
  for (const std::string& e : extra) extras += " " + e;
  const ParamSet p = test::shipped_scene("dambreak3d.ini", overrides);
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
  std::printf("  3D float %s %s, 200 steps: max |dx| %.3g m (%.3g dp); walls' pressure: max |dp| %.3g Pa of %.3g Pa\n",
              model.c_str(), extras.c_str(), dx, dx / dp, dp_wall, p_scale);
  EXPECT_LT(dx, 1e-3 * dp);
  EXPECT_LT(dp_wall, 1e-3 * p_scale + 1.0);
  EXPECT_GT(p_scale, 0.0);
}

// Particle i of the 2D dam break at its first evaluation under the default walls (a) and another wall
// model (b): a fluid particle is the same bit for bit (returns false); a wall particle's pressure is the
// fluid's Tait EOS of its density (Crespo 2007, eq. 3; English et al. 2022), which is >= rho0 (returns true).
bool is_wall_with_eos_pressure(const ById& a, const ById& b, std::size_t i, double rho0, double gamma, double B) {
  EXPECT_EQ(a.kind[i], b.kind[i]);
  if (a.kind[i] == kFluid) {
    for (int d = 0; d < 2; ++d) {
      EXPECT_EQ(a.x[2 * i + d], b.x[2 * i + d]);
      EXPECT_EQ(a.v[2 * i + d], b.v[2 * i + d]);
    }
    EXPECT_EQ(a.m[i], b.m[i]);
    EXPECT_EQ(a.rho[i], b.rho[i]);
    EXPECT_EQ(a.p[i], b.p[i]);
    return false;
  }
  EXPECT_NEAR(b.p[i], B * (std::pow(b.rho[i] / rho0, gamma) - 1), 1e-9 * B) << "wall " << i;
  EXPECT_GE(b.rho[i], rho0);
  return true;
}

// The state after the first force evaluation of the scene `p` with boundary.model = `model` ("": as is).
ById first_evaluation(const ParamSet& p, const std::string& model) {
  ParamSet q = p;
  if (!model.empty()) q.set("boundary.model", model, "test");
  return state(*make_simulation(q, Backend::Cpu));
}

TEST(BoundaryModel, DbcChangesOnlyTheWalls) {
  const ParamSet pa = test::shipped_scene("dambreak2d.ini", {"scene.precision=double"});
  const ById a = first_evaluation(pa, ""), b = first_evaluation(pa, "dbc_crespo2007");
  const std::size_t n = a.kind.size();
  ASSERT_EQ(n, b.kind.size());
  const double rho0 = pa.real("fluid.rho0"), gamma = pa.real("fluid.gamma");
  const double h = pa.real("particles.dp") * pa.real("particles.h_over_dp");
  const double c0 = build_scene(pa).liquid.c0, B = c0 * c0 * rho0 / gamma;
  std::vector<std::size_t> walls;
  std::size_t wet_walls = 0, dry_walls = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_wall_with_eos_pressure(a, b, i, rho0, gamma, B)) continue;
    walls.push_back(i);
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
  expect_only_the_walls_act(a, b, walls, h);
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

TEST(BoundaryModel, CpuAndCudaAgreeOnDbcDamBreak3D_Float) { expect_cpu_and_cuda_agree("dbc_crespo2007"); }
// The wall-normal Riemann pressure (fluid.pressure_term = zhang2017_wall_normal, physics/pressure_zhang2017.h)
// on mDBC's walls: the walls' normals from the scene's boxes on the device as on the host.
TEST(BoundaryModel, CpuAndCudaAgreeOnZhang2017WallNormalDamBreak3D_Float) {
  expect_cpu_and_cuda_agree("mdbc_english2022", {"fluid.pressure_term=zhang2017_wall_normal"});
}
// A moving wall ([gate.N], docs/physics.md, "Fourteenth session"): SPHERIC 2's door, 3 dp thick against the
// water's face, lifted at 3 m/s with mDBC, the wall-normal pressure and the wall law (the variant
// wl-cf0.008+gate3 of scripts/spheric2-variant-sets.sh at dp = 0.04): the gate's particles, the ghost
// boxes that follow its clock and the wall velocity in the continuity and wall terms, on the device as on
// the host (the positions compared include the gate's, 0.2 m up after the 200 steps).
TEST(BoundaryModel, CpuAndCudaAgreeOnAMovingGateDamBreak3D_Float) {
  expect_cpu_and_cuda_agree("mdbc_english2022",
                            {"fluid.pressure_term=zhang2017_wall_normal", "boundary.slip=wall_law",
                             "boundary.friction=0.008", "tank.1.open_top=true", "gate.1.min=1.872,0,0",
                             "gate.1.max=1.992,1,0.65", "gate.1.velocity=0,0,3"});
}
// The same door with a travel of 0.1 m under the closed roof (gate.N.travel): it stops at t = 0.033 s, a
// third of the way through the 200 steps (StopGate's clipped drift and zeroed velocity, move_gates' boxes
// at v min(t, t_s)), on the device as on the host.
TEST(BoundaryModel, CpuAndCudaAgreeOnAStoppedGateDamBreak3D_Float) {
  expect_cpu_and_cuda_agree("mdbc_english2022",
                            {"fluid.pressure_term=zhang2017_wall_normal", "boundary.slip=wall_law",
                             "boundary.friction=0.008", "gate.1.min=1.872,0,0", "gate.1.max=1.992,1,0.65",
                             "gate.1.velocity=0,0,3", "gate.1.travel=0.1"});
}

TEST(BoundaryModel, MdbcGhostsMirrorAcrossTheWalls) {
  const ParamSet p = test::shipped_scene("dambreak3d.ini", {"particles.dp=0.04", "boundary.model=mdbc_english2022"});
  const SceneParticles init = build_scene(p);
  ASSERT_EQ(init.wall_boxes.size(), 2u);  // the tank and the box
  const MdbcWalls<double, 3> w = make_mdbc_walls<double, 3>(p, init);
  const double dp = 0.04;
  // The box's faces: its floor face stands on the tank's floor (no interface), the other five meet water.
  EXPECT_EQ(w.geometry.faces[1], 0x3Fu & ~0x10u);
  auto near = [&](const Vec<double, 3>& a, double x, double y, double z) {
    return std::fabs(a[0] - x) < 1e-12 && std::fabs(a[1] - y) < 1e-12 && std::fabs(a[2] - z) < 1e-12;
  };
  const WallBox& tank = init.wall_boxes[0];
  const WallBox& box = init.wall_boxes[1];
  // A floor particle in the third layer, under open water: mirrored across the floor, 2.5 dp above it.
  Vec<double, 3> x{{tank.lo[0] + 40.5 * dp, tank.lo[1] + 3.5 * dp, tank.lo[2] - 2.5 * dp}};
  EXPECT_TRUE(near(w.geometry.ghost(x), x[0], x[1], tank.lo[2] + 2.5 * dp));
  // A corner particle (first layer on three sides): mirrored through the corner.
  x = Vec<double, 3>{{tank.hi[0] + 0.5 * dp, tank.lo[1] - 1.5 * dp, tank.lo[2] - 0.5 * dp}};
  EXPECT_TRUE(near(w.geometry.ghost(x), tank.hi[0] - 0.5 * dp, tank.lo[1] + 1.5 * dp, tank.lo[2] + 0.5 * dp));
  // The box's particle beside its front face (the face P1 is on), low down: mirrored across that face
  // into the water, not across the floor face under it.
  x = Vec<double, 3>{{box.hi[0] - 0.5 * dp, box.lo[1] + 3.5 * dp, box.lo[2] + 0.5 * dp}};
  EXPECT_TRUE(near(w.geometry.ghost(x), box.hi[0] + 0.5 * dp, x[1], x[2]));
  // Low in the box (4 dp long at this dp), 1.5 dp behind its back face (x = lo): its nearest face, the
  // floor face 0.5 dp below, meets no water, so it is mirrored across the back face (its front face is
  // 2.5 dp away, its top 3.5 dp), never into the tank's floor.
  x = Vec<double, 3>{{box.lo[0] + 1.5 * dp, 0.5 * (box.lo[1] + box.hi[1]), box.lo[2] + 0.5 * dp}};
  const Vec<double, 3> g = w.geometry.ghost(x);
  EXPECT_TRUE(near(g, box.lo[0] - 1.5 * dp, x[1], x[2])) << g[0] << " " << g[1] << " " << g[2];
  // Every ghost of a wall particle of the tank lies inside the tank's inner box.
  std::size_t outside = 0;
  for (std::size_t i = 0; i < init.size(); ++i) {
    if (init.kind[i] == kFluid) continue;
    const Vec<double, 3> xi{{init.position[3 * i], init.position[3 * i + 1], init.position[3 * i + 2]}};
    const Vec<double, 3> gi = w.geometry.ghost(xi);
    for (int d = 0; d < 3; ++d)
      if (gi[d] < tank.lo[d] || gi[d] > tank.hi[d]) ++outside;
  }
  EXPECT_EQ(outside, 0u);
}

TEST(BoundaryModel, MdbcChangesOnlyTheWalls) {
  const ParamSet pa = test::shipped_scene("dambreak2d.ini", {"scene.precision=double"});
  const ById a = first_evaluation(pa, ""), b = first_evaluation(pa, "mdbc_english2022");
  const std::size_t n = a.kind.size();
  ASSERT_EQ(n, b.kind.size());
  const double rho0 = pa.real("fluid.rho0"), gamma = pa.real("fluid.gamma"), dp = pa.real("particles.dp");
  const double h = dp * pa.real("particles.h_over_dp");
  const double c0 = build_scene(pa).liquid.c0, B = c0 * c0 * rho0 / gamma;
  const double top = pa.vec3("block.1.max")[1], width = pa.vec3("block.1.max")[0];
  std::vector<std::size_t> walls;
  double worst_floor = 0;
  std::size_t floor_count = 0, dry = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_wall_with_eos_pressure(a, b, i, rho0, gamma, B)) continue;
    walls.push_back(i);
    if (b.p[i] == 0) ++dry;
    // The floor under the column, away from its corners: the extrapolated pressure is the hydrostatic
    // pressure at the wall particle's own depth (English et al. 2022, sec. 4.1: still water converges
    // to hydrostatic on the walls).
    const double x = a.x[2 * i], y = a.x[2 * i + 1];
    if (y < 0 && x > 4 * dp && x < width - 4 * dp) {
      const double expect = test::tait_hydrostatic_pressure(rho0, c0, gamma, 9.81 * (top - y));
      worst_floor = std::max(worst_floor, std::fabs(b.p[i] / expect - 1));
      ++floor_count;
    }
  }
  std::printf("  %zu floor walls under the column: largest deviation from the hydrostatic pressure at their "
              "depth %.1e; %zu dry walls (p = 0)\n",
              floor_count, worst_floor, dry);
  EXPECT_GT(floor_count, 20u);
  EXPECT_LT(worst_floor, 0.01);
  EXPECT_GT(dry, 100u);
  expect_only_the_walls_act(a, b, walls, h);
}

// The density rates of the 2D dam break's first evaluation with mDBC's walls, fluid.wall_diffusion off
// (a) and on (b), the other keys as `extra`.
std::pair<ById, ById> wall_diffusion_pair(const std::vector<std::string>& extra) {
  std::vector<std::string> o = {"scene.precision=double", "boundary.model=mdbc_english2022"};
  o.insert(o.end(), extra.begin(), extra.end());
  ParamSet p = test::shipped_scene("dambreak2d.ini", o);
  const ById a = state(*make_simulation(p, Backend::Cpu));
  p.set("fluid.wall_diffusion", "true", "test");
  return {a, state(*make_simulation(p, Backend::Cpu))};
}

TEST(BoundaryModel, WallDiffusionActsOnlyNextToTheWalls) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {});
  const double dp = p.real("particles.dp"), h = dp * p.real("particles.h_over_dp");
  const double width = p.vec3("block.1.max")[0];
  double worst[2] = {0, 0}, mean[2] = {0, 0};
  const char* forms[2] = {"fourtakas2019", "molteni2009"};
  for (int f = 0; f < 2; ++f) {
    const auto [a, b] = wall_diffusion_pair({std::string("fluid.density_diffusion=") + forms[f]});
    std::vector<std::size_t> walls;
    for (std::size_t i = 0; i < a.kind.size(); ++i)
      if (a.kind[i] != kFluid) walls.push_back(i);
    std::size_t far = 0, floor_n = 0;
    double far_worst = 0;
    for (std::size_t i = 0; i < a.kind.size(); ++i) {
      if (a.kind[i] != kFluid) continue;
      double r2min = 1e300;
      for (std::size_t w : walls)
        r2min = std::min(r2min, std::pow(a.x[2 * i] - a.x[2 * w], 2) + std::pow(a.x[2 * i + 1] - a.x[2 * w + 1], 2));
      const double d = b.drho[i] - a.drho[i];
      if (r2min >= 4 * h * h) {
        ++far;
        far_worst = std::max(far_worst, std::fabs(d));
      } else if (a.x[2 * i + 1] < 2 * h && a.x[2 * i] > 4 * h && a.x[2 * i] < width - 4 * h) {
        ++floor_n;  // next to the floor only, away from the tank's corner and the column's front
        mean[f] += d;
        worst[f] = std::max(worst[f], std::fabs(d));
      }
    }
    ASSERT_GT(floor_n, 20u);
    mean[f] /= double(floor_n);
    std::printf("  %s: %zu fluid beyond the support (largest change %.1e), %zu next to the floor: mean change "
                "%.3e, largest %.3e kg/m^3/s\n",
                forms[f], far, far_worst, floor_n, mean[f], worst[f]);
    EXPECT_GT(far, 1000u);
    EXPECT_EQ(far_worst, 0.0);
  }
  // Without the hydrostatic part (Molteni's form) the floor, deeper and so denser by rho0 g dz / c0^2,
  // draws every fluid particle next to it up; with it (Fourtakas's), mDBC's floor being hydrostatic
  // (within 1e-4 of its pressure, MdbcChangesOnlyTheWalls), nearly nothing is left: measured 2.5% of
  // Molteni's largest change (1.95 against 79.7 kg/m^3/s), the band 10%.
  EXPECT_GT(mean[1], 0.0);
  EXPECT_GT(worst[1], 0.0);
  EXPECT_LT(worst[0], 0.1 * worst[1]);
}

TEST(BoundaryModel, MdbcRestartContinuesExactly) {
  const ParamSet p = test::shipped_scene("dambreak2d.ini", {"boundary.model=mdbc_english2022"});
  test::expect_exact_restart(p, 150, 150, {"density_predicted", "pressure", "acceleration", "velocity_predicted"});
  // mDBC keeps no state of its own: a frame recorded with Adami's walls starts it, and the walls' fields
  // in the frame make no difference (their pressure and density zeroed: the same run).
  auto adami = make_simulation(test::shipped_scene("dambreak2d.ini", {}), Backend::Cpu);
  StopRule n;
  n.max_steps = 100;
  StepLoop(*adami, n).run();
  const FrameData fa = adami->capture_frame();
  FrameData fz = fa;
  const FieldData* kind = fa.find("kind");
  ASSERT_NE(kind, nullptr);
  std::size_t zeroed = 0;
  for (FieldData& f : fz.fields) {
    if (f.info.name != "pressure" && f.info.name != "density_predicted") continue;
    const std::size_t size = scalar_bytes(f.info.scalar);
    for (std::size_t i = 0; i < f.count(); ++i)
      if (kind->bytes[i] != kFluid) {
        std::memset(f.bytes.data() + size * i, 0, size);
        ++zeroed;
      }
  }
  EXPECT_GT(zeroed, 1000u);
  auto from_adami = make_simulation(p, Backend::Cpu);
  auto from_zeroed = make_simulation(p, Backend::Cpu);
  from_adami->restore_frame(fa);
  from_zeroed->restore_frame(fz);
  n.max_steps = 50;
  StepLoop(*from_adami, n).run();
  StepLoop(*from_zeroed, n).run();
  test::expect_same_state(*from_adami, *from_zeroed);
}

TEST(BoundaryModel, CpuAndCudaAgreeOnMdbcDamBreak3D_Float) { expect_cpu_and_cuda_agree("mdbc_english2022"); }

}  // namespace
}  // namespace ejecta
