#include "scene/fluid_drop.h"
#include "scene/point_cells.h"

#include "particles/field_values.h"
#include "scene/grain_drop.h"
#include "scene/scene_builder.h"
#include "solver/solver_factory.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ejecta {

namespace {

bool is_liquid(const ParamSet& params) { return params.text("physics.model") == "wcsph"; }


// The scene's constants (dp, h, c0 resolved, ...) with the frame's particles in place of the scene's.
SceneParticles particles_of(const ParamSet& params, const FrameData& f) {
  SceneParticles ip = build_scene(params);
  ip.position = field_values(need_field(f, "position"));
  ip.velocity = field_values(need_field(f, "velocity"));
  ip.density = field_values(need_field(f, "density"));
  ip.mass = field_values(need_field(f, "mass"));
  const std::vector<double> kind = field_values(need_field(f, "kind"));
  ip.kind.assign(kind.begin(), kind.end());
  ip.phase.clear();
  for (double k : kind) ip.phase.push_back(k == kFluid ? kPhaseLiquid : kPhaseWall);
  ip.material.assign(ip.kind.size(), 0);
  if (ip.position.size() != f.particles * std::size_t(ip.dim))
    throw std::invalid_argument("the frame's positions are not of the scene's dimension (scene.dim = " +
                                std::to_string(ip.dim) + ")");
  return ip;
}

}  // namespace

std::vector<double> drop_sites(const ParamSet& params, const FluidDrop& drop, const std::vector<double>& existing) {
  const int dim = int(params.integer("scene.dim"));
  const double dp = params.real("particles.dp");
  if (!(drop.size > 0)) throw std::invalid_argument("the drop's size must be positive");
  // The scene's lattice: anchored where the builder anchors it (the first tank's or block's min).
  double anchor[3] = {0, 0, 0};
  const std::vector<int> tanks = params.indices("tank"), obstacles = params.indices("obstacle");
  const std::vector<int> blocks = params.indices("block");
  const std::string first = !tanks.empty() ? "tank." + std::to_string(tanks[0])
                            : !blocks.empty() ? "block." + std::to_string(blocks[0]) : "";
  if (!first.empty()) {
    const auto lo = params.vec3(first + ".min");
    for (int d = 0; d < dim; ++d) anchor[d] = lo[d];
  }
  auto inside = [&](const std::string& s, const double* x) {
    const auto lo = params.vec3(s + ".min"), hi = params.vec3(s + ".max");
    for (int d = 0; d < dim; ++d)
      if (x[d] < lo[d] || x[d] > hi[d]) return false;
    return true;
  };
  // Existing particles by cell of size dp (a hash collision only adds candidates): a site is free
  // when none lies within 0.9 dp.
  const std::size_t n = existing.size() / std::size_t(dim);
  PointCells cells(dim, dp);
  for (std::size_t i = 0; i < n; ++i) cells.insert(&existing[i * dim], i);
  auto free_site = [&](const double* x) {
    return cells.all_near(x, [&](std::size_t j) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (existing[j * dim + d] - x[d]) * (existing[j * dim + d] - x[d]);
      return r2 >= 0.81 * dp * dp;
    });
  };
  // Lattice sites (cell centres, as the builder places them) within the drop.
  std::vector<double> out;
  long from[3] = {0, 0, 0}, to[3] = {0, 0, 0};
  for (int d = 0; d < dim; ++d) {
    from[d] = long(std::floor((drop.center[d] - drop.size - anchor[d]) / dp));
    to[d] = long(std::ceil((drop.center[d] + drop.size - anchor[d]) / dp));
  }
  long k[3] = {0, 0, 0};
  for (k[0] = from[0]; k[0] <= to[0]; ++k[0])
    for (k[1] = from[1]; k[1] <= to[1]; ++k[1])
      for (k[2] = from[2]; k[2] <= to[2]; ++k[2]) {
        double x[3] = {0, 0, 0}, r2 = 0;
        bool in_drop = true;
        for (int d = 0; d < dim; ++d) {
          x[d] = anchor[d] + (double(k[d]) + 0.5) * dp;
          const double off = x[d] - drop.center[d];
          r2 += off * off;
          in_drop = in_drop && std::fabs(off) <= drop.size;
        }
        if (drop.shape == DropShape::Sphere) in_drop = r2 <= drop.size * drop.size;
        if (!in_drop) continue;
        bool in_tank = tanks.empty();
        for (int t : tanks) in_tank = in_tank || inside("tank." + std::to_string(t), x);
        bool in_obstacle = false;
        for (int o : obstacles) in_obstacle = in_obstacle || inside("obstacle." + std::to_string(o), x);
        if (!in_tank || in_obstacle || !free_site(x)) continue;
        out.insert(out.end(), x, x + dim);
      }
  return out;
}

std::unique_ptr<Simulation> add_fluid(const Simulation& sim, const ParamSet& params, const FluidDrop& drop,
                                      std::size_t* added) {
  if (!is_liquid(params))
    throw std::logic_error("adding fluid needs physics.model = wcsph (this scene is " + params.text("physics.model") + ")");
  const FrameData old = sim.capture_frame();
  SceneParticles ip = particles_of(params, old);
  const int dim = ip.dim;
  const std::vector<double> sites = drop_sites(params, drop, ip.position);
  const std::size_t k = sites.size() / std::size_t(dim);
  if (k == 0)
    throw std::invalid_argument("no room for fluid there: every lattice site of the drop is outside the tanks, inside "
                                "an obstacle or within 0.9 dp of a particle");
  // The new particles as the scene builder makes fluid: the reference density, mass rho0 dp^dim.
  const double mass = ip.liquid.rho0 * std::pow(ip.liquid.dp, dim);
  for (std::size_t j = 0; j < k; ++j) {
    ip.position.insert(ip.position.end(), sites.begin() + long(j * dim), sites.begin() + long((j + 1) * dim));
    ip.velocity.insert(ip.velocity.end(), drop.velocity, drop.velocity + dim);
    ip.density.push_back(ip.liquid.rho0);
    ip.mass.push_back(mass);
    ip.kind.push_back(kFluid);
    ip.phase.push_back(kPhaseLiquid);
    ip.material.push_back(0);
  }
  // The solver's own initialisation gives the new particles every field (predicted values, rates of
  // a force evaluation with all particles present); the old ones then get back their exact state.
  auto fresh = make_solver(params, sim.backend(), sim.precision(), ip);
  restore_grown(*fresh, old);
  if (added) *added = k;
  return fresh;
}

const FieldData& need_field(const FrameData& f, const char* name) {
  const FieldData* d = f.find(name);
  if (!d) throw std::invalid_argument(std::string("the frame lacks field '") + name + "' (a frame of all fields is needed)");
  return *d;
}

void restore_grown(Simulation& fresh, const FrameData& old) {
  const FrameData made = fresh.capture_frame();
  const std::size_t n_old = old.particles, k = made.particles - n_old;
  const std::vector<double> made_id = field_values(need_field(made, "id"));
  std::vector<std::size_t> row_of_new(k);  // the row of new particle j in `made` (its id is n_old + j)
  for (std::size_t r = 0; r < made_id.size(); ++r)
    if (made_id[r] >= double(n_old)) row_of_new[std::size_t(made_id[r]) - n_old] = r;
  FrameData merged = old;
  merged.particles = n_old + k;
  merged.dt = std::min(old.dt, fresh.dt());
  for (FieldData& f : merged.fields) {
    const FieldData& src = need_field(made, f.info.name.c_str());
    const std::size_t row = std::size_t(f.info.components) * scalar_bytes(f.info.scalar);
    for (std::size_t j = 0; j < k; ++j)
      f.bytes.insert(f.bytes.end(), src.bytes.begin() + long(row_of_new[j] * row),
                     src.bytes.begin() + long((row_of_new[j] + 1) * row));
  }
  fresh.restore_frame(merged);
}

std::unique_ptr<Simulation> make_simulation_from_frame(const ParamSet& params, Backend backend, const FrameData& frame) {
  auto sim = make_simulation(params, backend);
  const bool mixed = params.text("physics.model") == "mixed";
  if (frame.particles == sim->particle_count() || (!is_liquid(params) && !mixed)) {
    sim->restore_frame(frame);
    return sim;
  }
  const Backend b = sim->backend();
  const Precision p = sim->precision();
  sim.reset();
  if (mixed) return make_mixed_simulation_from_frame(params, b, p, frame);  // grains were added (grain_drop.h)
  auto grown = make_solver(params, b, p, particles_of(params, frame));
  grown->restore_frame(frame);
  return grown;
}

}  // namespace ejecta
