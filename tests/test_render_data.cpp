// The viewer's engine hooks on the CPU backend: render data filled by the engine functor against the
// downloaded particles, the colour range, input checks, live parameter changes, the collider sphere.
#include "params/param_registry.h"
#include "physics/solid_model.h"
#include "render_data/fill_render_data.h"
#include "sim_test_util.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

namespace ejecta {
namespace {

struct HostRenderBuffers {
  std::vector<float> pos, col;
  explicit HostRenderBuffers(std::size_t n) : pos(4 * n, -1.f), col(n, -1.f) {}
  RenderBuffers view() { return RenderBuffers{pos.data(), col.data(), col.size(), false}; }
};

ParamSet small_hydrostatic(std::vector<std::string> extra = {}) {
  // 25 x 15 fluid particles: small and quick.
  extra.insert(extra.begin(), "particles.dp=0.02");
  return test::shipped_scene("hydrostatic2d.ini", extra);
}

TEST(RenderData, PositionsKindsAndSpeedMatchTheDownload) {
  auto sim = make_simulation(test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"}), Backend::Cpu);
  test::step_n(*sim, 20);  // moving fluid, so speeds differ
  const std::size_t n = sim->particle_count();
  HostRenderBuffers buf(n);
  const RenderRange r = sim->fill_render_data(RenderRequest{"velocity", -1}, buf.view());
  const HostParticles h = sim->download();
  float lo = std::numeric_limits<float>::max(), hi = -lo;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_FLOAT_EQ(buf.pos[4 * i + 0], float(h.position[2 * i]));
    EXPECT_FLOAT_EQ(buf.pos[4 * i + 1], float(h.position[2 * i + 1]));
    EXPECT_EQ(buf.pos[4 * i + 2], 0.f) << "2D: z = 0";
    EXPECT_EQ(buf.pos[4 * i + 3], float(h.kind[i]));
    const double speed = std::hypot(h.velocity[2 * i], h.velocity[2 * i + 1]);
    EXPECT_NEAR(buf.col[i], speed, 1e-6 * (1 + speed));
    if (h.kind[i] == kFluid) {
      lo = std::min(lo, buf.col[i]);
      hi = std::max(hi, buf.col[i]);
    }
  }
  EXPECT_EQ(r.min, lo);
  EXPECT_EQ(r.max, hi);
  EXPECT_GT(r.max, r.min) << "a moving dam break has a spread of speeds";
}

TEST(RenderData, ComponentsAndScalarsAndIntegerFields) {
  auto sim = make_simulation(small_hydrostatic(), Backend::Cpu);
  test::step_n(*sim, 1);
  const std::size_t n = sim->particle_count();
  const HostParticles h = sim->download();
  HostRenderBuffers buf(n);
  sim->fill_render_data(RenderRequest{"position", 1}, buf.view());
  for (std::size_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(buf.col[i], float(h.position[2 * i + 1]));
  const RenderRange rho = sim->fill_render_data(RenderRequest{"density", 5}, buf.view());  // scalar: component ignored
  for (std::size_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(buf.col[i], float(h.density[i]));
  EXPECT_GT(rho.min, 900.f);
  EXPECT_LT(rho.max, 1100.f);
  sim->fill_render_data(RenderRequest{"kind", -1}, buf.view());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(buf.col[i], float(h.kind[i]));
  const RenderRange ids = sim->fill_render_data(RenderRequest{"id", -1}, buf.view());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(buf.col[i], float(h.id[i]));
  EXPECT_EQ(ids.max - ids.min + 1, float(sim->fluid_count())) << "fluid ids are numbered first, contiguously";
}

TEST(RenderData, BadRequestsAreClearErrors) {
  auto sim = make_simulation(small_hydrostatic(), Backend::Cpu);
  const std::size_t n = sim->particle_count();
  HostRenderBuffers buf(n);
  EXPECT_THROW(sim->fill_render_data(RenderRequest{"speed", -1}, buf.view()), std::invalid_argument);
  EXPECT_THROW(sim->fill_render_data(RenderRequest{"velocity", 2}, buf.view()), std::invalid_argument);
  RenderBuffers dev = buf.view();
  dev.device = true;
  try {
    sim->fill_render_data(RenderRequest{}, dev);
    FAIL() << "device buffers on the CPU backend were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("host"), std::string::npos) << e.what();
  }
  RenderBuffers small = buf.view();
  small.capacity = n - 1;
  EXPECT_THROW(sim->fill_render_data(RenderRequest{}, small), std::invalid_argument);
}

// Grains carry their own radius to the viewer (issue 17, RenderBuffers::radii): in a mixed scene
// (liquid in a tank, polydisperse grains of 1 cm +- 30%) the fill's radius is the grain_radius field
// for every grain and 0 (the viewer's uniform radius) for the liquid and the walls, in float and
// double and after steps have reordered the particles; asking for radii changes no position or colour.
TEST(RenderData, GrainRadiiAreTheGrainRadiusFieldAndZeroElsewhere) {
  const std::string ini =
      "[scene]\ndim = 2\n[physics]\nmodel = mixed\ngravity = 0, -9.81\n[particles]\ndp = 0.01\n"
      "[fluid]\nc0 = 20\n[tank.1]\nmin = 0, 0\nmax = 0.3, 0.4\n[block.1]\nmin = 0, 0\nmax = 0.3, 0.2\n"
      "[dem]\nspring = 2000\ndamping = 1\nbox_min = 0, 0\nbox_max = 0.3, 0.4\n"
      "[grains.1]\nmin = 0.05, 0.25\nmax = 0.25, 0.35\nradius = 0.01\nspacing = 0.03\nsize_spread = 0.3\n";
  for (const char* precision : {"double", "float"}) {
    ParamSet p = read_scene_string(ini, "<grains in a tank>");
    p.apply_override(std::string("scene.precision=") + precision);
    auto sim = make_simulation(p, Backend::Cpu);
    ASSERT_TRUE(has_particle_radii(sim->fields())) << precision;
    for (int round = 0; round < 2; ++round) {
      const std::size_t n = sim->particle_count();
      HostRenderBuffers plain(n), with(n);
      std::vector<float> radii(n, -1.f);
      RenderBuffers out = with.view();
      out.radii = radii.data();
      const RenderRange a = sim->fill_render_data(RenderRequest{"velocity", -1}, plain.view());
      const RenderRange b = sim->fill_render_data(RenderRequest{"velocity", -1}, out);
      EXPECT_EQ(plain.pos, with.pos);
      EXPECT_EQ(plain.col, with.col);
      EXPECT_EQ(a.min, b.min);
      EXPECT_EQ(a.max, b.max);
      const FrameData f = sim->capture_frame({"grain_radius", "phase"});
      const FieldData* r = f.find("grain_radius");
      const FieldData* phase = f.find("phase");
      ASSERT_TRUE(r && phase);
      std::size_t grains = 0, others = 0;
      float lo = 1e30f, hi = 0.f;
      for (std::size_t i = 0; i < n; ++i) {
        double want = 0;
        if (r->info.scalar == ScalarType::Float64) {
          std::memcpy(&want, r->bytes.data() + 8 * i, 8);
        } else {
          float v = 0;
          std::memcpy(&v, r->bytes.data() + 4 * i, 4);
          want = v;
        }
        if (phase->bytes[i] == kPhaseGrain) {
          ++grains;
          ASSERT_EQ(radii[i], float(want)) << precision << ", grain " << i;
          lo = std::min(lo, radii[i]);
          hi = std::max(hi, radii[i]);
        } else {
          ++others;
          ASSERT_EQ(radii[i], 0.f) << precision << ", particle " << i << " is no grain: the uniform radius";
        }
      }
      EXPECT_GT(grains, 20u);
      EXPECT_GT(others, 100u);
      // Radii uniform in 1 cm (1 +- 0.3): the spread reaches the renderer.
      EXPECT_LT(lo, 0.0085f);
      EXPECT_GT(hi, 0.0115f);
      EXPECT_GE(lo, 0.007f * (1 - 1e-6f));
      EXPECT_LE(hi, 0.013f * (1 + 1e-6f));
      test::step_n(*sim, 20);  // the per-step reorder moves the grains among the liquid
    }
  }
}

// SPH scenes have no radius field: the viewer does not ask for radii (no extra bytes), and where a
// caller asks all the same every radius is 0, the uniform radius of today's pictures.
TEST(RenderData, SphScenesHaveNoOwnRadii) {
  auto sim = make_simulation(small_hydrostatic(), Backend::Cpu);
  EXPECT_FALSE(has_particle_radii(sim->fields()));
  const std::size_t n = sim->particle_count();
  HostRenderBuffers buf(n);
  std::vector<float> radii(n, -1.f);
  RenderBuffers out = buf.view();
  out.radii = radii.data();
  sim->fill_render_data(RenderRequest{"density", -1}, out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(radii[i], 0.f);
}

// Mean acceleration of the fluid in the interior of the column (beyond the kernel support from the
// walls, whose Adami pressure depends on gravity too), after one step.
std::vector<double> mean_fluid_acceleration(const Simulation& sim) {
  const FrameData f = sim.capture_frame({"acceleration", "kind", "position"});
  const float* a = reinterpret_cast<const float*>(f.find("acceleration")->bytes.data());
  const float* x = reinterpret_cast<const float*>(f.find("position")->bytes.data());
  const uint8_t* kind = f.find("kind")->bytes.data();
  std::vector<double> mean(2, 0.0);
  std::size_t fluid = 0;
  for (std::size_t i = 0; i < f.particles; ++i) {
    const bool interior = x[2 * i] > 0.1 && x[2 * i] < 0.4 && x[2 * i + 1] > 0.1 && x[2 * i + 1] < 0.2;
    if (kind[i] != kFluid || !interior) continue;
    mean[0] += a[2 * i];
    mean[1] += a[2 * i + 1];
    ++fluid;
  }
  EXPECT_GT(fluid, 20u);
  for (double& m : mean) m /= double(fluid);
  return mean;
}

TEST(LiveParams, GravityChangeReachesTheAcceleration) {
  ParamSet p = small_hydrostatic();
  auto a = make_simulation(p, Backend::Cpu);
  auto b = make_simulation(p, Backend::Cpu);
  p.set("physics.gravity", "1.5, -19.62, 0", "test");
  b->apply_params(p);
  test::step_n(*a, 1);
  test::step_n(*b, 1);
  const auto ma = mean_fluid_acceleration(*a), mb = mean_fluid_acceleration(*b);
  // One step later the pressure forces are the same to ~dt^2 g; the difference is the gravity change.
  EXPECT_NEAR(mb[0] - ma[0], 1.5, 0.02);
  EXPECT_NEAR(mb[1] - ma[1], -9.81, 0.1);
}

TEST(LiveParams, DtMaxActsOnTheNextStep) {
  ParamSet p = small_hydrostatic();
  auto sim = make_simulation(p, Backend::Cpu);
  const double before = sim->dt();
  char dt_max[32];  // all the digits: std::to_string's six decimals would round dt / 4 up
  std::snprintf(dt_max, sizeof dt_max, "%.17g", before / 4);
  p.set("time.dt_max", dt_max, "test");
  sim->apply_params(p);
  EXPECT_LE(sim->dt(), before / 4 * (1 + 1e-6));
  test::step_n(*sim, 1);
  EXPECT_LE(sim->dt(), before / 4 * (1 + 1e-6));
}

TEST(LiveParams, ViscosityChangeChangesTheRun) {
  ParamSet p = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"});
  auto a = make_simulation(p, Backend::Cpu);
  auto b = make_simulation(p, Backend::Cpu);
  p.set("viscosity.alpha", "0.5", "test");
  p.set("fluid.xsph", "0.3", "test");  // switched on live: its field is created then
  b->apply_params(p);
  for (int s = 0; s < 30; ++s) {
    test::step_n(*a, 1);
    test::step_n(*b, 1);
  }
  EXPECT_LT(b->diagnostics().kinetic, a->diagnostics().kinetic) << "more viscosity dissipates more";
  bool has_xsph = false;
  for (const FieldInfo& f : b->fields()) has_xsph |= f.name == "xsph_velocity";
  EXPECT_TRUE(has_xsph);
}

TEST(LiveParams, KeysThatChangeTheLayoutAreMarkedRebuild) {
  const ParamRegistry& reg = ParamRegistry::builtin();
  for (const char* k : {"scene.dim", "scene.precision", "particles.dp", "particles.h_over_dp", "fluid.rho0",
                        "fluid.c0", "fluid.gamma", "fluid.density", "boundary.wall_layers", "tank.1.min",
                        "block.1.max", "obstacle.2.min"}) {
    ASSERT_NE(reg.find(k), nullptr) << k;
    EXPECT_TRUE(reg.find(k)->needs_rebuild) << k;
  }
  for (const char* k : {"viscosity.alpha", "fluid.delta_sph", "fluid.xsph", "physics.gravity", "time.cfl",
                        "time.dt_max", "boundary.slip", "collider.center", "collider.enabled"}) {
    ASSERT_NE(reg.find(k), nullptr) << k;
    EXPECT_FALSE(reg.find(k)->needs_rebuild) << k;
  }
}

TEST(LiveParams, EveryLiveKeyIsAccepted) {
  // Each key without needs_rebuild set to a value inside its range applies without error.
  const ParamSet base = small_hydrostatic();
  for (const ParamDesc& d : ParamRegistry::builtin().all()) {
    if (d.needs_rebuild || d.key.find('#') != std::string::npos) continue;
    ParamSet p = base;
    p.set(d.key, d.default_value, "test");
    auto sim = make_simulation(base, Backend::Cpu);
    EXPECT_NO_THROW(sim->apply_params(p)) << d.key;
    EXPECT_NO_THROW(test::step_n(*sim, 1)) << d.key;
  }
}

std::size_t fluid_inside(const Simulation& sim, double cx, double cy, double r) {
  const HostParticles h = sim.download();
  std::size_t k = 0;
  for (std::size_t i = 0; i < h.n; ++i)
    if (h.kind[i] == kFluid && std::hypot(h.position[2 * i] - cx, h.position[2 * i + 1] - cy) < r) ++k;
  return k;
}

TEST(Collider, SpherePushesTheFluidOut) {
  // A sphere of radius 0.08 m starts just above the resting column (surface at y = 0.3 m) and is
  // lowered at 0.5 m/s for 0.3 s, as the viewer drags it, 12 cm into the fluid.
  const double R = 0.08, v = -0.5, dp = 0.02;
  auto with = make_simulation(small_hydrostatic(), Backend::Cpu);
  auto without = make_simulation(small_hydrostatic(), Backend::Cpu);
  ColliderSphere c;
  c.enabled = true;
  c.radius = R;
  c.center[0] = 0.25;
  c.center[1] = 0.3 + R + dp;
  c.velocity[1] = v;
  with->set_collider(c);
  StepLoop loop(*with, StopRule{});
  while (with->time() < 0.3) {
    const double t0 = with->time();
    loop.advance(4);
    c.center[1] += v * (with->time() - t0);
    with->set_collider(c);
  }
  test::run_until(*without, with->time());
  EXPECT_LT(c.center[1], 0.26);  // 4 cm below the resting surface
  // Without the sphere its final volume is full of fluid; with it, empty but for a few particles
  // in the force's contact layer (r0 = dp, capped at dp / 2).
  const std::size_t full = fluid_inside(*without, c.center[0], c.center[1], R);
  ASSERT_GT(full, 15u);
  EXPECT_LE(fluid_inside(*with, c.center[0], c.center[1], R - 0.5 * dp), full / 10);
  EXPECT_EQ(with->fluid_count(), without->fluid_count());
}

TEST(Collider, SetColliderMovesItAndChecksTheRadius) {
  auto sim = make_simulation(small_hydrostatic(), Backend::Cpu);
  EXPECT_FALSE(sim->collider().enabled);
  ColliderSphere c;
  c.enabled = true;
  c.center[0] = 0.1;
  c.center[1] = 0.1;
  c.radius = 0.04;
  sim->set_collider(c);
  EXPECT_EQ(sim->collider().center[0], 0.1);
  c.radius = 0;
  EXPECT_THROW(sim->set_collider(c), std::invalid_argument);
}


TEST(RenderData, GasModelFillsInternalEnergyAndTakesLiveKeys) {
  // The viewer draws gas scenes through the same hook: Sod 1D coloured by internal energy.
  auto sim = make_simulation(test::shipped_scene("sod1d.ini"), Backend::Cpu);
  test::step_n(*sim, 5);
  const std::size_t n = sim->particle_count();
  HostRenderBuffers buf(n);
  const RenderRange r = sim->fill_render_data(RenderRequest{"internal_energy", -1}, buf.view());
  const FrameData f = sim->capture_frame({"position", "internal_energy"});
  auto values = [](const FieldData& fd) {
    std::vector<double> v(fd.count());
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = fd.info.scalar == ScalarType::Float64 ? reinterpret_cast<const double*>(fd.bytes.data())[i]
                                                   : reinterpret_cast<const float*>(fd.bytes.data())[i];
    return v;
  };
  const std::vector<double> x = values(f.fields[0]), u = values(f.fields[1]);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_FLOAT_EQ(buf.pos[4 * i], float(x[i]));
    ASSERT_EQ(buf.pos[4 * i + 1], 0.f) << "1D: y = z = 0";
    ASSERT_FLOAT_EQ(buf.col[i], float(u[i]));
  }
  EXPECT_NEAR(r.max, 2.5, 0.05) << "the left state's u";
  EXPECT_NEAR(r.min, 1.795, 0.05) << "the right state's u";
  // A live key reaches the gas solver: dt_max caps the very next steps.
  ParamSet p = test::shipped_scene("sod1d.ini");
  p.set("time.dt_max", "1e-6", "test");
  sim->apply_params(p);
  test::step_n(*sim, 1);
  test::step_n(*sim, 1);
  EXPECT_LE(sim->dt(), 1e-6 * (1 + 1e-12));
}

}  // namespace
}  // namespace ejecta
