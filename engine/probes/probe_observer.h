#pragma once
// Samples a simulation's probes and gauges (Simulation::set_probes) at their intervals, as a hook of the
// one step loop, keeps the time series and optionally streams it to a CSV file (`--probes FILE.csv`).
//
// CSV format (docs/probes.md): one header row "time [s],P1.pressure [Pa],...,H1.height [m]", then one
// row per sample time at which any instrument was due; the cells of instruments not due then are empty.
#include "probes/probe_api.h"
#include "probes/probe_layout.h"
#include "run/step_loop.h"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

// The sampled series: times and, per row, one value per column (NaN: that instrument was not due).
struct ProbeSeries {
  std::vector<ProbeColumn> columns;
  std::vector<double> time;
  std::vector<double> values;  // time.size() rows of columns.size()
  std::size_t rows() const { return time.size(); }
  double at(std::size_t row, std::size_t col) const { return values[row * columns.size() + col]; }
};

// "time [s],P1.pressure [Pa],..." (no newline).
std::string probe_csv_header(const std::vector<ProbeColumn>& columns);
// One CSV row (no newline): time, then the values, NaN written as an empty cell.
std::string probe_csv_row(double time, const double* values, std::size_t n);
// `rows` such rows, each ended by a newline: time[r], then values[r * columns ...] (the series' layout).
std::string probe_csv_rows(const double* time, const double* values, std::size_t rows, std::size_t columns);
// Writes the whole series as CSV to `out` (a path, "-" = stdout); throws std::runtime_error when the
// file cannot be written.
void write_probe_csv(const ProbeSeries& series, const std::string& out);

class ProbeCsvWriter;  // probes/probe_csv_writer.h

struct ProbeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Decides when each instrument is due, queues the samples on the device (ProbeSampling::
// queue_probe_sample, no wait) and downloads them in batches: when the ring is full, on flush() (the
// viewer before it draws, the recording at its end) and on close(). The series and the CSV then hold
// exactly the rows a download after every sample would give (same times, same values), up to one
// ring of rows later.
class ProbeObserver : public StepObserver {
 public:
  // `sim` must have probes installed (probe_layout(sim)); throws std::invalid_argument otherwise.
  // The observer samples `sim` alone and must not outlive it. `ring_slots` sizes the simulation's
  // ring of sample rows (samples per download; 1 = a download after every sample).
  explicit ProbeObserver(const Simulation& sim, std::size_t ring_slots = kDefaultProbeRingSlots);
  // Closes the CSV; samples still queued are dropped (close() first: the simulation may be gone).
  ~ProbeObserver() override;
  ProbeObserver(const ProbeObserver&) = delete;
  ProbeObserver& operator=(const ProbeObserver&) = delete;

  // Streams every row to `path` from now on (header first). Throws ProbeError naming the path when it
  // cannot be created; write errors surface in flush()/close().
  void write_csv(const std::string& path);
  // Samples the state before the first step (t = start): every instrument is due.
  void sample_initial(const Simulation& sim);
  // A step's sample is queued at its end, before the step waits for the device (where the solver calls
  // on_step_queued: the liquid), so that the GPU samples while the host prepares the next step; on_step
  // then keeps it. A solver without that point is sampled in on_step. A step that fails after
  // on_step_queued (a blow-up) gets no on_step: its row is dropped (at the next on_step_queued or flush).
  void on_step_queued(const Simulation& sim, double time) override;
  void on_step(const Simulation& sim) override;
  // Downloads the queued samples into series() and the CSV (and flushes the CSV's buffer).
  void flush();
  // Flushes and closes the CSV; throws ProbeError when a write failed.
  void close();

  // The samples downloaded so far: call flush() first for all of them.
  const ProbeSeries& series() const { return series_; }
  // Samples taken but not downloaded yet.
  std::size_t queued() const { return pending_time_.size(); }
  const ProbeLayout& layout() const { return layout_; }
  const std::string& csv_path() const { return csv_path_; }
  // Host wall-clock seconds spent in sampling: launching the sampling on the device, the batched
  // downloads (each waits for the sampling still queued on the device) and the bookkeeping (rows;
  // the CSV's formatting and writing run on the writer's thread, probe_csv_writer.h, and are not in it). On the GPU the sampling kernels themselves run on the step's stream between steps and are
  // not in it; the run's wall time with and without probes measures them (docs/benchmarks.md).
  double seconds_sampling() const { return seconds_; }

 private:
  // Queues the instruments due at `time` (all when all_due); false when none was due.
  bool sample(const Simulation& sim, double time, bool all_due);
  // The step whose sample on_step_queued queued failed (no on_step came): the queued rows are read
  // without its row, and its instruments are due again.
  void drop_failed_step();
  void download(bool drop_last = false);

  const Simulation* sim_;
  ProbeLayout layout_;
  ProbeSeries series_;
  std::vector<double> next_;  // per instrument: the next due time
  std::vector<double> pending_time_;  // queued samples: time and due flag per instrument
  std::vector<char> pending_due_;
  bool in_step_ = false;             // on_step_queued came, its on_step not yet
  bool step_sampled_ = false;        // and it queued a row
  std::vector<double> next_before_;  // next_ before it
  std::vector<char> due_;
  std::vector<double> rows_, row_;
  std::unique_ptr<ProbeCsvWriter> csv_;  // the rows after the header, written on its own thread
  std::string csv_path_;
  double seconds_ = 0;
};

}  // namespace ejecta
