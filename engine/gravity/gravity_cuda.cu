// The CUDA instantiation of gravity_host.h's round trip (tests: CPU against CUDA).
#include "exec/exec_cuda.cuh"
#include "gravity/gravity_roundtrip.h"

namespace ejecta {

GravityHostResult cuda_self_gravity(Precision p, int dim, const std::vector<double>& x, const std::vector<double>& m,
                                    const std::vector<double>& h, const GravitySettings& s) {
  return self_gravity_dispatch<CudaExec>(p, dim, x, m, h, s);
}

}  // namespace ejecta
