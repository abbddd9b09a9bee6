// [tank.N] + [block.N] (liquid) and [solid_block.N] (solid bodies) -> one store (mixed_scene.h).
#include "scene/mixed_scene.h"

#include "core/types.h"
#include "physics/solid_model.h"  // ParticlePhase
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ejecta {

std::size_t MixedInitial::count(uint8_t ph) const {
  return static_cast<std::size_t>(std::count(phase.begin(), phase.end(), ph));
}

std::vector<std::pair<std::string, std::string>> mixed_scene_models(const ParamSet& ps) {
  std::vector<std::pair<std::string, std::string>> m;
  for (const char* s : {"block", "tank"})
    if (!ps.indices(s).empty()) {
      m.push_back({"wcsph", std::string("[") + s + "." + std::to_string(ps.indices(s).front()) + "]"});
      break;
    }
  if (!ps.indices("solid_block").empty())
    m.push_back({"solid", "[solid_block." + std::to_string(ps.indices("solid_block").front()) + "]"});
  return m;
}

MixedInitial build_mixed_scene(const ParamSet& ps, const SizeCheck& check) {
  MixedInitial g;
  ps.check_dimension();
  const int dim = static_cast<int>(ps.integer("scene.dim"));
  g.dim = dim;
  const auto g3 = ps.vec3("physics.gravity");
  for (int d = 0; d < dim; ++d) g.gravity[d] = g3[d];
  const bool liquid = !ps.indices("block").empty() || !ps.indices("tank").empty();
  const bool solid = !ps.indices("solid_block").empty();
  if (!liquid && !solid)
    throw ParamError(ps.where("physics.model") +
                     ": physics.model = mixed but the scene has no bodies: add [block.N] (liquid, inside a "
                     "[tank.N]) and/or [solid_block.N] sections (solid bodies of a library material)");

  InitialParticles L;
  if (liquid) L = build_scene(ps, {});
  SolidInitial S;
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
  const double total = double(L.size() + S.size());
  const std::string dp_key = liquid ? "particles.dp" : "solid_block." + std::to_string(ps.indices("solid_block")[0]) + ".dp";
  check_scene_size(ps, {total, dim, dp_key, ps.real(dp_key), !liquid && ps.indices("solid_block").size() > 1,
                        (2.0 * dim + 4) * sizeof(double) + 3},
                   check);

  // Solid sites by cell of the largest solid spacing, for the liquid's displacement test.
  double cell = 0;
  const double hod = ps.real("solid.h_over_dp");
  for (double h : S.h) cell = std::max(cell, h / hod);
  const double dpl = liquid ? L.dp : 0;
  cell = std::max(cell, dpl);
  std::unordered_map<long long, std::vector<std::size_t>> cells;
  auto key = [&](const double* x) {
    long long k = 0;
    for (int d = 0; d < dim; ++d) k = k * 2000003LL + static_cast<long long>(std::floor(x[d] / cell));
    return k;
  };
  for (std::size_t i = 0; i < S.size(); ++i) cells[key(&S.position[i * dim])].push_back(i);
  auto displaced = [&](const double* x) {
    if (S.size() == 0) return false;
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
            const double r = 0.45 * (dpl + S.h[j] / hod);
            double r2 = 0;
            for (int d = 0; d < dim; ++d) r2 += (x[d] - S.position[j * dim + d]) * (x[d] - S.position[j * dim + d]);
            if (r2 < r * r) return true;
          }
        }
    return false;
  };

  if (liquid) {
    g.has_liquid = true;
    g.rho0 = L.rho0, g.c0 = L.c0, g.gamma = L.gamma;
    for (std::size_t i = 0; i < L.size(); ++i) {
      const double* x = &L.position[i * dim];
      if (L.kind[i] == kFluid && displaced(x)) continue;
      for (int d = 0; d < dim; ++d) {
        g.position.push_back(x[d]);
        g.velocity.push_back(L.velocity[i * dim + d]);
      }
      g.density.push_back(L.density[i]);
      g.mass.push_back(L.mass[i]);
      g.h.push_back(L.h);
      g.material.push_back(0);
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
  return g;
}

}  // namespace ejecta
