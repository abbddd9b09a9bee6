// The plot widget's layout and the engineering-form formatter, without GL: ticks, ranges, unit
// prefixes, and that every label is whole, inside the box and clear of the others.
#include "viewer/format_units.h"
#include "viewer/plot_widget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace ejecta::viewer {
namespace {

// A monospace font of 7 x 13 px, like ImGui's default (ProggyClean).
TextMetrics mono() {
  TextMetrics m;
  m.width = [](const std::string& s) { return 7.f * float(s.size()); };
  m.line_height = 13;
  return m;
}

bool overlap(const PlotText& a, const PlotText& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

// Every text inside the box, none overlapping another or the data rectangle's interior.
void expect_clean(const PlotLayout& L, const std::string& what) {
  for (std::size_t i = 0; i < L.texts.size(); ++i) {
    const PlotText& t = L.texts[i];
    EXPECT_GE(t.x - (t.series >= 0 ? 14.f : 0.f), 0.f) << what << ": " << t.text;
    EXPECT_LE(t.x + t.w, L.width) << what << ": " << t.text;
    EXPECT_GE(t.y, 0.f) << what << ": " << t.text;
    EXPECT_LE(t.y + t.h, L.height) << what << ": " << t.text;
    const PlotText data{"", L.left, L.top, L.right - L.left, L.bottom - L.top};
    EXPECT_FALSE(overlap(t, data)) << what << ": " << t.text << " over the data";
    for (std::size_t j = i + 1; j < L.texts.size(); ++j)
      EXPECT_FALSE(overlap(t, L.texts[j])) << what << ": '" << t.text << "' and '" << L.texts[j].text << "'";
  }
}

bool has_text(const PlotLayout& L, const std::string& s) {
  for (const PlotText& t : L.texts)
    if (t.text == s) return true;
  return false;
}

TEST(FormatUnits, EngineeringForm) {
  EXPECT_EQ(format_eng(2e-5, "s"), "20 us");
  EXPECT_EQ(format_eng(0.00002, "s"), "20 us");
  EXPECT_EQ(format_eng(0.25, "s"), "250 ms");
  EXPECT_EQ(format_eng(1.5, "s"), "1.5 s");
  EXPECT_EQ(format_eng(9.9996e-4, "s"), "1 ms") << "rounded before the prefix is chosen";
  EXPECT_EQ(format_eng(-3.2e6, "Pa"), "-3.2 MPa");
  EXPECT_EQ(format_eng(0, "s"), "0 s");
  EXPECT_EQ(format_eng(1234.4, "J", 4), "1.234 kJ");
  EXPECT_EQ(format_eng(2e-5, "kg/m^3"), "2.0e-5 kg/m^3") << "no prefix on compound units";
  EXPECT_EQ(format_eng(1000, "kg/m^3"), "1000 kg/m^3");
  EXPECT_EQ(format_eng(0.0312, ""), "0.0312");
  EXPECT_EQ(format_eng(3.0e7, "m/s"), "3.0e7 m/s");
  EXPECT_EQ(format_time(0.00002), "t = 20 us");
  EXPECT_EQ(format_time(1.25), "t = 1.25 s");
  EXPECT_EQ(format_time(0.123456), "t = 123.5 ms");
}

TEST(FormatUnits, AxisScale) {
  UnitScale u = unit_scale(2e-4, "s");
  EXPECT_DOUBLE_EQ(u.factor, 1e-6);
  EXPECT_EQ(u.text, "us");
  u = unit_scale(2e5, "kg/m^3");
  EXPECT_DOUBLE_EQ(u.factor, 1e3);
  EXPECT_EQ(u.text, "1e3 kg/m^3");
  u = unit_scale(3e-4, "");
  EXPECT_DOUBLE_EQ(u.factor, 1e-6);
  EXPECT_EQ(u.text, "1e-6");
  u = unit_scale(1000, "kg/m^3");
  EXPECT_DOUBLE_EQ(u.factor, 1);
  EXPECT_EQ(u.text, "kg/m^3");
}

TEST(PlotWidget, NiceTicksAreRoundAndInside) {
  double step = 0;
  const std::vector<double> t = nice_ticks(0, 1, 6, &step);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_DOUBLE_EQ(step, 0.2);
  EXPECT_DOUBLE_EQ(t[0], 0.0);
  EXPECT_DOUBLE_EQ(t[5], 1.0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 500; ++k) {
    const double scale = std::pow(10.0, 12 * u(rng));
    double lo = u(rng) * scale, hi = u(rng) * scale;
    if (lo > hi) std::swap(lo, hi);
    if (hi - lo < 1e-9 * scale) continue;
    const int max_ticks = 2 + k % 8;
    const std::vector<double> ticks = nice_ticks(lo, hi, max_ticks, &step);
    ASSERT_FALSE(ticks.empty()) << lo << " " << hi;
    EXPECT_LE(int(ticks.size()), max_ticks);
    const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    EXPECT_TRUE(std::fabs(m - 1) < 1e-9 || std::fabs(m - 2) < 1e-9 || std::fabs(m - 5) < 1e-9) << step;
    for (double x : ticks) {
      EXPECT_GE(x, lo - 1e-9 * scale);
      EXPECT_LE(x, hi + 1e-9 * scale);
    }
    // Steps grow by at most 2.5x, so a range with room for 5 ticks gets at least 2.
    if (max_ticks >= 5) {
      EXPECT_GE(ticks.size(), 2u) << lo << " " << hi;
    }
  }
}

TEST(PlotWidget, AxisUnitsAndRange) {
  // Time runs edge to edge in microseconds; the y range is rounded out to whole ticks.
  const PlotAxis x = make_axis(0, 2e-4, "t", "s", 5, false);
  EXPECT_EQ(x.title, "t [us]");
  EXPECT_DOUBLE_EQ(x.lo, 0);
  EXPECT_DOUBLE_EQ(x.hi, 2e-4);
  ASSERT_EQ(x.labels.size(), 5u);
  EXPECT_EQ(x.labels.front(), "0");
  EXPECT_EQ(x.labels[1], "50");
  EXPECT_EQ(x.labels.back(), "200");
  const PlotAxis y = make_axis(0.013, 0.0871, "max density error", "", 5, true);
  EXPECT_EQ(y.title, "max density error");
  EXPECT_LE(y.lo, 0.013);
  EXPECT_GE(y.hi, 0.0871);
  EXPECT_DOUBLE_EQ(y.ticks.front(), y.lo);
  EXPECT_DOUBLE_EQ(y.ticks.back(), y.hi);
  EXPECT_EQ(y.labels[1], "0.02");
  // A uniform series gets a band about its value, not an empty range.
  const PlotAxis flat = make_axis(1000, 1000, "density", "kg/m^3", 5, true);
  EXPECT_LT(flat.lo, 1000);
  EXPECT_GT(flat.hi, 1000);
  EXPECT_GE(flat.ticks.size(), 2u);
  const PlotAxis zero = make_axis(0, 0, "kinetic energy", "J", 5, true);
  EXPECT_LT(zero.lo, 0);
  EXPECT_GT(zero.hi, 0);
}

PlotSeries series(const std::string& name, double t0, double dt, int n, double (*f)(double)) {
  PlotSeries s;
  s.name = name;
  for (int i = 0; i < n; ++i) {
    s.x.push_back(t0 + i * dt);
    s.y.push_back(f(s.x.back()));
  }
  return s;
}

TEST(PlotWidget, LayoutKeepsEveryLabelWholeAndClear) {
  PlotSpec dt;
  dt.y_label = "time step dt";
  dt.y_units = "s";
  dt.series.push_back(series("dt", 0.1, 1e-5, 600, [](double t) { return 1e-5 * (1 + 0.1 * std::sin(100 * t)); }));
  PlotSpec err;
  err.y_label = "max density error";
  err.series.push_back(series("max density error", 0, 2e-5, 300, [](double t) { return 0.01 + t; }));
  PlotSpec energies;
  energies.y_label = "energy";
  energies.y_units = "J";
  energies.series.push_back(series("kinetic", 0, 1e-3, 200, [](double t) { return 3e3 * t; }));
  energies.series.push_back(series("potential", 0, 1e-3, 200, [](double t) { return 4e3 - 3e3 * t; }));
  energies.series.push_back(series("total (kinetic + potential)", 0, 1e-3, 200, [](double) { return 4e3; }));
  PlotSpec exact = err;
  exact.series.push_back(series("exact solution", 0, 1e-4, 60, [](double t) { return 0.01 + t; }));
  exact.series.back().reference = true;
  for (const PlotSpec* spec : {&dt, &err, &energies, &exact})
    for (float w : {220.f, 330.f, 600.f})
      for (float h : {110.f, 160.f, 300.f}) {
        const PlotLayout L = layout_plot(*spec, w, h, mono());
        const std::string what = spec->y_label + " " + std::to_string(int(w)) + "x" + std::to_string(int(h));
        expect_clean(L, what);
        EXPECT_TRUE(has_text(L, L.y.title)) << what;
        EXPECT_TRUE(has_text(L, L.x.title)) << what;
        EXPECT_EQ(L.y.title.rfind(spec->y_label, 0), 0u) << "the full name: " << L.y.title;
        EXPECT_GE(L.y.ticks.size(), 2u) << what;
        int x_labels = 0;
        for (const PlotText& t : L.texts)
          for (const std::string& s : L.x.labels) x_labels += t.text == s && t.y > L.bottom;
        EXPECT_GE(x_labels, 2) << what << ": time has at least two labelled ticks";
        if (spec->series.size() > 1) {
          for (const PlotSeries& s : spec->series) EXPECT_TRUE(has_text(L, s.name)) << what << ": legend " << s.name;
        }
        EXPECT_GT(L.bottom - L.top, 0.3f * h) << what << ": the data keeps most of the box";
      }
  // The dt plot reads in microseconds; the time axis in ms (0.1 .. 0.106 s).
  const PlotLayout L = layout_plot(dt, 330, 140, mono());
  EXPECT_EQ(L.y.title, "time step dt [us]");
  EXPECT_EQ(L.x.title, "t [ms]");
  // Data maps onto the rectangle: the range ends on its edges.
  EXPECT_FLOAT_EQ(L.to_px_x(L.x.lo), L.left);
  EXPECT_FLOAT_EQ(L.to_px_y(L.y.hi), L.top);
}

TEST(PlotWidget, EmptyAndNonFiniteData) {
  PlotSpec s;
  s.y_label = "pressure";
  s.y_units = "Pa";
  expect_clean(layout_plot(s, 300, 120, mono()), "no series");
  s.series.push_back(PlotSeries{"p", {0, 1, 2, 3}, {1e5, NAN, INFINITY, 2e5}, false});
  const PlotLayout L = layout_plot(s, 300, 120, mono());
  expect_clean(L, "NaN");
  EXPECT_LE(L.y.lo, 1e5);
  EXPECT_GE(L.y.hi, 2e5);
  EXPECT_LT(L.y.hi, 1e6) << "the infinity is left out of the range";
  EXPECT_EQ(L.y.title, "pressure [kPa]");
}

}  // namespace
}  // namespace ejecta::viewer
