// The 3D impact of scenes/impact3d.ini (a basalt sphere into a basalt half-space at 5 km/s) at a
// coarse spacing on the CPU: conservation, the peak shock pressure against the planar
// impedance-match estimate on the Tillotson Hugoniot, and the onset of the crater; and (GPU only)
// the same run on the CPU and CUDA backends in double.
#include "command_output.h"
#include "materials/material_library.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace ejecta {
namespace {

// The impact at R/dp = 8: target [-1, 1]^2 x [-1, 0] m (32 x 32 x 16 = 16384 particles, 4 projectile
// radii wide, 2 deep), the projectile sphere of radius 0.5 m (2176 particles) as in the scene.
std::vector<std::string> small_impact() {
  return {"solid_block.1.min=-1, -1, -1", "solid_block.1.max=1, 1, 0", "solid_block.1.dp=0.0625",
          "solid_block.2.dp=0.0625"};
}

struct HugoniotState {
  double rho, sigma_n, pressure, u_s;
};

// The shocked state of an elastic-perfectly-plastic Tillotson solid at particle velocity u_p, from
// rest at rho0, u = 0 (Rankine-Hugoniot jump conditions, e.g. Melosh 1989, "Impact Cratering",
// eqs. 3.1.1-3.1.3, with the normal stress sigma_n in place of the pressure):
//   rho0 U_s = rho (U_s - u_p)             mass
//   sigma_n = rho0 U_s u_p                 momentum  =>  u_p^2 = sigma_n (1/rho0 - 1/rho)
//   e = sigma_n (1/rho0 - 1/rho) / 2       energy
// with sigma_n = P(rho, e) + 2/3 Y behind a plastic shock in uniaxial strain (von Mises: S_zz = -2/3 Y;
// the elastic precursor is neglected, see the test). For each rho the fixed point in sigma_n is
// found by bisection (P grows with e at a rate below 1 per unit sigma_n here), then rho by bisection
// on u_p(rho), which grows monotonically.
HugoniotState tillotson_hugoniot(const Material& m, double u_p) {
  const double rho0 = m.rho0, Y = m.yield == YieldKind::VonMises ? m.von_mises.Y0 : 0.0;
  auto sigma_at = [&](double rho) {
    const double dv = 1 / rho0 - 1 / rho;
    double lo = 0, hi = 1e13;
    for (int it = 0; it < 200; ++it) {
      const double s = 0.5 * (lo + hi);
      const double g = m.tillotson.pressure(rho, 0.5 * s * dv) + 2.0 / 3.0 * Y - s;
      (g > 0 ? lo : hi) = s;
    }
    return 0.5 * (lo + hi);
  };
  double lo = rho0 * (1 + 1e-9), hi = 4 * rho0;
  for (int it = 0; it < 200; ++it) {
    const double rho = 0.5 * (lo + hi);
    const double up = std::sqrt(sigma_at(rho) * (1 / rho0 - 1 / rho));
    (up < u_p ? lo : hi) = rho;
  }
  HugoniotState h;
  h.rho = 0.5 * (lo + hi);
  h.sigma_n = sigma_at(h.rho);
  h.pressure = h.sigma_n - 2.0 / 3.0 * Y;
  h.u_s = h.sigma_n / (rho0 * u_p);
  return h;
}

// The planar limit first: two basalt slabs, 1 m each, in 1D (uniaxial strain, the state behind a
// plane shock), the upper one at -5 km/s, dp = 5 mm (200 + 200 particles), the same viscosity, CFL
// and artificial stress as the 3D scene. By t = 60 us the shocks have run 0.44 m into each slab;
// the target particles between x = -0.35 and -0.1 m (17 h to 60 h behind the front's start, 8 h
// ahead of its position) are in the plateau. Their mean pressure, density and velocity against the
// impedance-match state (u_p = v/2 on the Tillotson Hugoniot with strength, tillotson_hugoniot()).
TEST(Impact3D, PlanarImpactMatchesTheTillotsonHugoniot) {
  auto sim = make_simulation(test::shipped_scene("impact3d.ini", {"scene.dim=1", "solid_block.1.min=-1", "solid_block.1.max=0",
                                                                  "solid_block.1.dp=0.005", "solid_block.2.shape=box",
                                                                  "solid_block.2.center=0", "solid_block.2.min=0",
                                                                  "solid_block.2.max=1", "solid_block.2.dp=0.005",
                                                                  "solid_block.2.velocity=-5000, 0, 0"}),
                             Backend::Cpu);
  const Material basalt = sim->materials()[0];
  const HugoniotState hs = tillotson_hugoniot(basalt, 2500);
  test::run_until(*sim, 6e-5);
  const HostParticles h = sim->download();
  double p = 0, rho = 0, v = 0, pmax = 0;
  int cnt = 0;
  for (std::size_t i = 0; i < h.n; ++i) {
    pmax = std::max(pmax, h.pressure[i]);
    if (h.position[i] > -0.35 && h.position[i] < -0.1) p += h.pressure[i], rho += h.density[i], v += h.velocity[i], ++cnt;
  }
  ASSERT_GT(cnt, 20);
  p /= cnt, rho /= cnt, v /= cnt;
  std::printf("  planar, t = %.3g s (%ld steps): plateau P = %.2f GPa (Hugoniot %.2f), rho = %.0f (%.0f), v = %.0f m/s "
              "(-2500); max P %.2f GPa\n",
              sim->time(), sim->steps(), p * 1e-9, hs.pressure * 1e-9, rho, hs.rho, v, pmax * 1e-9);
  // Measured: P 46.87 GPa (+0.04%), rho 4056 kg/m^3 (-1.3%: the viscous shock's path heats slightly
  // more than the Hugoniot, so the same pressure at a slightly lower density), v -2500.0 m/s. The
  // pressure and velocity are fixed by momentum and mass conservation across the shock; tolerances
  // 2% (P), 3% (rho: the entropy error of the viscous profile), 0.5% (v).
  EXPECT_NEAR(p / hs.pressure, 1.0, 0.02);
  EXPECT_NEAR(rho / hs.rho, 1.0, 0.03);
  EXPECT_NEAR(v / -2500, 1.0, 0.005);
}

TEST(Impact3D, ConservesMomentumAndEnergyAndMatchesTheImpedanceMatch) {
  auto sim = make_simulation(test::shipped_scene("impact3d.ini", small_impact()), Backend::Cpu);
  const std::size_t n = sim->particle_count();
  const HostParticles h0 = sim->download();
  std::vector<char> projectile(n);  // by id: the projectile starts above z = 0
  for (std::size_t i = 0; i < n; ++i) projectile[h0.id[i]] = h0.position[3 * i + 2] > 0;
  std::size_t n_proj = 0;
  for (char c : projectile) n_proj += c;
  const Material basalt = sim->materials()[0];
  const double v0 = 5000, R = 0.5, dp = 0.0625;
  const HugoniotState hs = tillotson_hugoniot(basalt, 0.5 * v0);
  const double c0 = std::sqrt(basalt.tillotson.A / basalt.rho0);
  std::printf("  %zu particles (%zu projectile); Hugoniot at u_p = %.0f m/s: rho = %.0f kg/m^3, U_s = %.0f m/s "
              "(s = (U_s - c0)/u_p = %.3f with c0 = %.0f), sigma_n = %.2f GPa, P = %.2f GPa\n",
              n, n_proj, 0.5 * v0, hs.rho, hs.u_s, (hs.u_s - c0) / (0.5 * v0), c0, hs.sigma_n * 1e-9,
              hs.pressure * 1e-9);

  const Diagnostics d0 = sim->diagnostics();
  const double t_peak = 0.5 * R / v0, t_end = 2 * R / v0;
  double peak = 0, peak_t = 0, all_peak = 0, max_rel_de = 0;
  test::run_until(*sim, t_end, [&](const Simulation& s) {
    if (s.time() <= t_peak) {
      const HostParticles h = s.download();
      for (std::size_t i = 0; i < h.n; ++i) {
        all_peak = std::max(all_peak, h.pressure[i]);
        if (std::hypot(h.position[3 * i], h.position[3 * i + 1]) < 0.25 * R && h.pressure[i] > peak)
          peak = h.pressure[i], peak_t = s.time();
      }
    }
    const Diagnostics d = s.diagnostics();
    max_rel_de = std::max(max_rel_de, std::fabs(d.total - d0.total) / d0.total);
    return true;
  });
  const Diagnostics d1 = sim->diagnostics();
  std::printf("  %ld steps to t = %.3g s; peak pressure near the axis %.2f GPa at t = %.3g s (%.3f of the Hugoniot "
              "P), anywhere %.2f GPa; max |dE|/E = %.3g; dp_z/p_z = %.3g\n",
              sim->steps(), sim->time(), peak * 1e-9, peak_t, peak / hs.pressure, all_peak * 1e-9, max_rel_de,
              (d1.momentum[2] - d0.momentum[2]) / d0.momentum[2]);

  // Momentum: every pair force is antisymmetric, no gravity, no walls: round-off only (sums of n
  // terms of size m v carry ~sqrt(n) 1e-16 relative error; measured 9e-15).
  for (int c = 0; c < 3; ++c) EXPECT_LT(std::fabs(d1.momentum[c] - d0.momentum[c]), 1e-11 * std::fabs(d0.momentum[2])) << c;
  // Energy: the SPH equations conserve kinetic + internal energy exactly in time-continuous form
  // without artificial stress; what remains is the leapfrog error (second order, with shocks) and
  // the work of the artificial stress, which the energy equation leaves out (Gray et al. 2001).
  // Measured 4.4e-4 over the 157 steps; the bound 2e-3 is five times that.
  EXPECT_LT(max_rel_de, 2e-3);

  // Impedance match (identical materials: u_p = v0/2 on both sides of the contact). The peak over
  // t <= R/(2 v0) of the pressure of the particles within R/4 of the axis, where the contact is
  // locally planar. PlanarImpactMatchesTheTillotsonHugoniot shows the plateau itself is right to
  // 0.1% in 1D, with a start-up overshoot at the contact of +16% (max P 54 GPa). In 3D the shock
  // on the axis rises over the first ~2 h of its travel (the SPH shock width, 3 h, is a third of the
  // projectile radius here) while the contact disc grows, and the lateral release from its edge
  // arrives before a plateau forms, so the peak carries the start-up overshoot: measured 59.1 GPa,
  // 1.26 P_H. Tolerance 0.35: the overshoot plus the finite-resolution ramp (the peak depends on
  // h/R); a wrong Hugoniot state (e.g. the bulk modulus or u_p = v0 instead of v0/2) is off by a
  // factor of 2 or more. Off the axis, projectile particles at the oblique contact edge reach
  // 2.8 P_H (the jetting zone of a curved contact and some interpenetration of the two lattices):
  // printed, not tested.
  EXPECT_NEAR(peak / hs.pressure, 1.0, 0.35);

  // The projectile decelerates and the crater opens: target material moves down and outwards.
  const HostParticles h1 = sim->download();
  std::vector<double> z0(n);
  for (std::size_t i = 0; i < n; ++i) z0[h0.id[i]] = h0.position[3 * i + 2];
  std::vector<double> r0(n);
  for (std::size_t i = 0; i < n; ++i) r0[h0.id[i]] = std::hypot(h0.position[3 * i], h0.position[3 * i + 1]);
  double pz_proj = 0, m_proj = 0, pz_target = 0, pr_near = 0, m_near = 0, dz_floor = 0;
  int n_floor = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double m = h1.mass[i], *x = &h1.position[3 * i], *v = &h1.velocity[3 * i];
    const uint32_t id = h1.id[i];
    if (projectile[id]) {
      pz_proj += m * v[2], m_proj += m;
      continue;
    }
    pz_target += m * v[2];
    const double r = std::hypot(x[0], x[1]);
    if (r < 2 * R && x[2] > -2 * R && r > 0) pr_near += m * (v[0] * x[0] + v[1] * x[1]) / r, m_near += m;
    if (z0[id] > -dp && r0[id] < 0.5 * R) dz_floor += x[2] - z0[id], ++n_floor;  // the top row under the impact
  }
  const double vz_proj = pz_proj / m_proj, vr_near = pr_near / m_near;
  dz_floor /= std::max(n_floor, 1);
  std::printf("  at t = %.3g s: projectile mean v_z = %.0f m/s; target p_z = %.3g kg m/s (%.3f of the initial); "
              "near-field mean radial v = %.0f m/s; crater floor (top row, r < R/2) moved %.3f m\n",
              sim->time(), vz_proj, pz_target, pz_target / d0.momentum[2], vr_near, dz_floor);
  // Measured at t = 2 R/v0: v_z = -1783 m/s (0.36 v0), target p_z 0.64 of the initial momentum,
  // near-field radial velocity +794 m/s, floor down by 0.44 m (0.88 R). Bounds at about half-way to the
  // trivial values (no deceleration, no transfer, no motion).
  EXPECT_GT(vz_proj, -0.6 * v0);
  EXPECT_LT(vz_proj, 0.0);
  EXPECT_GT(pz_target / d0.momentum[2], 0.4);
  EXPECT_GT(vr_near, 0.08 * v0);
  EXPECT_LT(dz_floor, -0.4 * R);
}


// CPU and CUDA on the same small impact in double, 100 steps (t = 1.2e-4 s: the shock has run about
// 0.9 m, and the von Mises limit, the Tillotson branches and the artificial stress are all active).
// Same functors and the same neighbour order on both; only rounding differs (FMA contraction in
// nvcc's code, the order of the dt reduction's ties). The bar (smooth, elastic, 500 steps) agreed to
// 1.7e-16 m; a strong shock amplifies rounding more, each branch (viscosity on approach, the yield
// return, tensile R) being continuous but not smooth. Tolerances, about 2e-7 of each scale:
// positions 1e-7 m (1.6e-6 dp, 1e-7 of the 1 m body), velocities 1e-3 m/s (2e-7 of the 5 km/s),
// densities 1e-3 kg/m^3 (4e-7 of rho0), total energy 1e-9 relative; a wrong component, index or
// missing term on one backend moves the shocked particles by metres per second at least (the
// shock's velocity jump is 2.5 km/s), and an unsynchronised or stale buffer by far more.
TEST(Impact3DBackendAgreement, CpuAndCudaAgreeOnTheImpact_Double) {
  if (!cuda_available()) GTEST_SKIP() << "no GPU: " << cuda_unavailable_reason();
  const ParamSet p = test::shipped_scene("impact3d.ini", small_impact());
  auto a = make_simulation(p, Backend::Cpu);
  auto b = make_simulation(p, Backend::Cuda);
  StopRule rule;
  rule.max_steps = 100;
  StepLoop(*a, rule).run();
  StepLoop(*b, rule).run();
  const test::ParticleDifference diff = test::max_difference_by_id(a->download(), b->download());
  const double e = a->diagnostics().total;
  const double de = std::fabs(e - b->diagnostics().total) / std::fabs(e);
  std::printf("  impact3d small double, 100 steps (t = %.3g s): max |dx| %.3g m, max |dv| %.3g m/s, "
              "max |drho| %.3g kg/m^3, energy %.3g\n",
              a->time(), diff.position, diff.velocity, diff.density, de);
  EXPECT_LT(std::fabs(a->time() - b->time()), 1e-9 * a->time());
  EXPECT_LT(diff.position, 1e-7);
  EXPECT_LT(diff.velocity, 1e-3);
  EXPECT_LT(diff.density, 1e-3);
  EXPECT_LT(de, 1e-9);
}

// `ejecta --benchmark SCENE` on the impact at a tiny size on the CPU: it runs, scales the spacings to
// the size (within the lattice's granularity: 10%) and reports the rates and bytes per particle.
TEST(Impact3DBenchmark, SolidSceneBenchmarkRunsAndReports) {
  const char* env = std::getenv("EJECTA_BINARY");
  const std::string bin = env && *env ? env : std::string(EJECTA_BINARY_DIR) + "/ejecta";
  if (access(bin.c_str(), X_OK) != 0) GTEST_SKIP() << "needs the ejecta binary at " << bin;
  const std::string cmd = "OMP_NUM_THREADS=1 '" + bin + "' --benchmark '" + test::source_dir() +
                          "/scenes/impact3d.ini' --benchmark-sizes 3000 --precision double --backend cpu --json 2>&1";
  const test::CommandOutput run = test::command_output(cmd);
  const std::string& out = run.out;
  ASSERT_TRUE(run.ok) << out;
  std::printf("%s", out.c_str());
  auto number = [&](const std::string& key) {
    const std::size_t at = out.find("\"" + key + "\": ");
    EXPECT_NE(at, std::string::npos) << key << " missing in: " << out;
    return at == std::string::npos ? -1.0 : std::atof(out.c_str() + at + key.size() + 4);
  };
  EXPECT_NE(out.find("\"scene\": \"impact3d\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"precision\": \"double\""), std::string::npos) << out;
  EXPECT_NEAR(number("particles") / 3000, 1.0, 0.1);
  EXPECT_EQ(number("dim"), 3);
  EXPECT_GT(number("particle_steps_per_s"), 0);
  EXPECT_GT(number("bytes_per_particle"), 100);  // about 30 doubles per particle at least
  EXPECT_GE(number("steps"), 20);
  // The phases come from a second, phase-timed run of the same steps (its device waits kept out of the
  // rate): they add up to that run's step.
  const double phased_step = number("ms_step_phase_timed");
  EXPECT_GT(phased_step, 0);
  const double phases =
      number("ms_sort") + number("ms_density") + number("ms_forces") + number("ms_integrate") + number("ms_gravity");
  EXPECT_NEAR(phases / phased_step, 1.0, 0.1);
}

}  // namespace
}  // namespace ejecta
