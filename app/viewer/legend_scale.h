#pragma once
// The numbers of legends, plot axes and scale bars, without ImGui or GL (so the tests check them):
// "nice" tick values (Heckbert 1990, "Nice numbers for graph labels", Graphics Gems I, pp. 61-63:
// steps of 1, 2 or 5 times a power of ten) with labels of just enough digits, the colour range of a
// uniform field, the categories of an integer field (kind, material) and the histogram the legend
// draws beside its colour bar (as Polyscope's colour-map widget does).
#include "particles/field_info.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ejecta::viewer {

struct Ticks {
  std::vector<double> values;  // ascending, all within [lo, hi]
  double step = 0;
};

// About `target` nice values within [lo, hi] (at least 2 where lo < hi; one, lo, where lo == hi).
Ticks nice_ticks(double lo, double hi, int target = 5);
// The nice number near x > 0: 1, 2, 5 or 10 times a power of ten (round: nearest; else the one >= x).
double nice_number(double x, bool round);
// A tick's label with just the digits the step needs: "0.25", "1200", "-3", "2.5e-05", "1.2e+06".
std::string tick_label(double v, double step);

// The range a field of one value v over every particle gets instead of an empty one: the field's
// natural range where it has one (damage: 0..1), else v +- 5% of |v| (a density of 1000:
// 950..1050), else for v = 0 [0, 1] for a quantity that cannot be negative (a speed) or [-1, 1]
// for a signed one.
std::pair<float, float> uniform_range(const std::string& field, bool is_signed, float v);

// Integer fields (uint8/uint32: kind, material) are coloured by category: discrete colours
// (the "tab10" colormap) and names, not a continuous bar.
bool is_categorical(const FieldInfo& f);
// The colour range that puts category k (0..9) in the middle of the k-th of tab10's ten colours.
constexpr float kCategoryMin = -0.5f, kCategoryMax = 9.5f;
// Names from the field's description ("0 fluid, 1 wall" -> {0, "fluid"}, {1, "wall"}); empty when
// it names none (material: indices only).
std::vector<std::pair<int, std::string>> category_names(const FieldInfo& f);

// Counts of `values` in `bins` equal bins over [lo, hi] (values outside go to the end bins, as their
// colour does; engine/render_data/colour_histogram.h's colour_bin, as the engine's own histogram of a
// running simulation); only fluid particles (kind 0) count when `kind` is given (one per value).
std::vector<float> histogram(const std::vector<float>& values, const uint8_t* kind, float lo, float hi, int bins);

// "t = 0.200 s", "t = 20.0 ms", "t = 20.0 us": three significant digits in an SI prefix.
std::string time_label(double t);
// A length with an SI prefix, for the scale bar: "5 cm", "200 mm", "1 m", "2 km".
std::string length_label(double metres);

}  // namespace ejecta::viewer
