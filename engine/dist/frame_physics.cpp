#include "dist/frame_physics.h"

#include "integrators/step_monitor.h"
#include "physics/solid_model.h"
#include "physics/eos_tait.h"
#include "physics/wcsph_model.h"

#include <limits>
#include <stdexcept>

namespace ejecta::dist {

namespace {

template <class E>
E* field_ptr(const FrameData& f, const char* name) {
  const FieldData* fd = f.find(name);
  if (!fd) throw std::logic_error(std::string("distributed run: the frame lacks field '") + name + "'");
  return reinterpret_cast<E*>(const_cast<unsigned char*>(fd->bytes.data()));
}

template <class T, int D>
ParticleView<T, D> view_of(const FrameData& f) {
  ParticleView<T, D> pv{};
  pv.x = host_as_device(field_ptr<Vec<T, D>>(f, "position"));  // the functors run here, on the host
  pv.v = host_as_device(field_ptr<Vec<T, D>>(f, "velocity"));
  pv.rho = host_as_device(field_ptr<T>(f, "density"));
  pv.a = host_as_device(field_ptr<Vec<T, D>>(f, "acceleration"));
  pv.m = host_as_device(field_ptr<T>(f, "mass"));
  pv.kind = host_as_device(field_ptr<uint8_t>(f, "kind"));
  return pv;
}

template <class T, int D>
RowExtremes extremes(const FrameData& f) {
  // No density range here: the local solver's own check reports bad particles.
  const MeasureExtremes<T, D> m{view_of<T, D>(f), std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()};
  T v2 = T(0), a2 = T(0);
  for (std::size_t i = 0; i < f.particles; ++i) {
    const StepExtremes<T> e = m(i);
    if (e.max_v2 > v2) v2 = e.max_v2;
    if (e.max_a2 > a2) a2 = e.max_a2;
  }
  return RowExtremes{double(v2), double(a2)};
}

template <class T, int D>
DiagnosticSums sums(const FrameData& f, const std::vector<uint8_t>& use, const LiquidConstants& k) {
  const TaitEos<T> eos = TaitEos<T>::make(k.rho0, k.c0, k.gamma);
  MeasureDiagnosticSums<T, D> m{view_of<T, D>(f), {0, 0, 0}, double(eos.rho0), double(eos.gamma), double(eos.B),
                                k.summation};
  for (int d = 0; d < D; ++d) m.gravity[d] = double(T(k.gravity[d]));
  DiagnosticSums s = MeasureDiagnosticSums<T, D>::zero();
  const CombineDiagnosticSums combine;
  for (std::size_t i = 0; i < f.particles; ++i)
    if (use[i]) s = combine(s, m(i));
  return s;
}

template <class T, int D>
DiagnosticSums motion_sums(const FrameData& f, const std::vector<uint8_t>& use, const double gravity[3]) {
  SolidView<T, D> pv{};
  pv.x = host_as_device(field_ptr<Vec<T, D>>(f, "position"));
  pv.v = host_as_device(field_ptr<Vec<T, D>>(f, "velocity"));
  pv.u = host_as_device(field_ptr<T>(f, "internal_energy"));
  pv.m = host_as_device(field_ptr<T>(f, "mass"));
  MeasureMotionEnergySums<T, D, SolidView<T, D>> m{pv, {0, 0, 0}, nullptr};
  for (int d = 0; d < D; ++d) m.gravity[d] = double(T(gravity[d]));
  DiagnosticSums s{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0, 0};
  const CombineDiagnosticSums combine;
  for (std::size_t i = 0; i < f.particles; ++i)
    if (use[i]) s = combine(s, m(i));
  return s;
}

bool is_double(const FrameData& f) {
  const FieldData* x = f.find("position");
  return x && x->info.scalar == ScalarType::Float64;
}

}  // namespace

RowExtremes frame_extremes(const FrameData& f, int dim) {
  const bool dbl = is_double(f);
  switch (dim) {
    case 1: return dbl ? extremes<double, 1>(f) : extremes<float, 1>(f);
    case 2: return dbl ? extremes<double, 2>(f) : extremes<float, 2>(f);
    default: return dbl ? extremes<double, 3>(f) : extremes<float, 3>(f);
  }
}

DiagnosticSums frame_sums(const FrameData& f, int dim, const std::vector<uint8_t>& use, const LiquidConstants& k) {
  const bool dbl = is_double(f);
  switch (dim) {
    case 1: return dbl ? sums<double, 1>(f, use, k) : sums<float, 1>(f, use, k);
    case 2: return dbl ? sums<double, 2>(f, use, k) : sums<float, 2>(f, use, k);
    default: return dbl ? sums<double, 3>(f, use, k) : sums<float, 3>(f, use, k);
  }
}

DiagnosticSums frame_motion_sums(const FrameData& f, int dim, const std::vector<uint8_t>& use, const double gravity[3]) {
  const bool dbl = is_double(f);
  switch (dim) {
    case 1: return dbl ? motion_sums<double, 1>(f, use, gravity) : motion_sums<float, 1>(f, use, gravity);
    case 2: return dbl ? motion_sums<double, 2>(f, use, gravity) : motion_sums<float, 2>(f, use, gravity);
    default: return dbl ? motion_sums<double, 3>(f, use, gravity) : motion_sums<float, 3>(f, use, gravity);
  }
}

}  // namespace ejecta::dist
