#pragma once
// The probe CSV's rows formatted and written on a thread of their own (issue 12's speed row: 12 probes
// sampled every step under 2% of the GPU step). The observer downloads its ring of sample rows every
// 256 samples; formatting and writing them on the stepping thread took about 2 ms a download on the
// H100 host (2026-12-06), time in which the GPU waited for the next step's launches. Here the stepping
// thread only copies the rows into a queue; the writer thread formats them (probe_csv_row) and writes
// them in order. flush() waits until every queued row is in the file.
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ejecta {

class ProbeCsvWriter {
 public:
  // Takes the open file (the header already written); the writer closes it.
  explicit ProbeCsvWriter(std::FILE* f);
  // Writes what is queued and closes the file; errors are dropped here (close() reports them).
  ~ProbeCsvWriter();
  ProbeCsvWriter(const ProbeCsvWriter&) = delete;
  ProbeCsvWriter& operator=(const ProbeCsvWriter&) = delete;

  // Queues `rows` rows of `columns` values after their times (copied; NaN is an empty cell).
  void append(const double* time, const double* values, std::size_t rows, std::size_t columns);
  // Waits until every queued row is written and the file's buffer flushed; false if a write failed.
  bool flush();
  // flush(), then closes the file; false if a write or the close failed.
  bool close();

 private:
  struct Chunk {
    std::vector<double> time, values;
    std::size_t columns = 0;
  };
  void run();
  std::FILE* f_;
  std::mutex m_;
  std::condition_variable work_, done_;
  std::deque<Chunk> queue_;
  bool stop_ = false, busy_ = false, failed_ = false;
  std::thread worker_;
};

}  // namespace ejecta
