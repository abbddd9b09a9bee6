#include "probes/probe_observer.h"

#include "probes/probe_api.h"
#include "probes/probe_csv_writer.h"
#include "simulation.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <limits>

namespace ejecta {

ProbeSampling* probe_sampling(Simulation& sim) { return dynamic_cast<ProbeSampling*>(&sim); }
const ProbeSampling* probe_sampling(const Simulation& sim) { return dynamic_cast<const ProbeSampling*>(&sim); }
const ProbeLayout* probe_layout(const Simulation& sim) {
  const ProbeSampling* p = probe_sampling(sim);
  const ProbeRing* ring = p ? p->probe_ring() : nullptr;
  return ring ? &ring->layout() : nullptr;
}

std::vector<double> sample_probes_now(const Simulation& sim) {
  const ProbeSampling* p = probe_sampling(sim);
  ProbeRing* ring = p ? p->probe_ring() : nullptr;
  if (!ring) throw std::logic_error("sample_probes_now: the simulation has no probes");
  if (ring->queued() > 0) throw std::logic_error("sample_probes_now: samples are queued; read them first");
  p->queue_probe_sample(true);
  std::vector<double> row;
  ring->read(row);
  return row;
}

std::string probe_csv_header(const std::vector<ProbeColumn>& columns) {
  std::string s = "time [s]";
  for (const ProbeColumn& c : columns) s += "," + c.name + " [" + (c.units.empty() ? "1" : c.units) + "]";
  return s;
}

// std::to_chars with a precision writes what printf's %.*g writes (C locale), several times faster
// (docs/benchmarks.md); a run's rows are formatted on the CSV writer's thread (probe_csv_writer.h).
namespace {
void append_g(std::string& s, double v, int digits) {
  char buf[40];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  s.append(buf, r.ptr);
}
}  // namespace

std::string probe_csv_row(double time, const double* values, std::size_t n) {
  std::string s;
  s.reserve(16 * (n + 1));
  append_g(s, time, 10);
  for (std::size_t k = 0; k < n; ++k) {
    s += ',';
    if (std::isnan(values[k])) continue;
    append_g(s, values[k], 9);
  }
  return s;
}

std::string probe_csv_rows(const double* time, const double* values, std::size_t rows, std::size_t columns) {
  std::string text;
  for (std::size_t r = 0; r < rows; ++r) {
    text += probe_csv_row(time[r], values + r * columns, columns);
    text += '\n';
  }
  return text;
}

namespace {

void print_series(std::FILE* f, const ProbeSeries& series) {
  std::fprintf(f, "%s\n", probe_csv_header(series.columns).c_str());
  std::fputs(probe_csv_rows(series.time.data(), series.values.data(), series.rows(), series.columns.size()).c_str(), f);
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

ProbeObserver::ProbeObserver(const Simulation& sim, std::size_t ring_slots) : sim_(&sim) {
  const ProbeLayout* l = probe_layout(sim);
  if (!l || l->empty()) throw std::invalid_argument("ProbeObserver: the simulation has no probes");
  layout_ = *l;
  series_.columns = layout_.columns;
  next_.assign(layout_.instruments.size(), -std::numeric_limits<double>::infinity());
  row_.resize(layout_.columns.size());
  ProbeRing* ring = probe_sampling(sim)->probe_ring();
  if (ring->slots() != std::max<std::size_t>(1, ring_slots)) ring->resize(ring_slots);
}

ProbeObserver::~ProbeObserver() = default;  // the writer writes what it holds and closes the file

void ProbeObserver::write_csv(const std::string& path) {
  csv_.reset();
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw ProbeError("--probes: cannot create " + path);
  csv_path_ = path;
  print_series(f, series_);  // the header and the rows so far, here; the later rows on the writer's thread
  csv_ = std::make_unique<ProbeCsvWriter>(f);
}

void ProbeObserver::flush() {
  if (in_step_) drop_failed_step();  // flushed after a step that failed (steps do not flush)
  const auto t0 = std::chrono::steady_clock::now();
  download();
  if (csv_) (void)csv_->flush();  // a failed write is remembered; close() reports it
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void ProbeObserver::close() {
  flush();
  if (!csv_) return;
  const bool ok = csv_->close();
  csv_.reset();
  if (!ok) throw ProbeError("--probes: cannot write " + csv_path_);
}

void ProbeObserver::sample_initial(const Simulation& sim) { sample(sim, sim.time(), true); }

void ProbeObserver::on_step_queued(const Simulation& sim, double time) {
  if (in_step_) drop_failed_step();
  next_before_ = next_;
  in_step_ = true;
  step_sampled_ = sample(sim, time, false);
}

void ProbeObserver::on_step(const Simulation& sim) {
  if (!in_step_) {
    sample(sim, sim.time(), false);  // a solver without on_step_queued
    return;
  }
  in_step_ = false;  // the step ended: its sample stands
}

void ProbeObserver::drop_failed_step() {
  in_step_ = false;
  next_ = next_before_;
  if (step_sampled_) download(true);  // rare (a blow-up): the ring read now, the failed step's row left out
}

bool ProbeObserver::sample(const Simulation& sim, double t, bool all_due) {
  // A due time within a millionth of a step counts as reached (time is a sum of many dt).
  const double slack = 1e-6 * std::max(0.0, sim.dt());
  bool any = false, load_due = false;
  due_.resize(layout_.instruments.size());
  for (std::size_t k = 0; k < due_.size(); ++k) {
    due_[k] = all_due || t >= next_[k] - slack;
    any = any || due_[k];
    load_due = load_due || (due_[k] && layout_.instruments[k].load);
  }
  if (!any) return false;
  const auto t0 = std::chrono::steady_clock::now();
  if (probe_sampling(sim)->probe_ring()->queued() == probe_sampling(sim)->probe_ring()->slots()) download();
  // The loads (a pass over the particles each) only when one is due: the scene's point probes may be
  // sampled every step and its loads every millisecond (scenes/dambreak3d.ini).
  probe_sampling(sim)->queue_probe_sample(load_due);
  pending_time_.push_back(t);
  pending_due_.insert(pending_due_.end(), due_.begin(), due_.end());
  for (std::size_t k = 0; k < due_.size(); ++k) {
    if (!due_[k]) continue;
    const double dt = layout_.instruments[k].interval;
    // The next multiple of the interval after t: samples stay on the grid 0, dt, 2 dt, ...
    next_[k] = dt > 0 ? (std::floor(t / dt + 1e-9) + 1) * dt : t;
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

// The queued rows, downloaded in one copy, into the series and the CSV (drop_last: all but the last).
void ProbeObserver::download(bool drop_last) {
  if (pending_time_.empty()) return;
  ProbeRing* ring = probe_sampling(*sim_)->probe_ring();
  ring->read(rows_);
  const std::size_t nc = row_.size(), ni = layout_.instruments.size();
  if (rows_.size() != pending_time_.size() * nc)
    throw std::logic_error("probe ring holds " + std::to_string(rows_.size() / std::max<std::size_t>(1, nc)) +
                           " rows, " + std::to_string(pending_time_.size()) + " sampled (one observer per simulation)");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t first = series_.rows();
  for (std::size_t r = 0; r + (drop_last ? 1 : 0) < pending_time_.size(); ++r) {
    const char* due = &pending_due_[r * ni];
    for (std::size_t c = 0; c < nc; ++c) row_[c] = due[layout_.columns[c].instrument] ? rows_[r * nc + c] : nan;
    series_.time.push_back(pending_time_[r]);
    series_.values.insert(series_.values.end(), row_.begin(), row_.end());
  }
  if (csv_) csv_->append(series_.time.data() + first, series_.values.data() + first * nc, series_.rows() - first, nc);
  pending_time_.clear();
  pending_due_.clear();
}

}  // namespace ejecta
