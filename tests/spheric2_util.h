#pragma once
// SPHERIC benchmark 2 (Kleefsman et al. 2005, scenes/dambreak3d.ini) for the tests: the experiment's
// series (tests/data/spheric2_kleefsman2005.csv), the sensors sampled from host downloads of a run, and
// the figures of issue 12's goal table computed the same way from either.
//
// Sensors, the same definitions as DualSPHysics's MeasureTool:
//  - pressure at a point: the Shepard-normalised kernel average over the fluid within the support,
//    p = sum_j p_j V_j W_ij / sum_j V_j W_ij, V_j = m_j / rho_j (0 when no fluid is in reach);
//  - water height on the vertical line (x, y): the colour function c(z) = sum_j V_j W_ij is sampled
//    upwards from the first fluid layer (z = dp/2) in steps of dp/4; the height is the first z where c
//    falls below 0.5 (linearly interpolated), 0 if c < 0.5 already at dp/2.
#include "physics/kernels.h"
#include "sim_test_util.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ejecta::test {

// Sensor positions (README of the SPHERIC data, frame of scenes/dambreak3d.ini).
constexpr double kP1[3] = {0.8245, 0.471, 0.021};
constexpr double kGaugeX[4] = {0.496, 0.992, 1.488, 2.638};
constexpr double kGaugeY = 0.5;

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

// The sensors of one download (3D).
inline void sample_spheric2(const HostParticles& hp, double h, double dp, double time, Spheric2Series& out) {
  const auto W = SmoothingKernel<double, 3>::make(KernelType::WendlandC2, h);
  const double R = 2 * h, R2 = R * R;
  double sw = 0, spw = 0;
  std::vector<std::size_t> near[4];
  for (std::size_t i = 0; i < hp.n; ++i) {
    if (hp.kind[i] != kFluid) continue;
    const double* x = &hp.position[3 * i];
    const double dx = x[0] - kP1[0], dy = x[1] - kP1[1], dz = x[2] - kP1[2];
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < R2) {
      const double w = W.W(std::sqrt(r2)) * hp.mass[i] / hp.density[i];
      sw += w;
      spw += w * hp.pressure[i];
    }
    for (int k = 0; k < 4; ++k) {
      const double gx = x[0] - kGaugeX[k], gy = x[1] - kGaugeY;
      if (gx * gx + gy * gy < R2) near[k].push_back(i);
    }
  }
  double heights[4];
  for (int k = 0; k < 4; ++k) {
    auto colour = [&](double z) {
      double c = 0;
      for (std::size_t i : near[k]) {
        const double* x = &hp.position[3 * i];
        const double dx = x[0] - kGaugeX[k], dy = x[1] - kGaugeY, dz = x[2] - z;
        c += W.W(std::sqrt(dx * dx + dy * dy + dz * dz)) * hp.mass[i] / hp.density[i];
      }
      return c;
    };
    double z = 0.5 * dp, c = colour(z), height = 0;
    if (c >= 0.5) {
      for (;;) {
        const double z1 = z + 0.25 * dp, c1 = colour(z1);
        if (c1 < 0.5 || z1 > 1.0) {
          height = z + 0.25 * dp * (c - 0.5) / (c - c1);
          break;
        }
        z = z1, c = c1;
      }
    }
    heights[k] = height;
  }
  out.push(time, sw > 0 ? spw / sw : 0.0, heights);
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

inline void print_figures(const char* label, const Spheric2Figures& f) {
  std::printf("  %-10s P1 arrival %.4f s, peak(5ms) %.0f Pa, min 0.43-0.50 %.0f Pa, mean 1.0-1.5 %.0f Pa, "
              "H3 arrival %.4f s, H2 %.3f/%.3f/%.3f m, H4 %.3f/%.3f/%.3f m\n",
              label, f.p1_arrival, f.p1_peak_mean5, f.p1_min_after, f.p1_mean_late, f.h3_arrival, f.h2[0],
              f.h2[1], f.h2[2], f.h4[0], f.h4[1], f.h4[2]);
}

inline void write_series_csv(const std::string& path, const Spheric2Series& s) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;
  std::fprintf(f, "t_s,P1_Pa,H1_m,H2_m,H3_m,H4_m\n");
  for (std::size_t i = 0; i < s.t.size(); ++i)
    std::fprintf(f, "%.6f,%.1f,%.5f,%.5f,%.5f,%.5f\n", s.t[i], s.p1[i], s.h[0][i], s.h[1][i], s.h[2][i], s.h[3][i]);
  std::fclose(f);
}

// Runs scenes/dambreak3d.ini with `overrides` to `end` seconds, sampling every 1 ms from 0.15 to
// 0.55 s (the front passing H3, the impact on the box) and every 5 ms otherwise.
inline Spheric2Series run_spheric2(const std::vector<std::string>& overrides, Backend backend, double end) {
  ParamSet p = shipped_scene("dambreak3d.ini", overrides);
  const double dp = p.real("particles.dp"), h = p.real("particles.h_over_dp") * dp;
  auto sim = make_simulation(p, backend);
  Spheric2Series s;
  double next = 0;
  run_until(*sim, end, [&](const Simulation& sm) {
    if (sm.time() + 1e-12 < next) return true;
    sample_spheric2(sm.download(), h, dp, sm.time(), s);
    next = sm.time() + ((sm.time() >= 0.15 && sm.time() < 0.55) ? 0.001 : 0.005);
    return true;
  });
  return s;
}

}  // namespace ejecta::test
