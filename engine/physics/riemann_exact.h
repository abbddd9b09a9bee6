#pragma once
// Exact solution of the Riemann problem of the Euler equations for an ideal gas, after Toro (2009),
// "Riemann Solvers and Numerical Methods for Fluid Dynamics", 3rd ed., ch. 4: the star pressure from
// Newton iterations on f_L(p) + f_R(p) + u_R - u_L = 0 (eq. 4.5-4.7, start value the two-rarefaction
// guess, eq. 4.46), then sampling at x/t (sec. 4.5, fig. 4.14). Host code: the Sod tests compare
// against it and the viewer overlays it on the profile plots of 1D gas scenes (app/viewer/profile_plot.h).
#include <algorithm>
#include <cmath>

namespace ejecta {

struct GasState {
  double rho, u, p;  // density, velocity, pressure
};

class ExactRiemann {
 public:
  ExactRiemann(GasState L, GasState R, double gamma) : L_(L), R_(R), g_(gamma) {
    cL_ = std::sqrt(g_ * L_.p / L_.rho);
    cR_ = std::sqrt(g_ * R_.p / R_.rho);
    const double z = (g_ - 1) / (2 * g_);
    double p = std::pow((cL_ + cR_ - 0.5 * (g_ - 1) * (R_.u - L_.u)) /
                            (cL_ / std::pow(L_.p, z) + cR_ / std::pow(R_.p, z)),
                        1 / z);  // two-rarefaction guess
    for (int it = 0; it < 100; ++it) {
      double fL, dL, fR, dR;
      f(p, L_, cL_, fL, dL);
      f(p, R_, cR_, fR, dR);
      const double pn = std::max(1e-14, p - (fL + fR + R_.u - L_.u) / (dL + dR));
      const bool done = std::fabs(pn - p) < 1e-14 * (pn + p);
      p = pn;
      if (done) break;
    }
    ps_ = p;
    double fL, dL, fR, dR;
    f(p, L_, cL_, fL, dL);
    f(p, R_, cR_, fR, dR);
    us_ = 0.5 * (L_.u + R_.u) + 0.5 * (fR - fL);
  }

  double p_star() const { return ps_; }
  double u_star() const { return us_; }
  // Star densities left and right of the contact (eq. 4.53/4.57 and 4.60/4.61).
  double rho_star_left() const { return star_rho(L_, ps_ > L_.p); }
  double rho_star_right() const { return star_rho(R_, ps_ > R_.p); }
  // Speeds (valid for the Sod configuration: rarefaction left, shock right).
  double rarefaction_head() const { return L_.u - cL_; }
  double rarefaction_tail() const { return us_ - cL_ * std::pow(ps_ / L_.p, (g_ - 1) / (2 * g_)); }
  double shock_speed() const {
    return R_.u + cR_ * std::sqrt((g_ + 1) / (2 * g_) * ps_ / R_.p + (g_ - 1) / (2 * g_));
  }

  // The solution at x/t = s (the initial discontinuity at x = 0).
  GasState sample(double s) const {
    const double g = g_;
    if (s <= us_) {  // left of the contact
      if (ps_ > L_.p) {  // left shock
        const double sl = L_.u - cL_ * std::sqrt((g + 1) / (2 * g) * ps_ / L_.p + (g - 1) / (2 * g));
        return s <= sl ? L_ : GasState{rho_star_left(), us_, ps_};
      }
      const double head = L_.u - cL_, tail = rarefaction_tail();
      if (s <= head) return L_;
      if (s >= tail) return GasState{rho_star_left(), us_, ps_};
      const double c = 2 / (g + 1) * (cL_ + 0.5 * (g - 1) * (L_.u - s));
      const double u = 2 / (g + 1) * (cL_ + 0.5 * (g - 1) * L_.u + s);
      const double rho = L_.rho * std::pow(c / cL_, 2 / (g - 1));
      return GasState{rho, u, L_.p * std::pow(c / cL_, 2 * g / (g - 1))};
    }
    if (ps_ > R_.p) {  // right shock
      return s >= shock_speed() ? R_ : GasState{rho_star_right(), us_, ps_};
    }
    const double head = R_.u + cR_, tail = us_ + cR_ * std::pow(ps_ / R_.p, (g - 1) / (2 * g));
    if (s >= head) return R_;
    if (s <= tail) return GasState{rho_star_right(), us_, ps_};
    const double c = 2 / (g + 1) * (cR_ - 0.5 * (g - 1) * (R_.u - s));
    const double u = 2 / (g + 1) * (-cR_ + 0.5 * (g - 1) * R_.u + s);
    return GasState{R_.rho * std::pow(c / cR_, 2 / (g - 1)), u, R_.p * std::pow(c / cR_, 2 * g / (g - 1))};
  }

 private:
  // Toro eq. 4.6/4.7 and their derivatives.
  void f(double p, const GasState& K, double cK, double& fv, double& dv) const {
    const double g = g_;
    if (p > K.p) {
      const double A = 2 / ((g + 1) * K.rho), B = (g - 1) / (g + 1) * K.p;
      const double q = std::sqrt(A / (p + B));
      fv = (p - K.p) * q;
      dv = q * (1 - 0.5 * (p - K.p) / (B + p));
    } else {
      fv = 2 * cK / (g - 1) * (std::pow(p / K.p, (g - 1) / (2 * g)) - 1);
      dv = 1 / (K.rho * cK) * std::pow(p / K.p, -(g + 1) / (2 * g));
    }
  }
  double star_rho(const GasState& K, bool shock) const {
    const double g = g_, r = ps_ / K.p;
    if (shock) return K.rho * (r + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * r + 1);
    return K.rho * std::pow(r, 1 / g);
  }

  GasState L_, R_;
  double g_, cL_, cR_, ps_ = 0, us_ = 0;
};

}  // namespace ejecta
