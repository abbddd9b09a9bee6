#pragma once
#include <cstddef>
// When a recording run writes frames and diagnostics rows. Kept apart from the observer so that the
// CLI can build and validate a schedule without pulling in the recorder.
namespace ejecta {

struct RecordSchedule {
  // Exactly one of the two frame intervals is used: every_steps when > 0, else every_time (> 0).
  double every_time = 0;  // simulated seconds between frames
  long every_steps = 0;   // steps between frames
  long diag_every = 10;   // steps between diagnostics rows (rows are also written at every frame)
};

// The default: 100 frames over the scene's run (every end_time / 100 s of simulated time). An
// end_time of zero or less would give an interval of zero, so it falls back to every 100 steps.
inline RecordSchedule default_record_schedule(double end_time) {
  RecordSchedule s;
  if (end_time > 0)
    s.every_time = end_time / 100;
  else
    s.every_steps = 100;
  return s;
}

// Frames a run of `max_steps` steps (negative: unbounded) from `start_time` to `until_time` will
// record under `s`, frame 0 included; 0 when unbounded (the recorder then sizes its frame index
// for a default count).
inline std::size_t expected_frames(const RecordSchedule& s, double start_time, double until_time, long max_steps) {
  double frames = -1;
  if (s.every_steps > 0 && max_steps >= 0) frames = double(max_steps / s.every_steps);
  if (s.every_time > 0 && until_time - start_time < 1e300 && until_time > start_time)
    frames = (until_time - start_time) / s.every_time;
  if (!(frames >= 0) || frames > 1e6) return 0;
  return std::size_t(frames) + 1;
}

}  // namespace ejecta
