// Material models for solids (issue 6): Tillotson and Murnaghan EOS, von Mises and Lundborg yield,
// Grady-Kipp/Weibull damage helpers and the material library. Constants and check values from
// ../shared/reference/materials.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "materials/material_library.h"
#include "physics/damage_grady_kipp.h"
#include "physics/eos_murnaghan.h"
#include "physics/eos_tillotson.h"
#include "physics/yield_strength.h"

using namespace ejecta;

namespace {

using LD = long double;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// Basalt (Benz & Asphaug 1999), from materials.md.
TillotsonEos<double> basalt() {
  return TillotsonEos<double>::make(2700, 26.7e9, 26.7e9, 487e6, 4.72e6, 18.2e6, 0.5, 1.5, 5, 5);
}
// Ice (Benz & Asphaug 1999): a different a, b, alpha.
TillotsonEos<double> ice() {
  return TillotsonEos<double>::make(917, 9.47e9, 9.47e9, 10e6, 0.773e6, 3.04e6, 0.3, 0.1, 10, 5);
}

// The materials.md formulas, written out independently in long double, and the sum of the
// magnitudes of their terms (the scale of the round-off).
LD ref_compressed(const TillotsonEos<double>& e, LD rho, LD u, LD* scale = nullptr) {
  const LD eta = rho / e.rho0, mu = eta - 1;
  const LD t1 = (LD(e.a) + LD(e.b) / (1 + u / (LD(e.E0) * eta * eta))) * rho * u;
  const LD t2 = LD(e.A) * mu, t3 = LD(e.B) * mu * mu;
  // mu = eta - 1 carries the rounding of eta: A eta and B eta |mu| set its scale.
  if (scale) *scale = std::fabs(t1) + LD(e.A) * eta + std::fabs(LD(e.B)) * eta * (std::fabs(mu) + 1);
  return t1 + t2 + t3;
}
LD ref_expanded(const TillotsonEos<double>& e, LD rho, LD u, LD* scale = nullptr) {
  const LD eta = rho / e.rho0, mu = eta - 1, z = LD(e.rho0) / rho - 1;
  const LD t1 = LD(e.a) * rho * u;
  const LD t2 = LD(e.b) * rho * u / (1 + u / (LD(e.E0) * eta * eta));
  const LD t3 = LD(e.A) * mu * std::exp(-LD(e.beta) * z);
  const LD g = std::exp(-LD(e.alpha) * z * z);
  if (scale)
    *scale = std::fabs(t1) + (std::fabs(t2) + LD(e.A) * eta * std::exp(-LD(e.beta) * z)) * g;
  return t1 + (t2 + t3) * g;
}

}  // namespace

// ---------------------------------------------------------------- Tillotson

TEST(Tillotson, ReferenceStateHasZeroPressure) {
  for (const auto& e : {basalt(), ice()}) {
    EXPECT_EQ(e.pressure(e.rho0, 0.0), 0.0);
    // At rho0, u = 0: c^2 = dp/drho = A/rho0 exactly (the p/rho^2 term vanishes).
    EXPECT_NEAR(e.sound_speed(e.rho0, 0.0), std::sqrt(e.A / e.rho0),
                4 * kEps * std::sqrt(e.A / e.rho0));
  }
}

TEST(Tillotson, BranchesEqualTheFormulasToRoundOff) {
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> U(0, 1);
  double worst[4] = {0, 0, 0, 0};  // compressed, cold-expanded, expanded, interpolated
  for (const auto& e : {basalt(), ice()}) {
    for (int n = 0; n < 4000; ++n) {
      const int zone = n % 4;
      double rho, u;
      LD ref, scale = 0;
      if (zone == 0) {  // compressed: rho >= rho0, any u
        rho = e.rho0 * (1 + 2 * U(rng));
        u = 5 * e.E_cv * U(rng);
        ref = ref_compressed(e, rho, u, &scale);
      } else if (zone == 1) {  // cold: rho < rho0, u <= E_iv
        rho = e.rho0 * (0.3 + 0.7 * U(rng));
        u = e.E_iv * U(rng);
        ref = ref_compressed(e, rho, u, &scale);
      } else if (zone == 2) {  // expanded: rho < rho0, u >= E_cv
        rho = e.rho0 * (0.01 + 0.99 * U(rng));
        u = e.E_cv * (1 + 10 * U(rng));
        ref = ref_expanded(e, rho, u, &scale);
      } else {  // in between: linear in u
        rho = e.rho0 * (0.05 + 0.95 * U(rng));
        u = e.E_iv + (e.E_cv - e.E_iv) * U(rng);
        LD sc, se;
        const LD s = (LD(u) - e.E_iv) / (LD(e.E_cv) - e.E_iv);
        ref = (1 - s) * ref_compressed(e, rho, u, &sc) + s * ref_expanded(e, rho, u, &se);
        scale = sc + se;
      }
      const double p = e.pressure(rho, u);
      const double err = double(std::fabs(LD(p) - ref) / scale);
      worst[zone] = std::max(worst[zone], err);
      ASSERT_LE(err, 8 * kEps) << "zone " << zone << " rho " << rho << " u " << u;
    }
  }
  std::printf("Tillotson |p - formula| / scale of the terms: compressed %.2g, cold %.2g, expanded %.2g, "
              "interpolated %.2g\n",
              worst[0], worst[1], worst[2], worst[3]);
}

TEST(Tillotson, ContinuousAcrossTheInterpolationZone) {
  for (const auto& e : {basalt(), ice()}) {
    for (double f : {0.05, 0.3, 0.6, 0.9, 0.999}) {
      const double rho = f * e.rho0;
      // The endpoints are the branches themselves, bit for bit.
      EXPECT_EQ(e.pressure(rho, e.E_iv), e.pressure_compressed(rho, e.E_iv));
      EXPECT_EQ(e.pressure(rho, e.E_cv), e.pressure_expanded(rho, e.E_cv));
      // Approached from inside the zone, p tends to each branch (one ulp in u away).
      const double up = std::nextafter(e.E_iv, 1e300), dn = std::nextafter(e.E_cv, 0.0);
      const double pc = e.pressure_compressed(rho, e.E_iv), pe = e.pressure_expanded(rho, e.E_cv);
      const double scale = std::fabs(pc) + std::fabs(pe) + e.A * 1e-12;
      EXPECT_NEAR(e.pressure(rho, up), pc, 1e-12 * scale);
      EXPECT_NEAR(e.pressure(rho, dn), pe, 1e-12 * scale);
      // And no jump anywhere on a fine scan through the zone.
      double prev = e.pressure(rho, e.E_iv * 0.99);
      const int n = 20000;
      double max_jump = 0;
      for (int i = 0; i <= n; ++i) {
        const double u = e.E_iv * 0.99 + (e.E_cv * 1.01 - e.E_iv * 0.99) * i / n;
        const double p = e.pressure(rho, u);
        max_jump = std::max(max_jump, std::fabs(p - prev));
        prev = p;
      }
      // A step of du changes p by at most |dp/du| du; the branches' dp/du are ~ rho (a + b).
      const double du = (e.E_cv * 1.01 - e.E_iv * 0.99) / n;
      EXPECT_LT(max_jump, 4 * (std::fabs(pe - pc) / (e.E_cv - e.E_iv) + rho * (e.a + e.b)) * du);
    }
    // Across rho = rho0 (for u inside the zone) the compressed and interpolated forms meet.
    const double u = 0.5 * (e.E_iv + e.E_cv);
    const double below = e.pressure(std::nextafter(e.rho0, 0.0), u), at = e.pressure(e.rho0, u);
    EXPECT_NEAR(below, at, 1e-9 * std::fabs(at));
  }
}

TEST(Tillotson, SoundSpeedMatchesFiniteDifferences) {
  // c^2 = (dp/drho)_u + p/rho^2 (dp/du)_rho, against central differences away from the kinks.
  const auto e = basalt();
  const double pts[][2] = {{1.3 * e.rho0, 1e6},  {1.05 * e.rho0, 3e7}, {0.9 * e.rho0, 1e6},
                           {0.8 * e.rho0, 1e7},  {0.5 * e.rho0, 5e7},  {0.2 * e.rho0, 2e8},
                           {0.95 * e.rho0, 1.5e7}};
  for (const auto& q : pts) {
    const double rho = q[0], u = q[1];
    const double hr = 1e-6 * rho, hu = 1e-6 * u;
    const double dpr = (e.pressure(rho + hr, u) - e.pressure(rho - hr, u)) / (2 * hr);
    const double dpu = (e.pressure(rho, u + hu) - e.pressure(rho, u - hu)) / (2 * hu);
    double ar, au;
    e.derivatives(rho, u, ar, au);
    EXPECT_NEAR(ar, dpr, 1e-6 * (std::fabs(dpr) + e.A / e.rho0)) << rho << " " << u;
    EXPECT_NEAR(au, dpu, 1e-6 * (std::fabs(dpu) + rho)) << rho << " " << u;
    const double c2 = dpr + e.pressure(rho, u) / (rho * rho) * dpu;
    EXPECT_NEAR(e.sound_speed2_adiabatic(rho, u), c2, 1e-6 * (std::fabs(c2) + e.A / e.rho0));
    EXPECT_GE(e.sound_speed(rho, u), e.cs_min);
  }
  // Deep tension of a cold solid (mu < -A/(2B)): c^2 < 0, floored at cs_min.
  EXPECT_LT(e.sound_speed2_adiabatic(0.3 * e.rho0, 0.0), 0.0);
  EXPECT_EQ(e.sound_speed(0.3 * e.rho0, 0.0), e.cs_min);
  EXPECT_NEAR(e.cs_min, 0.1 * std::sqrt(e.A / e.rho0), 1e-12 * e.cs_min);
}

TEST(Tillotson, FloatInstantiation) {
  const auto d = basalt();
  const auto f = TillotsonEos<float>::make(2700, 26.7e9, 26.7e9, 487e6, 4.72e6, 18.2e6, 0.5, 1.5,
                                           5, 5);
  for (double r : {0.5, 0.9, 1.0, 1.2})
    for (double u : {0.0, 4e6, 1e7, 3e7}) {
      const double pd = d.pressure(r * d.rho0, u);
      const double pf = f.pressure(float(r * d.rho0), float(u));
      EXPECT_NEAR(pf, pd, 1e-5 * (std::fabs(pd) + d.A * 1e-3)) << r << " " << u;
    }
}

// ---------------------------------------------------------------- Murnaghan

TEST(Murnaghan, FormulaAndBulkModulus) {
  const auto e = MurnaghanEos<double>::make(2700, 26.7e9, 5.5);
  EXPECT_EQ(e.pressure(e.rho0), 0.0);
  for (double f : {0.7, 0.95, 1.0, 1.01, 1.3, 2.0}) {
    const LD rho = f * e.rho0;
    const LD ref = LD(e.K0) / e.n * (std::pow(rho / LD(e.rho0), LD(e.n)) - 1);
    const double p = e.pressure(double(rho));
    EXPECT_LE(std::fabs(LD(p) - ref), 8 * kEps * (std::fabs(ref) + e.K0 / e.n)) << f;
    EXPECT_NEAR(e.sound_speed(double(rho)) * e.sound_speed(double(rho)),
                e.bulk_modulus(double(rho)) / double(rho), 1e-13 * e.K0 / e.rho0);
  }
  // K = rho dp/drho at rho0 equals K0 (central difference).
  const double h = 1e-5 * e.rho0;
  const double K = e.rho0 * (e.pressure(e.rho0 + h) - e.pressure(e.rho0 - h)) / (2 * h);
  EXPECT_NEAR(K, e.K0, 1e-8 * e.K0);
  EXPECT_EQ(e.bulk_modulus(e.rho0), e.K0);
  // n = 1 is the linear EOS p = c0^2 (rho - rho0) of Gray, Monaghan & Swift (2001).
  const auto lin = MurnaghanEos<double>::make(1010, 1.6667e7, 1.0);
  const double c0 = lin.sound_speed(1010);
  EXPECT_NEAR(lin.pressure(1020), c0 * c0 * 10, 1e-9 * c0 * c0 * 10);
  std::printf("Murnaghan rho dp/drho at rho0 = %.9g (K0 = %.9g)\n", K, e.K0);
}

// ---------------------------------------------------------------- Yield

TEST(Lundborg, CheckValuesOfMaterialsMd) {
  // Granite set "from Collins et al. 2004": Y0 = 90 MPa, mu_i = 2, Y_M = 1.5 GPa, Y_d0 = 0, mu_d = 0.8.
  const LundborgStrength<double> g{90e6, 2.0, 1.5e9, 0.0, 0.8};
  const double P[] = {0, 100e6, 1e9, 10e9};
  const double Y[] = {90.00e6, 265.16e6, 916.98e6, 1407.14e6};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(g.intact(P[i]), Y[i], 0.01e6) << P[i];
    EXPECT_EQ(g.yield(P[i], 0.0), g.intact(P[i]));
    EXPECT_EQ(g.yield(P[i], 1.0), g.damaged(P[i]));
    std::printf("Lundborg Y_i(%g Pa) = %.4f MPa (check %.2f), Y_d = %.4f MPa\n", P[i],
                g.intact(P[i]) / 1e6, Y[i] / 1e6, g.damaged(P[i]) / 1e6);
  }
  // Y_d <= Y_i everywhere, and Y(D) lies between them.
  for (double p = -1e9; p <= 50e9; p += 1e7) {
    const double yi = g.intact(p), yd = g.damaged(p);
    ASSERT_LE(yd, yi) << p;
    ASSERT_GE(yd, 0.0);
    ASSERT_GE(yi, 0.0);
    const double y = g.yield(p, 0.3);
    ASSERT_GE(y, yd - 1e-9 * yi);
    ASSERT_LE(y, yi + 1e-9 * yi);
  }
  // The high-pressure limit is Y_M; tension: tangent at P = 0, zero strength from -Y0/mu_i.
  EXPECT_NEAR(g.intact(1e15), 1.5e9, 1e3);
  EXPECT_NEAR(g.intact(-10e6), 70e6, 1e-6);
  EXPECT_EQ(g.intact(-45e6), 0.0);
  EXPECT_EQ(g.damaged(-1e6), 0.0);
}

TEST(VonMises, ReturnPutsStressOnTheSurfaceAndLeavesInsideAlone) {
  std::mt19937_64 rng(61);
  std::normal_distribution<double> N(0, 1);
  const double Y = 3.5e9;
  double worst = 0;
  for (int n = 0; n < 2000; ++n) {
    StressTensor<double, 3> s3;
    StressTensor<double, 2> s2;
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) s3(i, j) = s3(j, i) = N(rng) * 1e9 * (1 + n % 7);
    for (int i = 0; i < 2; ++i)
      for (int j = i; j < 2; ++j) s2(i, j) = s2(j, i) = N(rng) * 1e9 * (1 + n % 7);
    s3 = deviator(s3);
    s2 = deviator(s2);
    const StressTensor<double, 3> t3 = s3;
    const StressTensor<double, 2> t2 = s2;
    const double before3 = std::sqrt(3 * second_invariant_j2(s3));
    const double before2 = std::sqrt(3 * second_invariant_j2(s2));
    const double f3 = von_mises_return(s3, Y);
    von_mises_return(s2, Y);
    const double after3 = std::sqrt(3 * second_invariant_j2(s3));
    const double after2 = std::sqrt(3 * second_invariant_j2(s2));
    if (before3 > Y) {
      worst = std::max(worst, std::fabs(after3 - Y) / Y);
      ASSERT_NEAR(after3, Y, 4 * kEps * Y);
      // The factor on J2 is the literature's f = min(1, Y^2/(3 J2)).
      ASSERT_NEAR(f3 * f3, std::min(1.0, Y * Y / (before3 * before3)), 4 * kEps);
      ASSERT_NEAR(trace(s3), 0.0, 1e-14 * before3);  // still deviatoric
    } else {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) ASSERT_EQ(s3(i, j), t3(i, j));
    }
    if (before2 > Y) {
      ASSERT_NEAR(after2, Y, 4 * kEps * Y);
    } else {
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) ASSERT_EQ(s2(i, j), t2(i, j));
    }
  }
  std::printf("von Mises return: max |sqrt(3 J2) - Y| / Y = %.2g\n", worst);
  StressTensor<double, 3> z = StressTensor<double, 3>::zero();
  EXPECT_EQ(von_mises_return(z, Y), 1.0);
  StressTensor<double, 3> any = z;
  any(0, 1) = any(1, 0) = 1.0;
  EXPECT_EQ(von_mises_return(any, 0.0), 0.0);  // no strength: no deviatoric stress
  EXPECT_EQ(any(0, 1), 0.0);
}

TEST(Yield, MeltWeakening) {
  const double Tm = 1500, xi = 1.2;
  EXPECT_EQ(melt_weakening_factor(Tm, Tm, xi), 0.0);
  EXPECT_EQ(melt_weakening_factor(2 * Tm, Tm, xi), 0.0);
  EXPECT_EQ(melt_weakening_factor(0.0, Tm, xi), 1.0);
  EXPECT_NEAR(melt_weakening_factor(300.0, Tm, xi), std::tanh(1.2 * 4.0), 1e-15);
  double prev = 1;
  for (double T = 10; T < Tm; T += 10) {
    const double f = melt_weakening_factor(T, Tm, xi);
    ASSERT_LE(f, prev);
    ASSERT_GE(f, 0.0);
    prev = f;
  }
}

// ---------------------------------------------------------------- Damage

TEST(Damage, WeibullActivationStrains) {
  const double k = 4e35, m = 9.0;  // basalt, Benz & Asphaug 1999
  const double V = 1.0;            // a 1 m^3 body
  double prev = 0;
  for (int j = 1; j <= 100000; ++j) {
    const double e = weibull_activation_strain(double(j), k, m, V);
    ASSERT_GT(e, prev);
    prev = e;
  }
  // n(eps) = k V eps^m flaws activate below eps: eps_j <= eps exactly for j <= k V eps^m.
  for (double eps : {1e-4, 2e-4, 3.3e-4, 5e-4}) {
    const double n = weibull_flaw_count(eps, k, m, V);
    const auto j = static_cast<long long>(std::floor(n));
    if (j >= 1) EXPECT_LE(weibull_activation_strain(double(j), k, m, V), eps * (1 + 1e-12));
    EXPECT_GT(weibull_activation_strain(double(j + 1), k, m, V), eps * (1 - 1e-12));
    EXPECT_NEAR(weibull_flaw_count(weibull_activation_strain(double(j + 1), k, m, V), k, m, V),
                double(j + 1), 1e-9 * double(j + 1));
  }
  // Per-particle assignment (Benz & Asphaug 1995): every particle gets a flaw, the lists ascend,
  // about N ln N flaws in all, and together they are eps_1 .. eps_total.
  const std::size_t N = 2000;
  const WeibullFlaws f = assign_weibull_flaws(N, k, m, V, 42);
  const auto total = f.offset[N];
  std::vector<double> all = f.strains;
  for (std::size_t i = 0; i < N; ++i) {
    ASSERT_GE(f.count(i), 1);
    for (auto q = f.offset[i] + 1; q < f.offset[i + 1]; ++q)
      ASSERT_LT(f.strains[q - 1], f.strains[q]);
  }
  const double nlnn = N * std::log(double(N));
  EXPECT_GT(total, 0.7 * nlnn);
  EXPECT_LT(total, 1.5 * nlnn);
  std::sort(all.begin(), all.end());
  for (std::int64_t j = 0; j < total; ++j)
    ASSERT_EQ(all[j], weibull_activation_strain(double(j + 1), k, m, V));
  std::printf("Weibull flaws: N = %zu, %lld flaws (N ln N = %.0f), eps_1 = %.3g, eps_max = %.3g\n",
              N, static_cast<long long>(total), nlnn, all.front(), all.back());
  const WeibullFlaws g = assign_weibull_flaws(N, k, m, V, 42);
  EXPECT_EQ(g.strains, f.strains);  // deterministic
  EXPECT_EQ(active_flaw_count(f.strains.data(), int(f.count(0)), 0.0), 0);
  EXPECT_EQ(active_flaw_count(f.strains.data(), int(f.count(0)), 1.0), int(f.count(0)));
}

TEST(Damage, GrowthAndWeakening) {
  const double K = 26.7e9, mu = 22.7e9, rho = 2700;  // basalt
  const double cl = std::sqrt((K + 4.0 / 3.0 * mu) / rho);
  EXPECT_NEAR(crack_growth_speed(K, mu, rho), 0.4 * cl, 1e-12 * cl);
  EXPECT_NEAR(youngs_modulus(K, mu), 9 * K * mu / (3 * K + mu), 1.0);
  const double E = youngs_modulus(K, mu);
  EXPECT_NEAR(local_tensile_strain(1e8, 0.5, E), 1e8 / (0.5 * E), 1e-20);
  EXPECT_EQ(local_tensile_strain(-1e8, 0.0, E), 0.0);
  // Constant n_act: D^(1/3) grows linearly at n_act c_g / R_s until the cap n_act / n_tot.
  const double cg = crack_growth_speed(K, mu, rho), Rs = 0.01;
  const double rate = damage_cuberoot_rate(3, cg, Rs);
  double D = 0;
  const double dt = 1e-9;
  for (int i = 0; i < 100; ++i) D = advance_damage(D, 3, 10, cg, Rs, dt);
  EXPECT_NEAR(std::cbrt(D), 100 * dt * rate, 1e-9 * 100 * dt * rate);
  for (int i = 0; i < 100000; ++i) D = advance_damage(D, 3, 10, cg, Rs, dt);
  EXPECT_DOUBLE_EQ(D, 0.3);
  EXPECT_EQ(advance_damage(D, 0, 10, cg, Rs, dt), D);  // nothing active: no growth
  // Weakening: tension reduced, compression kept; deviatoric stress scaled by (1 - D).
  EXPECT_EQ(damaged_pressure(-1e8, 0.25), -0.75e8);
  EXPECT_EQ(damaged_pressure(1e8, 0.25), 1e8);
  StressTensor<double, 2> s = StressTensor<double, 2>::zero();
  s(0, 0) = 2;
  s(1, 1) = -2;
  s(0, 1) = s(1, 0) = 1;
  damage_deviatoric(s, 0.25);
  EXPECT_EQ(s(0, 0), 1.5);
  EXPECT_EQ(s(0, 1), 0.75);
}

// ---------------------------------------------------------------- Library

namespace {
std::string library_error(const std::string& text) {
  try {
    parse_material_library(text, "bad.ini");
  } catch (const MaterialError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a MaterialError";
  return "";
}
const char* kMinimal =
    "[basalt]\n"                // 1
    "eos = tillotson\n"         // 2
    "rho0 = 2700\n"             // 3
    "tillotson.A = 26.7e9\n"    // 4
    "tillotson.B = 26.7e9\n"    // 5
    "tillotson.E0 = 487e6\n"    // 6
    "tillotson.E_iv = 4.72e6\n" // 7
    "tillotson.E_cv = 18.2e6\n" // 8
    "tillotson.a = 0.5\n"       // 9
    "tillotson.b = 1.5\n"       // 10
    "tillotson.alpha = 5\n"     // 11
    "tillotson.beta = 5\n";     // 12
std::string replace(std::string s, const std::string& from, const std::string& to) {
  const std::size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}
}  // namespace

TEST(MaterialLibrary, LoadsEveryMaterial) {
  const MaterialLibrary lib = load_material_library(EJECTA_SOURCE_DIR "/assets/materials.ini");
  for (const char* name : {"basalt", "granite", "iron", "ice", "aluminium", "water", "rubber", "elastic_nu0",
                           "brittle_nu0"})
    ASSERT_TRUE(lib.count(name)) << name;
  EXPECT_EQ(lib.size(), 12u);  // + porous_basalt, regolith, porous_iron (issue 15)
  const Material& br = lib.at("brittle_nu0");  // the tension bar's test material
  EXPECT_TRUE(br.damage);
  EXPECT_EQ(br.weibull_k, 2e28);
  EXPECT_EQ(br.weibull_m, 9.0);
  EXPECT_EQ(br.shear_modulus, 5e6);
  EXPECT_EQ(br.specific_heat, 0.0);  // not given: no melt weakening
  const Material& b = lib.at("basalt");
  EXPECT_EQ(b.eos, EosKind::Tillotson);
  EXPECT_EQ(b.tillotson.A, 26.7e9);
  EXPECT_EQ(b.tillotson.E_cv, 18.2e6);
  EXPECT_EQ(b.shear_modulus, 22.7e9);
  EXPECT_EQ(b.yield, YieldKind::VonMises);
  EXPECT_EQ(b.von_mises.Y0, 3.5e9);
  EXPECT_TRUE(b.damage);
  EXPECT_EQ(b.weibull_k, 4e35);
  EXPECT_EQ(b.weibull_m, 9.0);
  EXPECT_EQ(b.tillotson.pressure(b.rho0, 0.0), 0.0);
  const Material& g = lib.at("granite");
  EXPECT_EQ(g.yield, YieldKind::Lundborg);
  EXPECT_NEAR(g.lundborg.intact(100e6), 265.16e6, 0.01e6);
  EXPECT_EQ(g.bulk_modulus, 50e9);
  EXPECT_FALSE(g.damage);
  EXPECT_EQ(lib.at("iron").tillotson.B, 105e9);
  EXPECT_EQ(lib.at("ice").weibull_m, 9.6);
  EXPECT_EQ(lib.at("ice").tillotson.alpha, 10.0);
  EXPECT_EQ(lib.at("aluminium").bulk_modulus, 75.2e9);  // defaults to tillotson.A
  EXPECT_EQ(lib.at("water").yield, YieldKind::None);
  EXPECT_EQ(lib.at("water").shear_modulus, 0.0);
  const Material& r = lib.at("rubber");
  EXPECT_EQ(r.eos, EosKind::Murnaghan);
  EXPECT_EQ(r.murnaghan.n, 1.0);
  EXPECT_EQ(r.yield, YieldKind::Elastic);
  EXPECT_EQ(r.line, 132);  // its [rubber] header, for messages about it
}

TEST(MaterialLibrary, RejectsBadFilesWithFileAndLine) {
  EXPECT_EQ(parse_material_library(kMinimal, "ok.ini").at("basalt").tillotson.b, 1.5);
  EXPECT_EQ(library_error(replace(kMinimal, "tillotson.E_iv", "tillotson.Eiv")),
            "bad.ini:7: [basalt] unknown key 'tillotson.Eiv' (did you mean 'tillotson.E_iv'?)");
  EXPECT_EQ(library_error(replace(kMinimal, "tillotson.A = 26.7e9\n", "")),
            "bad.ini:1: [basalt] missing tillotson.A (needed by eos = tillotson)");
  EXPECT_EQ(library_error(replace(kMinimal, "rho0 = 2700", "rho0 =")),
            "bad.ini:3: [basalt] rho0 has no value");
  EXPECT_EQ(library_error(replace(kMinimal, "rho0 = 2700", "rho0 = 27oo")),
            "bad.ini:3: [basalt] rho0 = '27oo' is not a number");
  EXPECT_EQ(library_error(replace(kMinimal, "rho0 = 2700", "rho0 = -1")),
            "bad.ini:3: [basalt] rho0 = -1 must be > 0");
  EXPECT_EQ(library_error(replace(kMinimal, "eos = tillotson", "eos = tilotson")),
            "bad.ini:2: [basalt] eos = 'tilotson' is not one of: tillotson, murnaghan");
  EXPECT_EQ(library_error(replace(kMinimal, "tillotson.b = 1.5", "tillotson.b 1.5")),
            "bad.ini:10: syntax error in 'tillotson.b 1.5': expected 'key = value', a [material] "
            "header or a ; comment");
  EXPECT_EQ(library_error(std::string(kMinimal) + "[basalt]\nrho0 = 1\n"),
            "bad.ini:13: material [basalt] is defined twice (first at line 1); put all its keys under one header");
  EXPECT_EQ(library_error(std::string(kMinimal) + "rho0 = 1\n"),
            "bad.ini:13: [basalt] rho0 is given twice (first at line 3)");
  EXPECT_EQ(library_error(std::string(kMinimal) + "yield = von_mises\n"),
            "bad.ini:13: [basalt] yield = von_mises needs shear_modulus > 0");
  EXPECT_EQ(library_error(std::string(kMinimal) +
                          "shear_modulus = 22.7e9\nyield = von_mises\n"),
            "bad.ini:1: [basalt] missing von_mises.Y0 (needed by yield = von_mises)");
  EXPECT_EQ(library_error(std::string(kMinimal) + "weibull.k = 4e35\n"),
            "bad.ini:1: [basalt] missing weibull.m (needed by tensile damage (weibull.k and "
            "weibull.m go together))");
  EXPECT_EQ(library_error(replace(kMinimal, "tillotson.E_cv = 18.2e6", "tillotson.E_cv = 1e6")),
            "bad.ini:8: [basalt] tillotson.E_cv must exceed tillotson.E_iv");
  EXPECT_EQ(library_error(std::string(kMinimal) +
                          "shear_modulus = 22.7e9\nyield = von_mises\nvon_mises.Y0 = 3.5e9\n"
                          "lundborg.mu_i = 2\n"),
            "bad.ini:16: [basalt] lundborg.mu_i does not apply to yield = von_mises");
  EXPECT_EQ(library_error(std::string(kMinimal) + "murnaghan.K0 = 1e9\n"),
            "bad.ini:13: [basalt] murnaghan.K0 does not apply to eos = tillotson");
  EXPECT_EQ(library_error(std::string(kMinimal) + "A = 1e9\n"),
            "bad.ini:13: [basalt] unknown key 'A' (did you mean 'tillotson.A'?)");
  EXPECT_EQ(library_error("rho0 = 1\n"),
            "bad.ini:1: 'rho0' is outside any material; put it under a [material] header");
  try {
    load_material_library("/nonexistent/materials.ini");
    ADD_FAILURE() << "expected a MaterialError";
  } catch (const MaterialError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open material library '/nonexistent/"),
              std::string::npos)
        << e.what();
  }
}
