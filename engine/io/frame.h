#pragma once
// One recorded frame in memory: the particle fields in their native element types, plus the time
// stamps. The solver fills it (Simulation::capture_frame), the recorder writes it, the reader reads it
// back and a restart hands it to Simulation::restore_frame.
#include "particles/field_info.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

inline std::size_t scalar_bytes(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return 4;
    case ScalarType::Float64: return 8;
    case ScalarType::UInt8: return 1;
    case ScalarType::UInt32: return 4;
  }
  return 0;
}

struct FieldData {
  FieldInfo info;                   // name, components, units, description, scalar type
  std::vector<unsigned char> bytes;  // n * components * scalar_bytes(info.scalar), row-major
  std::size_t count() const {       // number of particles
    const std::size_t row = std::size_t(info.components) * scalar_bytes(info.scalar);
    return row ? bytes.size() / row : 0;
  }
};

struct FrameData {
  double time = 0;
  long step = 0;
  double dt = 0;  // the step the solver takes next
  std::size_t particles = 0;
  std::vector<FieldData> fields;
  const FieldData* find(const std::string& name) const {
    for (const auto& f : fields)
      if (f.info.name == name) return &f;
    return nullptr;
  }
};

// What a run records about itself (root attributes of the file).
struct RunInfo {
  int dim = 0;
  std::string precision;     // "float" | "double"
  std::string backend;       // "cpu" | "cuda"
  std::string scene_ini;     // the full scene after --set overrides (ParamSet::to_ini())
  std::string command_line;  // argv joined by spaces
  std::string start_date;    // ISO 8601, UTC
  std::string ejecta_version, git_commit;
};

}  // namespace ejecta
