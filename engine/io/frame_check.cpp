#include "io/frame_check.h"

#include "io/h5_recorder.h"  // RecordError

#include <cmath>
#include <cstring>
#include <sstream>

namespace ejecta {

namespace {
template <class T>
bool first_non_finite(const FieldData& f, std::size_t* at) {
  const std::size_t n = f.bytes.size() / sizeof(T);
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, f.bytes.data() + i * sizeof(T), sizeof(T));
    if (!std::isfinite(v)) {
      *at = i;
      return true;
    }
  }
  return false;
}
}  // namespace

void check_restart_frame(const FrameData& frame, const std::string& where) {
  auto refuse = [&](const std::string& why) {
    throw RecordError(where + " cannot be restarted: " + why);
  };
  if (!std::isfinite(frame.time)) refuse("its time is not finite");
  if (!(std::isfinite(frame.dt) && frame.dt > 0)) {
    std::ostringstream o;
    o << "its time step dt = " << frame.dt << " is not a positive number";
    refuse(o.str());
  }
  if (frame.step < 0) refuse("its step count " + std::to_string(frame.step) + " is negative");
  if (frame.particles == 0) refuse("it holds no particles");
  for (const FieldData& f : frame.fields) {
    const std::size_t row = std::size_t(f.info.components) * scalar_bytes(f.info.scalar);
    if (f.info.components < 1 || f.bytes.size() != frame.particles * row)
      refuse("field '" + f.info.name + "' holds " + std::to_string(f.bytes.size()) + " bytes, not " +
             std::to_string(frame.particles) + " particles x " + std::to_string(row) + " bytes");
    std::size_t at = 0;
    const bool bad = f.info.scalar == ScalarType::Float32   ? first_non_finite<float>(f, &at)
                     : f.info.scalar == ScalarType::Float64 ? first_non_finite<double>(f, &at)
                                                            : false;
    if (bad) {
      const std::size_t c = std::size_t(f.info.components);
      refuse("field '" + f.info.name + "' is not finite at particle " + std::to_string(at / c) +
             (c > 1 ? ", component " + std::to_string(at % c) : std::string()));
    }
    if (f.info.name == "kind" && f.info.scalar == ScalarType::UInt8)
      for (std::size_t i = 0; i < f.bytes.size(); ++i)
        if (f.bytes[i] > 1)
          refuse("particle " + std::to_string(i) + " has kind " + std::to_string(int(f.bytes[i])) +
                 " (0 or 1 expected)");
  }
}

}  // namespace ejecta
