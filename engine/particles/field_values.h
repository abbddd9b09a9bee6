#pragma once
// A captured field's values as doubles, whatever its stored type: for code that reads any field by
// name (the viewer's inspector and line profile, adding fluid).
#include "io/frame.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace ejecta {

// Value k (particle i, component c: k = i * components + c) of the field.
inline double field_value(const FieldData& f, std::size_t k) {
  const unsigned char* p = f.bytes.data() + k * scalar_bytes(f.info.scalar);
  switch (f.info.scalar) {
    case ScalarType::Float32: { float v; std::memcpy(&v, p, sizeof v); return v; }
    case ScalarType::Float64: { double v; std::memcpy(&v, p, sizeof v); return v; }
    case ScalarType::UInt8: return *p;
    case ScalarType::UInt32: { uint32_t v; std::memcpy(&v, p, sizeof v); return v; }
  }
  return 0;
}

// All n * components values.
inline std::vector<double> field_values(const FieldData& f) {
  const std::size_t count = f.bytes.size() / scalar_bytes(f.info.scalar);
  std::vector<double> out(count);
  for (std::size_t k = 0; k < count; ++k) out[k] = field_value(f, k);
  return out;
}

}  // namespace ejecta
