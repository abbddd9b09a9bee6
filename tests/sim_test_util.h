#pragma once
// Helpers for the validation tests: load a shipped scene with overrides and run it through the one
// step loop with a per-step callback.
#include "io/async_recorder.h"
#include "params/param_set.h"
#include "run/step_loop.h"
#include "simulation.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

namespace ejecta::test {

// The source tree: the build's, unless EJECTA_SOURCE_DIR points elsewhere (a test binary copied to a
// GPU host runs beside a copy of the tree at another path).
inline std::string source_dir() {
  const char* env = std::getenv("EJECTA_SOURCE_DIR");
  return env && *env ? env : EJECTA_SOURCE_DIR;
}

// Two runs in the same state bit for bit: ids, positions, velocities, densities, time, dt and step.
inline void expect_same_state(const Simulation& whole, const Simulation& resumed) {
  const HostParticles a = whole.download(), b = resumed.download();
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(whole.steps(), resumed.steps());
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.position, b.position) << "positions must be identical, not just close";
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.density, b.density);
  EXPECT_EQ(whole.time(), resumed.time());
  EXPECT_EQ(whole.dt(), resumed.dt());
}
// A fresh directory per test, removed afterwards (tests may run in parallel under ctest).
struct TempDir {
  std::filesystem::path dir;
  explicit TempDir(const std::string& prefix = "ejecta_test") {
    std::string t = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    dir = t;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

// Restart N + N = 2N: `before` steps, a captured frame, a fresh simulation restored from it and
// `after` more steps must end bit for bit where `before + after` uninterrupted steps end: ids,
// positions, velocities, densities, time, dt and the bytes of the named extra fields.
inline void expect_exact_restart(const ParamSet& p, long before, long after, const std::vector<std::string>& extra) {
  auto whole = make_simulation(p, Backend::Cpu);
  StopRule two_n;
  two_n.max_steps = before + after;
  StepLoop(*whole, two_n).run();
  auto first = make_simulation(p, Backend::Cpu);
  StopRule one_n;
  one_n.max_steps = before;
  StepLoop(*first, one_n).run();
  const FrameData frame = first->capture_frame();
  first.reset();
  auto resumed = make_simulation(p, Backend::Cpu);
  resumed->restore_frame(frame);
  one_n.max_steps = after;
  StepLoop(*resumed, one_n).run();
  expect_same_state(*whole, *resumed);
  const FrameData fa = whole->capture_frame(extra), fb = resumed->capture_frame(extra);
  for (std::size_t k = 0; k < fa.fields.size(); ++k) EXPECT_EQ(fa.fields[k].bytes, fb.fields[k].bytes) << extra[k];
}

// The ParamError message of building the scene `ini` (named bad.ini in messages); "" if it builds.
inline std::string scene_error(const std::string& ini) {
  try {
    make_simulation(read_scene_string(ini, "bad.ini"), Backend::Cpu);
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

// Weight of Tait water above depth d per unit area, the solution of dp/dz = -rho(p) g with
// rho = rho0 (1 + p/B)^(1/gamma), B = c0^2 rho0 / gamma, integrated with RK4 in s = g z (independent of
// the closed form the scene builder uses). g_depth = |g| d. 100 RK4 steps: against 200000 steps the
// result differs by at most 6e-15 (relative) up to rho0 g d / B = 0.3 and by 9e-13 at 1 (2000 steps:
// 7e-15 and 2e-16; weakly compressible water stays below 0.1), at a twentieth of the cost of the 2000
// steps used before (Hydrostatic2D calls this for every bottom particle of every sample: about 5 s of
// each of its runs went here).
inline double tait_hydrostatic_pressure(double rho0, double c0, double gamma, double g_depth) {
  const double B = c0 * c0 * rho0 / gamma;
  auto rho = [&](double q) { return rho0 * std::pow(1 + q / B, 1 / gamma); };
  double q = 0;
  const int n = 100;
  const double ds = g_depth / n;
  for (int k = 0; k < n; ++k) {
    const double k1 = rho(q), k2 = rho(q + 0.5 * ds * k1), k3 = rho(q + 0.5 * ds * k2), k4 = rho(q + ds * k3);
    q += ds * (k1 + 2 * k2 + 2 * k3 + k4) / 6;
  }
  return q;
}

// A field of a captured frame as doubles (any scalar type), component-major per particle.
inline std::vector<double> frame_values(const FrameData& f, const std::string& name) {
  const FieldData* d = f.find(name);
  if (!d) throw std::runtime_error("no field " + name);
  std::vector<double> out;
  const std::size_t n = d->bytes.size() / scalar_bytes(d->info.scalar);
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned char* p = d->bytes.data() + k * scalar_bytes(d->info.scalar);
    switch (d->info.scalar) {
      case ScalarType::Float32: { float v; std::memcpy(&v, p, 4); out.push_back(v); break; }
      case ScalarType::Float64: { double v; std::memcpy(&v, p, 8); out.push_back(v); break; }
      case ScalarType::UInt8: out.push_back(*p); break;
      case ScalarType::UInt32: { uint32_t v; std::memcpy(&v, p, 4); out.push_back(v); break; }
    }
  }
  return out;
}

inline ParamSet shipped_scene(const std::string& name, const std::vector<std::string>& overrides = {}) {
  ParamSet p = read_scene_file(source_dir() + "/scenes/" + name);
  for (const auto& o : overrides) p.apply_override(o);
  return p;
}

class CallbackObserver : public StepObserver {
 public:
  explicit CallbackObserver(std::function<bool(const Simulation&)> f) : f_(std::move(f)) {}
  void on_step(const Simulation& s) override { stop_ = !f_(s); }
  bool wants_stop() override { return stop_; }

 private:
  std::function<bool(const Simulation&)> f_;
  bool stop_ = false;
};

// Runs until `until` (simulated seconds); `each_step` returns false to stop early.
inline void run_until(Simulation& sim, double until,
                      std::function<bool(const Simulation&)> each_step = [](const Simulation&) { return true; }) {
  StopRule rule;
  rule.until_time = until;
  StepLoop loop(sim, rule);
  CallbackObserver obs(std::move(each_step));
  loop.run(&obs);
}

// Every field of two diagnostics rows equal (rows are stored as doubles and read back exactly; runs
// compared are the same deterministic computation).
inline void expect_same_diagnostics(const Diagnostics& a, const Diagnostics& b) {
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.dt, b.dt);
  EXPECT_EQ(a.particles, b.particles);
  EXPECT_EQ(a.mass, b.mass);
  EXPECT_EQ(a.kinetic, b.kinetic);
  EXPECT_EQ(a.potential, b.potential);
  EXPECT_EQ(a.internal, b.internal);
  EXPECT_EQ(a.total, b.total);
  EXPECT_EQ(a.max_speed, b.max_speed);
  EXPECT_EQ(a.max_density_error, b.max_density_error);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(a.momentum[c], b.momentum[c]);
    EXPECT_EQ(a.angular_momentum[c], b.angular_momentum[c]);
  }
}

// Records `steps` steps of a CPU run of `p` to `path` (all fields every `every` steps, frame 0
// included) through the writer thread, as `ejecta --record` does.
inline void record_steps(const std::string& path, const ParamSet& p, long steps, long every,
                         const RecordOptions& opt = RecordOptions{}) {
  auto sim = make_simulation(p, Backend::Cpu);
  RunInfo info;
  info.dim = sim->dim();
  info.precision = to_string(sim->precision());
  info.backend = "cpu";
  info.scene_ini = p.to_ini();
  AsyncRecorder rec(path, info, opt);
  RecordSchedule schedule;
  schedule.every_steps = every;
  RecordObserver obs(rec, schedule);
  obs.record_initial(*sim);
  StopRule rule;
  rule.max_steps = steps;
  StepLoop(*sim, rule).run(&obs);
  rec.finish();
}

// Largest differences between two downloads of the same scene (on two backends, say), matched by
// particle id since each engine keeps its own sorted order.
struct ParticleDifference {
  double position = 0, velocity = 0, density = 0;
};
inline ParticleDifference max_difference_by_id(const HostParticles& a, const HostParticles& b) {
  const std::size_t d = static_cast<std::size_t>(a.dim);
  std::vector<std::size_t> slot_b(b.n);
  for (std::size_t i = 0; i < b.n; ++i) slot_b[b.id[i]] = i;
  ParticleDifference out;
  for (std::size_t i = 0; i < a.n; ++i) {
    const std::size_t j = slot_b[a.id[i]];
    for (std::size_t c = 0; c < d; ++c) {
      out.position = std::max(out.position, std::fabs(a.position[i * d + c] - b.position[j * d + c]));
      out.velocity = std::max(out.velocity, std::fabs(a.velocity[i * d + c] - b.velocity[j * d + c]));
    }
    out.density = std::max(out.density, std::fabs(a.density[i] - b.density[j]));
  }
  return out;
}

}  // namespace ejecta::test
