// [tank.N] + [block.N] (liquid), [solid_block.N] (solid bodies) and [grains.N] (DEM grains) -> one
// store (mixed_scene.h).
#include "scene/mixed_scene.h"

#include "core/types.h"
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace ejecta {

namespace {

// The grains of the [grains.N] sections: a lattice of spacing s (default 2 r) in each box, the first
// centre at min + r, each centre moved by up to jitter r along each axis (a fixed hash of its lattice
// index, so that the scene is the same every run).
struct Grains {
  std::vector<double> position, velocity, mass, radius, density;
  std::vector<uint8_t> kind;  // 1: fixed (grains.N.fixed: a rough floor of glued grains)
  std::size_t size() const { return mass.size(); }
};

double grain_jitter(unsigned long long k) {  // splitmix64 of k to [-1, 1)
  unsigned long long z = k + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

// Lattice counts per axis of one [grains.N] box; throws for a bad box or spacing.
std::array<long long, 3> grain_counts(const ParamSet& ps, int dim, int idx) {
  const std::string sec = "grains." + std::to_string(idx);
  const auto mn = ps.vec3(sec + ".min"), mx = ps.vec3(sec + ".max");
  const double r = ps.real(sec + ".radius"), jit = ps.real(sec + ".jitter"), spread = ps.real(sec + ".size_spread");
  const double sp = ps.real(sec + ".spacing") > 0 ? ps.real(sec + ".spacing") : 2 * r;
  if (spread > 0 && sp < 2 * r * (1 + spread + jit))
    throw ParamError(ps.where(sec + ".spacing") + ": " + sec + ".spacing = " + format_number(sp) +
                     " is below 2 radius (1 + size_spread + jitter) = " + format_number(2 * r * (1 + spread + jit)) +
                     ": the largest grains would start overlapping; enlarge it");
  if (sp < 2 * r * (1 + jit))
    throw ParamError(ps.where(sec + ".spacing") + ": " + sec + ".spacing = " + format_number(sp) +
                     " is below 2 radius (1 + jitter) = " + format_number(2 * r * (1 + jit)) +
                     ": the grains would start overlapping; enlarge it or set it to 0 (2 radius)");
  std::array<long long, 3> n{1, 1, 1};
  for (int d = 0; d < dim; ++d) {
    const double span = mx[d] - mn[d] - 2 * r;
    if (span < 0)
      throw ParamError(ps.where(sec + ".max") + ": the box " + sec + ".min .. max is narrower than one grain (2 radius = " +
                       format_number(2 * r) + ") along axis " + std::to_string(d) + "; enlarge it or make radius smaller");
    n[d] = static_cast<long long>(std::floor(span / sp + 1e-9)) + 1;
  }
  return n;
}

double grain_count(const ParamSet& ps, int dim) {
  double total = 0;
  for (int idx : ps.indices("grains")) {
    const auto n = grain_counts(ps, dim, idx);
    total += double(n[0]) * double(n[1]) * double(n[2]);
  }
  return total;
}

Grains build_grains(const ParamSet& ps, int dim) {
  Grains g;
  const double pi = 3.14159265358979323846;
  const auto blo = ps.vec3("dem.box_min"), bhi = ps.vec3("dem.box_max");
  for (int idx : ps.indices("grains")) {
    const std::string sec = "grains." + std::to_string(idx);
    const auto n = grain_counts(ps, dim, idx);
    const auto mn = ps.vec3(sec + ".min"), vel = ps.vec3(sec + ".velocity");
    const double r = ps.real(sec + ".radius"), rho = ps.real(sec + ".density"), jit = ps.real(sec + ".jitter");
    const bool fixed = ps.flag(sec + ".fixed");
    if (fixed && (vel[0] != 0 || vel[1] != 0 || vel[2] != 0))
      throw ParamError(ps.where(sec + ".velocity") + ": " + sec + ".velocity must be 0 for fixed grains (" + sec +
                       ".fixed = true); remove it or make the grains free");
    const double sp = ps.real(sec + ".spacing") > 0 ? ps.real(sec + ".spacing") : 2 * r;
    const double spread = ps.real(sec + ".size_spread");
    unsigned long long serial = 0;
    for (long long k = 0; k < n[2]; ++k)
      for (long long j = 0; j < n[1]; ++j)
        for (long long i = 0; i < n[0]; ++i) {
          const long long ijk[3] = {i, j, k};
          // size_spread: a radius uniform in r (1 +- spread), from a fixed hash of the grain's serial.
          const double rk =
              spread > 0 ? r * (1 + spread * grain_jitter((static_cast<unsigned long long>(idx) << 40) + (1ull << 39) + serial))
                         : r;
          const double vol = dim == 3 ? 4.0 / 3.0 * pi * rk * rk * rk : dim == 2 ? pi * rk * rk : 2 * rk;
          for (int d = 0; d < dim; ++d) {
            double x = mn[d] + r + double(ijk[d]) * sp;
            if (jit > 0) x += jit * r * grain_jitter((static_cast<unsigned long long>(idx) << 40) + serial * 3 + d);
            if (x - rk < blo[d] || x + rk > bhi[d])
              throw ParamError(ps.where(sec + ".min") + ": grains of " + sec + " lie outside the box of the grains, "
                               "dem.box_min .. dem.box_max (" + ps.where("dem.box_min") + "), along axis " +
                               std::to_string(d) + "; move the block inside or enlarge the box");
            g.position.push_back(x);
            g.velocity.push_back(fixed ? 0.0 : vel[d]);
          }
          ++serial;
          g.mass.push_back(rho * vol);
          g.radius.push_back(rk);
          g.density.push_back(rho);
          g.kind.push_back(fixed ? 1 : 0);
        }
  }
  return g;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> mixed_scene_models(const ParamSet& ps) {
  std::vector<std::pair<std::string, std::string>> m;
  for (const char* s : {"block", "tank"})
    if (!ps.indices(s).empty()) {
      m.push_back({"wcsph", std::string("[") + s + "." + std::to_string(ps.indices(s).front()) + "]"});
      break;
    }
  if (!ps.indices("solid_block").empty())
    m.push_back({"solid", "[solid_block." + std::to_string(ps.indices("solid_block").front()) + "]"});
  if (!ps.indices("grains").empty())
    m.push_back({"dem", "[grains." + std::to_string(ps.indices("grains").front()) + "]"});
  if (!ps.indices("gas_block").empty())
    m.push_back({"gas", "[gas_block." + std::to_string(ps.indices("gas_block").front()) + "]"});
  return m;
}

SceneParticles build_mixed_scene(const ParamSet& ps, const SizeCheck& check) {
  SceneParticles g;
  g.recipe = "mixed";
  ps.check_dimension();
  const int dim = static_cast<int>(ps.integer("scene.dim"));
  g.dim = dim;
  const auto g3 = ps.vec3("physics.gravity");
  for (int d = 0; d < dim; ++d) g.gravity[d] = g3[d];
  const bool liquid = !ps.indices("block").empty() || !ps.indices("tank").empty();
  const bool solid = !ps.indices("solid_block").empty();
  const bool grains = !ps.indices("grains").empty();
  // A gas shares a store with no other model yet: no term couples it to a liquid, solid or grains
  // (the gas's grad-h density and forces would take their particles for gas). Refused by its section.
  if (!ps.indices("gas_block").empty())
    throw ParamError(ps.where("gas_block." + std::to_string(ps.indices("gas_block")[0]) + ".min") + ": [gas_block." +
                     std::to_string(ps.indices("gas_block")[0]) + "] in a mixed scene: a gas shares a store with no other material yet (no term "
                     "couples a gas to a liquid, solid or grains; its grad-h density and forces would take their "
                     "particles for gas); remove the [gas_block.N] sections, or run the gas alone with "
                     "physics.model = gas");
  if (!liquid && !solid && !grains)
    throw ParamError(ps.where("physics.model") +
                     ": physics.model = mixed but the scene has no bodies: add [block.N] (liquid, inside a "
                     "[tank.N]), [solid_block.N] sections (solid bodies of a library material) and/or "
                     "[grains.N] (DEM grains)");
  if (solid && grains)
    throw ParamError(ps.where("grains." + std::to_string(ps.indices("grains")[0]) + ".min") +
                     ": [grains.N] and [solid_block.N] in one scene: grains do not touch solid bodies yet (they "
                     "would pass through them); remove one of them, or give the grains a liquid to move in");

  SceneParticles L;
  if (liquid) L = build_scene(ps, {});
  SceneParticles S;
  if (solid) {
    S = build_solid_scene(ps, {});
    if (!S.flaw_offset.empty())
      throw ParamError(ps.where("solid.damage") +
                       ": solid.damage = true, but Grady-Kipp damage is not coupled in mixed scenes yet (a "
                       "material of the scene has weibull.k, weibull.m); set solid.damage = false under [solid]");
    for (std::size_t k = 0; k < S.materials.size(); ++k)
      if (S.materials[k].porous.kind != kPorousNone)
        throw ParamError(ps.where("solid.materials") + ": material '" + S.materials[k].name +
                         "' is porous, and porosity is not coupled in mixed scenes yet; pick a non-porous "
                         "material for its [solid_block.N] or run it with physics.model = solid");
  }
  const double total = double(L.size() + S.size()) + grain_count(ps, dim);
  const std::string dp_key = liquid ? "particles.dp"
                             : solid ? "solid_block." + std::to_string(ps.indices("solid_block")[0]) + ".dp"
                                     : "grains." + std::to_string(ps.indices("grains")[0]) + ".radius";
  check_scene_size(ps, {total, dim, dp_key, ps.real(dp_key),
                        !liquid && ps.indices(solid ? "solid_block" : "grains").size() > 1,
                        (2.0 * dim + 5) * sizeof(double) + 3},
                   check);
  const Grains G = build_grains(ps, dim);

  // Solid sites by cell of the largest solid spacing, for the liquid's displacement test.
  double cell = 0;
  const double hod = ps.real("solid.h_over_dp");
  for (double h : S.h) cell = std::max(cell, h / hod);
  const double dpl = liquid ? L.liquid.dp : 0;
  cell = std::max(cell, dpl);
  std::unordered_map<long long, std::vector<std::size_t>> cells;
  auto key = [&](const double* x) {
    long long k = 0;
    for (int d = 0; d < dim; ++d) k = k * 2000003LL + static_cast<long long>(std::floor(x[d] / cell));
    return k;
  };
  for (double r : G.radius) cell = std::max(cell, 2 * r);
  // Sites of solids (0 .. S.size()) and grains (after), with the spacing they stand for.
  auto site = [&](std::size_t j) { return j < S.size() ? &S.position[j * dim] : &G.position[(j - S.size()) * dim]; };
  auto site_dp = [&](std::size_t j) { return j < S.size() ? S.h[j] / hod : 2 * G.radius[j - S.size()]; };
  for (std::size_t i = 0; i < S.size() + G.size(); ++i) cells[key(site(i))].push_back(i);
  auto displaced = [&](const double* x) {
    if (S.size() + G.size() == 0) return false;
    long long c[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) c[d] = static_cast<long long>(std::floor(x[d] / cell));
    for (int dz = (dim > 2 ? -1 : 0); dz <= (dim > 2 ? 1 : 0); ++dz)
      for (int dy = (dim > 1 ? -1 : 0); dy <= (dim > 1 ? 1 : 0); ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const long long o[3] = {dx, dy, dz};
          long long k = 0;
          for (int d = 0; d < dim; ++d) k = k * 2000003LL + (c[d] + o[d]);
          const auto it = cells.find(k);
          if (it == cells.end()) continue;
          for (std::size_t j : it->second) {
            const double r = 0.45 * (dpl + site_dp(j));
            const double* y = site(j);
            double r2 = 0;
            for (int d = 0; d < dim; ++d) r2 += (x[d] - y[d]) * (x[d] - y[d]);
            if (r2 < r * r) return true;
          }
        }
    return false;
  };

  if (liquid) {
    g.has_liquid = true;
    g.liquid = L.liquid;
    for (std::size_t i = 0; i < L.size(); ++i) {
      const double* x = &L.position[i * dim];
      if (L.kind[i] == kFluid && displaced(x)) continue;
      for (int d = 0; d < dim; ++d) {
        g.position.push_back(x[d]);
        g.velocity.push_back(L.velocity[i * dim + d]);
      }
      g.density.push_back(L.density[i]);
      g.mass.push_back(L.mass[i]);
      g.h.push_back(L.liquid.h);
      g.material.push_back(0);
      g.radius.push_back(0);
      g.kind.push_back(L.kind[i] == kFluid ? 0 : 1);
      g.phase.push_back(L.kind[i] == kFluid ? kPhaseLiquid : kPhaseWall);
    }
    if (g.count(kPhaseLiquid) == 0)
      throw ParamError(ps.where("block." + std::to_string(ps.indices("block").empty() ? 1 : ps.indices("block")[0]) + ".min") +
                       ": the solid bodies displace all of the liquid; enlarge the [block.N] sections");
  }
  g.materials = S.materials;
  g.position.insert(g.position.end(), S.position.begin(), S.position.end());
  g.velocity.insert(g.velocity.end(), S.velocity.begin(), S.velocity.end());
  g.density.insert(g.density.end(), S.density.begin(), S.density.end());
  g.mass.insert(g.mass.end(), S.mass.begin(), S.mass.end());
  g.h.insert(g.h.end(), S.h.begin(), S.h.end());
  g.material.insert(g.material.end(), S.material.begin(), S.material.end());
  g.kind.insert(g.kind.end(), S.kind.begin(), S.kind.end());
  g.phase.insert(g.phase.end(), S.size(), kPhaseSolid);
  g.radius.insert(g.radius.end(), S.size(), 0.0);
  // Grains: h = particles.h_over_dp 2 r with a liquid (a particle of spacing 2 r to the liquid's
  // kernel sums); without one h only sizes the grid's cells (2 h): h = r, cells of one diameter.
  const double hod_grain = liquid ? 2 * ps.real("particles.h_over_dp") : 1.0;
  g.position.insert(g.position.end(), G.position.begin(), G.position.end());
  g.velocity.insert(g.velocity.end(), G.velocity.begin(), G.velocity.end());
  g.density.insert(g.density.end(), G.density.begin(), G.density.end());
  g.mass.insert(g.mass.end(), G.mass.begin(), G.mass.end());
  for (double r : G.radius) g.h.push_back(hod_grain * r);
  g.material.insert(g.material.end(), G.size(), 0);
  g.kind.insert(g.kind.end(), G.kind.begin(), G.kind.end());
  g.phase.insert(g.phase.end(), G.size(), kPhaseGrain);
  g.radius.insert(g.radius.end(), G.radius.begin(), G.radius.end());
  return g;
}

}  // namespace ejecta
