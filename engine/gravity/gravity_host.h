#pragma once
// Self-gravity of a set of particles given in host vectors, on a chosen backend and precision: upload,
// one tree build and walk (self_gravity.h), download. For tests (against direct summation, CPU
// against CUDA) and host tools; the solvers call SelfGravity directly. Backend::Cuda throws
// std::runtime_error without the CUDA backend or a device.
#include "core/types.h"
#include "gravity/self_gravity.h"

#include <vector>

namespace ejecta {

struct GravityHostResult {
  std::vector<double> acc;  // n * dim, G included
  std::vector<double> phi;  // n, G included
  GravityTreeStats stats;
};

// x: n * dim positions, m: n masses, h: n smoothing lengths (softening when s.softening == 0).
GravityHostResult self_gravity_on(Backend backend, Precision precision, int dim, const std::vector<double>& x,
                                  const std::vector<double>& m, const std::vector<double>& h,
                                  const GravitySettings& s);

}  // namespace ejecta
