#include "probes/probe_reference.h"

#include <cstdlib>
#include <fstream>

namespace ejecta {

bool read_reference_curve(const std::string& path, int column, ReferenceCurve* out, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open reference " + path;
    return false;
  }
  ReferenceCurve c;
  std::string line;
  for (long lineno = 1; std::getline(in, line); ++lineno) {
    std::vector<double> cells;
    const char* p = line.c_str();
    while (*p) {
      while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r') ++p;
      if (!*p) break;
      char* end = nullptr;
      const double v = std::strtod(p, &end);
      if (end == p) break;  // text: a header line (only when it is the first cell) or the end
      cells.push_back(v);
      p = end;
    }
    if (cells.empty()) continue;
    if (int(cells.size()) < column) {
      *error = path + ":" + std::to_string(lineno) + " has " + std::to_string(cells.size()) + " columns, column " +
               std::to_string(column) + " asked (reference_column)";
      return false;
    }
    c.time.push_back(cells[0]);
    c.value.push_back(cells[std::size_t(column - 1)]);
  }
  if (c.time.empty()) {
    *error = "reference " + path + " has no data rows";
    return false;
  }
  *out = std::move(c);
  return true;
}

}  // namespace ejecta
