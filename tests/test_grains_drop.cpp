// "Add a sphere of grains" (scene/grain_drop.h, the viewer's key D in a scene of grains; the cuda-samples
// particles demo's "add sphere"): on the shipped 2D column of frictional discs, after some steps (spins
// and contact lists set), a disc of grains half over the column. Checked: the count (added + left out =
// the lattice sites of the disc, counted here), the grains' radii within the block's r (1 +- spread),
// density and mass rho pi r^2, no overlap with any grain or the box, at rest with empty contact lists;
// every old particle's fields bit for bit; the total mass grows by exactly the new grains' mass; the run
// continues, the new grains first falling freely (v = -g t within 2%); the frame restarts (CPU).
#include "grain_test_util.h"
#include "sim_test_util.h"

#include "particles/field_values.h"
#include "physics/solid_model.h"
#include "scene/fluid_drop.h"
#include "scene/grain_drop.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <vector>

namespace ejecta {
namespace {

// Row of each particle id in a frame.
std::map<uint32_t, std::size_t> rows_by_id(const FrameData& f) {
  const FieldData* id = f.find("id");
  std::map<uint32_t, std::size_t> m;
  for (std::size_t i = 0; i < f.particles; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, id->bytes.data() + 4 * i, 4);
    m[v] = i;
  }
  return m;
}

double field_at(const FrameData& f, const char* name, std::size_t row, int c = 0) {
  const FieldData* d = f.find(name);
  return field_value(*d, row * std::size_t(d->info.components) + std::size_t(c));
}

// The number of old particles (ids of `old`) some field of which differs in `now`, by field.
std::string changed_fields(const FrameData& old, const FrameData& now) {
  const auto old_rows = rows_by_id(old), new_rows = rows_by_id(now);
  std::string out;
  for (const FieldData& f : old.fields) {
    const FieldData* g = now.find(f.info.name);
    if (!g) {
      out += f.info.name + " (missing) ";
      continue;
    }
    const std::size_t row = std::size_t(f.info.components) * scalar_bytes(f.info.scalar);
    std::size_t differ = 0;
    for (const auto& [id, i] : old_rows)
      differ += std::memcmp(f.bytes.data() + i * row, g->bytes.data() + new_rows.at(id) * row, row) != 0;
    if (differ) out += f.info.name + " (" + std::to_string(differ) + " particles) ";
  }
  return out;
}

TEST(GrainsDrop, AddsADiscOfTheBlocksGrainsKeepsTheOldOnesAndRuns) {
  const ParamSet p = test::shipped_scene("grains_column2d.ini", {"scene.precision=double"});
  auto sim = make_simulation(p, Backend::Cpu);
  test::step_n(*sim, 40);
  const FrameData old = sim->capture_frame();
  const std::size_t n_old = old.particles;

  GrainDrop d;
  d.center[0] = 0.26, d.center[1] = 0.3;  // half over the column's right edge (x = 0 .. 0.26)
  d.radius = 0.06;
  std::size_t added = 0, dropped = 0;
  std::unique_ptr<Simulation> grown = add_grains(*sim, p, d, &added, &dropped);
  const FrameData now = grown->capture_frame();
  ASSERT_EQ(now.particles, n_old + added);
  EXPECT_GT(added, 20u);
  EXPECT_GT(dropped, 5u) << "the sites over the column are left out";
  // The disc's lattice sites, counted here: spacing 2.02 r (1 + spread), |k| s <= R.
  const double r = 0.005, spread = 0.2, s = 2.02 * r * (1 + spread), pi = 3.14159265358979323846;
  std::size_t sites = 0;
  for (int i = -10; i <= 10; ++i)
    for (int j = -10; j <= 10; ++j) sites += (i * i + j * j) * s * s <= d.radius * d.radius;
  EXPECT_EQ(added + dropped, sites);

  // Every old particle's every field, bit for bit.
  EXPECT_EQ(changed_fields(old, now), "");
  const auto new_rows = rows_by_id(now);
  // The new grains (ids n_old ..): the block's radius and material, at rest, no contacts, no overlap.
  const auto lo = p.vec3("dem.box_min"), hi = p.vec3("dem.box_max");
  double old_mass = 0, new_mass = 0, expected = 0, rmin = 1, rmax = 0;
  for (std::size_t i = 0; i < n_old; ++i) old_mass += field_at(old, "mass", i);
  for (std::size_t i = 0; i < now.particles; ++i) new_mass += field_at(now, "mass", i);
  const FieldData* partner = now.find("contact_partner");
  ASSERT_TRUE(partner);
  double min_gap = 1e30;
  for (uint32_t id = uint32_t(n_old); id < uint32_t(now.particles); ++id) {
    const std::size_t a = new_rows.at(id);
    const double ra = field_at(now, "grain_radius", a);
    EXPECT_EQ(field_at(now, "phase", a), double(kPhaseGrain));
    EXPECT_EQ(field_at(now, "kind", a), 0.0);
    EXPECT_EQ(field_at(now, "density", a), 2500.0);
    EXPECT_NEAR(field_at(now, "mass", a), 2500 * pi * ra * ra, 1e-12 * field_at(now, "mass", a));
    expected += 2500 * pi * ra * ra;
    rmin = std::min(rmin, ra), rmax = std::max(rmax, ra);
    for (int c = 0; c < 2; ++c) {
      EXPECT_EQ(field_at(now, "velocity", a, c), 0.0);
      EXPECT_GE(field_at(now, "position", a, c) - ra, lo[c]);
      EXPECT_LE(field_at(now, "position", a, c) + ra, hi[c]);
    }
    EXPECT_EQ(field_at(now, "angular_velocity", a), 0.0);
    for (int c = 0; c < partner->info.components; ++c) EXPECT_EQ(field_at(now, "contact_partner", a, c), 4294967295.0);
    for (std::size_t b = 0; b < now.particles; ++b) {  // O(k n): a test
      if (b == a) continue;
      const double dx = field_at(now, "position", a, 0) - field_at(now, "position", b, 0);
      const double dy = field_at(now, "position", a, 1) - field_at(now, "position", b, 1);
      min_gap = std::min(min_gap, std::sqrt(dx * dx + dy * dy) - ra - field_at(now, "grain_radius", b));
    }
  }
  EXPECT_GE(min_gap, 0.0) << "a new grain overlaps";
  EXPECT_GE(rmin, r * (1 - spread) - 1e-15);
  EXPECT_LE(rmax, r * (1 + spread) + 1e-15);
  EXPECT_GT(rmax - rmin, 0.5 * r * spread) << "the block's size spread";
  EXPECT_NEAR(new_mass - old_mass, expected, 1e-12 * new_mass);

  // The frame restarts as it is (a viewer snapshot after the drop).
  auto restarted = make_simulation_from_frame(p, Backend::Cpu, now);
  EXPECT_EQ(restarted->particle_count(), now.particles);

  // The run continues; the new grains, clear of everything, fall freely at first.
  const double t0 = grown->time();
  EXPECT_EQ(grown->steps(), sim->steps());
  test::step_n(*grown, 300);
  const double elapsed = grown->time() - t0;
  ASSERT_GT(elapsed, 0.0);
  ASSERT_LT(elapsed, 0.1) << "still before the new grains reach the floor";
  const FrameData later = grown->capture_frame();
  const auto later_rows = rows_by_id(later);
  double vy = 0;
  for (uint32_t id = uint32_t(n_old); id < uint32_t(later.particles); ++id) {
    const std::size_t a = later_rows.at(id);
    vy += field_at(later, "velocity", a, 1) / double(added);
    for (int c = 0; c < 2; ++c) ASSERT_TRUE(std::isfinite(field_at(later, "position", a, c)));
  }
  EXPECT_NEAR(vy, -9.81 * elapsed, 0.02 * 9.81 * elapsed) << "after " << elapsed << " s";
  std::printf("added %zu grains (%zu sites left out), then %.4f s in 300 steps: mean v_y = %.5f m/s, -g t = %.5f\n",
              added, dropped, elapsed, vy, -9.81 * elapsed);
}

TEST(GrainsDrop, NoRoomAndLiquidScenesAreRefusedWithAReason) {
  const ParamSet p = test::shipped_scene("grains_column2d.ini");
  auto sim = make_simulation(p, Backend::Cpu);
  GrainDrop d;
  d.center[0] = 0.1, d.center[1] = 0.2;  // inside the column: every site overlaps
  d.radius = 0.004;
  try {
    add_grains(*sim, p, d);
    ADD_FAILURE() << "a drop inside the column was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no room"), std::string::npos) << e.what();
  }
  d.center[0] = 1.497;  // its one site pokes out of the box (x + r > 1.5)
  EXPECT_THROW(add_grains(*sim, p, d), std::invalid_argument);
  const ParamSet liquid = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"});
  auto wsim = make_simulation(liquid, Backend::Cpu);
  EXPECT_THROW(add_grains(*wsim, liquid, d), std::logic_error);
}

// A tank of water with grains (physics.model = mixed): grains dropped above the water stay clear of it
// (r + dp/2 from every liquid particle), water dropped above it stays clear of the grains; the old
// particles keep their state and the run goes on; grains inside the water find no room.
TEST(GrainsDrop, GrainsOrWaterIntoATankOfWaterWithGrains) {
  const ParamSet p = read_scene_string(
      "[scene]\ndim = 2\nprecision = double\n[physics]\nmodel = mixed\ngravity = 0, -9.81\n[particles]\ndp = 0.01\n"
      "[fluid]\nc0 = 20\n[tank.1]\nmin = 0, 0\nmax = 0.3, 0.4\n[block.1]\nmin = 0, 0\nmax = 0.3, 0.2\n"
      "[dem]\nspring = 2000\ndamping = 1\nbox_min = 0, 0\nbox_max = 0.3, 0.4\n"
      "[grains.1]\nmin = 0.1, 0.1\nmax = 0.2, 0.16\nradius = 0.01\ndensity = 2600\n",
      "<tank>");
  auto sim = make_simulation(p, Backend::Cpu);
  test::step_n(*sim, 10);
  const FrameData f0 = sim->capture_frame();
  GrainDrop g;
  g.center[0] = 0.15, g.center[1] = 0.3, g.radius = 0.05;
  std::size_t added = 0, dropped = 0;
  auto with_grains = add_grains(*sim, p, g, &added, &dropped);
  const FrameData f1 = with_grains->capture_frame();
  EXPECT_GT(added, 5u);
  EXPECT_EQ(f1.particles, f0.particles + added);
  EXPECT_EQ(changed_fields(f0, f1), "");
  double min_gap = 1e30;  // new grain to liquid or wall particle, minus r + dp/2
  for (std::size_t a = 0; a < f1.particles; ++a) {
    if (field_at(f1, "id", a) < double(f0.particles)) continue;
    for (std::size_t b = 0; b < f1.particles; ++b) {
      if (field_at(f1, "phase", b) == double(kPhaseGrain)) continue;
      const double dx = field_at(f1, "position", a, 0) - field_at(f1, "position", b, 0);
      const double dy = field_at(f1, "position", a, 1) - field_at(f1, "position", b, 1);
      min_gap = std::min(min_gap, std::sqrt(dx * dx + dy * dy) - field_at(f1, "grain_radius", a) - 0.005);
    }
  }
  EXPECT_GE(min_gap, 0.0);
  FluidDrop w;
  w.center[0] = 0.06, w.center[1] = 0.33, w.size = 0.04;
  std::size_t water = 0;
  auto with_water = add_mixed_fluid(*with_grains, p, w, &water);
  const FrameData f2 = with_water->capture_frame();
  EXPECT_GT(water, 10u);
  EXPECT_EQ(changed_fields(f1, f2), "");
  double m1 = 0, m2 = 0;
  for (std::size_t i = 0; i < f1.particles; ++i) m1 += field_at(f1, "mass", i);
  for (std::size_t i = 0; i < f2.particles; ++i) m2 += field_at(f2, "mass", i);
  EXPECT_NEAR(m2 - m1, double(water) * 1000 * 0.01 * 0.01, 1e-12 * m2);
  for (std::size_t a = 0; a < f2.particles; ++a) {
    if (field_at(f2, "id", a) < double(f1.particles)) continue;
    EXPECT_EQ(field_at(f2, "phase", a), double(kPhaseLiquid));
    EXPECT_EQ(field_at(f2, "density", a), 1000.0);
    for (std::size_t b = 0; b < f2.particles; ++b) {
      if (field_at(f2, "phase", b) != double(kPhaseGrain)) continue;
      const double dx = field_at(f2, "position", a, 0) - field_at(f2, "position", b, 0);
      const double dy = field_at(f2, "position", a, 1) - field_at(f2, "position", b, 1);
      EXPECT_GE(std::sqrt(dx * dx + dy * dy), 0.45 * (0.01 + 2 * field_at(f2, "grain_radius", b)) - 1e-12);
    }
  }
  test::step_n(*with_water, 100);
  const Diagnostics d = with_water->diagnostics();
  EXPECT_TRUE(std::isfinite(d.kinetic) && d.kinetic < 10) << d.kinetic;
  // Inside the water: no room for grains.
  g.center[1] = 0.05, g.radius = 0.02;
  EXPECT_THROW(add_grains(*with_water, p, g), std::invalid_argument);
}

// 3D, float: the cuda-samples preset (16384 grains): a sphere under the hanging block holds all of its
// lattice sites (81 with i^2 + j^2 + k^2 <= 6), one inside the block none; the old grains bit for bit.
TEST(GrainsDrop, SphereOfGrainsIn3DUnderTheCudaSamplesBlock) {
  const ParamSet p = test::shipped_scene("grains3d.ini");
  auto sim = make_simulation(p, Backend::Cpu);
  test::step_n(*sim, 5);
  const FrameData f0 = sim->capture_frame();
  GrainDrop d;
  d.center[0] = 0.5, d.center[1] = 0.5, d.center[2] = 0.3, d.radius = 0.05;  // spacing 2.02 r = 0.0202
  std::size_t added = 0, dropped = 0;
  auto grown = add_grains(*sim, p, d, &added, &dropped);
  EXPECT_EQ(added, 81u);
  EXPECT_EQ(dropped, 0u);
  const FrameData f1 = grown->capture_frame();
  EXPECT_EQ(changed_fields(f0, f1), "");
  test::step_n(*grown, 20);
  EXPECT_TRUE(std::isfinite(grown->diagnostics().kinetic));
  d.center[2] = 0.67;  // inside the block of grains
  EXPECT_THROW(add_grains(*grown, p, d), std::invalid_argument);
}

// The same drop on the GPU: the same count, the same grains, and the runs agree (double precision).
TEST(GrainsDrop, CudaAddsTheSameGrains) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("grains_column2d.ini", {"scene.precision=double"});
  auto cpu = make_simulation(p, Backend::Cpu);
  auto gpu = make_simulation(p, Backend::Cuda);
  test::step_n(*cpu, 40);
  test::step_n(*gpu, 40);
  GrainDrop d;
  d.center[0] = 0.26, d.center[1] = 0.3, d.radius = 0.06;
  std::size_t kc = 0, kg = 0;
  cpu = add_grains(*cpu, p, d, &kc);
  gpu = add_grains(*gpu, p, d, &kg);
  EXPECT_EQ(kc, kg);
  EXPECT_EQ(gpu->backend(), Backend::Cuda);
  test::step_n(*cpu, 100);
  test::step_n(*gpu, 100);
  const test::ParticleDifference diff = test::max_difference_by_id(cpu->download(), gpu->download());
  EXPECT_LT(diff.position, 1e-8) << "double precision, the same functors";
}

}  // namespace
}  // namespace ejecta
