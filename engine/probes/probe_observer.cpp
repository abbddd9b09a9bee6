#include "probes/probe_observer.h"

#include "probes/probe_api.h"
#include "simulation.h"

#include <chrono>
#include <cmath>
#include <limits>

namespace ejecta {

ProbeSampling* probe_sampling(Simulation& sim) { return dynamic_cast<ProbeSampling*>(&sim); }
const ProbeSampling* probe_sampling(const Simulation& sim) { return dynamic_cast<const ProbeSampling*>(&sim); }
const ProbeLayout* probe_layout(const Simulation& sim) {
  const ProbeSampling* p = probe_sampling(sim);
  return p ? p->probes() : nullptr;
}

std::string probe_csv_header(const std::vector<ProbeColumn>& columns) {
  std::string s = "time [s]";
  for (const ProbeColumn& c : columns) s += "," + c.name + " [" + (c.units.empty() ? "1" : c.units) + "]";
  return s;
}

std::string probe_csv_row(double time, const double* values, std::size_t n) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", time);
  std::string s = buf;
  for (std::size_t k = 0; k < n; ++k) {
    s += ',';
    if (std::isnan(values[k])) continue;
    std::snprintf(buf, sizeof buf, "%.9g", values[k]);
    s += buf;
  }
  return s;
}

namespace {

void print_series(std::FILE* f, const ProbeSeries& series) {
  std::fprintf(f, "%s\n", probe_csv_header(series.columns).c_str());
  const std::size_t nc = series.columns.size();
  for (std::size_t r = 0; r < series.rows(); ++r)
    std::fprintf(f, "%s\n", probe_csv_row(series.time[r], series.values.data() + r * nc, nc).c_str());
}

}  // namespace

void write_probe_csv(const ProbeSeries& series, const std::string& out) {
  const bool to_stdout = out == "-";
  std::FILE* f = to_stdout ? stdout : std::fopen(out.c_str(), "w");
  if (!f) throw ProbeError("cannot create " + out);
  print_series(f, series);
  const bool failed = std::ferror(f) != 0;
  if (to_stdout ? std::fflush(f) != 0 : std::fclose(f) != 0) throw ProbeError("cannot write " + out);
  if (failed) throw ProbeError("cannot write " + out);
}

ProbeObserver::ProbeObserver(const Simulation& sim) {
  const ProbeLayout* l = probe_layout(sim);
  if (!l || l->empty()) throw std::invalid_argument("ProbeObserver: the simulation has no probes");
  layout_ = *l;
  series_.columns = layout_.columns;
  next_.assign(layout_.instruments.size(), -std::numeric_limits<double>::infinity());
  row_.resize(layout_.columns.size());
}

ProbeObserver::~ProbeObserver() {
  if (csv_) std::fclose(csv_);
}

void ProbeObserver::write_csv(const std::string& path) {
  if (csv_) std::fclose(csv_);
  csv_ = std::fopen(path.c_str(), "w");
  if (!csv_) throw ProbeError("--probes: cannot create " + path);
  csv_path_ = path;
  print_series(csv_, series_);
}

void ProbeObserver::close() {
  if (!csv_) return;
  const bool failed = std::ferror(csv_) != 0;
  const bool close_failed = std::fclose(csv_) != 0;
  csv_ = nullptr;
  if (failed || close_failed) throw ProbeError("--probes: cannot write " + csv_path_);
}

void ProbeObserver::sample_initial(const Simulation& sim) { sample(sim, true); }

void ProbeObserver::on_step(const Simulation& sim) { sample(sim, false); }

void ProbeObserver::sample(const Simulation& sim, bool all_due) {
  const double t = sim.time();
  // A due time within a millionth of the next step counts as reached (time is a sum of many dt).
  const double slack = 1e-6 * std::max(0.0, sim.dt());
  bool any = false;
  std::vector<char> due(layout_.instruments.size(), 0);
  for (std::size_t k = 0; k < due.size(); ++k) {
    due[k] = all_due || t >= next_[k] - slack;
    any = any || due[k];
  }
  if (!any) return;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<double> v = probe_sampling(sim)->sample_probes();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t c = 0; c < row_.size(); ++c) row_[c] = due[layout_.columns[c].instrument] ? v[c] : nan;
  for (std::size_t k = 0; k < due.size(); ++k) {
    if (!due[k]) continue;
    const double dt = layout_.instruments[k].interval;
    // The next multiple of the interval after t: samples stay on the grid 0, dt, 2 dt, ...
    next_[k] = dt > 0 ? (std::floor(t / dt + 1e-9) + 1) * dt : t;
  }
  series_.time.push_back(t);
  series_.values.insert(series_.values.end(), row_.begin(), row_.end());
  if (csv_) std::fprintf(csv_, "%s\n", probe_csv_row(t, row_.data(), row_.size()).c_str());
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace ejecta
