#include "io/async_recorder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace ejecta {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

AsyncRecorder::AsyncRecorder(const std::string& path, const RunInfo& info, const RecordOptions& opt)
    : rec_(std::make_unique<H5Recorder>(path, info, opt)), path_(rec_->path()), xdmf_path_(rec_->xdmf_path()) {
  writer_ = std::thread([this] { writer_main(); });
}

AsyncRecorder::~AsyncRecorder() {
  try {
    finish();
  } catch (...) {
    // Reported by an explicit finish() when the caller wants to know; a destructor must not throw.
  }
}

void AsyncRecorder::rethrow_if_failed_locked() const {
  if (error_) std::rethrow_exception(error_);
}

void AsyncRecorder::enqueue(Item&& item) {
  std::unique_lock<std::mutex> lock(mu_);
  rethrow_if_failed_locked();
  if (stopping_) throw RecordError("'" + path_ + "': recorder already finished");
  if (item.is_frame) {
    // Back-pressure: the writer may fall behind (gzip, a slow disk); waiting here slows the run
    // down to the disk's pace instead of dropping frames or piling copies up in host memory.
    const auto t0 = Clock::now();
    wake_submitter_.wait(lock, [this] { return frames_in_flight_ < kMaxFramesInFlight || error_; });
    timings_.waiting += seconds_since(t0);
    rethrow_if_failed_locked();
    ++frames_in_flight_;
    ++frames_submitted_;
  }
  queue_.push_back(std::move(item));
  lock.unlock();
  wake_writer_.notify_one();
}

void AsyncRecorder::submit(FrameData&& frame) {
  Item item;
  item.is_frame = true;
  item.frame = std::move(frame);
  enqueue(std::move(item));
}

FrameData AsyncRecorder::recycled() {
  std::lock_guard<std::mutex> lock(mu_);
  if (spare_.empty()) return FrameData{};
  FrameData f = std::move(spare_.back());
  spare_.pop_back();
  return f;
}

void AsyncRecorder::submit_diagnostics(const Diagnostics& d) {
  Item item;
  item.diag = d;
  enqueue(std::move(item));
}

void AsyncRecorder::writer_main() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_writer_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;  // stopping and drained
    Item item = std::move(queue_.front());
    queue_.pop_front();
    // After the first error nothing more is written: a frame after a failed one would leave a gap
    // in the file, and the run is about to stop anyway.
    const bool skip = error_ != nullptr;
    lock.unlock();
    // The HDF5 work runs without the lock so that the stepping thread can capture and queue the
    // next frame meanwhile.
    std::exception_ptr err;
    const auto t0 = Clock::now();
    if (!skip) {
      try {
        if (item.is_frame) {
          rec_->write_frame(item.frame);
        } else {
          rec_->append_diagnostics(item.diag);
        }
      } catch (...) {
        err = std::current_exception();
      }
    }
    const bool was_frame = item.is_frame;
    const double took = seconds_since(t0);
    // The file's own count: a frame whose XDMF rewrite failed is in the file all the same.
    const std::size_t in_file = rec_->frames_written();
    lock.lock();
    (was_frame ? timings_.writing_frames : timings_.writing_diagnostics) += took;
    // Keep the frame's buffers for the next capture (at most one spare per buffer in flight).
    if (was_frame && spare_.size() < kMaxFramesInFlight) spare_.push_back(std::move(item.frame));
    item = Item{};
    if (err && !error_) error_ = err;
    frames_written_ = in_file;
    if (was_frame) --frames_in_flight_;
    // Submitters wait for a free buffer, finish() for an empty queue; an error releases both.
    wake_submitter_.notify_all();
  }
}

void AsyncRecorder::finish() {
  std::unique_lock<std::mutex> lock(mu_);
  if (!finished_) {
    finished_ = true;
    stopping_ = true;
    lock.unlock();
    wake_writer_.notify_one();
    if (writer_.joinable()) writer_.join();  // the writer drains the queue before it returns
    std::exception_ptr close_err;
    const auto t0 = Clock::now();
    try {
      rec_->close();
    } catch (...) {
      close_err = std::current_exception();
    }
    const double took = seconds_since(t0);
    lock.lock();
    timings_.closing = took;
    if (close_err && !error_) error_ = close_err;
  }
  rethrow_if_failed_locked();
}

std::size_t AsyncRecorder::frames_written() const {
  std::lock_guard<std::mutex> lock(mu_);
  return frames_written_;
}

std::size_t AsyncRecorder::frames_submitted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return frames_submitted_;
}

AsyncRecorder::Timings AsyncRecorder::timings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return timings_;
}

RecordObserver::RecordObserver(AsyncRecorder& rec, const RecordSchedule& schedule, std::vector<std::string> fields)
    : rec_(&rec), schedule_(schedule), fields_(std::move(fields)) {}

void RecordObserver::record_frame(const Simulation& sim) {
  const auto t0 = Clock::now();
  // Diagnostics first and from the same state, so every frame has its row (same time and step).
  rec_->submit_diagnostics(sim.diagnostics());
  FrameData frame = rec_->recycled();
  sim.capture_frame_into(frame, fields_);
  rec_->submit(std::move(frame));
  ++frames_;
  seconds_capturing_ += seconds_since(t0);
}

void RecordObserver::record_initial(const Simulation& sim) {
  steps_ = 0;
  start_time_ = sim.time();
  next_time_index_ = 1;
  started_ = true;
  record_frame(sim);
}

void RecordObserver::on_step(const Simulation& sim) {
  if (!started_) record_initial(sim);  // forgiving fallback: the schedule then starts one step late
  ++steps_;
  bool frame_due = false;
  if (schedule_.every_steps > 0) {
    frame_due = steps_ % schedule_.every_steps == 0;
  } else if (schedule_.every_time > 0) {
    // Steps do not land on the frame times; a frame is taken by the first step that reaches one
    // (with the StepLoop's slack of a millionth of a step, so 0.1 + 0.1 + ... counts as 0.3).
    const double slack = 1e-6 * std::max(0.0, sim.dt());
    const double due = start_time_ + double(next_time_index_) * schedule_.every_time;
    if (sim.time() >= due - slack) {
      frame_due = true;
      // A step longer than the interval skips the frame times it jumped over rather than writing
      // a burst of identical frames.
      while (start_time_ + double(next_time_index_) * schedule_.every_time <= sim.time() + slack) ++next_time_index_;
    }
  }
  if (frame_due) {
    record_frame(sim);
  } else if (schedule_.diag_every > 0 && steps_ % schedule_.diag_every == 0) {
    rec_->submit_diagnostics(sim.diagnostics());
  }
}

}  // namespace ejecta
