#pragma once
// Reporting shared by the headless run and the benchmark: the progress display on stderr, number
// formatting, and a one-line JSON object writer (so every string is escaped in one place).
#include "run/step_loop.h"

#include <chrono>
#include <cstdio>
#include <string>

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

// Observer that reports progress on stderr while the loop runs. On a terminal it redraws one line
// with '\r' at most ten times a second; otherwise (a log file, CI) it prints a plain line every two
// seconds of wall time or every tenth of the run, whichever comes first, so logs stay short.
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
  int last_decile_ = 0;
  std::size_t last_width_ = 0;
  bool drew_ = false;
  long drawn_steps_ = -1;
  bool finished_ = false;
};

}  // namespace ejecta::app
