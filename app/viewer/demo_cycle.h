#pragma once
// `ejecta --demo` (issue 17, after the cuda-samples `particles` demo mode): the viewer cycles through a
// list of scenes, loading the next one every `period` seconds of wall-clock time, and stops cycling
// at the first key or mouse input (the scene then on stays, and the viewer is an ordinary one). A lab
// screen runs it unattended. No GL here: the frame loop asks tick() each frame, the tests drive it.
#include <string>
#include <vector>

namespace ejecta::viewer {

class DemoCycle {
 public:
  DemoCycle() = default;
  // Active when `scenes` is not empty; period in seconds (> 0).
  DemoCycle(std::vector<std::string> scenes, double period);

  bool active() const { return active_; }
  // The scene to load now, or "" if none: the first scene at the first tick, then the next (wrapping
  // round) once `period` seconds have passed since the last load. `now` is any monotonic clock in s.
  std::string tick(double now);
  // The user took over (key, mouse button, wheel): no more loads.
  void stop() { active_ = false; }
  std::size_t index() const { return index_; }  // of the scene last loaded
  std::size_t size() const { return scenes_.size(); }
  // Seconds until the next load at `now` (0 when inactive), for the status bar.
  double remaining(double now) const;
  // "demo 3/18: rings2d.ini, next in 12 s; any key or click stops the cycle".
  std::string status(double now) const;

 private:
  std::vector<std::string> scenes_;
  double period_ = 20;
  bool active_ = false;
  bool started_ = false;
  std::size_t index_ = 0;
  double loaded_at_ = 0;
};

}  // namespace ejecta::viewer
