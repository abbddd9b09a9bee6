#pragma once
// Numbers with units in engineering form, for the status bar, the frame overlay and the plot axes:
// 2e-5 s is "20 us", 0.25 s "250 ms", 1.5e6 Pa "1.5 MPa"; units that take no SI prefix (kg/m^3,
// m/s^2, none) keep plain numbers in [1e-3, 1e4) and scientific form "2.0e-5 kg/m^3" outside.
// Header-only and GL-free, so that the viewer, headless frames and tests share one formatter.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ejecta::viewer {

// Units printed with an SI prefix (ms, kJ, MPa). Compound units (kg/m^3) and units that already
// carry one (kg) keep their form; their scale goes into a power of ten.
inline bool takes_si_prefix(const std::string& units) {
  return units == "s" || units == "m" || units == "J" || units == "Pa" || units == "N" || units == "W" ||
         units == "Hz";
}

// The prefix of 10^exponent for exponent a multiple of 3 in [-15, 12] ("u" for micro: ASCII only).
inline const char* si_prefix(int exponent) {
  switch (exponent) {
    case -15: return "f";
    case -12: return "p";
    case -9: return "n";
    case -6: return "u";
    case -3: return "m";
    case 0: return "";
    case 3: return "k";
    case 6: return "M";
    case 9: return "G";
    case 12: return "T";
    default: return nullptr;
  }
}

// The engineering exponent of |v|: a multiple of 3 with 1 <= |v| / 10^e < 1000 (0 for 0 and non-finite).
inline int eng_exponent(double v) {
  const double a = std::fabs(v);
  if (!(a > 0) || !std::isfinite(a)) return 0;
  return 3 * int(std::floor(std::log10(a) / 3.0 + 1e-12));
}

// How an axis or a value of magnitude `magnitude` shows its units: values are divided by `factor` and
// followed by `text`. "s" at 2e-4 gives {1e-6, "us"}; "kg/m^3" at 2e5 {1e3, "1e3 kg/m^3"}; "" at
// 3e-4 {1e-3, "1e-3"}.
struct UnitScale {
  double factor = 1;
  std::string text;
};

inline UnitScale unit_scale(double magnitude, const std::string& units) {
  const int e = eng_exponent(magnitude);
  UnitScale u;
  if (takes_si_prefix(units) && si_prefix(e)) {
    u.factor = std::pow(10.0, e);
    u.text = si_prefix(e) + units;
    return u;
  }
  const double a = std::fabs(magnitude);
  if (a == 0 || !std::isfinite(a) || (a >= 1e-3 && a < 1e4)) {
    u.text = units;
    return u;
  }
  u.factor = std::pow(10.0, e);
  u.text = "1e" + std::to_string(e) + (units.empty() ? "" : " " + units);
  return u;
}

// v in engineering form with `digits` significant digits (trailing zeros dropped): "20 us",
// "1.5 MPa", "2.0e-5 kg/m^3", "0.5".
inline std::string format_eng(double v, const std::string& units, int digits = 3) {
  char buf[64];
  const std::string sep = units.empty() ? "" : " ";
  if (!std::isfinite(v)) {
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf + sep + units;
  }
  // Round to the digits first, so that 999.96 us becomes 1 ms, not 1000 us.
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
  const double r = std::strtod(buf, nullptr);
  const int e = eng_exponent(r);
  // %g with at least as many digits as the integer part has, so that 1000 stays "1000".
  auto plain = [&](double x) {
    const int int_digits = std::fabs(x) >= 1 ? int(std::floor(std::log10(std::fabs(x)) + 1e-12)) + 1 : 1;
    std::snprintf(buf, sizeof buf, "%.*g", std::max(digits, int_digits), x);
    return std::string(buf);
  };
  if (takes_si_prefix(units) && si_prefix(e)) return plain(r / std::pow(10.0, e)) + sep + si_prefix(e) + units;
  const double a = std::fabs(r);
  if (a == 0 || (a >= 1e-3 && a < 1e4)) return plain(r) + sep + units;
  // Scientific: mantissa with one decimal at least ("2.0e-5"), exponent without padding.
  const int p = int(std::floor(std::log10(a) + 1e-12));
  std::snprintf(buf, sizeof buf, "%.*f", digits - 1, r / std::pow(10.0, p));
  std::string m = buf;
  while (m.size() > 1 && m.back() == '0' && m[m.size() - 2] != '.') m.pop_back();
  return m + "e" + std::to_string(p) + sep + units;
}

// Simulated time for the status bar and the overlay: "t = 20 us", "t = 1.25 s".
inline std::string format_time(double t) { return "t = " + format_eng(t, "s", 4); }

}  // namespace ejecta::viewer
