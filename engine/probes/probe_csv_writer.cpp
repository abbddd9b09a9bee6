#include "probes/probe_csv_writer.h"

#include "probes/probe_observer.h"

namespace ejecta {

ProbeCsvWriter::ProbeCsvWriter(std::FILE* f) : f_(f), worker_([this] { run(); }) {}

ProbeCsvWriter::~ProbeCsvWriter() { (void)close(); }

void ProbeCsvWriter::append(const double* time, const double* values, std::size_t rows, std::size_t columns) {
  if (rows == 0) return;
  Chunk c;
  c.time.assign(time, time + rows);
  c.values.assign(values, values + rows * columns);
  c.columns = columns;
  {
    std::lock_guard<std::mutex> lock(m_);
    queue_.push_back(std::move(c));
  }
  work_.notify_one();
}

void ProbeCsvWriter::run() {
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_ with nothing left
    Chunk c = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    const std::string text = probe_csv_rows(c.time.data(), c.values.data(), c.time.size(), c.columns);
    const bool ok = std::fwrite(text.data(), 1, text.size(), f_) == text.size();
    lock.lock();
    busy_ = false;
    failed_ = failed_ || !ok;
    if (queue_.empty()) done_.notify_all();
  }
}

bool ProbeCsvWriter::flush() {
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [this] { return queue_.empty() && !busy_; });
  if (f_ && std::fflush(f_) != 0) failed_ = true;
  return !failed_ && !(f_ && std::ferror(f_));
}

bool ProbeCsvWriter::close() {
  if (!worker_.joinable()) return !failed_;
  bool ok = flush();
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  work_.notify_one();
  worker_.join();
  if (f_) {
    ok = std::fclose(f_) == 0 && ok;
    f_ = nullptr;
  }
  failed_ = failed_ || !ok;
  return ok;
}

}  // namespace ejecta
