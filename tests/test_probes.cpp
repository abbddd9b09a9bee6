// Probes and gauges (engine/probes) on a still tank, against the analytic hydrostatic state: the probe
// pressure is rho0 g depth within 1% at several depths, a gauge reads the water height within dp/2, a
// dry probe reads 0. The CPU runs here; the GPU test (skipped without a GPU) checks that the CUDA
// backend samples the same values from the same functors.
#include "io/h5_probes.h"
#include "probes/probe_api.h"
#include "probes/probe_observer.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
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
// segment on the left wall; a gauge at mid-tank.
ParamSet still_tank_2d() {
  return test::shipped_scene("hydrostatic2d.ini",
                             {"probe.1.position=0.25, 0.25", "probe.2.position=0.25, 0.15",
                              "probe.3.position=0.25, 0.05", "probe.4.position=0.25, 0.4",
                              "probe.4.fields=pressure, velocity", "probe.5.position=0, 0.15",
                              "probe.5.diameter=0.02", "probe.5.normal=1, 0", "probe.5.name=wall",
                              "gauge.1.position=0.25, 0", "gauge.1.top=0.5", "gauge.1.interval=0.01"});
}

// Runs `p` to `until` with its probes sampled; returns the series.
ProbeSeries run_probes(const ParamSet& p, double until) {
  auto sim = make_simulation(p, Backend::Cpu);
  EXPECT_NE(probe_layout(*sim), nullptr);
  ProbeObserver probes(*sim);
  probes.sample_initial(*sim);
  StopRule rule;
  rule.until_time = until;
  StepLoop(*sim, rule).run(&probes);
  return probes.series();
}

// Tolerances. At t = 0 the water has the hydrostatic density (Tait EOS, p = rho0 g depth exactly at
// each particle): the probes must read rho0 g depth within 1%. After one acoustic period of the
// column (4 H / c0 = 0.05 s), averaged over it, the scheme's own pressure carries a bias: the WCSPH
// pressure gradient measured 1.1-1.3% too steep in the interior (issue 12, docs/physics.md), which the
// probes see as +1.1% at every depth; 1.5% holds it until that is fixed, then this tightens to 1%.
constexpr double kInitialTolerance = 0.01;
constexpr double kSettledTolerance = 0.015;

void expect_pressure(const ProbeSeries& s, const std::string& col, double want, const char* what) {
  const double t0 = s.at(0, column(s, col));
  const double settled = column_means(s, 0.05, 0.1)[column(s, col)];
  std::printf("  %-16s %s: t = 0 %.1f Pa, settled %.1f Pa, rho0 g depth %.1f Pa (%+.2f%%, %+.2f%%)\n", col.c_str(),
              what, t0, settled, want, 100 * (t0 / want - 1), 100 * (settled / want - 1));
  EXPECT_NEAR(t0 / want, 1.0, kInitialTolerance) << col << " at t = 0";
  EXPECT_NEAR(settled / want, 1.0, kSettledTolerance) << col << " settled";
}

TEST(Probes, StillTank2D_PressureIsRhoGDepthAndGaugeReadsTheLevel) {
  const ParamSet p = still_tank_2d();
  const double dp = p.real("particles.dp"), rho0 = p.real("fluid.rho0"), H = p.vec3("block.1.max")[1];
  const ProbeSeries s = run_probes(p, 0.1);
  const double depths[3] = {0.05, 0.15, 0.25};
  for (int k = 0; k < 3; ++k)
    expect_pressure(s, "probe" + std::to_string(k + 1) + ".pressure", rho0 * kG * depths[k], "point");
  expect_pressure(s, "wall.pressure", rho0 * kG * 0.15, "wall segment");
  EXPECT_EQ(column_means(s, 0, 0.1)[column(s, "probe4.pressure")], 0.0) << "a probe in the air is dry";
  EXPECT_EQ(column_means(s, 0, 0.1)[column(s, "probe4.velocity.y")], 0.0);
  const double level = column_means(s, 0.05, 0.1)[column(s, "gauge1.height")];
  std::printf("  gauge: %.5f m, water height %.5f m (dp/2 = %.4f m)\n", level, H, dp / 2);
  EXPECT_NEAR(level, H, dp / 2);
  EXPECT_NEAR(s.at(0, column(s, "gauge1.height")), H, dp / 2);
  // The gauge samples every 0.01 s; the probes every step: its cells are empty in between.
  std::size_t gauge_rows = 0;
  for (std::size_t r = 0; r < s.rows(); ++r) gauge_rows += !std::isnan(s.at(r, column(s, "gauge1.height")));
  EXPECT_NEAR(double(gauge_rows), 11.0, 1.0) << "t = 0, 0.01, ..., 0.1";
  EXPECT_GT(s.rows(), 10 * gauge_rows);
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
  const double dp = 0.02, H = 0.3, rho0 = 1000;
  EXPECT_GT(make_probe_layout(p, 3, {FieldInfo{"pressure", 1, "Pa"}}).instruments[3].num_points, 1u)
      << "the disc has several sample points";
  const ProbeSeries s = run_probes(p, 0.1);
  const double depths[3] = {0.08, 0.15, 0.22};
  for (int k = 0; k < 3; ++k)
    expect_pressure(s, "probe" + std::to_string(k + 1) + ".pressure", rho0 * kG * depths[k], "3D point");
  expect_pressure(s, "disc.pressure", rho0 * kG * 0.15, "3D wall disc");
  const double level = column_means(s, 0.05, 0.1)[column(s, "gauge1.height")];
  std::printf("  3D gauge: %.5f m, water height %.5f m\n", level, H);
  EXPECT_NEAR(level, H, dp / 2);
}

// The CSV beside the run: the header carries the units, a row per sample, empty cells when not due.
TEST(Probes, CsvHasUnitsInTheHeaderAndEmptyCellsWhenNotDue) {
  auto sim = make_simulation(still_tank_2d(), Backend::Cpu);
  const std::string path = std::string(EJECTA_BINARY_DIR) + "/test_probes_series.csv";
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
            "probe4.velocity.x [m/s],probe4.velocity.y [m/s],wall.pressure [Pa],gauge1.height [m]");
  EXPECT_EQ(row0.rfind("0,", 0), 0u) << row0;
  EXPECT_NE(row0.back(), ',') << "the gauge is due at t = 0";
  EXPECT_EQ(row1.back(), ',') << "and not due again before 0.01 s: " << row1;
  std::remove(path.c_str());
}

// The series goes into the closed recording as /probes and reads back the same, NaN cells included;
// a recording without probes says so.
TEST(Probes, SeriesRoundTripsThroughTheRecording) {
  const ParamSet p = still_tank_2d();
  const std::string path = std::string(EJECTA_BINARY_DIR) + "/test_probes_series.h5";
  test::record_steps(path, p, 3, 3);
  ProbeSeries none;
  EXPECT_FALSE(read_probe_series_h5(path, &none));
  auto sim = make_simulation(p, Backend::Cpu);
  ProbeObserver probes(*sim);
  probes.sample_initial(*sim);
  StopRule rule;
  rule.max_steps = 4;
  StepLoop(*sim, rule).run(&probes);
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
  EXPECT_NE(e.find("probe.1.position: probes and gauges are available with physics.model = wcsph only"),
            std::string::npos)
      << e;
}

// GPU-only: the CUDA backend runs the same functors on the same state; in double the sampled values
// agree to rounding.
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
  const std::vector<double> a = probe_sampling(*cpu)->sample_probes(), b = probe_sampling(*gpu)->sample_probes();
  ASSERT_EQ(a.size(), b.size());
  const auto& cols = probe_layout(*cpu)->columns;
  for (std::size_t c = 0; c < a.size(); ++c) {
    std::printf("  %-20s cpu %.9g cuda %.9g\n", cols[c].name.c_str(), a[c], b[c]);
    EXPECT_NEAR(a[c], b[c], 1e-6 * (std::fabs(a[c]) + 1e-3)) << cols[c].name;
  }
}

}  // namespace
}  // namespace ejecta
