#pragma once
// The pair terms' reciprocal, division and square root, exact or (Fast) the GPU's approximations in float
// (issue 18, fluid.force_specialised = fast): on the device rcp.approx.f32 and sqrt.approx.f32 (PTX ISA,
// "rcp", "sqrt": an error of the order of 1 ulp, against the correctly rounded sequences nvcc otherwise
// emits, each a dozen instructions and a branch; measured in docs/benchmarks.md, 2026-12-05 23:09);
// everywhere else, in double and on the CPU, exactly 1 / x, a / b and sqrt(x). So the CPU's results of a
// pass compiled with Fast are those of the exact one bit for bit, and the GPU's differ from them by
// round-off, as FMA contraction already makes them differ.
#include "core/hd.h"

#include <type_traits>

namespace ejecta {

enum class PairOp { Rcp, Sqrt };

// 1 / x or sqrt(x); with Fast, in float on the device, the one approximate PTX instruction.
template <bool Fast, PairOp Op, class T>
EJ_INLINE T pair_op(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (Fast && std::is_same_v<T, float>) {
    float r;
    if constexpr (Op == PairOp::Rcp) asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    else asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
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
  if constexpr (Fast && std::is_same_v<T, float>) return a * pair_rcp<Fast>(b);
#endif
  return a / b;
}

}  // namespace ejecta
