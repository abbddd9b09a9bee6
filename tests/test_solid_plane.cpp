// solid.plane = strain | stress in 2D: the longitudinal speed of a free bar with nu != 0.
// A thin bar in uniaxial stress has c = sqrt(E/rho); a 2D bar is a plate seen edge-on: in plane
// strain (eps_zz = 0, infinite depth) its faces in z are held and c = sqrt(E/((1 - nu^2) rho)), in
// plane stress (sigma_zz = 0, a thin plate, free faces in z) c = sqrt(E/rho) (the long-wavelength
// limit of the symmetric Lamb mode S0 of a plate, e.g. Graff, Wave Motion in Elastic Solids, sec. 8.1,
// and of the bar, Landau & Lifshitz, Theory of Elasticity, sec. 25).
#include "sim_test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ejecta {
namespace {

// A clearly named test material (not a real substance): E = 1e7 Pa, nu = 0.3, rho0 = 1000 kg/m^3,
// K = E/(3 (1 - 2 nu)), mu = E/(2 (1 + nu)), linear EOS (Murnaghan n = 1).
const double kE = 1e7, kNu = 0.3, kRho = 1000;

std::string write_test_material() {
  std::ifstream in(test::source_dir() + "/assets/materials.ini");
  std::stringstream text;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "\n[test_elastic_nu03]\neos = murnaghan\nrho0 = %.17g\nmurnaghan.K0 = %.17g\nmurnaghan.n = 1\n"
                "shear_modulus = %.17g\nyield = elastic\n",
                kRho, kE / (3 * (1 - 2 * kNu)), kE / (2 * (1 + kNu)));
  text << in.rdbuf() << buf;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("ejecta-test-solid-plane-" + std::to_string(::getpid()) + ".ini"))
                               .string();
  std::ofstream(path) << text.str();
  return path;
}

// The bar of bar2d.ini (L = 1 m, 20 rows, halves colliding at +-0.5 m/s): the mean x velocity of the
// left half changes sign at t_k = (2k - 1) L/(2c); c = 2L/(t_3 - t_1) (as tests/test_solid.cpp).
// Also checks kinetic + internal energy to 1% (plane stress adds the S_zz eps_zz work to du/dt).
double bar_speed(const std::string& plane, double until) {
  const std::string lib = write_test_material();
  auto sim = make_simulation(test::shipped_scene("bar2d.ini", {"solid.materials=" + lib, "solid.plane=" + plane,
                                                               "solid_block.1.material=test_elastic_nu03",
                                                               "solid_block.2.material=test_elastic_nu03"}),
                             Backend::Cpu);
  std::remove(lib.c_str());
  const std::size_t n = sim->particle_count();
  double t_prev = 0, v_prev = 0;
  bool first = true;
  std::vector<double> zeros;
  const double e0 = sim->diagnostics().total;
  double drift = 0;
  test::run_until(*sim, until, [&](const Simulation& s) {
    drift = std::max(drift, std::fabs(s.diagnostics().total / e0 - 1));
    const HostParticles h = s.download();
    double sum = 0;
    std::size_t cnt = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (h.id[i] < n / 2) sum += h.velocity[i * 2], ++cnt;
    const double v = sum / double(cnt);
    if (!first && (v_prev > 0) != (v > 0)) zeros.push_back(t_prev + (s.time() - t_prev) * v_prev / (v_prev - v));
    first = false;
    t_prev = s.time(), v_prev = v;
    return true;
  });
  EXPECT_LT(drift, 0.01) << plane;
  EXPECT_GE(zeros.size(), 3u) << plane;
  if (zeros.size() < 3) return 0;
  const double c = 2.0 / (zeros[2] - zeros[0]);
  std::printf("plane %s: zeros %.6f %.6f %.6f s, c = %.3f m/s; energy drift %.2e\n", plane.c_str(), zeros[0], zeros[1],
              zeros[2], c, drift);
  return c;
}

TEST(SolidPlane, BarSpeedIsSqrtEOverRhoInPlaneStressAndPlaneStrainInStrain) {
  const double c_stress = std::sqrt(kE / kRho);                     // 100 m/s
  const double c_strain = std::sqrt(kE / (kRho * (1 - kNu * kNu)));  // 104.83 m/s
  const double cs = bar_speed("stress", 0.034), ce = bar_speed("strain", 0.034);
  std::printf("plane stress: %.3f m/s vs %.3f (%+.2f%%); plane strain: %.3f vs %.3f (%+.2f%%)\n", cs, c_stress,
              100 * (cs / c_stress - 1), ce, c_strain, 100 * (ce / c_strain - 1));
  EXPECT_LT(std::fabs(cs / c_stress - 1), 0.02);
  EXPECT_LT(std::fabs(ce / c_strain - 1), 0.02);
}

TEST(SolidPlane, PlaneStressIsRefusedOutside2D) {
  ParamSet p = test::shipped_scene("bar2d.ini", {"solid.plane=stress", "scene.dim=1", "solid_block.1.max=0.5",
                                                      "solid_block.2.max=1"});
  try {
    make_simulation(p, Backend::Cpu);
    FAIL() << "expected a ParamError";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("solid.plane"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ejecta
