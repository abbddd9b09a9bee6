#include "gravity/gravity_host.h"

#include "exec/exec_cpu.h"
#include "gravity/gravity_roundtrip.h"

#include <stdexcept>
#include <string>

namespace ejecta {

#ifdef EJECTA_WITH_CUDA
std::string cuda_device_problem();  // solver/cuda_device.cu
// gravity_cuda.cu
GravityHostResult cuda_self_gravity(Precision p, int dim, const std::vector<double>& x, const std::vector<double>& m,
                                    const std::vector<double>& h, const GravitySettings& s);
#endif

GravityHostResult self_gravity_on(Backend backend, Precision precision, int dim, const std::vector<double>& x,
                                  const std::vector<double>& m, const std::vector<double>& h,
                                  const GravitySettings& s) {
  if (dim < 1 || dim > 3 || x.size() != m.size() * std::size_t(dim) || h.size() != m.size())
    throw std::invalid_argument("self_gravity_on: positions, masses and smoothing lengths do not match");
  if (backend == Backend::Cpu) return self_gravity_dispatch<CpuExec>(precision, dim, x, m, h, s);
#ifdef EJECTA_WITH_CUDA
  const std::string problem = cuda_device_problem();
  if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
  return cuda_self_gravity(precision, dim, x, m, h, s);
#else
  throw std::runtime_error("CUDA backend unavailable: this build has no CUDA backend");
#endif
}

}  // namespace ejecta
