#pragma once
// The constant xi0 of the Sedov-Taylor blast wave, R(t) = xi0 (E t^2 / rho0)^(1/(d+2)), computed from
// Sedov's similarity equations (Sedov 1959, "Similarity and Dimensional Methods in Mechanics",
// ch. IV; the same ODEs as Landau & Lifshitz, "Fluid Mechanics", sec. 106). With lambda = r / R,
// delta = 2/(d+2), v = R' f(lambda), rho = rho0 g(lambda), p = rho0 R'^2 q(lambda), mass, momentum and
// entropy conservation give, with A = f - lambda:
//   A g' + g f' = -(d-1) g f / lambda
//   A f' + q'/g = -(delta-1)/delta f
//   A (q'/q - gamma g'/g) = -2 (delta-1)/delta
// integrated inwards from the strong-shock values f = 2/(gamma+1), g = (gamma+1)/(gamma-1),
// q = 2/(gamma+1) at lambda = 1 (RK4). The energy E = S_d rho0 delta^2 R^(d+2) t^-2 I,
// I = int_0^1 (g f^2 / 2 + q/(gamma-1)) lambda^(d-1) dlambda, S_d = 2, 2 pi, 4 pi, so
// xi0 = (S_d delta^2 I)^(-1/(d+2)). Checked in the tests against Taylor's 1.033 (d = 3, gamma = 1.4).
#include <cmath>

namespace ejecta::test {

inline double sedov_xi0(int d, double gamma) {
  const double pi = 3.14159265358979323846;
  const double delta = 2.0 / (d + 2), c = (delta - 1) / delta;
  auto rhs = [&](double lam, const double* y, double* dy) {
    const double f = y[0], g = y[1], q = y[2], A = f - lam;
    const double fp = (-c * f + (q / g) * (gamma / A) * (d - 1) * f / lam + (q / g) * 2 * c / A) /
                      (A - gamma * q / (g * A));
    const double gp = (-(d - 1) * g * f / lam - g * fp) / A;
    const double qp = q * (gamma * gp / g - 2 * c / A);
    dy[0] = fp;
    dy[1] = gp;
    dy[2] = qp;
  };
  double y[3] = {2 / (gamma + 1), (gamma + 1) / (gamma - 1), 2 / (gamma + 1)};
  const int n = 200000;
  const double lam_end = 1e-6, step = -(1.0 - lam_end) / n;
  double lam = 1.0, I = 0;
  auto integrand = [&](double l, const double* s) {
    return (0.5 * s[1] * s[0] * s[0] + s[2] / (gamma - 1)) * std::pow(l, d - 1);
  };
  for (int k = 0; k < n; ++k) {
    double k1[3], k2[3], k3[3], k4[3], t[3];
    const double i0 = integrand(lam, y);
    rhs(lam, y, k1);
    for (int j = 0; j < 3; ++j) t[j] = y[j] + 0.5 * step * k1[j];
    rhs(lam + 0.5 * step, t, k2);
    for (int j = 0; j < 3; ++j) t[j] = y[j] + 0.5 * step * k2[j];
    rhs(lam + 0.5 * step, t, k3);
    for (int j = 0; j < 3; ++j) t[j] = y[j] + step * k3[j];
    rhs(lam + step, t, k4);
    for (int j = 0; j < 3; ++j) y[j] += step / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    lam += step;
    I += 0.5 * (i0 + integrand(lam, y)) * (-step);  // trapezoid
  }
  const double S = d == 1 ? 2.0 : d == 2 ? 2 * pi : 4 * pi;
  return std::pow(S * delta * delta * I, -1.0 / (d + 2));
}

}  // namespace ejecta::test
