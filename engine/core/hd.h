#pragma once
// Host/device annotations: the physics is written once and compiled both by g++ (CPU backend, OpenMP)
// and by nvcc (CUDA backend). Under g++ the annotations vanish.
#if defined(__CUDACC__)
#define EJ_HD __host__ __device__
#define EJ_INLINE __host__ __device__ __forceinline__
#else
#define EJ_HD
#define EJ_INLINE inline
#endif

#include <cmath>

namespace ejecta {
// Unqualified sqrt/pow/floor/isfinite in host/device code pick the float or double overload on both
// compilers (nvcc maps the std:: overloads to its device math library).
using std::floor;
using std::isfinite;
using std::pow;
using std::sqrt;
}  // namespace ejecta
