#pragma once
// Helpers of the DEM grain tests: a field of a simulation as doubles in the order of the particle ids,
// and INI text for numbers.
#include "simulation.h"
#include "step_util.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace ejecta::test {

// A head-on collision of two grains of radius r along x: the times the surfaces meet and part
// (interpolated within a step) and the relative velocity along x after parting (t_out < 0 when they
// did not part within max_steps). Steps one at a time through the step loop (step_util.h).
struct PairContact {
  double t_in = -1, t_out = -1, vrel = 0;
};
inline PairContact measure_pair_contact(Simulation& sim, double r, long max_steps) {
  PairContact c;
  auto overlap = [&]() {
    const HostParticles p = sim.download();
    const std::size_t a = p.id[0] == 0 ? 0 : 1, b = 1 - a;
    c.vrel = p.velocity[3 * b] - p.velocity[3 * a];
    return 2 * r - (p.position[3 * b] - p.position[3 * a]);
  };
  double before = overlap();
  for (long s = 0; s < max_steps && c.t_out < 0; ++s) {
    const double t0 = sim.time();
    step_n(sim, 1);
    const double after = overlap(), dt = sim.time() - t0;
    if (before <= 0 && after > 0) c.t_in = t0 + dt * (-before) / (after - before);
    if (c.t_in >= 0 && before > 0 && after <= 0) c.t_out = t0 + dt * before / (before - after);
    before = after;
  }
  return c;
}

inline std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// The field `name` (n * components doubles), rows in the order of the particle ids.
inline std::vector<double> field_by_id(const Simulation& sim, const std::string& name, int* components = nullptr) {
  const FrameData f = sim.capture_frame({"id", name});
  const FieldData* idf = f.find("id");
  const FieldData* fd = f.find(name);
  const std::size_t n = sim.particle_count();
  const int c = fd->info.components;
  if (components) *components = c;
  std::vector<double> out(n * std::size_t(c));
  for (std::size_t i = 0; i < n; ++i) {
    uint32_t id = 0;
    std::memcpy(&id, idf->bytes.data() + 4 * i, 4);
    for (int k = 0; k < c; ++k) {
      const std::size_t e = i * std::size_t(c) + std::size_t(k);
      double v = 0;
      switch (fd->info.scalar) {
        case ScalarType::Float64: std::memcpy(&v, fd->bytes.data() + 8 * e, 8); break;
        case ScalarType::Float32: { float x; std::memcpy(&x, fd->bytes.data() + 4 * e, 4); v = x; break; }
        case ScalarType::UInt32: { uint32_t x; std::memcpy(&x, fd->bytes.data() + 4 * e, 4); v = x; break; }
        case ScalarType::UInt8: v = fd->bytes[e]; break;
      }
      out[std::size_t(id) * std::size_t(c) + std::size_t(k)] = v;
    }
  }
  return out;
}

}  // namespace ejecta::test
