// Smoothing kernels: normalisation, vanishing mean gradient, the first-moment identity
// sum_j V (x_j - x_i) (x) grad_i W_ij = I (which fails for a wrong gradient scale or sign), and F = W'/r
// against a finite difference of W.
#include "physics/kernels.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ejecta {
namespace {

struct KernelCase {
  KernelType type;
  const char* name;
};

// Sums over a lattice of spacing dx around a point offset from the lattice (so the sums are not
// symmetric by construction): volume, gradient and first moment.
template <int D>
void check_lattice_sums(KernelType type, double h, double dx, double tol) {
  const auto k = SmoothingKernel<double, D>::make(type, h);
  const double offset[3] = {0.31 * dx, 0.17 * dx, 0.43 * dx};
  const int n = static_cast<int>(std::ceil(2 * h / dx)) + 2;
  double vol = 1;
  for (int d = 0; d < D; ++d) vol *= dx;
  double sum_w = 0, grad[3] = {0, 0, 0}, moment[3][3] = {{0}};
  int idx[3] = {-n, -n, -n};
  const int span = 2 * n + 1;
  long total = 1;
  for (int d = 0; d < D; ++d) total *= span;
  for (long c = 0; c < total; ++c) {
    long rem = c;
    double xij[3] = {0, 0, 0}, r2 = 0;
    for (int d = 0; d < D; ++d) {
      idx[d] = static_cast<int>(rem % span) - n;
      rem /= span;
      xij[d] = offset[d] - idx[d] * dx;  // x_i - x_j
      r2 += xij[d] * xij[d];
    }
    const double r = std::sqrt(r2);
    sum_w += k.W(r) * vol;
    const double F = k.F(r);
    for (int a = 0; a < D; ++a) {
      grad[a] += xij[a] * F * vol;
      for (int b = 0; b < D; ++b) moment[a][b] += -xij[a] * xij[b] * F * vol;  // (x_j - x_i) grad W
    }
  }
  EXPECT_NEAR(sum_w, 1.0, tol) << "normalisation, D=" << D;
  for (int a = 0; a < D; ++a) {
    EXPECT_NEAR(grad[a] * h, 0.0, tol) << "mean gradient, D=" << D;
    for (int b = 0; b < D; ++b)
      EXPECT_NEAR(moment[a][b], a == b ? 1.0 : 0.0, 10 * tol) << "moment " << a << b << ", D=" << D;
  }
}

class KernelTest : public ::testing::TestWithParam<KernelCase> {};

TEST_P(KernelTest, NormalisedWithZeroMeanGradient1D) { check_lattice_sums<1>(GetParam().type, 0.1, 0.001, 1e-5); }
TEST_P(KernelTest, NormalisedWithZeroMeanGradient2D) { check_lattice_sums<2>(GetParam().type, 0.1, 0.002, 1e-4); }
TEST_P(KernelTest, NormalisedWithZeroMeanGradient3D) { check_lattice_sums<3>(GetParam().type, 0.1, 0.005, 1e-3); }

template <int D>
void check_derivative(KernelType type) {
  const double h = 0.7;
  const auto k = SmoothingKernel<double, D>::make(type, h);
  for (double q = 0.05; q < 1.99; q += 0.05) {
    const double r = q * h, e = 1e-6;
    const double numeric = (k.W(r + e) - k.W(r - e)) / (2 * e);
    EXPECT_NEAR(k.F(r) * r, numeric, 1e-6 * (1 + std::fabs(numeric))) << "q=" << q << " D=" << D;
  }
  EXPECT_EQ(k.W(2.0 * h), 0.0);
  EXPECT_EQ(k.F(2.0 * h + 1e-9), 0.0);
  EXPECT_GT(k.W(0.0), 0.0);
}

TEST_P(KernelTest, GradientMatchesFiniteDifference) {
  check_derivative<1>(GetParam().type);
  check_derivative<2>(GetParam().type);
  check_derivative<3>(GetParam().type);
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelTest,
                         ::testing::Values(KernelCase{KernelType::CubicSpline, "CubicSpline"},
                                           KernelCase{KernelType::WendlandC2, "WendlandC2"}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ejecta
