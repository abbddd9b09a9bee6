#pragma once
// The last few hundred diagnostics samples for the viewer's time-series plots (dt, energies, max
// density error), kept as float series because ImGui plots floats.
#include "simulation.h"

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace ejecta::viewer {

class DiagHistory {
 public:
  explicit DiagHistory(std::size_t capacity = 600) : cap_(capacity) {}
  void add(const Diagnostics& d);
  void clear() { rows_.clear(); }
  std::size_t size() const { return rows_.size(); }
  // One series by name: "dt", "kinetic", "potential", "total", "max_density_error".
  std::vector<float> series(const std::string& name) const;
  static const std::vector<std::string>& names();

 private:
  std::size_t cap_;
  std::deque<Diagnostics> rows_;
};

}  // namespace ejecta::viewer
