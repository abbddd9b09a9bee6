#pragma once
// Recording without stalling the simulation: the solver's capture_frame() (the only device->host
// copy) runs on the stepping thread, everything after it (HDF5 writes, gzip, flushes, the XDMF
// sidecar) on one writer thread owned by AsyncRecorder. RecordObserver plugs that into the StepLoop.
#include "io/frame.h"
#include "io/h5_recorder.h"
#include "io/record_schedule.h"
#include "run/step_loop.h"
#include "simulation.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ejecta {

class AsyncRecorder {
 public:
  // Creates the file on the calling thread, so that an unwritable path fails here (RecordError),
  // before any step is taken, rather than on the writer thread later.
  AsyncRecorder(const std::string& path, const RunInfo& info, const RecordOptions& opt);
  // Drains and closes like finish(), but swallows errors: it runs while a BlowUpError or another
  // exception unwinds, and the frames recorded up to then must still reach the file.
  ~AsyncRecorder();
  AsyncRecorder(const AsyncRecorder&) = delete;
  AsyncRecorder& operator=(const AsyncRecorder&) = delete;

  // Hands a captured frame to the writer. At most kMaxFramesInFlight frames are queued or being
  // written (double buffering); when both are busy this waits (back-pressure: frames are never
  // dropped, and host memory stays bounded to a few frames: two in flight, their buffers recycled). Rethrows the writer's first error.
  void submit(FrameData&& frame);
  // A frame whose buffers were already written out, for the next capture (empty if none): with
  // capture_frame_into the recorder cycles through at most kMaxFramesInFlight sets of buffers.
  FrameData recycled();
  // Queues one diagnostics row, in order with the frames. Rethrows the writer's first error.
  void submit_diagnostics(const Diagnostics& d);
  // Waits until everything queued is written, stops the writer and closes the file. Rethrows the
  // writer's first error (the frames written before it stay valid), or the close's. Idempotent.
  void finish();

  // Frames completely written to the HDF5 file so far (after an error: the file holds frames
  // 0..frames_written()-1, whether or not the XDMF sidecar could be updated for the last one).
  std::size_t frames_written() const;
  std::size_t frames_submitted() const;
  // Where recording time goes, for the benchmark.
  struct Timings {
    double waiting = 0;              // the submitter waiting for a free frame buffer (writer behind)
    double writing_frames = 0;       // the writer in HDF5 for frames (datasets, flush, XDMF)
    double writing_diagnostics = 0;  // the writer in HDF5 for diagnostics rows
    double closing = 0;              // H5Fclose in finish()
  };
  Timings timings() const;
  const std::string& path() const { return path_; }
  const std::string& xdmf_path() const { return xdmf_path_; }

  static constexpr std::size_t kMaxFramesInFlight = 2;

 private:
  struct Item {
    bool is_frame = false;
    FrameData frame;
    Diagnostics diag;
  };
  void writer_main();
  void rethrow_if_failed_locked() const;
  void enqueue(Item&& item);

  std::unique_ptr<H5Recorder> rec_;
  std::string path_, xdmf_path_;

  mutable std::mutex mu_;
  std::condition_variable wake_writer_, wake_submitter_;
  std::deque<Item> queue_;
  std::vector<FrameData> spare_;  // written frames kept for their buffers
  std::size_t frames_in_flight_ = 0;  // queued frames plus the one being written
  std::size_t frames_written_ = 0, frames_submitted_ = 0;
  Timings timings_;
  bool stopping_ = false, finished_ = false;
  std::exception_ptr error_;  // the first write error; everything after it is discarded
  std::thread writer_;
};

// Records a run through the StepLoop: a frame of `fields` (empty = all) on the schedule, and a
// diagnostics row every schedule.diag_every steps and with every frame. Steps are counted from
// record_initial(), times from the simulation time there, so a restarted run gets its own schedule.
class RecordObserver : public StepObserver {
 public:
  RecordObserver(AsyncRecorder& rec, const RecordSchedule& schedule, std::vector<std::string> fields = {});
  // Records frame 0 (the state before the first step) and starts the schedule; call before the loop.
  void record_initial(const Simulation& sim);
  void on_step(const Simulation& sim) override;
  std::size_t frames_submitted() const { return frames_; }
  // Seconds the stepping thread spent taking frames (diagnostics, device->host copy, hand-over).
  double seconds_capturing() const { return seconds_capturing_; }

 private:
  void record_frame(const Simulation& sim);

  AsyncRecorder* rec_;
  RecordSchedule schedule_;
  std::vector<std::string> fields_;
  long steps_ = 0;           // steps since record_initial
  double start_time_ = 0;    // simulation time at record_initial
  long next_time_index_ = 1;  // the next frame is due at start_time_ + next_time_index_ * every_time
  std::size_t frames_ = 0;
  double seconds_capturing_ = 0;
  bool started_ = false;
};

// Passes every hook to several observers (progress display + recorder); wants_stop() is true when
// any of them wants to stop. Null entries are skipped.
class CompositeObserver : public StepObserver {
 public:
  explicit CompositeObserver(std::vector<StepObserver*> observers) : obs_(std::move(observers)) {}
  void on_step_queued(const Simulation& sim, double time) override {
    for (auto* o : obs_)
      if (o) o->on_step_queued(sim, time);
  }
  void on_step(const Simulation& sim) override {
    for (auto* o : obs_)
      if (o) o->on_step(sim);
  }
  bool wants_stop() override {
    bool stop = false;
    for (auto* o : obs_)
      if (o) stop = o->wants_stop() || stop;  // ask everyone: some observers latch state when asked
    return stop;
  }

 private:
  std::vector<StepObserver*> obs_;
};

}  // namespace ejecta
