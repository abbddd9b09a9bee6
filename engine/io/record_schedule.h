#pragma once
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

}  // namespace ejecta
