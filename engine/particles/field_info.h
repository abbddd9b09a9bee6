#pragma once
// Description of one per-particle field: what output, colouring and the particle inspector need to
// know about it without knowing the solver's types.
#include <cstddef>
#include <string>

namespace ejecta {

enum class ScalarType { Float32, Float64, UInt8, UInt32 };

struct FieldInfo {
  std::string name;         // "position", "velocity", "density", ...
  int components = 1;       // 1 for scalars, dim for vectors
  std::string units;        // SI, "" for dimensionless
  std::string description;  // one line
  ScalarType scalar = ScalarType::Float32;
  // Persistent fields are state: they are carried through the per-step reordering. Derived fields
  // (pressure, acceleration, ...) are recomputed from the state every step.
  bool persistent = true;
};

}  // namespace ejecta
