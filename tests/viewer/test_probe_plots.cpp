// The viewer's probe plots without GL: the series sampled on the StepLoop, one plot per column with
// time on x and the column's quantity and units on y, the reference curve read from the section's
// file (time and the chosen column) and cut at the simulated time.
#include "sim_test_util.h"
#include "viewer/probe_plots.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace ejecta {
namespace {

TEST(ProbePlots, OnePlotPerColumnWithTheReferenceCurve) {
  const std::string ref = std::string(EJECTA_BINARY_DIR) + "/test_probe_plots_ref.csv";
  {
    std::ofstream f(ref);
    f << "# measured\nt_s,a,b\n0,1,2940\n0.002,1,2941\n1.0,1,2950\n";
  }
  ParamSet p = test::shipped_scene("hydrostatic2d.ini", {"probe.1.position=0.25, 0.1", "probe.1.name=P",
                                                          "probe.1.reference=" + ref, "probe.1.reference_column=3",
                                                          "gauge.1.position=0.25, 0", "gauge.1.reference=missing.csv"});
  auto sim = make_simulation(p, Backend::Cpu);
  viewer::ProbePlots plots(*sim);
  ASSERT_EQ(plots.notes().size(), 1u) << "the gauge's missing reference is noted, not fatal";
  EXPECT_NE(plots.notes()[0].find("gauge.1: cannot open reference missing.csv"), std::string::npos) << plots.notes()[0];
  StopRule rule;
  rule.max_steps = 30;
  StepLoop(*sim, rule).run(&plots.observer());
  const viewer::PlotSpec s = plots.spec(0);
  EXPECT_EQ(s.x_units, "s");
  EXPECT_EQ(s.y_label, "P pressure");
  EXPECT_EQ(s.y_units, "Pa");
  ASSERT_EQ(s.series.size(), 2u);
  EXPECT_TRUE(s.series[0].reference);
  EXPECT_EQ(s.series[0].y, (std::vector<double>{2940, 2941})) << "column 3, up to the simulated time";
  EXPECT_EQ(s.series[1].x.size(), 31u) << "t = 0 and every step";
  EXPECT_NEAR(s.series[1].y.back(), 1000 * 9.81 * 0.2, 0.02 * 1000 * 9.81 * 0.2);
  const viewer::PlotSpec thin = plots.spec(0, 10);
  EXPECT_LE(thin.series[1].x.size(), 11u);
  EXPECT_EQ(thin.series[1].x.back(), s.series[1].x.back()) << "the latest sample is kept";
  const viewer::PlotSpec g = plots.spec(1);
  EXPECT_EQ(g.y_label, "gauge1 height");
  EXPECT_EQ(g.series.size(), 1u);
  std::remove(ref.c_str());
}

}  // namespace
}  // namespace ejecta
