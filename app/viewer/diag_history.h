#pragma once
// The last few hundred diagnostics samples for the viewer's time-series plots, and the plots made of
// them (plot_widget.h): the time step, the energies, the max density error, against simulated time,
// with full names and units.
#include "simulation.h"
#include "viewer/plot_widget.h"

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
  // One series by name: "time", "dt", "kinetic", "potential", "internal", "total", "max_density_error".
  std::vector<double> series(const std::string& name) const;
  static const std::vector<std::string>& names();
  // The plots, against time: time step dt [s]; energy [J] (kinetic, potential, internal where any is
  // not zero, total); max density error |rho/rho0 - 1| where it is not zero throughout (liquids).
  std::vector<PlotSpec> plots() const;

 private:
  std::size_t cap_;
  std::deque<Diagnostics> rows_;
};

}  // namespace ejecta::viewer
