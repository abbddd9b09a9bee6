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

double shock_radius(const HostParticles& h, double dp, double rmax) {
  const int nb = int(rmax / dp);
  std::vector<double> sum(nb, 0.0);
  std::vector<int> cnt(nb, 0);
  for (std::size_t i = 0; i < h.n; ++i) {
    double r2 = 0;
    for (int d = 0; d < h.dim; ++d) r2 += h.position[i * h.dim + d] * h.position[i * h.dim + d];
    const int b = int(std::sqrt(r2) / dp);
    if (b < nb) {
      sum[b] += h.density[i];
      ++cnt[b];
    }
  }
  std::vector<double> rho(nb, 0.0);
  int peak = 0;
  for (int b = 0; b < nb; ++b) {
    rho[b] = cnt[b] ? sum[b] / cnt[b] : 0.0;
    if (rho[b] > rho[peak]) peak = b;
  }
  const double level = 0.5 * (rho[peak] + 1.0);
  for (int b = peak; b + 1 < nb; ++b)
    if (rho[b + 1] < level) return dp * (b + 0.5 + (rho[b] - level) / (rho[b] - rho[b + 1]));
  return 0;
}

// Returns the relative radius errors at the times; each is checked against `tolerance`.
std::vector<double> check_sedov(const char* scene, int dim, std::vector<double> times, double dp,
                                double tolerance, const std::vector<std::string>& overrides = {},
                                Backend backend = Backend::Cpu) {
  const ParamSet p = test::shipped_scene(scene, overrides);
  auto sim = make_simulation(p, backend);
  std::vector<double> errors;
  const double e0 = sim->diagnostics().total;
  const double xi0 = test::sedov_xi0(dim, p.real("gas.gamma"));
  for (double t : times) {
    test::run_until(*sim, t);
    const double exact = xi0 * std::pow(sim->time() * sim->time(), 1.0 / (dim + 2));
    const HostParticles hp = sim->download();
    const double r = shock_radius(hp, dp, 0.7);
    const double drift = std::fabs(sim->diagnostics().total - e0) / e0;
    std::printf("  %s t = %.4f (%ld steps): shock radius %.4f, exact %.4f (xi0 = %.4f): %.2f%%; energy drift %.2e\n",
                scene, sim->time(), sim->steps(), r, exact, xi0, 100 * (r / exact - 1), drift);
    EXPECT_LE(std::fabs(r / exact - 1), tolerance);
    EXPECT_LE(drift, 0.005);
    errors.push_back(r / exact - 1);
  }
  return errors;
}

// 100^2 particles: within the 3% at both times (measured +2.7% at t = 0.05, -0.2% at 0.1).
TEST(GasSedov, ShockRadius2D) { check_sedov("sedov2d.ini", 2, {0.05, 0.1}, 0.01, 0.03); }

// 25^3 particles, the most a one-core CI test affords with the uniform neighbour grid: the front is
// smeared over ~2h = 0.1 = 25-40% of R, and the half-way point of the smeared density spike sits
// outside the exact front by a fraction of h. Measured (when written): +11.3% at t = 0.02, +7.3% at
// t = 0.05; at dp = 0.025 (64000 particles, 3 minutes on two cores) +6.2% at t = 0.02, so the error
// falls about in proportion to h. The 3% is therefore checked at dp = 0.0125 on the GPU
// (ShockRadius3D_FineGpu); this CPU test holds the coarse run to its measured behaviour: the error
// shrinks as the blast grows relative to h and stays below 12% / 8%.
TEST(GasSedov, ShockRadius3DCoarse) {
  const std::vector<double> e = check_sedov("sedov3d.ini", 3, {0.02, 0.05}, 0.04, 0.12);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_LT(std::fabs(e[1]), 0.08);
  EXPECT_LT(std::fabs(e[1]), std::fabs(e[0]));
}

// The 3% at a resolution where the smearing allows it: 112^3 = 1.4 million particles on
// [-0.7, 0.7]^3 (R = 0.46 at t = 0.1), GPU only. Not yet run when written (no GPU on the author's
// machine); expected from the h-scaling of the coarse runs: about +2.3% at t = 0.05 and less at 0.1.
TEST(GasSedov, ShockRadius3D_FineGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  check_sedov("sedov3d.ini", 3, {0.05, 0.1}, 0.0125, 0.03,
              {"gas_block.1.min=-0.7, -0.7, -0.7", "gas_block.1.max=0.7, 0.7, 0.7", "gas_block.1.dp=0.0125",
               "gas.h_max=0.0225", "blast.radius=0.01875"},
              Backend::Cuda);
}

}  // namespace
}  // namespace ejecta


