// The legend's numbers (app/viewer/legend_scale.h): nice ticks and their labels, the range of a uniform
// field, categories of integer fields, the histogram, time and length labels. No GL.
#include "viewer/legend_scale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

namespace ejecta {
namespace {

using viewer::nice_ticks;
using viewer::tick_label;

// 1, 2 or 5 times a power of ten.
bool is_nice(double step) {
  const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-12));
  return std::fabs(m - 1) < 1e-9 || std::fabs(m - 2) < 1e-9 || std::fabs(m - 5) < 1e-9;
}

TEST(LegendTicks, UnitRangeGetsRoundTicks) {
  const viewer::Ticks t = nice_ticks(0, 1, 5);
  ASSERT_EQ(t.values.size(), 6u);
  EXPECT_DOUBLE_EQ(t.step, 0.2);
  std::vector<std::string> labels;
  for (double v : t.values) labels.push_back(tick_label(v, t.step));
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
}

TEST(LegendTicks, DigitsFollowTheStepNotTheValue) {
  // A density range near 1000: whole numbers, not 998.2346.
  viewer::Ticks t = nice_ticks(998.2346, 1001.7311, 5);
  EXPECT_DOUBLE_EQ(t.step, 1);
  EXPECT_EQ(tick_label(t.values.front(), t.step), "999");
  EXPECT_EQ(tick_label(t.values.back(), t.step), "1001");
  // A step of 2.5 x 10^k needs one digit more than its power.
  EXPECT_EQ(tick_label(0.25, 0.25), "0.25");
  EXPECT_EQ(tick_label(-3, 1), "-3");
  // Small and large values go scientific, with the digits that tell neighbours apart.
  t = nice_ticks(1e-6, 3.1e-5, 5);
  EXPECT_DOUBLE_EQ(t.step, 1e-5);
  EXPECT_EQ(tick_label(t.values.front(), t.step), "1e-05");
  EXPECT_EQ(tick_label(1.2e6, 1e5), "1.2e+06");
  EXPECT_EQ(tick_label(0, 0.1), "0");
}

TEST(LegendTicks, RandomRangesGiveFewNiceDistinctShortLabels) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-9, 9), unit(-1, 1), width(0.01, 3);
  for (int k = 0; k < 2000; ++k) {
    const double scale = std::pow(10.0, exponent(rng));
    const double lo = unit(rng) * scale, hi = lo + width(rng) * scale;
    const viewer::Ticks t = nice_ticks(lo, hi, 5);
    ASSERT_GE(t.values.size(), 2u) << lo << " " << hi;
    ASSERT_LE(t.values.size(), 11u) << lo << " " << hi;
    EXPECT_TRUE(is_nice(t.step)) << t.step;
    std::set<std::string> labels;
    for (double v : t.values) {
      EXPECT_GE(v, lo - 1e-9 * scale);
      EXPECT_LE(v, hi + 1e-9 * scale);
      const std::string s = tick_label(v, t.step);
      EXPECT_LE(s.size(), 10u) << s << " for " << v << ", step " << t.step;
      // The label reads back within a tenth of a step: as many digits as needed, not fewer.
      EXPECT_NEAR(std::stod(s), v, 0.1 * t.step) << s;
      labels.insert(s);
    }
    EXPECT_EQ(labels.size(), t.values.size()) << "neighbouring ticks read differently";
  }
  EXPECT_EQ(nice_ticks(2, 2).values, std::vector<double>{2});
}

TEST(LegendRange, UniformFieldsGetSensibleRanges) {
  // A fluid at rest: speed 0 -> 0..1, not -0.5..0.5.
  EXPECT_EQ(viewer::uniform_range("velocity", false, 0), (std::pair<float, float>{0, 1}));
  // Damage has its natural range whatever its value.
  EXPECT_EQ(viewer::uniform_range("damage", false, 0), (std::pair<float, float>{0, 1}));
  EXPECT_EQ(viewer::uniform_range("damage", false, 1), (std::pair<float, float>{0, 1}));
  // A uniform density: around its value, relative to it.
  const auto d = viewer::uniform_range("density", false, 1000);
  EXPECT_FLOAT_EQ(d.first, 950);
  EXPECT_FLOAT_EQ(d.second, 1050);
  // A signed quantity at zero straddles zero.
  EXPECT_EQ(viewer::uniform_range("pressure", true, 0), (std::pair<float, float>{-1, 1}));
}

TEST(LegendCategories, IntegerFieldsAreCategoriesWithNames) {
  FieldInfo kind{"kind", 1, "", "0 fluid, 1 wall", ScalarType::UInt8, true};
  EXPECT_TRUE(viewer::is_categorical(kind));
  const auto names = viewer::category_names(kind);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], (std::pair<int, std::string>{0, "fluid"}));
  EXPECT_EQ(names[1], (std::pair<int, std::string>{1, "wall"}));
  FieldInfo gas{"kind", 1, "", "0 gas, 1 frozen boundary particle", ScalarType::UInt8, true};
  EXPECT_EQ(viewer::category_names(gas)[1].second, "frozen boundary particle");
  FieldInfo material{"material", 1, "", "material index (order of first use in the scene)", ScalarType::UInt8, true};
  EXPECT_TRUE(viewer::is_categorical(material));
  EXPECT_TRUE(viewer::category_names(material).empty()) << "indices only";
  EXPECT_FALSE(viewer::is_categorical(FieldInfo{"density", 1, "kg/m^3", "", ScalarType::Float32, true}));
  EXPECT_FALSE(viewer::is_categorical(FieldInfo{"id", 1, "", "", ScalarType::UInt32, true})) << "a label per particle";
}

TEST(LegendHistogram, CountsTheFluidInBinsOverTheRange) {
  const std::vector<float> v = {0.05f, 0.15f, 0.15f, 0.95f, 2.0f, -1.0f, 0.5f};
  // The last particle is a wall (kind 1): not counted.
  const uint8_t kind[] = {0, 0, 0, 0, 0, 0, 1};
  const std::vector<float> h = viewer::histogram(v, kind, 0, 1, 10);
  ASSERT_EQ(h.size(), 10u);
  EXPECT_EQ(h[0], 2.f) << "0.05 and -1 (clamped, as its colour is)";
  EXPECT_EQ(h[1], 2.f);
  EXPECT_EQ(h[5], 0.f) << "the wall's 0.5 is not counted";
  EXPECT_EQ(h[9], 2.f) << "0.95 and 2 (clamped)";
  float total = 0;
  for (float c : h) total += c;
  EXPECT_EQ(total, 6.f);
}

TEST(LegendText, TimeAndLengthInEngineeringForm) {
  EXPECT_EQ(viewer::time_label(2.0e-5), "t = 20.0 us");
  EXPECT_EQ(viewer::time_label(0.2), "t = 200 ms");
  EXPECT_EQ(viewer::time_label(1.5), "t = 1.50 s");
  EXPECT_EQ(viewer::time_label(0), "t = 0 s");
  EXPECT_EQ(viewer::length_label(0.05), "5 cm");
  EXPECT_EQ(viewer::length_label(0.002), "2 mm");
  EXPECT_EQ(viewer::length_label(2), "2 m");
  EXPECT_EQ(viewer::length_label(5000), "5 km");
}

}  // namespace
}  // namespace ejecta
