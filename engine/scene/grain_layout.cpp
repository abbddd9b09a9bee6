#include "scene/grain_layout.h"
#include "scene/grain_drop.h"
#include "scene/point_cells.h"

#include "params/param_registry.h"  // format_number
#include "physics/solid_model.h"     // kPhaseGrain
#include "solver/solver_factory.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ejecta {

std::vector<double> grain_layout_sites(const ParamSet& params, const SceneParticles& init, FluidLayout layout,
                                       uint64_t seed) {
  const int dim = init.dim;
  double r_max = 0;
  std::size_t n_free = 0;
  for (std::size_t i = 0; i < init.size(); ++i)
    if (init.phase[i] == kPhaseGrain) {
      r_max = std::max(r_max, init.radius[i]);
      if (init.kind[i] == 0) ++n_free;
    }
  if (!(r_max > 0)) throw std::invalid_argument("the scene has no grains to lay out");
  const auto lo = params.vec3("dem.box_min"), hi = params.vec3("dem.box_max");
  const double s = 2.02 * r_max;
  // The fixed grains by cell of size s (a site only needs the 3^dim cells around its own: a fixed grain
  // closer than r_max + its radius <= 2 r_max < s lies in one of them).
  PointCells fixed(dim, s);
  for (std::size_t i = 0; i < init.size(); ++i)
    if (init.phase[i] == kPhaseGrain && init.kind[i] != 0) fixed.insert(&init.position[i * dim], i);
  // The lattice of the box: counts per axis, sites at lo + r_max + k s.
  long count[3] = {1, 1, 1};
  for (int d = 0; d < dim; ++d) count[d] = std::max(0L, long(std::floor((hi[d] - lo[d] - 2 * r_max) / s)) + 1);
  std::vector<double> sites;
  double x[3] = {0, 0, 0};
  for (long k = 0; k < count[0] * count[1] * count[2]; ++k) {
    long rest = k;
    for (int d = 0; d < dim; ++d) x[d] = lo[d] + r_max + double(rest % count[d]) * s, rest /= count[d];
    const bool free = fixed.all_near(x, [&](std::size_t j) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d) r2 += (x[d] - init.position[j * dim + d]) * (x[d] - init.position[j * dim + d]);
      const double reach = r_max + init.radius[j];
      return r2 >= reach * reach;
    });
    if (free) sites.insert(sites.end(), x, x + dim);
  }
  const std::size_t n_sites = sites.size() / std::size_t(dim);
  if (n_sites < n_free)
    throw std::invalid_argument("the grains' box (dem.box_min .. dem.box_max) holds " + std::to_string(n_sites) +
                                " free sites of spacing 2.02 r_max = " + format_number(s) + " m for " +
                                std::to_string(n_free) + " free grains; enlarge the box");
  std::vector<std::size_t> order(n_sites);
  std::iota(order.begin(), order.end(), std::size_t(0));
  if (layout == FluidLayout::Block) {
    double centre[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) centre[d] = 0.5 * (lo[d] + hi[d]);
    auto dist = [&](std::size_t k) {
      double m = 0;
      for (int d = 0; d < dim; ++d) m = std::max(m, std::fabs(sites[k * dim + d] - centre[d]));
      return m;
    };
    std::nth_element(order.begin(), order.begin() + std::ptrdiff_t(n_free), order.end(), [&](std::size_t a, std::size_t b) {
      const double da = dist(a), db = dist(b);
      return da != db ? da < db : a < b;
    });
    std::sort(order.begin(), order.begin() + std::ptrdiff_t(n_free));
  } else {
    std::mt19937_64 rng(seed);
    for (std::size_t k = 0; k < n_free; ++k) {  // a partial Fisher-Yates shuffle
      std::uniform_int_distribution<std::size_t> pick(k, n_sites - 1);
      std::swap(order[k], order[pick(rng)]);
    }
  }
  std::vector<double> out(n_free * std::size_t(dim));
  for (std::size_t k = 0; k < n_free; ++k)
    for (int d = 0; d < dim; ++d) out[k * dim + d] = sites[order[k] * dim + d];
  return out;
}

std::unique_ptr<Simulation> make_grain_simulation_with_layout(const ParamSet& params, Backend backend,
                                                              FluidLayout layout, uint64_t seed) {
  if (params.text("physics.model") != "mixed")
    throw std::logic_error("grain layouts are for mixed scenes of grains (physics.model = mixed)");
  SceneParticles init = build_mixed_scene(params);
  if (init.count(kPhaseLiquid) || init.count(kPhaseSolid))
    throw std::logic_error("grain layouts are for mixed scenes of grains only; this scene has liquid or solids");
  const std::vector<double> sites = grain_layout_sites(params, init, layout, seed);
  const int dim = init.dim;
  std::size_t k = 0;
  for (std::size_t i = 0; i < init.size(); ++i) {
    if (init.phase[i] != kPhaseGrain || init.kind[i] != 0) continue;
    for (int d = 0; d < dim; ++d) {
      init.position[i * dim + d] = sites[k * dim + d];
      init.velocity[i * dim + d] = 0;
    }
    ++k;
  }
  const Precision precision = params.text("scene.precision") == "double" ? Precision::Double : Precision::Float;
  return make_solver(params, backend, precision, init);
}

}  // namespace ejecta
