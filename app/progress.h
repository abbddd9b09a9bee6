#pragma once
// Reporting shared by the headless run and the benchmark: the progress display on stderr, number
// formatting, and a one-line JSON object writer (so every string is escaped in one place).
#include "run/step_loop.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace ejecta::app {

// Builds one JSON object on one line: {"key": value, ...}. Non-finite numbers become null, since
// JSON has no NaN or infinity.
class JsonObject {
 public:
  JsonObject& add(const std::string& key, const std::string& value);
  JsonObject& add(const std::string& key, const char* value);
  JsonObject& add(const std::string& key, double value);
  JsonObject& add(const std::string& key, long value);
  JsonObject& add(const std::string& key, long long value);
  JsonObject& add(const std::string& key, unsigned long value);
  JsonObject& add(const std::string& key, unsigned long long value);
  JsonObject& add(const std::string& key, int value) { return add(key, static_cast<long>(value)); }
  JsonObject& add(const std::string& key, bool value);
  JsonObject& add(const std::string& key, const std::vector<double>& values);  // a JSON array
  std::string str() const { return "{" + body_ + "}"; }

 private:
  void key(const std::string& k);
  std::string body_;
};

// "a\"b" with control characters as \uXXXX.
std::string json_quote(const std::string& s);
// 1234567 -> "1.23 M", 0.012 -> "0.012": three significant digits with an SI prefix.
std::string si(double v);
// Seconds as "12.3 s", "4:05", "1:02:03".
std::string duration(double seconds);

// Estimated time to the end of a run from its progress fraction f(t) (0..1) at wall times t [s]. The
// rate df/dt is an exponential moving average over a time constant of a quarter of the elapsed time
// (2 s to 60 s), so the early part of a run (setup, a small first dt, caches warming) stops weighing on
// the estimate after a while, as a plain elapsed * (1 - f) / f never does.
class EtaEstimator {
 public:
  // Feeds one sample; samples closer than 0.25 s to the last one used are ignored.
  void update(double t, double f);
  // Seconds left from progress f at the averaged rate; negative while the rate is unknown (fewer than
  // two samples) or not positive.
  double eta(double f) const;
  double rate() const { return rate_; }  // fraction per second; 0 until known

 private:
  bool have_sample_ = false;
  double t0_ = 0, t_ = 0, f_ = 0, rate_ = 0;
};

// When a log (not a terminal) gets a progress line: once the run has lasted 1 s (so that a log shows
// what is running; shorter runs print nothing), then one line per 5% of the run or per 30 s, whichever
// comes first, but not within 5 s of the last (short runs would otherwise print 20 lines). The time a
// 5% takes comes from the progress rate (EtaEstimator::rate).
class LogThrottle {
 public:
  static constexpr double kFirst = 1, kMinInterval = 5, kMaxInterval = 30;  // s
  // True when a line is due at wall time t [s] with the progress rate `rate` [1/s] (0: unknown); then
  // remembers it.
  bool due(double t, double rate);

 private:
  bool first_ = true;
  double last_t_ = 0;
};

// Observer that reports progress on stderr while the loop runs (also with --json, whose output is
// on stdout). On a terminal it redraws one line with '\r' at most ten times a second; otherwise (a
// log file, CI) it prints a plain line as LogThrottle says, so logs stay short.
class Progress : public StepObserver {
 public:
  Progress(const StepLoop& loop, std::FILE* out);
  // Ends a half-drawn terminal line when a blow-up unwinds past finish(), so the error message
  // starts on a line of its own.
  ~Progress() override;
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void on_step(const Simulation& sim) override;
  // Draws the final state and ends the line; call once after the loop.
  void finish();

 private:
  void draw(const Simulation& sim, bool final);

  using Clock = std::chrono::steady_clock;
  const StepLoop* loop_;
  std::FILE* out_;
  bool tty_;
  Clock::time_point start_, last_;
  EtaEstimator eta_;
  LogThrottle throttle_;
  std::size_t last_width_ = 0;
  bool drew_ = false;
  long drawn_steps_ = -1;
  bool finished_ = false;
};

}  // namespace ejecta::app
