#include "viewer/demo_cycle.h"

#include <algorithm>
#include <cmath>

namespace ejecta::viewer {

DemoCycle::DemoCycle(std::vector<std::string> scenes, double period)
    : scenes_(std::move(scenes)), period_(period > 0 ? period : 20), active_(!scenes_.empty()) {}

std::string DemoCycle::tick(double now) {
  if (!active_) return "";
  if (!started_) {
    started_ = true;
    index_ = 0;
    loaded_at_ = now;
    return scenes_[0];
  }
  if (now - loaded_at_ < period_) return "";
  index_ = (index_ + 1) % scenes_.size();
  loaded_at_ = now;
  return scenes_[index_];
}

double DemoCycle::remaining(double now) const {
  if (!active_ || !started_) return 0;
  return std::max(0.0, period_ - (now - loaded_at_));
}

std::string DemoCycle::status(double now) const {
  if (!active_ || !started_) return "";
  const std::string& path = scenes_[index_];
  const std::size_t slash = path.find_last_of('/');
  return "demo " + std::to_string(index_ + 1) + "/" + std::to_string(scenes_.size()) + ": " +
         (slash == std::string::npos ? path : path.substr(slash + 1)) + ", next in " +
         std::to_string(long(std::ceil(remaining(now)))) + " s; any key or click stops the cycle";
}

}  // namespace ejecta::viewer
