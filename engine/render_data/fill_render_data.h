#pragma once
// One functor for both backends writes the viewer's per-particle render data (float4 position, one
// colour value and, when asked for, the particle's own radius) straight into the caller's buffers; a
// second one measures the colour range for the automatic colormap range. Run by Exec::for_each /
// transform_reduce: an OpenMP loop into host memory on the CPU, a kernel into (interop-mapped) device
// memory on CUDA.
#include "core/hd.h"
#include "core/types.h"
#include "core/vec.h"
#include "particles/field_info.h"
#include "render_data/render_request.h"

#include <cstddef>
#include <cstdint>

namespace ejecta {

// A type-erased view of one registered field: element type, components, which value to take.
struct ColourSource {
  const void* data;
  ScalarType scalar;
  int components;
  int component;  // < 0: magnitude of a vector field

  EJ_INLINE double raw(std::size_t k) const {
    switch (scalar) {
      case ScalarType::Float32: return static_cast<const float*>(data)[k];
      case ScalarType::Float64: return static_cast<const double*>(data)[k];
      case ScalarType::UInt8: return static_cast<const uint8_t*>(data)[k];
      default: return static_cast<const uint32_t*>(data)[k];
    }
  }
  EJ_INLINE float value(std::size_t i) const {
    const std::size_t base = i * static_cast<std::size_t>(components);
    if (components == 1) return float(raw(base));
    if (component >= 0) return float(raw(base + component));
    double s = 0;
    for (int c = 0; c < components; ++c) {
      const double v = raw(base + c);
      s += v * v;
    }
    return float(sqrt(s));
  }
};

template <class T, int D>
struct FillRenderData {
  const Vec<T, D>* x;
  const uint8_t* kind;
  ColourSource colour;
  float* positions;  // 4 per particle
  float* colours;    // 1 per particle
  ColourSource radius;  // the kRadiusField (data nullptr: the engine has none, every radius is 0)
  float* radii;         // 1 per particle, or nullptr: not asked for

  EJ_INLINE void operator()(std::size_t i) const {
    float* p = positions + 4 * i;
    for (int d = 0; d < 3; ++d) p[d] = d < D ? float(x[i][d]) : 0.0f;
    p[3] = float(kind[i]);
    colours[i] = colour.value(i);
    if (radii) radii[i] = radius.data ? radius.value(i) : 0.0f;
  }
};

// Whether the engine's fields give particles their own radius (RenderBuffers::radii worth asking for).
template <class Fields>
bool has_particle_radii(const Fields& fields) {
  for (const FieldInfo& f : fields)
    if (f.name == kRadiusField && f.components == 1) return true;
  return false;
}

struct ColourRange {
  float lo, hi;
  float fluid;  // 1 when the range came from fluid particles
};

// Fluid particles only, so that walls (hidden or dimmed in the view, with extrapolated densities and
// zero velocities) do not stretch the automatic range; the solver falls back to all particles when
// there is no fluid.
struct MeasureColourRange {
  const uint8_t* kind;
  ColourSource colour;
  bool fluid_only;
  EJ_INLINE ColourRange operator()(std::size_t i) const {
    if (fluid_only && kind[i] != kFluid) return ColourRange{3.0e38f, -3.0e38f, 0.0f};
    const float v = colour.value(i);
    // NaN (a blowing-up run) must not poison the range: it compares false and is skipped.
    if (!(v == v)) return ColourRange{3.0e38f, -3.0e38f, 0.0f};
    return ColourRange{v, v, 1.0f};
  }
};

struct CombineColourRange {
  EJ_INLINE ColourRange operator()(const ColourRange& a, const ColourRange& b) const {
    return ColourRange{a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, a.fluid > b.fluid ? a.fluid : b.fluid};
  }
};

}  // namespace ejecta
