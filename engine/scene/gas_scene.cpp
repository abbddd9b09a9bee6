// [gas_block.N] boxes and [blast] -> gas particles.
//
// Each box [min, max] holds the sites min + (k + offset) dp per axis, k = 0 .. round(extent/dp) - 1:
// offset 0.5 (default) centres the lattice in the box; 0 puts the first site on the min face (the
// interval [min, max)), 1 the last one on the max face ((min, max]), as in the Sod tube of the issue.
// A particle's mass is density * dp^dim, so boxes of equal rho dp^dim have equal masses (the usual
// Sod set-up). Its first smoothing length is eta (m/rho)^(1/dim), or gas.h when h is fixed.
// The blast adds blast.energy as internal energy to the particles within blast.radius of the centre,
// weighted by the cubic spline W(r, radius/2) and normalised so that sum m du = E exactly (Sedov
// point explosion, e.g. Rosswog & Price 2007, MNRAS 379, 915, sec. 4; Springel 2010 ARA&A 48, 391).
#include "scene/gas_scene.h"

#include "core/types.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ejecta {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw ParamError(where + ": " + message);
}

std::string where_of(const ParamSet& ps, const std::string& s) {
  for (const char* k : {"min", "max", "dp", "density", "internal_energy", "velocity", "offset"})
    if (ps.is_set(s + "." + k)) return ps.where(s + "." + k);
  return ps.where(s + ".min");
}

double spline_weight(double q) {  // cubic spline shape, support q < 2
  if (q >= 2) return 0;
  if (q < 1) return 1 - 1.5 * q * q + 0.75 * q * q * q;
  return 0.25 * (2 - q) * (2 - q) * (2 - q);
}

}  // namespace

SceneParticles build_gas_scene(const ParamSet& ps, const SizeCheck& check) {
  SceneParticles g;
  g.recipe = "gas";
  ps.check_dimension();
  const int dim = static_cast<int>(ps.integer("scene.dim"));
  g.dim = dim;
  g.gas.gamma = ps.real("gas.gamma");
  const auto g3 = ps.vec3("physics.gravity");
  for (int d = 0; d < dim; ++d) g.gravity[d] = g3[d];
  const double eta = ps.real("gas.eta");
  const bool fixed_h = ps.text("gas.h_mode") == "fixed";
  const double h_fixed = ps.real("gas.h");
  if (fixed_h && !(h_fixed > 0))
    fail(ps.where("gas.h"), "gas.h_mode = fixed needs gas.h > 0 (the smoothing length in m)");

  const std::vector<int> boxes = ps.indices("gas_block");
  if (boxes.empty())
    fail(ps.where("physics.model"),
         "physics.model = gas but the scene has no gas: add a [gas_block.1] section with min, max, dp, density "
         "and internal_energy");
  double total = 0;
  for (int b : boxes) {
    const std::string s = "gas_block." + std::to_string(b);
    const auto lo = ps.vec3(s + ".min"), hi = ps.vec3(s + ".max");
    const double dp = ps.real(s + ".dp");
    double n = 1;
    for (int d = 0; d < dim; ++d) {
      if (!(hi[d] > lo[d]))
        fail(where_of(ps, s), "empty geometry: " + s + ".max must exceed " + s + ".min on every axis");
      n *= std::max(1.0, std::round((hi[d] - lo[d]) / dp));
    }
    total += n;
  }
  // position and velocity (dim doubles each), density, energy, mass, h, kind; the blast's weights.
  const std::string dp1 = "gas_block." + std::to_string(boxes[0]) + ".dp";
  check_scene_size(ps, {total, dim, dp1, ps.real(dp1), boxes.size() > 1, (2.0 * dim + 5) * sizeof(double) + 3},
                   check);

  for (int b : boxes) {
    const std::string s = "gas_block." + std::to_string(b);
    const auto lo = ps.vec3(s + ".min"), hi = ps.vec3(s + ".max"), vel = ps.vec3(s + ".velocity");
    const double dp = ps.real(s + ".dp"), rho = ps.real(s + ".density"), u = ps.real(s + ".internal_energy");
    const double off = ps.real(s + ".offset");
    long cnt[3] = {1, 1, 1};
    for (int d = 0; d < dim; ++d) cnt[d] = std::max(1L, std::lround((hi[d] - lo[d]) / dp));
    const double m = rho * std::pow(dp, dim);
    const double h0 = fixed_h ? h_fixed : eta * dp;
    for (long kz = 0; kz < cnt[2]; ++kz)
      for (long ky = 0; ky < cnt[1]; ++ky)
        for (long kx = 0; kx < cnt[0]; ++kx) {
          const long k[3] = {kx, ky, kz};
          for (int d = 0; d < dim; ++d) {
            g.position.push_back(lo[d] + (static_cast<double>(k[d]) + off) * dp);
            g.velocity.push_back(vel[d]);
          }
          g.density.push_back(rho);
          g.energy.push_back(u);
          g.mass.push_back(m);
          g.h.push_back(h0);
        }
  }

  const double E = ps.real("blast.energy");
  if (E > 0) {
    const auto c = ps.vec3("blast.center");
    double R = ps.real("blast.radius");
    if (R == 0) R = 2.0 * eta * ps.real("gas_block." + std::to_string(boxes[0]) + ".dp");
    std::vector<double> w(g.size(), 0.0);
    double sum = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (g.position[i * dim + d] - c[d]) * (g.position[i * dim + d] - c[d]);
      w[i] = spline_weight(2.0 * std::sqrt(r2) / R);
      sum += w[i];
    }
    if (!(sum > 0))
      fail(ps.where("blast.radius"), "no particle lies within blast.radius of blast.center: enlarge "
                                     "blast.radius or move blast.center into the gas");
    for (std::size_t i = 0; i < g.size(); ++i) g.energy[i] += E * w[i] / (sum * g.mass[i]);
  }

  // Frozen boundary particles: within gas.frozen_x of the smallest or largest x, they keep their
  // initial state and take part in the neighbour sums only (the ends of a shock tube).
  const double frozen = ps.real("gas.frozen_x");
  double xlo = 1e300, xhi = -1e300;
  for (std::size_t i = 0; i < g.size(); ++i) {
    xlo = std::min(xlo, g.position[i * dim]);
    xhi = std::max(xhi, g.position[i * dim]);
  }
  g.kind.assign(g.size(), kFluid);
  g.phase.assign(g.size(), kPhaseGas);
  g.material.assign(g.size(), 0);
  if (frozen > 0)
    for (std::size_t i = 0; i < g.size(); ++i)
      if (g.position[i * dim] < xlo + frozen || g.position[i * dim] > xhi - frozen) {
        g.kind[i] = kWall;
        for (int d = 0; d < dim; ++d) g.velocity[i * dim + d] = 0;
      }
  return g;
}

}  // namespace ejecta
