#pragma once
// Helpers of the DEM grain tests: a field of a simulation as doubles in the order of the particle ids,
// and INI text for numbers.
#include "simulation.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace ejecta::test {

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
