// Sedov-Taylor point blasts (scenes/sedov2d.ini, sedov3d.ini): the shock radius against
// R = xi0 (E t^2 / rho)^(1/(d+2)) at two times, xi0 from Sedov's similarity equations
// (sedov_similarity.h; gamma = 5/3: 1.1538 in 2D, 1.1517 in 3D), and total energy.
// Shock radius of the particles: radial bins of width dp, mean density per bin; from the bin of
// the density peak outwards, the radius where the binned density falls to half-way between the peak
// and the ambient density (linear interpolation between bin centres): the middle of the smeared
// front, where the exact discontinuity sits for a symmetric smearing.
#include "sedov_similarity.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace ejecta {
namespace {

TEST(GasSedov, SimilarityConstantMatchesTheLiterature) {
  // Taylor (1950), Proc. R. Soc. A 201, 159: 1.033 for gamma = 1.4 in 3D; 1.004 in 2D (cylindrical)
  // and 1.152 for gamma = 5/3 in 3D are the values usually quoted with it (e.g. Kamm & Timmes 2007,
  // LA-UR-07-2849).
  EXPECT_NEAR(test::sedov_xi0(3, 1.4), 1.033, 0.001);
  EXPECT_NEAR(test::sedov_xi0(2, 1.4), 1.004, 0.001);
  EXPECT_NEAR(test::sedov_xi0(3, 5.0 / 3.0), 1.152, 0.001);
}

// field 0: density (ambient 1), field 1: radial velocity (ambient 0).
double shock_radius(const HostParticles& h, double dp, double rmax, int field = 0) {
  const int nb = int(rmax / dp);
  std::vector<double> sum(nb, 0.0);
  std::vector<int> cnt(nb, 0);
  for (std::size_t i = 0; i < h.n; ++i) {
    double r2 = 0;
    for (int d = 0; d < h.dim; ++d) r2 += h.position[i * h.dim + d] * h.position[i * h.dim + d];
    const double r = std::sqrt(r2);
    const int b = int(r / dp);
    double vr = 0;
    for (int d = 0; d < h.dim; ++d) vr += h.velocity[i * h.dim + d] * h.position[i * h.dim + d] / (r > 0 ? r : 1);
    if (b < nb) {
      sum[b] += field == 0 ? h.density[i] : vr;
      ++cnt[b];
    }
  }
  std::vector<double> rho(nb, 0.0);
  int peak = 0;
  for (int b = 0; b < nb; ++b) {
    rho[b] = cnt[b] ? sum[b] / cnt[b] : 0.0;
    if (rho[b] > rho[peak]) peak = b;
  }
  const double level = 0.5 * (rho[peak] + (field == 0 ? 1.0 : 0.0));
  for (int b = peak; b + 1 < nb; ++b)
    if (rho[b + 1] < level) return dp * (b + 0.5 + (rho[b] - level) / (rho[b] - rho[b + 1]));
  return 0;
}

void check_sedov(const char* scene, int dim, std::vector<double> times, double dp,
                 const std::vector<std::string>& overrides = {}) {
  const ParamSet p = test::shipped_scene(scene, overrides);
  auto sim = make_simulation(p, Backend::Cpu);
  const double e0 = sim->diagnostics().total;
  const double xi0 = test::sedov_xi0(dim, p.real("gas.gamma"));
  for (double t : times) {
    test::run_until(*sim, t);
    const double exact = xi0 * std::pow(sim->time() * sim->time(), 1.0 / (dim + 2));
    const HostParticles hp = sim->download();
    const double r = shock_radius(hp, dp, 0.5);
    const double rv = shock_radius(hp, dp, 0.5, 1);
    std::printf("  velocity-based radius %.4f: %.2f%%\n", rv, 100 * (rv / exact - 1));
    const double drift = std::fabs(sim->diagnostics().total - e0) / e0;
    std::printf("  %s t = %.4f (%ld steps): shock radius %.4f, exact %.4f (xi0 = %.4f): %.2f%%; energy drift %.2e\n",
                scene, sim->time(), sim->steps(), r, exact, xi0, 100 * (r / exact - 1), drift);
    EXPECT_LE(std::fabs(r / exact - 1), 0.03);
    EXPECT_LE(drift, 0.005);
  }
}

TEST(GasSedov, ShockRadius2D) { check_sedov("sedov2d.ini", 2, {0.05, 0.1}, 0.01); }

TEST(GasSedov, ShockRadius3D) { check_sedov("sedov3d.ini", 3, {0.02, 0.05}, 0.04); }

}  // namespace
}  // namespace ejecta

namespace ejecta {
namespace {
TEST(GasSedov, DISABLED_ShockRadius3DFine) {
  check_sedov("sedov3d.ini", 3, {0.02, 0.05}, 0.025,
              {"gas_block.1.dp=0.025", "gas.h_max=0.045", "blast.radius=0.0375"});
}
}  // namespace
}  // namespace ejecta
