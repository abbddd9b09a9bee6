#include "progress.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace ejecta::app {

std::string json_quote(const std::string& s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\r': r += "\\r"; break;
      case '\t': r += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          r += buf;
        } else {
          r += char(c);  // UTF-8 passes through unchanged
        }
    }
  }
  return r + "\"";
}

void JsonObject::key(const std::string& k) {
  if (!body_.empty()) body_ += ", ";
  body_ += json_quote(k) + ": ";
}

JsonObject& JsonObject::add(const std::string& k, const std::string& v) {
  key(k);
  body_ += json_quote(v);
  return *this;
}
JsonObject& JsonObject::add(const std::string& k, const char* v) { return add(k, std::string(v ? v : "")); }
// A number as JSON has it: non-finite as null; 10 digits, more than any timing here is worth.
static std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}
JsonObject& JsonObject::add(const std::string& k, double v) {
  key(k);
  body_ += json_number(v);
  return *this;
}
JsonObject& JsonObject::add(const std::string& k, const std::vector<double>& v) {
  key(k);
  body_ += "[";
  for (std::size_t i = 0; i < v.size(); ++i) body_ += (i ? ", " : "") + json_number(v[i]);
  body_ += "]";
  return *this;
}
JsonObject& JsonObject::add(const std::string& k, long v) { return add(k, static_cast<long long>(v)); }
JsonObject& JsonObject::add(const std::string& k, long long v) {
  key(k);
  body_ += std::to_string(v);
  return *this;
}
JsonObject& JsonObject::add(const std::string& k, unsigned long v) {
  return add(k, static_cast<unsigned long long>(v));
}
JsonObject& JsonObject::add(const std::string& k, unsigned long long v) {
  key(k);
  body_ += std::to_string(v);
  return *this;
}
JsonObject& JsonObject::add(const std::string& k, bool v) {
  key(k);
  body_ += v ? "true" : "false";
  return *this;
}

std::string si(double v) {
  if (!std::isfinite(v)) return "-";
  static const char* const prefixes[] = {"", " k", " M", " G", " T", " P"};
  int p = 0;
  double a = std::fabs(v);
  while (a >= 999.5 && p < 5) {
    a /= 1000;
    v /= 1000;
    ++p;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g%s", v, prefixes[p]);
  return buf;
}

std::string duration(double s) {
  if (!std::isfinite(s) || s < 0) return "-";
  char buf[32];
  if (s < 1) {
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  } else if (s < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  } else {
    const long t = std::lround(s);
    if (t < 3600)
      std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
    else
      std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  }
  return buf;
}

void EtaEstimator::update(double t, double f) {
  if (!have_sample_) {
    have_sample_ = true;
    t0_ = t_ = t;
    f_ = f;
    return;
  }
  const double dt = t - t_;
  if (dt < 0.25) return;
  const double r = (f - f_) / dt;
  // Time constant: a quarter of the run so far, within [2 s, 60 s].
  const double tau = std::min(60.0, std::max(2.0, 0.25 * (t - t0_)));
  rate_ = rate_ > 0 ? rate_ + (1 - std::exp(-dt / tau)) * (r - rate_) : r;
  t_ = t;
  f_ = f;
}

double EtaEstimator::eta(double f) const {
  if (!(rate_ > 0) || f < 0) return -1;
  return std::max(0.0, (1 - f) / rate_);
}

bool LogThrottle::due(double t, double rate) {
  const double interval =
      rate > 0 ? std::min(kMaxInterval, std::max(kMinInterval, 0.05 / rate)) : kMaxInterval;  // 5% of the run
  if (first_ ? t >= kFirst : t - last_t_ >= interval) {
    first_ = false;
    last_t_ = t;
    return true;
  }
  return false;
}

Progress::Progress(const StepLoop& loop, std::FILE* out)
    : loop_(&loop), out_(out), tty_(isatty(fileno(out)) != 0), start_(Clock::now()), last_(start_) {}

void Progress::on_step(const Simulation& sim) {
  // Clock::now() costs tens of nanoseconds, nothing next to a step, so it is read every step.
  const auto now = Clock::now();
  const double t = std::chrono::duration<double>(now - start_).count();
  const double f = loop_->progress();
  eta_.update(t, f);
  if (tty_) {
    if (std::chrono::duration<double>(now - last_).count() >= 0.1) draw(sim, false);
    return;
  }
  if (throttle_.due(t, eta_.rate())) draw(sim, false);
}

Progress::~Progress() {
  if (tty_ && drew_ && !finished_) {
    std::fputc('\n', out_);
    std::fflush(out_);
  }
}

void Progress::finish() {
  finished_ = true;
  // A run too short to have drawn anything leaves no trace on a terminal; a log gets its last line.
  if (tty_) {
    if (drew_) {
      draw(loop_->simulation(), true);
      std::fputc('\n', out_);
    }
  } else if (drew_ && drawn_steps_ != loop_->steps_done()) {
    draw(loop_->simulation(), true);  // the last 5% already printed the end otherwise
  }
  std::fflush(out_);
}

void Progress::draw(const Simulation& sim, bool final) {
  last_ = Clock::now();
  drew_ = true;
  const double elapsed = std::chrono::duration<double>(last_ - start_).count();
  const double f = loop_->progress();
  const long steps = loop_->steps_done();
  drawn_steps_ = steps;
  const double rate = elapsed > 0 ? double(sim.particle_count()) * double(steps) / elapsed : 0;

  char time_buf[64];
  const double until = loop_->rule().until_time;
  if (std::isfinite(until))
    std::snprintf(time_buf, sizeof time_buf, "t %.4g/%.4g s", sim.time(), until);
  else
    std::snprintf(time_buf, sizeof time_buf, "t %.4g s", sim.time());
  std::string eta;
  if (f >= 1) final = true;  // the last step: say how long it took rather than "ETA 0"
  if (f > 0 && !final) {
    const double left = eta_.eta(f);
    if (left >= 0) eta = "  ETA " + duration(left);
  }
  if (final) eta = "  wall " + duration(elapsed);

  char line[256];
  if (tty_) {
    std::string bar;
    if (f >= 0) {
      const int width = 20, full = int(f * width + 1e-9);
      bar = "[" + std::string(full, '#') + std::string(width - full, '-') + "] ";
      char pct[16];
      std::snprintf(pct, sizeof pct, "%5.1f%%  ", f * 100);
      bar += pct;
    }
    std::snprintf(line, sizeof line, "%s%s  step %ld  %s particle-steps/s%s", bar.c_str(), time_buf, steps,
                  si(rate).c_str(), eta.c_str());
    std::string s = line;
    // Pad over the tail of a longer previous line instead of relying on terminal escape codes.
    const std::size_t width = s.size();
    if (width < last_width_) s += std::string(last_width_ - width, ' ');
    last_width_ = width;
    std::fprintf(out_, "\r%s", s.c_str());
  } else {
    char pct[16] = "";
    if (f >= 0) std::snprintf(pct, sizeof pct, "%3.0f%%  ", f * 100);
    std::snprintf(line, sizeof line, "ejecta: %s%s  step %ld  %s particle-steps/s%s", pct, time_buf, steps,
                  si(rate).c_str(), eta.c_str());
    std::fprintf(out_, "%s\n", line);
  }
  std::fflush(out_);
}

}  // namespace ejecta::app
