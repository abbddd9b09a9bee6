#include "scene/grain_drop.h"

#include "scene/fluid_drop.h"  // drop_sites
#include "scene/point_cells.h"

#include "params/param_registry.h"  // format_number
#include "particles/field_values.h"
#include "physics/solid_model.h"  // kPhaseGrain
#include "solver/solver_factory.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ejecta {

namespace {


double unit_jitter(uint64_t k) {  // splitmix64 of k to [-1, 1)
  uint64_t z = k + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

double grain_volume(double r, int dim) {
  const double pi = 3.14159265358979323846;
  return dim == 3 ? 4.0 / 3.0 * pi * r * r * r : dim == 2 ? pi * r * r : 2 * r;
}


bool has_grains(const ParamSet& params) {
  return params.text("physics.model") == "mixed" && !params.indices("grains").empty();
}


// `sim` rebuilt with the particles of `init`: those of its frame `old` (in the frame's order), then the new
// ones. Every old particle keeps every field of `old` bit for bit.
std::unique_ptr<Simulation> grown(const Simulation& sim, const ParamSet& params, const FrameData& old,
                                  const SceneParticles& init);

}  // namespace

GrainSites grain_drop_sites(const ParamSet& params, const SceneParticles& init, const GrainDrop& drop,
                            const ColliderSphere& collider, uint64_t first_serial) {
  const int dim = init.dim;
  if (!(drop.radius >= 0)) throw std::invalid_argument("the grains' sphere needs a radius >= 0 (0: three lattice spacings)");
  const std::vector<int> blocks = params.indices("grains");
  if (blocks.empty()) throw std::invalid_argument("the scene has no [grains.N] block to take the grains' material from");
  int block = drop.block;
  if (block == 0) {
    block = blocks.front();
    for (int b : blocks)
      if (!params.flag("grains." + std::to_string(b) + ".fixed")) {
        block = b;
        break;
      }
  } else if (std::find(blocks.begin(), blocks.end(), block) == blocks.end()) {
    throw std::invalid_argument("the scene has no [grains." + std::to_string(block) + "]");
  }
  const std::string sec = "grains." + std::to_string(block);
  const double r = params.real(sec + ".radius"), spread = params.real(sec + ".size_spread");
  GrainSites out;
  out.density = params.real(sec + ".density");
  out.spacing = 2.02 * r * (1 + spread);  // the largest grains of the block with a 1% gap
  const double r_new_max = r * (1 + spread);
  const double radius = drop.radius > 0 ? drop.radius : 3 * out.spacing;

  // Each particle there reaches `extent` from its centre: a grain its radius, the liquid and tank walls
  // half their spacing, a solid half its spacing.
  const double dpl = init.has_liquid ? params.real("particles.dp") : 0.0, hod_solid = params.real("solid.h_over_dp");
  auto extent = [&](std::size_t j) {
    return init.phase[j] == kPhaseGrain ? init.radius[j] : init.phase[j] == kPhaseSolid ? 0.5 * init.h[j] / hod_solid : 0.5 * dpl;
  };
  double reach = 0;
  for (std::size_t j = 0; j < init.size(); ++j) reach = std::max(reach, extent(j));
  const double cell = r_new_max + reach;  // anything closer than a contact lies in the 3^dim cells around
  PointCells cells(dim, cell);
  for (std::size_t j = 0; j < init.size(); ++j) cells.insert(&init.position[j * dim], j);
  const auto lo = params.vec3("dem.box_min"), hi = params.vec3("dem.box_max");
  auto free_site = [&](const double* x, double rk) {
    for (int d = 0; d < dim; ++d)
      if (x[d] - rk < lo[d] || x[d] + rk > hi[d]) return false;
    if (collider.enabled) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (x[d] - collider.center[d]) * (x[d] - collider.center[d]);
      if (r2 < (collider.radius + rk) * (collider.radius + rk)) return false;
    }
    return cells.all_near(x, [&](std::size_t j) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (init.position[j * dim + d] - x[d]) * (init.position[j * dim + d] - x[d]);
      const double touch = rk + extent(j);
      return r2 >= touch * touch;
    });
  };
  // The lattice: sites centre + k spacing whose distance from the centre is at most the drop's radius.
  const long K = long(std::floor(radius / out.spacing));
  long k[3] = {0, 0, 0};
  uint64_t serial = first_serial;
  for (k[2] = (dim > 2 ? -K : 0); k[2] <= (dim > 2 ? K : 0); ++k[2])
    for (k[1] = (dim > 1 ? -K : 0); k[1] <= (dim > 1 ? K : 0); ++k[1])
      for (k[0] = -K; k[0] <= K; ++k[0]) {
        double x[3] = {0, 0, 0}, r2 = 0;
        for (int d = 0; d < dim; ++d) {
          x[d] = drop.center[d] + double(k[d]) * out.spacing;
          r2 += double(k[d] * k[d]) * out.spacing * out.spacing;
        }
        if (r2 > radius * radius) continue;
        ++out.candidates;
        // size_spread: a radius uniform in r (1 +- spread), as the scene builder draws it.
        const double rk = spread > 0 ? r * (1 + spread * unit_jitter((uint64_t(block) << 40) + serial)) : r;
        ++serial;
        if (!free_site(x, rk)) {
          ++out.dropped;
          continue;
        }
        out.position.insert(out.position.end(), x, x + dim);
        out.radius.push_back(rk);
      }
  return out;
}

SceneParticles mixed_initial_of(const ParamSet& params, const FrameData& f) {
  SceneParticles scene = build_mixed_scene(params);
  SceneParticles m;
  m.dim = scene.dim;
  for (int d = 0; d < 3; ++d) m.gravity[d] = scene.gravity[d];
  m.has_liquid = scene.has_liquid;
  m.liquid = scene.liquid;
  m.recipe = scene.recipe;
  m.materials = scene.materials;
  m.position = field_values(need_field(f, "position"));
  m.velocity = field_values(need_field(f, "velocity"));
  m.density = field_values(need_field(f, "density"));
  m.mass = field_values(need_field(f, "mass"));
  m.h = field_values(need_field(f, "smoothing_length"));
  auto bytes = [&](const char* name) {
    const std::vector<double> v = field_values(need_field(f, name));
    return std::vector<uint8_t>(v.begin(), v.end());
  };
  m.material = bytes("material");
  m.kind = bytes("kind");
  m.phase = bytes("phase");
  const FieldData* radius = f.find("grain_radius");
  m.radius = radius ? field_values(*radius) : std::vector<double>(f.particles, 0.0);
  if (m.position.size() != f.particles * std::size_t(m.dim))
    throw std::invalid_argument("the frame's positions are not of the scene's dimension (scene.dim = " +
                                std::to_string(m.dim) + ")");
  return m;
}

std::unique_ptr<Simulation> add_grains(const Simulation& sim, const ParamSet& params, const GrainDrop& drop,
                                       std::size_t* added, std::size_t* dropped) {
  if (!has_grains(params))
    throw std::logic_error("adding grains needs physics.model = mixed with [grains.N] blocks (this scene is " +
                           params.text("physics.model") + " without grains)");
  const FrameData old = sim.capture_frame();
  SceneParticles init = mixed_initial_of(params, old);
  const int dim = init.dim;
  const std::size_t n_old = old.particles;
  const GrainSites g = grain_drop_sites(params, init, drop, sim.collider(), n_old);
  const std::size_t k = g.radius.size();
  if (dropped) *dropped = g.dropped;
  if (k == 0)
    throw std::invalid_argument("no room for grains there: all " + std::to_string(g.candidates) +
                                " lattice sites of the sphere (spacing " + format_number(g.spacing) +
                                " m) are outside the grains' box (dem.box_min .. max) or overlap grains, walls, "
                                "liquid or the collider; pick an empty spot or a larger radius");
  // The new grains as the scene builder makes them (scene/mixed_scene.cpp): at rest, the block's density,
  // mass rho V(r), h = 2 particles.h_over_dp r with a liquid (r without).
  const double hod_grain = init.has_liquid ? 2 * params.real("particles.h_over_dp") : 1.0;
  for (std::size_t j = 0; j < k; ++j) {
    const double rk = g.radius[j];
    init.position.insert(init.position.end(), g.position.begin() + long(j * dim), g.position.begin() + long((j + 1) * dim));
    init.velocity.insert(init.velocity.end(), std::size_t(dim), 0.0);
    init.density.push_back(g.density);
    init.mass.push_back(g.density * grain_volume(rk, dim));
    init.h.push_back(hod_grain * rk);
    init.material.push_back(0);
    init.kind.push_back(0);
    init.phase.push_back(kPhaseGrain);
    init.radius.push_back(rk);
  }
  if (added) *added = k;
  return grown(sim, params, old, init);
}

std::unique_ptr<Simulation> add_mixed_fluid(const Simulation& sim, const ParamSet& params, const FluidDrop& drop,
                                            std::size_t* added) {
  if (params.text("physics.model") != "mixed" || (params.indices("tank").empty() && params.indices("block").empty()))
    throw std::logic_error("adding fluid to a mixed scene needs its liquid ([tank.N], [block.N])");
  const FrameData old = sim.capture_frame();
  SceneParticles init = mixed_initial_of(params, old);
  const int dim = init.dim;
  const double dp = params.real("particles.dp");
  double h = params.real("particles.h_over_dp") * dp;
  for (std::size_t j = 0; j < init.size(); ++j)
    if (init.phase[j] == kPhaseLiquid || init.phase[j] == kPhaseWall) {
      h = init.h[j];  // the liquid's smoothing length as the scene builder set it
      break;
    }
  // The liquid's lattice sites clear of every particle (0.9 dp, fluid_drop.h), and of the grains and
  // solids by the scene builder's displacement rule: 0.45 (dp + their spacing), a grain's spacing 2 r.
  const std::vector<double> candidates = drop_sites(params, drop, init.position);
  const double hod_solid = params.real("solid.h_over_dp");
  std::vector<double> big_pos;
  std::vector<double> big_reach;
  double reach = 0;
  for (std::size_t j = 0; j < init.size(); ++j) {
    if (init.phase[j] != kPhaseGrain && init.phase[j] != kPhaseSolid) continue;
    const double r = 0.45 * (dp + (init.phase[j] == kPhaseGrain ? 2 * init.radius[j] : init.h[j] / hod_solid));
    big_pos.insert(big_pos.end(), init.position.begin() + long(j * dim), init.position.begin() + long((j + 1) * dim));
    big_reach.push_back(r);
    reach = std::max(reach, r);
  }
  PointCells cells(dim, reach);  // empty when there is neither grain nor solid (reach 0)
  for (std::size_t j = 0; j < big_reach.size(); ++j) cells.insert(&big_pos[j * dim], j);
  std::vector<double> sites;
  for (std::size_t i = 0; i < candidates.size() / std::size_t(dim); ++i) {
    const double* x = &candidates[i * dim];
    const bool free = cells.all_near(x, [&](std::size_t j) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (big_pos[j * dim + d] - x[d]) * (big_pos[j * dim + d] - x[d]);
      return r2 >= big_reach[j] * big_reach[j];
    });
    if (free) sites.insert(sites.end(), x, x + dim);
  }
  const std::size_t k = sites.size() / std::size_t(dim);
  if (k == 0)
    throw std::invalid_argument("no room for fluid there: every lattice site of the drop is outside the tanks or "
                                "within 0.9 dp of a particle (0.45 (dp + 2 r) of a grain)");
  // The new particles as the scene builder makes liquid: the reference density, mass rho0 dp^dim.
  for (std::size_t j = 0; j < k; ++j) {
    init.position.insert(init.position.end(), sites.begin() + long(j * dim), sites.begin() + long((j + 1) * dim));
    init.velocity.insert(init.velocity.end(), drop.velocity, drop.velocity + dim);
    init.density.push_back(init.liquid.rho0);
    init.mass.push_back(init.liquid.rho0 * std::pow(dp, dim));
    init.h.push_back(h);
    init.material.push_back(0);
    init.kind.push_back(0);
    init.phase.push_back(kPhaseLiquid);
    init.radius.push_back(0);
  }
  if (added) *added = k;
  return grown(sim, params, old, init);
}

namespace {

std::unique_ptr<Simulation> grown(const Simulation& sim, const ParamSet& params, const FrameData& old,
                                  const SceneParticles& init) {
  // The solver's initialisation gives the new particles every field (grains: an empty contact list, no
  // spin; the rates of an evaluation with all particles present); the old ones then get back their state.
  auto fresh = make_solver(params, sim.backend(), sim.precision(), init);
  restore_grown(*fresh, old);
  return fresh;
}

}  // namespace

std::unique_ptr<Simulation> make_mixed_simulation_from_frame(const ParamSet& params, Backend backend,
                                                             Precision precision, const FrameData& frame) {
  auto sim = make_solver(params, backend, precision, mixed_initial_of(params, frame));
  sim->restore_frame(frame);
  return sim;
}

}  // namespace ejecta
