#include "viewer/diag_history.h"

#include <algorithm>
#include <stdexcept>

namespace ejecta::viewer {

void DiagHistory::add(const Diagnostics& d) {
  // One sample per step: several frames drawn while paused add nothing. A step count that goes back
  // (a reset, a restart) starts the history afresh, so that time runs forwards along the plots.
  if (!rows_.empty() && rows_.back().step == d.step) return;
  if (!rows_.empty() && (d.step < rows_.back().step || d.time < rows_.back().time)) rows_.clear();
  rows_.push_back(d);
  while (rows_.size() > cap_) rows_.pop_front();
}

const std::vector<std::string>& DiagHistory::names() {
  static const std::vector<std::string> n = {"time",     "dt",    "kinetic",          "potential",
                                             "internal", "total", "max_density_error"};
  return n;
}

std::vector<double> DiagHistory::series(const std::string& name) const {
  double Diagnostics::*field = nullptr;
  if (name == "time") field = &Diagnostics::time;
  else if (name == "dt") field = &Diagnostics::dt;
  else if (name == "kinetic") field = &Diagnostics::kinetic;
  else if (name == "potential") field = &Diagnostics::potential;
  else if (name == "internal") field = &Diagnostics::internal;
  else if (name == "total") field = &Diagnostics::total;
  else if (name == "max_density_error") field = &Diagnostics::max_density_error;
  else throw std::invalid_argument("no diagnostics series '" + name + "'");
  std::vector<double> out;
  out.reserve(rows_.size());
  for (const Diagnostics& d : rows_) out.push_back(d.*field);
  return out;
}

std::vector<PlotSpec> DiagHistory::plots() const {
  const std::vector<double> t = series("time");
  auto any_nonzero = [](const std::vector<double>& v) {
    return std::any_of(v.begin(), v.end(), [](double x) { return x != 0; });
  };
  std::vector<PlotSpec> out;
  PlotSpec dt;
  dt.y_label = "time step dt";
  dt.y_units = "s";
  dt.series.push_back(PlotSeries{"dt", t, series("dt"), false});
  out.push_back(dt);
  PlotSpec e;
  e.y_label = "energy";
  e.y_units = "J";
  for (const char* n : {"kinetic", "potential", "internal", "total"}) {
    std::vector<double> v = series(n);
    if (std::string(n) == "internal" && !any_nonzero(v)) continue;
    e.series.push_back(PlotSeries{n, t, std::move(v), false});
  }
  out.push_back(e);
  std::vector<double> err = series("max_density_error");
  if (any_nonzero(err)) {
    PlotSpec r;
    r.y_label = "max density error |rho/rho0 - 1|";
    r.series.push_back(PlotSeries{"max density error", t, std::move(err), false});
    out.push_back(r);
  }
  return out;
}

}  // namespace ejecta::viewer
