// The crush-curve plot of porous materials (issue 15), without GL: the curve against the crush-curve
// formulas written out here (Jutzi et al. 2008 (P2); Wuennemann et al. 2006 / Collins et al. 2011 (E1)),
// the selected particles against the engine's own fields, the plot offered only for porous materials,
// the live porosity panel reaching the solver and the plot, and the porosity fields as colour choices.
#include "particles/field_values.h"
#include "sim_test_util.h"
#include "viewer/crush_plot.h"
#include "viewer/material_panel_model.h"
#include "viewer/render_observer.h"
#include "viewer/viewer_state.h"
#include "step_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ejecta {
namespace {

using viewer::PlotSeries;
using viewer::PlotSpec;

MaterialLibrary shipped_library() { return load_material_library(test::source_dir() + "/assets/materials.ini"); }

// (P2), written out: alpha_e up to P_e, quadratic to 1 at P_s, 1 beyond.
double palpha_formula(double P, double alpha_e, double Pe, double Ps) {
  if (P <= Pe) return alpha_e;
  if (P >= Ps) return 1;
  return 1 + (alpha_e - 1) * std::pow((Ps - P) / (Ps - Pe), 2);
}

// (E1), written out, with eps_C from the continuity of the slope at eps_X.
double epsalpha_formula(double eps, double a0, double kappa, double eps_e, double eps_X) {
  const double aX = a0 * std::exp(kappa * (eps_X - eps_e));
  const double eps_C = 2 * (1 - aX) / (kappa * aX) + eps_X;
  if (eps >= eps_e) return a0;
  if (eps >= eps_X) return a0 * std::exp(kappa * (eps - eps_e));
  if (eps <= eps_C) return 1;
  return 1 + (aX - 1) * std::pow((eps_C - eps) / (eps_C - eps_X), 2);
}

bool contains(const std::vector<double>& v, double x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(CrushPlot, PAlphaCurveIsTheFormula) {
  const Material m = shipped_library().at("porous_basalt");  // alpha_0 = 2, P_e = 1 MPa, P_s = 213 MPa
  const PlotSeries c = viewer::crush_curve(m, 100);
  ASSERT_GE(c.x.size(), 100u);
  EXPECT_TRUE(c.reference);
  EXPECT_EQ(c.x.front(), 0.0);
  EXPECT_DOUBLE_EQ(c.x.back(), 1.25 * 2.13e8);
  EXPECT_TRUE(contains(c.x, 1e6)) << "the elastic limit P_e is a sample";
  EXPECT_TRUE(contains(c.x, 2.13e8)) << "full compaction P_s is a sample";
  for (std::size_t k = 0; k < c.x.size(); ++k) {
    if (k) EXPECT_LT(c.x[k - 1], c.x[k]);
    EXPECT_NEAR(c.y[k], palpha_formula(c.x[k], 2, 1e6, 2.13e8), 1e-14) << "P = " << c.x[k];
  }
  const PlotSpec p = viewer::crush_plot(m, {});
  EXPECT_EQ(p.x_label, "pressure P");
  EXPECT_EQ(p.x_units, "Pa");
  EXPECT_EQ(p.y_label, "distention alpha");
  EXPECT_EQ(p.x_lo, c.x.front());
  EXPECT_EQ(p.x_hi, c.x.back());
}

TEST(CrushPlot, EpsAlphaCurveIsTheFormula) {
  const Material m = shipped_library().at("porous_iron");  // alpha_0 = 4, kappa = 0.98, eps_e = 0 (Collins 2011)
  const double a0 = m.porous.alpha0, kappa = m.porous.eps.kappa, eps_e = m.porous.eps.eps_e, eps_X = m.porous.eps.eps_X;
  EXPECT_EQ(a0, 4);
  const PlotSeries c = viewer::crush_curve(m, 300);
  EXPECT_TRUE(contains(c.x, eps_e));
  EXPECT_TRUE(contains(c.x, eps_X));
  EXPECT_TRUE(contains(c.x, m.porous.eps.eps_C));
  EXPECT_LT(c.x.front(), m.porous.eps.eps_C) << "full compaction is on the plot";
  EXPECT_GT(c.x.back(), eps_e) << "the elastic plateau is on the plot";
  for (std::size_t k = 0; k < c.x.size(); ++k)
    EXPECT_NEAR(c.y[k], epsalpha_formula(c.x[k], a0, kappa, eps_e, eps_X), 1e-12 * a0) << "eps = " << c.x[k];
  EXPECT_EQ(viewer::crush_plot(m, {}).x_label, "compaction strain eps_c");
}

TEST(CrushPlot, OnlyPorousMaterials) {
  const MaterialLibrary lib = shipped_library();
  const std::vector<Material> mats = {lib.at("basalt"), lib.at("porous_basalt"), lib.at("iron"), lib.at("regolith")};
  EXPECT_EQ(viewer::porous_materials(mats), (std::vector<std::size_t>{1, 3}));
  EXPECT_TRUE(viewer::porous_materials({lib.at("basalt"), lib.at("granite")}).empty());
  EXPECT_THROW(viewer::crush_curve(lib.at("basalt")), std::invalid_argument);
  // A liquid scene (no materials) and a solid scene without porosity: no plot, the window closes.
  for (const char* scene : {"hydrostatic2d.ini", "plate2d.ini"}) {
    viewer::ViewerState s;
    s.sim = make_simulation(test::shipped_scene(scene), Backend::Cpu);
    s.crush_on = true;
    viewer::update_crush_plot(s);
    EXPECT_FALSE(s.crush_on) << scene;
    EXPECT_TRUE(s.crush_plot.series.empty()) << scene;
  }
  // A material without porosity has no porosity widgets (a porosity model needs the scene's fields:
  // restart the scene with a porous material).
  auto plate = make_simulation(test::shipped_scene("plate2d.ini"), Backend::Cpu);
  const viewer::MaterialPanelModel panel(*plate);
  EXPECT_EQ(panel.find(0, "porosity"), nullptr);
  EXPECT_EQ(panel.find(0, "porosity.alpha0"), nullptr);
}

// A frame by hand: particle i at x = i (1D), material i % 2, distention and pressure known.
FrameData hand_frame(std::size_t n) {
  FrameData f;
  f.particles = n;
  auto add = [&](const std::string& name, ScalarType t, const std::vector<double>& v) {
    FieldData d;
    d.info.name = name;
    d.info.components = 1;
    d.info.scalar = t;
    for (double x : v) {
      if (t == ScalarType::UInt8) {
        d.bytes.push_back(uint8_t(x));
      } else {
        const unsigned char* b = reinterpret_cast<const unsigned char*>(&x);
        d.bytes.insert(d.bytes.end(), b, b + sizeof x);
      }
    }
    f.fields.push_back(d);
  };
  std::vector<double> x(n), mat(n), alpha(n), p(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = double(i), mat[i] = double(i % 2), alpha[i] = 1 + 0.01 * i, p[i] = 1e5 * i;
  add("position", ScalarType::Float64, x);
  add("material", ScalarType::UInt8, mat);
  add("distention", ScalarType::Float64, alpha);
  add("pressure", ScalarType::Float64, p);
  return f;
}

TEST(CrushPlot, SelectedParticlesMapToTheirPoints) {
  const Material m = shipped_library().at("porous_basalt");
  const FrameData f = hand_frame(100);
  viewer::CrushSelection sel;
  sel.material = 1;
  std::vector<viewer::CrushPoint> pts = viewer::crush_points(f, m, sel);
  ASSERT_EQ(pts.size(), 50u) << "the odd particles are material 1";
  for (const viewer::CrushPoint& c : pts) {
    EXPECT_EQ(c.index % 2, 1u);
    EXPECT_EQ(c.x, 1e5 * double(c.index)) << "x: its pressure";
    EXPECT_EQ(c.alpha, 1 + 0.01 * double(c.index)) << "y: its distention";
  }
  sel.centre[0] = 20;
  sel.radius = 5.5;  // x in [14.5, 25.5]: 15, 17, ..., 25
  pts = viewer::crush_points(f, m, sel);
  ASSERT_EQ(pts.size(), 6u);
  EXPECT_EQ(pts.front().index, 15u);
  EXPECT_EQ(pts.back().index, 25u);
  sel.radius = 0;
  sel.max_points = 10;
  pts = viewer::crush_points(f, m, sel);
  ASSERT_EQ(pts.size(), 10u) << "evenly thinned";
  EXPECT_EQ(pts[0].index, 1u);
  EXPECT_EQ(pts[5].index, 51u);
  // On the plot: one marker per point; those beyond the curve's x range are counted in the legend.
  const PlotSpec p = viewer::crush_plot(m, pts);
  ASSERT_EQ(p.series.size(), 2u);
  EXPECT_TRUE(p.series[1].markers);
  EXPECT_EQ(p.series[1].x.size(), 10u);
  EXPECT_EQ(p.series[1].x[3], pts[3].x);
  EXPECT_EQ(p.series[1].y[3], pts[3].alpha);
  EXPECT_EQ(p.series[1].name, "10 selected particles");  // P up to 9.1 MPa, within [0, 266 MPa]
  // A particle far beyond the curve (P = 10 GPa at an impact's contact) is counted, not plotted: the x
  // axis keeps the curve's range, so the curve stays readable.
  std::vector<viewer::CrushPoint> far = pts;
  far.push_back(viewer::CrushPoint{99, 1e10, 1.0});
  const PlotSpec pf = viewer::crush_plot(m, far);
  EXPECT_EQ(pf.series[1].name, "11 selected particles (1 off the x range)");
  viewer::TextMetrics mono;
  mono.width = [](const std::string& t) { return 7.f * float(t.size()); };
  const viewer::PlotLayout L = viewer::layout_plot(pf, 420, 300, mono);
  EXPECT_EQ(L.x.lo, pf.x_lo);
  EXPECT_EQ(L.x.hi, pf.x_hi);
  FrameData bad = f;
  bad.fields.pop_back();
  EXPECT_THROW(viewer::crush_points(bad, m, sel), std::invalid_argument);
}

// A 1D planar impact: a porous_basalt (p-alpha) target hit by a solid basalt flyer (coarse, 48
// particles). The plot's points are the target's particles with their engine pressure and distention;
// an edit of P_s in the live porosity panel reaches the solver and the curve.
ParamSet palpha_planar() {
  return test::shipped_scene("porous_planar1d.ini", {"solid_block.1.material=porous_basalt", "solid_block.2.material=basalt",
                                                     "solid_block.1.dp=0.005", "solid_block.2.dp=0.005",
                                                     "solid_block.2.velocity=-500"});
}

TEST(CrushPlot, ViewerPlotOfAPorousImpactAndTheLivePanel) {
  viewer::ViewerState s;
  s.sim = make_simulation(palpha_planar(), Backend::Cpu);
  test::step_n(*s.sim, 40);
  s.crush_on = true;
  viewer::update_crush_plot(s);
  ASSERT_TRUE(s.crush_on) << s.message;
  ASSERT_EQ(s.crush_plot.series.size(), 2u);
  const PlotSeries& pts = s.crush_plot.series[1];
  const FrameData f = s.sim->capture_frame({"material", "pressure", "distention"});
  std::vector<std::pair<double, double>> expect;
  for (std::size_t i = 0; i < f.particles; ++i)
    if (field_value(*f.find("material"), i) == 0)
      expect.emplace_back(field_value(*f.find("pressure"), i), field_value(*f.find("distention"), i));
  ASSERT_EQ(pts.x.size(), expect.size()) << "every target particle, none of the flyer";
  for (std::size_t k = 0; k < expect.size(); ++k) {
    EXPECT_EQ(pts.x[k], expect[k].first);
    EXPECT_EQ(pts.y[k], expect[k].second);
  }
  const auto max_p = *std::max_element(pts.x.begin(), pts.x.end());
  const auto min_a = *std::min_element(pts.y.begin(), pts.y.end());
  EXPECT_GT(max_p, 1e6) << "the impact loads the target past its elastic limit";
  EXPECT_LT(min_a, 2.0) << "and compacts it";

  // The live porosity panel: P_s edited, the solver's material and the plotted curve follow.
  viewer::MaterialPanelModel panel(*s.sim);
  ASSERT_NE(panel.find(0, "p_alpha.P_s"), nullptr) << "the porosity keys are in the panel";
  ASSERT_NE(panel.find(0, "porosity.alpha0"), nullptr);
  EXPECT_EQ(panel.find(1, "p_alpha.P_s"), nullptr) << "the flyer is not porous";
  panel.set(0, "p_alpha.P_s", "4e8", s.sim.get());
  EXPECT_EQ(s.sim->materials()[0].porous.palpha.P_s, 4e8);
  viewer::update_crush_plot(s);
  EXPECT_DOUBLE_EQ(s.crush_plot.series[0].x.back(), 1.25 * 4e8);
  EXPECT_TRUE(contains(s.crush_plot.series[0].x, 4e8));
  test::step_n(*s.sim, 1);  // the edited material runs

  // Around a picked particle far in the target: its neighbours within the radius.
  const FrameData g = s.sim->capture_frame({"position"});
  long far = -1;
  for (std::size_t i = 0; i < g.particles && far < 0; ++i)
    if (std::fabs(field_value(*g.find("position"), i) + 0.1) < 0.0026) far = long(i);
  ASSERT_GE(far, 0);
  viewer::inspect(s, far);
  EXPECT_NEAR(s.picked_position[0], -0.1, 0.0026);
  s.crush_radius = 0.0201f;  // 4 spacings (at rest) either side
  viewer::update_crush_plot(s);
  EXPECT_GE(s.crush_plot.series[1].x.size(), 7u);
  EXPECT_LE(s.crush_plot.series[1].x.size(), 11u);
}

TEST(CrushPlot, PorosityFieldsAreColourChoices) {
  auto sim = make_simulation(palpha_planar(), Backend::Cpu);
  for (const char* f : {"distention", "porosity", "compaction_work", "compaction_damage"})
    EXPECT_NO_THROW(viewer::parse_colour_by(f, sim->fields())) << f;
  // The distention before any step: alpha_0 = 2 on the target, 1 on the flyer, in the legend's bins.
  const ColourHistogram h = sim->colour_histogram(RenderRequest{"distention", -1}, 1.f, 0.f);
  EXPECT_EQ(h.min, 1.f);
  EXPECT_EQ(h.max, 2.f);
  EXPECT_EQ(h.counts.front() + h.counts.back(), sim->particle_count());
  EXPECT_GT(h.counts.front(), 0u);
  EXPECT_GT(h.counts.back(), 0u);
}

}  // namespace
}  // namespace ejecta
