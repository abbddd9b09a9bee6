#include "viewer/diag_history.h"

#include <stdexcept>

namespace ejecta::viewer {

void DiagHistory::add(const Diagnostics& d) {
  // One sample per step: several frames drawn while paused add nothing.
  if (!rows_.empty() && rows_.back().step == d.step) return;
  rows_.push_back(d);
  while (rows_.size() > cap_) rows_.pop_front();
}

const std::vector<std::string>& DiagHistory::names() {
  static const std::vector<std::string> n = {"dt", "kinetic", "potential", "total", "max_density_error"};
  return n;
}

std::vector<float> DiagHistory::series(const std::string& name) const {
  double Diagnostics::*field = nullptr;
  if (name == "dt") field = &Diagnostics::dt;
  else if (name == "kinetic") field = &Diagnostics::kinetic;
  else if (name == "potential") field = &Diagnostics::potential;
  else if (name == "total") field = &Diagnostics::total;
  else if (name == "max_density_error") field = &Diagnostics::max_density_error;
  else throw std::invalid_argument("no diagnostics series '" + name + "'");
  std::vector<float> out;
  out.reserve(rows_.size());
  for (const Diagnostics& d : rows_) out.push_back(float(d.*field));
  return out;
}

}  // namespace ejecta::viewer
