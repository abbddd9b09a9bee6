#pragma once
// A reference time series for a probe or gauge plot (`reference = FILE`, `reference_column = K` in a
// [probe.N]/[gauge.N] section): measured data or an exact solution drawn under the simulated curve.
#include <string>
#include <vector>

namespace ejecta {

struct ReferenceCurve {
  std::vector<double> time, value;
};

// Reads column 1 (time) and column `column` (1-based) of a text table: comma, tab or space separated;
// lines that do not start with a number (headers, '#' comments) are skipped. Returns false with a
// one-line reason in *error ("cannot open ...", "line 12 has 3 columns, column 5 asked", "no data rows").
bool read_reference_curve(const std::string& path, int column, ReferenceCurve* out, std::string* error);

}  // namespace ejecta
