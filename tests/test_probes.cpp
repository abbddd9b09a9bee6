// Probes and gauges (engine/probes) on a still tank, against the analytic hydrostatic state: the probe
// pressure is rho0 g depth within 1% at several depths, a gauge reads the water height within dp/2, a
// dry probe reads 0. The CPU runs here; the GPU tests (skipped without a GPU) check that the CUDA
// backend samples the same values from the same functors. Batched downloads of the device's ring of
// samples give the same CSV as a download after every sample, on both backends.
#include "io/h5_probes.h"
#include "probes/probe_api.h"
#include "probes/probe_csv_writer.h"
#include "probe_test_util.h"
#include "probes/probe_observer.h"
#include "probes/probe_sample.h"
#include "scene/scene_builder.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ejecta {
namespace {

constexpr double kG = 9.81;

// Mean of each column over the rows with time in [t0, t1] (empty cells skipped).
std::vector<double> column_means(const ProbeSeries& s, double t0, double t1) {
  std::vector<double> sum(s.columns.size(), 0), count(s.columns.size(), 0);
  for (std::size_t r = 0; r < s.rows(); ++r) {
    if (s.time[r] < t0 || s.time[r] > t1) continue;
    for (std::size_t c = 0; c < s.columns.size(); ++c)
      if (!std::isnan(s.at(r, c))) sum[c] += s.at(r, c), count[c] += 1;
  }
  for (std::size_t c = 0; c < sum.size(); ++c) sum[c] = count[c] > 0 ? sum[c] / count[c] : NAN;
  return sum;
}

std::size_t column(const ProbeSeries& s, const std::string& name) {
  for (std::size_t c = 0; c < s.columns.size(); ++c)
    if (s.columns[c].name == name) return c;
  ADD_FAILURE() << "no column " << name;
  return 0;
}

// scenes/hydrostatic2d.ini: 0.3 m of water at rest (hydrostatic start), dp = 0.01 m, h = 1.5 dp.
// Probes at depths 0.05, 0.15 and 0.25 m (each at least a kernel support from the surface and the
// floor, where a Shepard average over the fluid alone is one-sided), one in the air, one sensor
// segment on the left wall, one point on that wall averaging the wall particles (source = walls); a
// gauge at mid-tank.
ParamSet still_tank_2d() {
  return test::shipped_scene("hydrostatic2d.ini",
                             {"probe.1.position=0.25, 0.25", "probe.2.position=0.25, 0.15",
                              "probe.3.position=0.25, 0.05", "probe.4.position=0.25, 0.4",
                              "probe.4.fields=pressure, velocity", "probe.5.position=0, 0.15",
                              "probe.5.diameter=0.02", "probe.5.normal=1, 0", "probe.5.name=wall",
                              "gauge.1.position=0.25, 0", "gauge.1.top=0.5", "gauge.1.interval=0.01",
                              "probe.6.position=0, 0.15", "probe.6.source=walls", "probe.6.name=wallp",
                              // Loads, every 0.01 s: the floor's walls (every wall particle below its face,
                              // the corners' included) and the left wall's (every one left of its face, the
                              // corner's included: the boxes may share particles).
                              "force.1.name=floor", "force.1.min=-0.1, -0.1", "force.1.max=0.6, 0",
                              "force.1.interval=0.01", "force.2.name=left", "force.2.min=-0.1, -0.1",
                              "force.2.max=0, 0.6", "force.2.interval=0.01",
                              // and a pressure sensor read by its load: the left wall's particles between
                              // y = 0.1 and 0.2, their face 0.1 m long, looking along +x.
                              "force.3.name=patch", "force.3.min=-0.1, 0.1", "force.3.max=0, 0.2",
                              "force.3.area=0.1", "force.3.normal=1, 0", "force.3.interval=0.01"});
}

ProbeSeries run_probes(const ParamSet& p, double until) { return test::run_probe_series(p, Backend::Cpu, until); }

// Tolerances: the issue's, p = rho g depth within 1%, at the start and settled (averaged over 0.05-0.1
// s, one acoustic period 4 H / c0 of the column), the depth measured from the water's surface.
//  - At t = 0 the water has the exact hydrostatic state of Tait water under the block's top H
//    (docs/physics.md, "Hydrostatic start"), 0.05-0.2% above rho0 g depth at these depths as the
//    water above is itself compressed: the probes must read that exact pressure within 0.05%, which
//    checks the sampling itself (the Shepard average of a field linear across a symmetric support is
//    exact; measured 0.003% or better).
//  - Settled, the depth is measured from the surface the gauge reads at the same times, as a tank
//    experiment with a pressure sensor and a wave gauge would. The scheme's pressure then carries a
//    constant offset over the column, the surface pressure condition of SPH (2D, dp = 0.01: +1.4 Pa;
//    3D, dp = 0.02: +8.4 Pa, reached within 10 ms and steady to 0.5 s), while its surface rises by
//    up to dp/10 over 0.3 s. From the nominal surface H the shallowest 3D probe (4 dp deep) reads +1.15%;
//    from the gauge's surface +0.56%, and +0.36-0.49% everywhere else (2D and 3D). The 1.5% band this test had was
//    the 1.1% bias of the old uniform-mass start (fixed in the physics), not the probes.
constexpr double kTolerance = 0.01;
constexpr double kExactAtStart = 5e-4;

// p(depth) of the still tank `p`: rho0 g depth and the exact Tait hydrostatic pressure.
struct Hydrostatic {
  double rho0, c0, gamma;
  explicit Hydrostatic(const ParamSet& p)
      : rho0(p.real("fluid.rho0")), c0(build_scene(p).liquid.c0), gamma(p.real("fluid.gamma")) {}
  double linear(double depth) const { return rho0 * kG * depth; }
  double exact(double depth) const { return test::tait_hydrostatic_pressure(rho0, c0, gamma, kG * depth); }
};

// The probe `col` at height z: at t = 0 against the block's top H, settled against the mean height
// `level` of the gauge over the same window.
void expect_pressure(const ProbeSeries& s, const std::string& col, const Hydrostatic& hs, double H, double level,
                     double z, const char* what) {
  const double t0 = s.at(0, column(s, col));
  const double settled = column_means(s, 0.05, 0.1)[column(s, col)];
  const double want0 = hs.linear(H - z), exact0 = hs.exact(H - z), want = hs.linear(level - z);
  std::printf("  %-16s %s: t = 0 %.1f Pa, rho0 g depth %.1f Pa (%+.2f%%), exact Tait %.1f Pa (%+.3f%%); settled "
              "%.1f Pa, rho0 g depth below the gauge %.1f Pa (%+.2f%%), below H %+.2f%%\n",
              col.c_str(), what, t0, want0, 100 * (t0 / want0 - 1), exact0, 100 * (t0 / exact0 - 1), settled, want,
              100 * (settled / want - 1), 100 * (settled / want0 - 1));
  EXPECT_NEAR(t0 / want0, 1.0, kTolerance) << col << " at t = 0";
  EXPECT_NEAR(t0 / exact0, 1.0, kExactAtStart) << col << " at t = 0 against the exact hydrostatic state";
  EXPECT_NEAR(settled / want, 1.0, kTolerance) << col << " settled";
}

TEST(Probes, StillTank2D_PressureIsRhoGDepthAndGaugeReadsTheLevel) {
  const ParamSet p = still_tank_2d();
  const double dp = p.real("particles.dp"), H = p.vec3("block.1.max")[1];
  const Hydrostatic hs(p);
  const ProbeSeries s = run_probes(p, 0.1);
  const double level = column_means(s, 0.05, 0.1)[column(s, "gauge1.height")];
  const double z[3] = {0.25, 0.15, 0.05};
  for (int k = 0; k < 3; ++k) expect_pressure(s, "probe" + std::to_string(k + 1) + ".pressure", hs, H, level, z[k], "point");
  expect_pressure(s, "wall.pressure", hs, H, level, 0.15, "wall segment");
  // source = walls: the Shepard average of the wall particles' pressure at a point on the wall face,
  // each extrapolated from the fluid to its own height (Adami et al. 2012, eq. 27): rho0 g depth at
  // the point, within the same 1% (measured: printed below).
  {
    const std::size_t c = column(s, "wallp.pressure");
    const double t0 = s.at(0, c), settled = column_means(s, 0.05, 0.1)[c];
    std::printf("  wallp (walls) t = 0 %.1f Pa (%+.2f%% of rho0 g (H - z)), settled %+.2f%% below the gauge\n", t0,
                100 * (t0 / hs.linear(H - 0.15) - 1), 100 * (settled / hs.linear(level - 0.15) - 1));
    EXPECT_NEAR(t0 / hs.linear(H - 0.15), 1.0, kTolerance);
    EXPECT_NEAR(settled / hs.linear(level - 0.15), 1.0, kTolerance);
  }
  EXPECT_EQ(column_means(s, 0, 0.1)[column(s, "probe4.pressure")], 0.0) << "a probe in the air is dry";
  EXPECT_EQ(column_means(s, 0, 0.1)[column(s, "probe4.velocity.y")], 0.0);
  std::printf("  gauge: %.5f m, water height %.5f m (dp/2 = %.4f m)\n", level, H, dp / 2);
  EXPECT_NEAR(level, H, dp / 2);
  EXPECT_NEAR(s.at(0, column(s, "gauge1.height")), H, dp / 2);
  // The gauge samples every 0.01 s; the probes every step: its cells are empty in between.
  std::size_t gauge_rows = 0;
  for (std::size_t r = 0; r < s.rows(); ++r) gauge_rows += !std::isnan(s.at(r, column(s, "gauge1.height")));
  EXPECT_NEAR(double(gauge_rows), 11.0, 1.0) << "t = 0, 0.01, ..., 0.1";
  EXPECT_GT(s.rows(), 10 * gauge_rows);
}

// The liquid's step moves its positions, velocities, densities, masses and ids through its rates'
// buffers at each sort (ParticleStore::ReorderPlan), a cycle of four (vectors) and five (4-byte fields)
// buffers: a probe's channel must follow its field's buffer. In the still tank a probe every step reads
// the density of water (1000 to 1003 kg/m^3 at this depth), the particles' mass rho dp^2 (0.1 kg/m) and
// no velocity; a channel left on a moved buffer would read another field there within five steps (the
// mass channel reads the ids after one). Measured over 26 rows (CPU): density and mass 1.0025 times
// rho0 and rho0 dp^2 (the hydrostatic start's compression at 0.15 m), speed 8e-5 m/s, ids within 6e-7.
TEST(Probes, ChannelsFollowTheFieldsTheStepMoves) {
  const ParamSet p = test::shipped_scene(
      "hydrostatic2d.ini", {"probe.1.position=0.25, 0.15", "probe.1.fields=density, mass, velocity, id"});
  const ProbeSeries s = run_probes(p, 0.003);
  const double dp = p.real("particles.dp"), rho0 = p.real("fluid.rho0");
  ASSERT_GE(s.rows(), 12u) << "samples over at least twelve steps";
  double worst[4] = {0, 0, 0, 0};
  const std::size_t rho = column(s, "probe1.density"), m = column(s, "probe1.mass"),
                    vx = column(s, "probe1.velocity.x"), vy = column(s, "probe1.velocity.y"), id = column(s, "probe1.id");
  for (std::size_t r = 0; r < s.rows(); ++r) {
    EXPECT_GT(s.at(r, rho), rho0) << "row " << r;
    EXPECT_LT(s.at(r, rho), rho0 * 1.003) << "row " << r;
    EXPECT_NEAR(s.at(r, m) / (rho0 * dp * dp), 1.0, 3e-3) << "row " << r;
    EXPECT_LT(std::hypot(s.at(r, vx), s.at(r, vy)), 1e-2) << "row " << r;
    // The ids near the point average to a particle number of the block, the same while nothing moves.
    EXPECT_NEAR(s.at(r, id), s.at(0, id), 1e-3 * s.at(0, id)) << "row " << r;
    worst[0] = std::max(worst[0], std::abs(s.at(r, rho) / rho0 - 1));
    worst[1] = std::max(worst[1], std::abs(s.at(r, m) / (rho0 * dp * dp) - 1));
    worst[2] = std::max(worst[2], std::hypot(s.at(r, vx), s.at(r, vy)));
    worst[3] = std::max(worst[3], std::abs(s.at(r, id) / s.at(0, id) - 1));
  }
  std::printf("  %zu rows: density %.2e of rho0, mass %.2e of rho0 dp^2, speed %.2e m/s, ids %.2e\n", s.rows(),
              worst[0], worst[1], worst[2], worst[3]);
}

// Loads ([force.N], physics/fluid_wall_load.h) on the still tank, against statics: the floor carries
// the water's weight, rho0 g H L per metre of depth, and the left wall the hydrostatic thrust
// rho0 g H^2 / 2, pushed outward (-x); the floor feels no sideways force (its corners cancel).
// Tolerance 0.5% of each, at t = 0 and settled over 0.05-0.1 s (measured: floor -0.013% and +0.25%,
// wall -0.08% and +0.22%; settled, the probes' +0.2-0.5% of the scheme's surface pressure). The sum over all walls is the fluid's weight
// exactly when the fluid is at rest (its momentum balance), so the floor's figure checks that the
// pass sees every fluid-wall pair with the step's terms; the wall's that the pairs are split by the box.
TEST(Probes, LoadsOfAStillTank2D_FloorCarriesTheWeightAndTheWallTheThrust) {
  const ParamSet p = still_tank_2d();
  const double H = p.vec3("block.1.max")[1], L = p.vec3("block.1.max")[0], rho0 = p.real("fluid.rho0");
  const ProbeSeries s = run_probes(p, 0.1);
  const double weight = rho0 * kG * H * L, thrust = 0.5 * rho0 * kG * H * H;
  const auto settled = column_means(s, 0.05, 0.1);
  const std::size_t fy = column(s, "floor.force.y"), fx = column(s, "floor.force.x");
  const std::size_t wx = column(s, "left.force.x"), wy = column(s, "left.force.y");
  EXPECT_EQ(s.columns[fy].units, "N/m");
  std::printf("  floor: t = 0 %.2f N/m, settled %.2f N/m, -rho0 g H L = %.2f (%+.3f%% / %+.3f%%); sideways %.3f N/m\n",
              s.at(0, fy), settled[fy], -weight, 100 * (-s.at(0, fy) / weight - 1), 100 * (-settled[fy] / weight - 1),
              settled[fx]);
  std::printf("  left wall: t = 0 %.2f N/m, settled %.2f N/m, -rho0 g H^2 / 2 = %.2f (%+.3f%% / %+.3f%%); vertical "
              "(the corner's share of the weight) %.3f N/m\n",
              s.at(0, wx), settled[wx], -thrust, 100 * (-s.at(0, wx) / thrust - 1), 100 * (-settled[wx] / thrust - 1),
              settled[wy]);
  EXPECT_NEAR(-s.at(0, fy) / weight, 1.0, 0.005);
  EXPECT_NEAR(-settled[fy] / weight, 1.0, 0.005);
  EXPECT_NEAR(settled[fx] / weight, 0.0, 0.005) << "the floor's sideways load: the two corners cancel";
  EXPECT_NEAR(-s.at(0, wx) / thrust, 1.0, 0.005);
  EXPECT_NEAR(-settled[wx] / thrust, 1.0, 0.005);
  // The sensor read by its load: the mean normal stress on its 0.1 m of wall, rho0 g (H - 0.15) at its
  // centre for the linear profile, within the probes' 1% (measured and printed).
  const std::size_t pp = column(s, "patch.pressure");
  const double level = column_means(s, 0.05, 0.1)[column(s, "gauge1.height")];
  std::printf("  patch sensor: t = 0 %.1f Pa (%+.3f%% of rho0 g (H - 0.15)), settled %.1f Pa (%+.3f%% below the gauge)\n",
              s.at(0, pp), 100 * (s.at(0, pp) / (rho0 * kG * (H - 0.15)) - 1), settled[pp],
              100 * (settled[pp] / (rho0 * kG * (level - 0.15)) - 1));
  EXPECT_EQ(s.columns[pp].units, "Pa");
  EXPECT_NEAR(s.at(0, pp) / (rho0 * kG * (H - 0.15)), 1.0, 0.01);
  EXPECT_NEAR(settled[pp] / (rho0 * kG * (level - 0.15)), 1.0, 0.01);
}

// In motion the load is the momentum the walls take from the fluid: with every wall in the box, the
// fluid's momentum P (sum m v) changes over a leapfrog step by (M g - (F_n + F_n+1) / 2) dt, F_n the
// load sampled after step n (the accelerations of the step's two half kicks; Monaghan's symmetric pair
// terms cancel between fluid particles). Martin & Moyce's column (scenes/dambreak2d.ini, coarsened to
// dp = 4 mm) released onto the floor and into the far wall, in double: the balance closes to rounding
// at every step (tolerance 1e-6 of the weight; measured 1e-12 over 2275 steps), through the collapse,
// the run along the floor and the impact on the far wall.
TEST(Probes, LoadsBalanceTheFluidsMomentumInADamBreak) {
  ParamSet p = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.004", "scene.precision=double",
                                                      "force.1.name=walls", "force.1.min=-1, -1", "force.1.max=1, 1"});
  auto sim = make_simulation(p, Backend::Cpu);
  const double g = -kG;
  double M = 0;  // the fluid's mass (Diagnostics::mass counts the walls too)
  {
    const HostParticles h = sim->download();
    for (std::size_t i = 0; i < h.n; ++i) M += h.kind[i] == kFluid ? h.mass[i] : 0.0;
  }
  auto load = [&] {
    const std::vector<double> row = sample_probes_now(*sim);
    return std::array<double, 2>{row[0], row[1]};
  };
  std::array<double, 2> f0 = load();
  Diagnostics d0 = sim->diagnostics();
  double worst = 0, worst_t = 0, peak = 0;
  while (sim->time() < 0.25) {
    const double dt = sim->dt();
    sim->step();
    const std::array<double, 2> f1 = load();
    const Diagnostics d1 = sim->diagnostics();
    for (int c = 0; c < 2; ++c) {
      const double rate = (d1.momentum[c] - d0.momentum[c]) / dt;
      const double want = (c == 1 ? M * g : 0.0) - 0.5 * (f0[c] + f1[c]);
      const double err = std::fabs(rate - want) / (M * kG);
      if (err > worst) worst = err, worst_t = sim->time();
    }
    peak = std::max(peak, std::fabs(f1[0]));
    f0 = f1;
    d0 = d1;
  }
  std::printf("  momentum balance over %ld steps: worst mismatch %.3g of the weight (at %.4f s); peak wall load "
              "along x %.2f N/m (weight %.2f N/m)\n",
              sim->steps(), worst, worst_t, peak, M * kG);
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(peak, 0.5 * M * kG) << "the impact on the far wall happened within the run";
}

// A small 3D tank: 0.2 x 0.2 m, 0.3 m of water, dp = 0.02 m. Probes on the axis at three depths, a
// sensor disc on the wall x = 0, a gauge.
TEST(Probes, StillTank3D_PressureDiscAndGauge) {
  const std::string ini = R"(
[scene]
dim = 3
[particles]
dp = 0.02
[physics]
gravity = 0, 0, -9.81
[tank.1]
min = 0, 0, 0
max = 0.2, 0.2, 0.5
[block.1]
min = 0, 0, 0
max = 0.2, 0.2, 0.3
[probe.1]
position = 0.1, 0.1, 0.22
[probe.2]
position = 0.1, 0.1, 0.15
[probe.3]
position = 0.1, 0.1, 0.08
[probe.4]
name = disc
position = 0, 0.1, 0.15
diameter = 0.03
normal = 1, 0, 0
[gauge.1]
position = 0.1, 0.1, 0
top = 0.5
)";
  const ParamSet p = read_scene_string(ini, "tank3d.ini");
  const double dp = 0.02, H = 0.3;
  const Hydrostatic hs(p);
  EXPECT_GT(make_probe_layout(p, 3, {FieldInfo{"pressure", 1, "Pa"}}).instruments[3].num_points, 1u)
      << "the disc has several sample points";
  const ProbeSeries s = run_probes(p, 0.1);
  const double level = column_means(s, 0.05, 0.1)[column(s, "gauge1.height")];
  const double z[3] = {0.22, 0.15, 0.08};
  for (int k = 0; k < 3; ++k)
    expect_pressure(s, "probe" + std::to_string(k + 1) + ".pressure", hs, H, level, z[k], "3D point");
  expect_pressure(s, "disc.pressure", hs, H, level, 0.15, "3D wall disc");
  std::printf("  3D gauge: %.5f m, water height %.5f m\n", level, H);
  EXPECT_NEAR(level, H, dp / 2);
}

// The CSV beside the run: the header carries the units, a row per sample, empty cells when not due.
// The CSV's numbers are what printf's %.10g (time) and %.9g (values) write: the row is formatted by
// std::to_chars with a precision (faster, on the stepping thread), which promises printf's output.
TEST(Probes, CsvRowsWritePrintfsGeneralFormat) {
  const std::vector<double> v = {0.0, -0.0, 1.0, -2.5e-7, 123456789.0, 1234567890.0, 6.02214076e23, 5e-324,
                                 1e300, 0.1, 2826.123456789, -18499.87654, std::nan(""), INFINITY};
  const std::string row = probe_csv_row(0.4230000123456, v.data(), v.size());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", 0.4230000123456);
  std::string expected = buf;
  for (double x : v) {
    expected += ',';
    if (std::isnan(x)) continue;
    std::snprintf(buf, sizeof buf, "%.9g", x);
    expected += buf;
  }
  EXPECT_EQ(row, expected);
}

// The CSV writer's thread writes the chunks it is given in order, each row as probe_csv_row formats it;
// flush() returns once they are in the file; a failed write (a full disk) is reported by close().
TEST(Probes, CsvWriterThreadWritesTheRowsInOrderAndReportsAFullDisk) {
  const test::TempDir tmp_dir("ejecta_probes");
  const std::string path = tmp_dir / "writer.csv";
  std::string expected;
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    ProbeCsvWriter writer(f);
    for (int chunk = 0; chunk < 50; ++chunk) {
      std::vector<double> t, v;
      for (int r = 0; r < 7; ++r) {
        t.push_back(0.001 * (chunk * 7 + r));
        for (int c = 0; c < 3; ++c) v.push_back(c == 1 && r % 3 == 0 ? std::nan("") : 1000.0 * chunk + 10.0 * r + c + 0.125);
        expected += probe_csv_row(t.back(), v.data() + r * 3, 3) + "\n";
      }
      writer.append(t.data(), v.data(), 7, 3);
      if (chunk == 20) {
        ASSERT_TRUE(writer.flush());
        std::ifstream in(path);
        const std::string so_far((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(so_far, expected);  // every row queued before flush() is in the file
      }
    }
    EXPECT_TRUE(writer.close());
  }
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, expected);

  std::FILE* full = std::fopen("/dev/full", "w");
  ASSERT_NE(full, nullptr) << "/dev/full stands for a full disk";
  ProbeCsvWriter writer(full);
  std::vector<double> t(1000, 0.5), v(1000 * 4, 1.0);
  writer.append(t.data(), v.data(), 1000, 4);
  EXPECT_FALSE(writer.close());
}

TEST(Probes, CsvHasUnitsInTheHeaderAndEmptyCellsWhenNotDue) {
  auto sim = make_simulation(still_tank_2d(), Backend::Cpu);
  const test::TempDir tmp_dir("ejecta_probes");  // writable wherever the tests run (GPU hosts too)
  const std::string path = tmp_dir / "test_probes_series.csv";
  {
    ProbeObserver probes(*sim);
    probes.write_csv(path);
    probes.sample_initial(*sim);
    StopRule rule;
    rule.max_steps = 5;
    StepLoop(*sim, rule).run(&probes);
    probes.close();
  }
  std::ifstream in(path);
  std::string header, row0, row1;
  std::getline(in, header);
  std::getline(in, row0);
  std::getline(in, row1);
  EXPECT_EQ(header,
            "time [s],probe1.pressure [Pa],probe2.pressure [Pa],probe3.pressure [Pa],probe4.pressure [Pa],"
            "probe4.velocity.x [m/s],probe4.velocity.y [m/s],wall.pressure [Pa],wallp.pressure [Pa],gauge1.height [m],"
            "floor.force.x [N/m],floor.force.y [N/m],left.force.x [N/m],left.force.y [N/m],patch.force.x [N/m],"
            "patch.force.y [N/m],patch.pressure [Pa]");
  EXPECT_EQ(row0.rfind("0,", 0), 0u) << row0;
  EXPECT_NE(row0.back(), ',') << "the gauge and the loads are due at t = 0";
  EXPECT_EQ(row1.substr(row1.size() - 8), ",,,,,,,,") << "and not due again before 0.01 s: " << row1;
  std::remove(path.c_str());
}

// The loads are computed only at the samples where one is due (a pass over the particles each; the point
// probes here are due every step): their due values are those of a run that computes them every step,
// bit for bit, and the samples in between leave them empty.
TEST(Probes, LoadsAreComputedWhenDueOnlyWithTheSameValues) {
  ParamSet every = still_tank_2d();
  for (const char* k : {"force.1.interval=0", "force.2.interval=0", "force.3.interval=0"}) every.apply_override(k);
  const ProbeSeries a = run_probes(still_tank_2d(), 0.05), b = run_probes(every, 0.05);
  ASSERT_EQ(a.rows(), b.rows());
  int due = 0, skipped = 0;
  for (const char* name : {"floor.force.y", "left.force.x", "patch.pressure"}) {
    const std::size_t ca = column(a, name), cb = column(b, name);
    for (std::size_t r = 0; r < a.rows(); ++r) {
      ASSERT_EQ(a.time[r], b.time[r]);
      EXPECT_FALSE(std::isnan(b.at(r, cb))) << name << " every step, row " << r;
      if (std::isnan(a.at(r, ca))) {
        ++skipped;
        continue;
      }
      ++due;
      EXPECT_EQ(a.at(r, ca), b.at(r, cb)) << name << " at t = " << a.time[r];
    }
  }
  EXPECT_EQ(due, 3 * 6) << "t = 0, 0.01, ..., 0.05";
  EXPECT_GT(skipped, due);
}

// The series goes into the closed recording as /probes and reads back the same, NaN cells included;
// a recording without probes says so.
TEST(Probes, SeriesRoundTripsThroughTheRecording) {
  const ParamSet p = still_tank_2d();
  const test::TempDir tmp_dir("ejecta_probes");  // writable wherever the tests run (GPU hosts too)
  const std::string path = tmp_dir / "test_probes_series.h5";
  test::record_steps(path, p, 3, 3);
  ProbeSeries none;
  EXPECT_FALSE(read_probe_series_h5(path, &none));
  auto sim = make_simulation(p, Backend::Cpu);
  ProbeObserver probes(*sim);
  probes.sample_initial(*sim);
  StopRule rule;
  rule.max_steps = 4;
  StepLoop(*sim, rule).run(&probes);
  EXPECT_EQ(probes.series().rows(), 0u) << "the samples wait on the device";
  probes.flush();
  write_probe_series_h5(path, probes.series());
  write_probe_series_h5(path, probes.series());  // replacing it works too
  ProbeSeries back;
  ASSERT_TRUE(read_probe_series_h5(path, &back));
  const ProbeSeries& s = probes.series();
  ASSERT_EQ(back.columns.size(), s.columns.size());
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    EXPECT_EQ(back.columns[c].name, s.columns[c].name);
    EXPECT_EQ(back.columns[c].units, s.columns[c].units);
  }
  EXPECT_EQ(back.time, s.time);
  ASSERT_EQ(back.values.size(), s.values.size());
  for (std::size_t k = 0; k < s.values.size(); ++k)
    if (std::isnan(s.values[k])) EXPECT_TRUE(std::isnan(back.values[k])) << k;
    else EXPECT_EQ(back.values[k], s.values[k]) << k;
  EXPECT_EQ(s.rows(), 5u);
  std::remove(path.c_str());
  std::remove((path.substr(0, path.size() - 3) + ".xdmf").c_str());
}

TEST(Probes, DiscPointsLieOnTheDiscAcrossTheNormal) {
  ParamSet p = read_scene_string("[scene]\ndim = 3\n[particles]\ndp = 0.01\n[probe.1]\nposition = 1, 2, 3\n"
                                 "diameter = 0.02\nnormal = 0, 0, 2\n",
                                 "disc.ini");
  const ProbeLayout l = make_probe_layout(p, 3, {FieldInfo{"pressure", 1, "Pa"}});
  // dp/2 spacing: 4 x 4 lattice cells across the diameter, the 12 whose centres lie in the disc.
  ASSERT_EQ(l.num_points(), 12u);
  double cx = 0, cy = 0;
  for (std::size_t k = 0; k < l.num_points(); ++k) {
    const double x = l.points[3 * k] - 1, y = l.points[3 * k + 1] - 2, z = l.points[3 * k + 2] - 3;
    EXPECT_NEAR(z, 0, 1e-12) << "in the plane normal to z";
    EXPECT_LE(x * x + y * y, 0.01 * 0.01 * (1 + 1e-9));
    cx += x, cy += y;
  }
  EXPECT_NEAR(cx, 0, 1e-12);
  EXPECT_NEAR(cy, 0, 1e-12);
}

TEST(Probes, BadSectionsAreInputErrorsWithFileAndLine) {
  const std::string base = "[scene]\nname = t\n[block.1]\nmin = 0, 0\nmax = 0.1, 0.1\n";
  std::string e = test::scene_error(base + "[probe.1]\nposition = 0.05, 0.05\nfields = presure\n");
  EXPECT_NE(e.find("bad.ini:8: probe.1.fields: no particle field 'presure' (fields: position"), std::string::npos) << e;
  e = test::scene_error(base + "[probe.1]\nfields = velocity.z\n");
  EXPECT_NE(e.find("probe.1.fields: 'velocity.z': field 'velocity' has 2 component(s)"), std::string::npos) << e;
  e = test::scene_error(base + "[probe.1]\ndiameter = 0.01\nnormal = 0, 0\n");
  EXPECT_NE(e.find("bad.ini:8: probe.1.normal: the sensor normal must not be zero"), std::string::npos) << e;
  e = test::scene_error(base + "[gauge.1]\nposition = 0.05, 0.2\ntop = 0.1\n");
  EXPECT_NE(e.find("bad.ini:8: gauge.1.top: the line's top (0.1 m) must be above its start, position.y = 0.2 m"),
            std::string::npos)
      << e;
  e = test::scene_error(base + "[probe.1]\nname = P1\n[probe.2]\nname = P1\n");
  EXPECT_NE(e.find("probe.2.name: 'P1' is also the name of probe.1"), std::string::npos) << e;
  e = test::scene_error("[physics]\nmodel = gas\n[gas_block.1]\nmax = 1, 1\n[probe.1]\nposition = 0.5, 0.5\n");
  EXPECT_NE(e.find("probe.1.position: probes, gauges and loads are available with physics.model = wcsph only"),
            std::string::npos)
      << e;
  e = test::scene_error(base + "[force.1]\nmin = 0, 0.1\nmax = 0.1, 0\n");
  EXPECT_NE(e.find("bad.ini:8: force.1.max: max.y = 0 m must be above min.y = 0.1 m"), std::string::npos) << e;
  e = test::scene_error(base + "[force.1]\nmax = 0.1, 0.1\narea = 0.01\nnormal = 0, 0\n");
  EXPECT_NE(e.find("bad.ini:9: force.1.normal: the sensor normal must not be zero in its first 2 components"),
            std::string::npos)
      << e;
  e = test::scene_error(base + "[force.1]\nmin = 0.02, 0.02\nmax = 0.05, 0.05\n");
  EXPECT_NE(e.find("bad.ini:7: force.1.min: the box min..max holds no wall particle (9 fluid particles)"),
            std::string::npos)
      << e;
}

// The CSV of a run with the samples downloaded in batches (rings of 7 and 256 rows: reads when the
// ring is full, mid-run) equals the CSV of a download after every sample (a ring of one row): the same
// rows, times and values, byte for byte.
std::string probe_csv_of_run(const ParamSet& p, Backend backend, std::size_t ring_slots, long steps,
                             const std::string& path) {
  auto sim = make_simulation(p, backend);
  {
    ProbeObserver probes(*sim, ring_slots);
    probes.write_csv(path);
    probes.sample_initial(*sim);
    StopRule rule;
    rule.max_steps = steps;
    StepLoop(*sim, rule).run(&probes);
    EXPECT_LE(probes.queued(), ring_slots) << "the ring is read when full";
    probes.close();
    EXPECT_EQ(probes.queued(), 0u);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

TEST(Probes, BatchedDownloadsGiveTheSameCsvAsOneDownloadPerSample) {
  const ParamSet p = test::shipped_scene("hydrostatic2d.ini", {"probe.1.position=0.25, 0.15", "probe.2.position=0, 0.15",
                                                               "probe.2.diameter=0.02", "probe.2.normal=1, 0",
                                                               "probe.3.position=0.25, 0.25", "probe.3.fields=velocity",
                                                               "probe.3.interval=0.003", "gauge.1.position=0.25, 0",
                                                               "gauge.1.top=0.5", "gauge.1.interval=0.002"});
  const test::TempDir tmp_dir("ejecta_probes");  // writable wherever the tests run (GPU hosts too)
  const std::string base = tmp_dir / "test_probes_batch";
  const std::string one = probe_csv_of_run(p, Backend::Cpu, 1, 40, base + "1.csv");
  EXPECT_GT(std::count(one.begin(), one.end(), '\n'), 40) << one;
  EXPECT_EQ(probe_csv_of_run(p, Backend::Cpu, 7, 40, base + "7.csv"), one);
  EXPECT_EQ(probe_csv_of_run(p, Backend::Cpu, 256, 40, base + "256.csv"), one);
}

// The liquid's step calls on_step_queued once, after its last kernel is queued and before it waits,
// with the time the step ends at (the same double as time() after it); the probes queue their sample
// there (the GPU samples while the host prepares the next step). The CSV is the one of sampling after
// each step (on_step alone, as for a solver without on_step_queued), byte for byte, on either backend.
struct CountQueued : StepObserver {
  const Simulation* sim = nullptr;
  long queued = 0, stepped = 0, mismatched = 0;
  double last = -1;
  void on_step_queued(const Simulation& s, double time) override {
    ++queued;
    last = time;
    EXPECT_EQ(queued, stepped + 1) << "once inside each step";
    EXPECT_LT(s.time(), time) << "inside the step: time() is its start";
  }
  void on_step(const Simulation& s) override {
    ++stepped;
    mismatched += s.time() != last;
  }
};

std::string probe_csv_sampled_after_each_step(const ParamSet& p, Backend backend, long steps, const std::string& path) {
  auto sim = make_simulation(p, backend);
  ProbeObserver probes(*sim);
  probes.write_csv(path);
  probes.sample_initial(*sim);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop loop(*sim, rule);
  while (!loop.done()) {
    loop.advance(1);  // no observer in the loop: no on_step_queued
    probes.on_step(*sim);
  }
  probes.close();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

void expect_sampled_at_the_steps_end(Backend backend) {
  const ParamSet p = test::shipped_scene("hydrostatic2d.ini", {"probe.1.position=0.25, 0.15", "probe.2.position=0.25, 0.25",
                                                               "probe.2.fields=velocity", "probe.2.interval=0.003",
                                                               "gauge.1.position=0.25, 0", "gauge.1.top=0.5",
                                                               "gauge.1.interval=0.002", "force.1.min=-0.1, -0.1",
                                                               "force.1.max=0.6, 0", "force.1.interval=0.004"});
  {
    auto sim = make_simulation(p, backend);
    CountQueued count;
    StopRule rule;
    rule.max_steps = 25;
    StepLoop(*sim, rule).run(&count);
    EXPECT_EQ(count.queued, 25);
    EXPECT_EQ(count.stepped, 25);
    EXPECT_EQ(count.mismatched, 0) << "on_step_queued's time is time() after the step";
    sim->step();  // outside a loop: no observer
    EXPECT_EQ(count.queued, 25);
  }
  const test::TempDir tmp_dir("ejecta_probes");
  const std::string base = tmp_dir / "test_probes_queued";
  const std::string at_end = probe_csv_of_run(p, backend, 256, 300, base + "a.csv");
  EXPECT_GT(std::count(at_end.begin(), at_end.end(), '\n'), 300);
  EXPECT_EQ(probe_csv_sampled_after_each_step(p, backend, 300, base + "b.csv"), at_end);
}

TEST(Probes, SampledAtTheStepsEndBeforeItsWaitAsAfterTheStep) { expect_sampled_at_the_steps_end(Backend::Cpu); }

TEST(Probes, CudaSampledAtTheStepsEndBeforeItsWaitAsAfterTheStep) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  expect_sampled_at_the_steps_end(Backend::Cuda);
}

// A step that fails after its sample was queued (a blow-up in its closing reduction: on_step_queued
// came, on_step did not) leaves no row: the row is dropped at the download and its instruments are due
// again at the next step.
TEST(Probes, AFailedStepsQueuedSampleIsDropped) {
  const ParamSet p = test::shipped_scene("hydrostatic2d.ini", {"probe.1.position=0.25, 0.15"});
  auto sim = make_simulation(p, Backend::Cpu);
  ProbeObserver probes(*sim);
  probes.sample_initial(*sim);
  probes.on_step_queued(*sim, 0.5);  // as a step ending at t = 0.5 would, which then fails
  EXPECT_EQ(probes.queued(), 2u);
  probes.flush();
  ASSERT_EQ(probes.series().rows(), 1u) << "only the initial sample";
  EXPECT_EQ(probes.series().time[0], 0.0);
  StopRule rule;
  rule.max_steps = 2;
  StepLoop(*sim, rule).run(&probes);
  probes.flush();
  ASSERT_EQ(probes.series().rows(), 3u) << "the next steps are sampled";
  EXPECT_EQ(probes.series().time[2], sim->time());
  // Failing while another step follows: the failed step's row is dropped, the next one kept.
  probes.on_step_queued(*sim, 0.75);
  rule.max_steps = 1;
  StepLoop(*sim, rule).run(&probes);
  probes.flush();
  ASSERT_EQ(probes.series().rows(), 4u);
  EXPECT_EQ(probes.series().time[3], sim->time());
}

// The ring: rows queue on the device until read, a full ring refuses another sample, a one-off read
// needs an empty ring.
TEST(Probes, RingQueuesRowsUntilReadAndRefusesWhenFull) {
  auto sim = make_simulation(still_tank_2d(), Backend::Cpu);
  ProbeRing* ring = probe_sampling(*sim)->probe_ring();
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(ring->slots(), kDefaultProbeRingSlots);
  const std::vector<double> now = sample_probes_now(*sim);
  ASSERT_EQ(now.size(), probe_layout(*sim)->columns.size());
  ring->resize(2);
  probe_sampling(*sim)->queue_probe_sample(true);
  probe_sampling(*sim)->queue_probe_sample(true);
  EXPECT_EQ(ring->queued(), 2u);
  EXPECT_THROW(probe_sampling(*sim)->queue_probe_sample(true), std::logic_error);
  EXPECT_THROW(sample_probes_now(*sim), std::logic_error);
  EXPECT_THROW(ring->resize(4), std::logic_error);
  std::vector<double> rows;
  ring->read(rows);
  EXPECT_EQ(ring->queued(), 0u);
  ASSERT_EQ(rows.size(), 2 * now.size());
  for (std::size_t c = 0; c < now.size(); ++c) {
    EXPECT_EQ(rows[c], now[c]) << c;
    EXPECT_EQ(rows[now.size() + c], now[c]) << c;
  }
}

// The neighbour sums split over lanes (kProbeLanes threads per cell row, the GPU's cheaper walk) sample
// the values of one thread per row (lanes = 1, the walk before the split) on the same state: the same
// terms added in another order, so within float rounding. A moving 3D flow (SPHERIC 2 at dp = 0.06,
// 40 steps: the column has started to fall, pressures and gauge levels vary) and the 2D still tank.
void expect_lanes_sample_the_same(const ParamSet& p, long steps) {
  auto sim = make_simulation(p, Backend::Cpu);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run();
  ProbeRing* ring = probe_sampling(*sim)->probe_ring();
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(ring->lanes(), kProbeLanes);
  const std::vector<double> split = sample_probes_now(*sim);
  ring->set_lanes(1);
  const std::vector<double> one = sample_probes_now(*sim);
  ring->set_lanes(7);
  const std::vector<double> seven = sample_probes_now(*sim);
  const ProbeLayout& l = *probe_layout(*sim);
  ASSERT_EQ(split.size(), l.columns.size());
  int wet = 0;
  for (std::size_t c = 0; c < l.columns.size(); ++c) {
    const ProbeInstrument& in = l.instruments[l.columns[c].instrument];
    // A gauge level moves by rounding only where a colour sits on the level (then by up to a step).
    const double tol = in.gauge ? 1e-5 : 2e-5 * std::max(1.0, std::fabs(one[c]));
    EXPECT_NEAR(split[c], one[c], tol) << l.columns[c].name;
    EXPECT_NEAR(seven[c], one[c], tol) << l.columns[c].name;
    wet += !in.gauge && one[c] != 0;
  }
  EXPECT_GE(wet, 2) << "too few wet probes to compare";
}

TEST(Probes, LanesSampleTheValuesOfOneThreadPerRow) {
  expect_lanes_sample_the_same(test::shipped_scene("dambreak3d.ini", {"particles.dp=0.06", "probe.9.position=3, 0.5, 0.1",
                                                                      "probe.10.position=2.5, 0.5, 0.3",
                                                                      "probe.10.fields=pressure, velocity, density"}),
                               40);
  expect_lanes_sample_the_same(still_tank_2d(), 0);
}

// GPU-only: the CUDA backend runs the same functors on the same state; in double the sampled values
// agree to rounding. And on the GPU too the batched downloads give the same series as one download
// per sample.
TEST(Probes, CpuAndCudaSampleTheSameValues) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  ParamSet p = still_tank_2d();
  p.apply_override("scene.precision=double");
  auto cpu = make_simulation(p, Backend::Cpu);
  auto gpu = make_simulation(p, Backend::Cuda);
  StopRule rule;
  rule.max_steps = 300;
  StepLoop(*cpu, rule).run();
  StepLoop(*gpu, rule).run();
  const std::vector<double> a = sample_probes_now(*cpu), b = sample_probes_now(*gpu);
  ASSERT_EQ(a.size(), b.size());
  const auto& cols = probe_layout(*cpu)->columns;
  for (std::size_t c = 0; c < a.size(); ++c) {
    std::printf("  %-20s cpu %.9g cuda %.9g\n", cols[c].name.c_str(), a[c], b[c]);
    EXPECT_NEAR(a[c], b[c], 1e-6 * (std::fabs(a[c]) + 1e-3)) << cols[c].name;
  }
}

TEST(Probes, CudaBatchedDownloadsGiveTheSameCsvAsOneDownloadPerSample) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = still_tank_2d();
  const test::TempDir tmp_dir("ejecta_probes");  // writable wherever the tests run (GPU hosts too)
  const std::string base = tmp_dir / "test_probes_cuda_batch";
  const std::string one = probe_csv_of_run(p, Backend::Cuda, 1, 300, base + "1.csv");
  EXPECT_GT(std::count(one.begin(), one.end(), '\n'), 300);
  EXPECT_EQ(probe_csv_of_run(p, Backend::Cuda, 7, 300, base + "7.csv"), one);
  EXPECT_EQ(probe_csv_of_run(p, Backend::Cuda, 256, 300, base + "256.csv"), one);
}

}  // namespace
}  // namespace ejecta
