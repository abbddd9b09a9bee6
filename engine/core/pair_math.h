#pragma once
// The pair terms' reciprocal, division and square root, exact or (Fast) the GPU's approximations
// (issue 18, fluid.force_specialised = fast). On the device in float rcp.approx.ftz.f32 and sqrt.approx.ftz.f32
// (PTX ISA, "rcp", "sqrt": an error of the order of 1 ulp, against the correctly rounded sequences nvcc
// otherwise emits, each a dozen instructions and a branch; measured in docs/benchmarks.md, 2026-12-05
// 23:09); in double rcp.approx.ftz.f64 and rsqrt.approx.f64 (about 22 bits) refined by FMA steps to about
// 1 ulp, without the correctly rounded sequences' special-case branches and slow-path calls (the double
// specialised pass: 134 -> 122 registers for sm_90, so 4 blocks of 128 a SM instead of 3). On the CPU
// exactly 1 / x, a / b and sqrt(x): the CPU's results of a pass compiled with Fast are those of the exact
// one bit for bit, and the GPU's differ from them by round-off, as FMA contraction already makes them differ.
#include "core/hd.h"

#include <type_traits>

namespace ejecta {

enum class PairOp { Rcp, Sqrt };

// 1 / x or sqrt(x); with Fast, on the device, the approximate PTX instruction (in double refined by FMA steps).
template <bool Fast, PairOp Op, class T>
EJ_INLINE T pair_op(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (Fast && std::is_same_v<T, float>) {
    float r;
    // .ftz: the one MUFU instruction. Without it ptxas wraps each in a guard for subnormal inputs and
    // results (two compares, two selects and a scaling multiply: 5.5% of the default force pass's
    // instructions under Nsight Compute on the H100, 2026-12-06); for normal x the result is the same bit
    // for bit, and the pair terms' arguments are normal: densities, r^2 + eta^2 >= 0.01 h^2, and r^2,
    // whose subnormal values (coincident particles to 1e-19 m) read as 0, where the kernel is finite.
    if constexpr (Op == PairOp::Rcp) asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    else asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
  }
  if constexpr (Fast && std::is_same_v<T, double>) {
    double y;
    if constexpr (Op == PairOp::Rcp) {
      // rcp.approx.ftz.f64 (about 2^-22 relative), then one cubic step: with e = 1 - x y,
      // 1 / x = y / (1 - e) = y (1 + e + e^2 + ...), so y (1 + e + e^2) leaves e^3 (about 2^-66), below
      // the last bit of the double: three FMA, no branch.
      asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
      const double e = fma(-x, y, 1.0);
      return fma(y, fma(e, e, e), y);
    } else {
      // rsqrt.approx.f64, then two Goldschmidt steps on s = x y -> sqrt(x) and h = y / 2 -> 1 / (2 sqrt(x))
      // (quadratic: 2^-22 -> 2^-44 -> 2^-88); x = 0 (coincident particles) gives 0 and a NaN stays NaN, as
      // with sqrt.
      asm("rsqrt.approx.f64 %0, %1;" : "=d"(y) : "d"(x));
      double s = x * y, h = 0.5 * y;
      double r = fma(-s, h, 0.5);
      s = fma(s, r, s), h = fma(h, r, h);
      r = fma(-s, s, x);
      s = fma(r, h, s);
      return x > 0.0 ? s : x;
    }
  }
#endif
  if constexpr (Op == PairOp::Rcp) return T(1) / x;
  else return sqrt(x);
}

template <bool Fast, class T>
EJ_INLINE T pair_rcp(T x) {
  return pair_op<Fast, PairOp::Rcp>(x);
}

template <bool Fast, class T>
EJ_INLINE T pair_sqrt(T x) {
  return pair_op<Fast, PairOp::Sqrt>(x);
}

template <bool Fast, class T>
EJ_INLINE T pair_div(T a, T b) {
#if defined(__CUDA_ARCH__)
  if constexpr (Fast) return a * pair_rcp<Fast>(b);
#endif
  return a / b;
}

}  // namespace ejecta
