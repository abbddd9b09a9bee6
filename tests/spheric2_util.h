#pragma once
// SPHERIC benchmark 2 (Kleefsman et al. 2005, scenes/dambreak3d.ini) for the tests: the experiment's
// series (tests/data/spheric2_kleefsman2005.csv), a run's series from the scene's own probes and gauges
// (P1 and H1-H4, engine/probes; definitions in docs/probes.md), and the figures of issue 12's goal
// table computed the same way from either.
#include "probe_test_util.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta::test {

struct Spheric2Series {
  std::vector<double> t, p1, h[4];
  void push(double time, double p, const double* hs) {
    t.push_back(time);
    p1.push_back(p);
    for (int k = 0; k < 4; ++k) h[k].push_back(hs[k]);
  }
};

inline Spheric2Series spheric2_experiment() {
  std::ifstream in(source_dir() + "/tests/data/spheric2_kleefsman2005.csv");
  Spheric2Series s;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 't') continue;
    std::istringstream ls(line);
    double v[6];
    char comma;
    ls >> v[0] >> comma >> v[1] >> comma >> v[2] >> comma >> v[3] >> comma >> v[4] >> comma >> v[5];
    s.push(v[0], v[1], v + 2);
  }
  return s;
}

// The figures of the goal table, computed alike for the experiment and a run.
struct Spheric2Figures {
  double p1_arrival = -1;     // first time P1 > 500 Pa
  double p1_peak_mean5 = 0;   // largest centred 5 ms running mean of P1, 0.3-0.6 s
  double p1_min_after = 0;    // smallest P1 sample in 0.43-0.50 s
  double p1_mean_late = 0;    // mean P1 over 1.0-1.5 s
  double h3_arrival = -1;     // first time H3 (x = 1.488) > 0.02 m
  double h2[3] = {0, 0, 0};   // H2 at 0.5, 1.0, 1.5 s (mean over +-5 ms)
  double h4[3] = {0, 0, 0};   // H4 likewise
};

inline Spheric2Figures spheric2_figures(const Spheric2Series& s) {
  Spheric2Figures f;
  const std::size_t n = s.t.size();
  double late = 0;
  int nlate = 0;
  f.p1_min_after = 1e30;
  for (std::size_t i = 0; i < n; ++i) {
    if (f.p1_arrival < 0 && s.p1[i] > 500) f.p1_arrival = s.t[i];
    if (f.h3_arrival < 0 && s.h[2][i] > 0.02) f.h3_arrival = s.t[i];
    if (s.t[i] >= 0.43 && s.t[i] <= 0.50) f.p1_min_after = std::min(f.p1_min_after, s.p1[i]);
    if (s.t[i] >= 1.0 && s.t[i] <= 1.5) late += s.p1[i], ++nlate;
    if (s.t[i] >= 0.3 && s.t[i] <= 0.6) {
      double sum = 0;
      int m = 0;
      for (std::size_t j = 0; j < n; ++j)
        if (std::fabs(s.t[j] - s.t[i]) <= 0.0025) sum += s.p1[j], ++m;
      if (m) f.p1_peak_mean5 = std::max(f.p1_peak_mean5, sum / m);
    }
  }
  f.p1_mean_late = nlate ? late / nlate : 0;
  const double at[3] = {0.5, 1.0, 1.5};
  for (int k = 0; k < 3; ++k) {
    double s2 = 0, s4 = 0;
    int m = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (std::fabs(s.t[i] - at[k]) <= 0.005) s2 += s.h[1][i], s4 += s.h[3][i], ++m;
    f.h2[k] = m ? s2 / m : 0;
    f.h4[k] = m ? s4 / m : 0;
  }
  return f;
}

// The experiment's clock (docs/physics.md, "The release and the experiment's clock"): its series start
// after the water began to move (tests/test_spheric2_release.cpp: the measured H4 falls faster in its
// first 20 ms than water released from rest can), so a run released at t = 0 is late on every arrival
// by the time between the release and the series' t = 0. Evidence at dp = 0.01: DualSPHysics 5.0 is late
// by 29 ms on the front at x = 1.488 and its H4 fits the measurement shifted by 24 ms; Ejecta's H4 fits
// with 31-35 ms (four settings). The goal table is checked on the experiment's clock with this one
// fixed offset, the same for every run (not fitted per run, so that a slower model is not excused), and
// the raw figures are printed beside it.
constexpr double kSpheric2ClockOffset = 0.030;

// For the record: the s in 0-60 ms (steps of 0.5 ms) that best fits a run's reservoir level H4(t + s)
// to the measured H4(t) over 0.1-0.5 s (least squares; the run's series linearly interpolated). It
// compares absolute levels, so a gauge's reading at rest (at dp = 0.03 the run's H4 reads 10 mm below
// the fill level at t = 0) moves it by about 4 ms per mm: informative at dp = 0.01, not a test figure.
// Returns -1 when the run ends before 0.56 s.
inline double spheric2_h4_clock_offset(const Spheric2Series& run, const Spheric2Series& exp) {
  if (run.t.size() < 2 || run.t.back() < 0.56) return -1;
  auto interp = [](const std::vector<double>& t, const std::vector<double>& y, double x) {
    std::size_t lo = 0, hi = t.size() - 1;
    if (x <= t[lo]) return y[lo];
    if (x >= t[hi]) return y[hi];
    while (hi - lo > 1) {
      const std::size_t mid = (lo + hi) / 2;
      (t[mid] <= x ? lo : hi) = mid;
    }
    return y[lo] + (y[hi] - y[lo]) * (x - t[lo]) / (t[hi] - t[lo]);
  };
  double best = -1, best_err = 1e300;
  for (int k = 0; k <= 120; ++k) {
    const double s = 0.0005 * k;
    double err = 0;
    for (std::size_t i = 0; i < exp.t.size(); ++i)
      if (exp.t[i] >= 0.1 && exp.t[i] <= 0.5) {
        const double d = interp(run.t, run.h[3], exp.t[i] + s) - exp.h[3][i];
        err += d * d;
      }
    if (err < best_err) best_err = err, best = s;
  }
  return best;
}

// The series with its clock moved back by s (t -> t - s).
inline Spheric2Series spheric2_shifted(Spheric2Series s, double shift) {
  for (double& t : s.t) t -= shift;
  return s;
}

inline void print_figures(const char* label, const Spheric2Figures& f) {
  std::printf("  %-10s P1 arrival %.4f s, peak(5ms) %.0f Pa, min 0.43-0.50 %.0f Pa, mean 1.0-1.5 %.0f Pa, "
              "H3 arrival %.4f s, H2 %.3f/%.3f/%.3f m, H4 %.3f/%.3f/%.3f m\n",
              label, f.p1_arrival, f.p1_peak_mean5, f.p1_min_after, f.p1_mean_late, f.h3_arrival, f.h2[0],
              f.h2[1], f.h2[2], f.h4[0], f.h4[1], f.h4[2]);
}

// scenes/dambreak3d.ini with `overrides`, its probes and gauges sampled every 1 ms.
inline ParamSet spheric2_scene(const std::vector<std::string>& overrides) {
  std::vector<std::string> o;
  for (int k = 1; k <= 8; ++k) o.push_back("probe." + std::to_string(k) + ".interval=0.001");
  for (int k = 1; k <= 4; ++k) o.push_back("gauge." + std::to_string(k) + ".interval=0.001");
  o.insert(o.end(), overrides.begin(), overrides.end());
  return shipped_scene("dambreak3d.ini", o);
}

// Runs scenes/dambreak3d.ini with `overrides` to `end` seconds with its probes and gauges sampled every
// 1 ms, on the device, as `ejecta --headless` does; returns the probe series (ProbeSeries columns
// "P1.pressure", "H1.height", ...).
inline ProbeSeries run_spheric2_probes(const std::vector<std::string>& overrides, Backend backend, double end) {
  return run_probe_series(spheric2_scene(overrides), backend, end);
}

// The release checked against potential flow over a run's first 0.1 s (tests/test_spheric2_release.cpp).
void expect_release_matches_potential_flow(const Spheric2Series& s);

// P1 and H1-H4 of a probe series, at the rows where P1 was sampled.
inline Spheric2Series spheric2_from_probes(const ProbeSeries& ps) {
  auto col = [&](const std::string& name) {
    for (std::size_t c = 0; c < ps.columns.size(); ++c)
      if (ps.columns[c].name == name) return c;
    throw std::runtime_error("probe series without column " + name + " (scenes/dambreak3d.ini changed?)");
  };
  const std::size_t p1 = col("P1.pressure");
  std::size_t h[4];
  for (int k = 0; k < 4; ++k) h[k] = col("H" + std::to_string(k + 1) + ".height");
  Spheric2Series s;
  for (std::size_t r = 0; r < ps.rows(); ++r) {
    if (std::isnan(ps.at(r, p1))) continue;
    double hs[4];
    for (int k = 0; k < 4; ++k) hs[k] = ps.at(r, h[k]);
    s.push(ps.time[r], ps.at(r, p1), hs);
  }
  return s;
}

}  // namespace ejecta::test
