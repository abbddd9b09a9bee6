#include "scene/fluid_layout.h"

#include "scene/scene_builder.h"
#include "solver/solver_factory.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ejecta {

namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a small, seedable generator, the same on every platform.
struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
};

struct Box {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};

Box box_of(const ParamSet& p, const std::string& s, int dim) {
  Box b;
  const auto lo = p.vec3(s + ".min"), hi = p.vec3(s + ".max");
  for (int d = 0; d < dim; ++d) b.lo[d] = lo[d], b.hi[d] = hi[d];
  return b;
}

bool inside(const Box& b, const double* x, int dim) {
  for (int d = 0; d < dim; ++d)
    if (x[d] < b.lo[d] || x[d] > b.hi[d]) return false;
  return true;
}

}  // namespace

std::vector<double> fluid_layout_sites(const ParamSet& params, std::size_t n, FluidLayout layout, uint64_t seed) {
  if (params.text("physics.model") != "wcsph")
    throw std::logic_error("reset block/random needs physics.model = wcsph (this scene is " +
                           params.text("physics.model") + ")");
  const int dim = int(params.integer("scene.dim"));
  const double dp = params.real("particles.dp");
  const std::vector<int> tank_ids = params.indices("tank");
  if (tank_ids.empty())
    throw std::invalid_argument("reset block/random lays the fluid out in the scene's tanks, and it has no [tank.N]");
  std::vector<Box> tanks, obstacles;
  for (int t : tank_ids) tanks.push_back(box_of(params, "tank." + std::to_string(t), dim));
  for (const char* solid : {"obstacle", "gate"})  // a gate where the scene lays it (t = 0)
    for (int o : params.indices(solid)) obstacles.push_back(box_of(params, std::string(solid) + "." + std::to_string(o), dim));
  // The scene builder's lattice: sites anchor + (k + 1/2) dp, anchored at the first tank's min.
  const Box& first = tanks.front();
  std::vector<double> sites;  // every free site of every tank, once
  for (const Box& t : tanks) {
    long from[3] = {0, 0, 0}, to[3] = {0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      from[d] = long(std::floor((t.lo[d] - first.lo[d]) / dp));
      to[d] = long(std::ceil((t.hi[d] - first.lo[d]) / dp));
    }
    long k[3] = {0, 0, 0};
    for (k[0] = from[0]; k[0] <= to[0]; ++k[0])
      for (k[1] = from[1]; k[1] <= to[1]; ++k[1])
        for (k[2] = from[2]; k[2] <= to[2]; ++k[2]) {
          double x[3] = {0, 0, 0};
          for (int d = 0; d < dim; ++d) x[d] = first.lo[d] + (double(k[d]) + 0.5) * dp;
          if (!inside(t, x, dim)) continue;
          bool taken = false;  // by an obstacle, or by an earlier tank (overlapping tanks)
          for (const Box& o : obstacles) taken = taken || inside(o, x, dim);
          for (const Box* e = tanks.data(); e != &t && !taken; ++e) taken = inside(*e, x, dim);
          if (!taken) sites.insert(sites.end(), x, x + dim);
        }
  }
  const std::size_t count = sites.size() / std::size_t(dim);
  if (count < n)
    throw std::invalid_argument("the tanks hold " + std::to_string(count) + " lattice sites, fewer than the " +
                                std::to_string(n) + " fluid particles");
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  double centre[3] = {0, 0, 0};
  for (int d = 0; d < dim; ++d) centre[d] = 0.5 * (first.lo[d] + first.hi[d]);
  SplitMix64 rng{seed};
  if (layout == FluidLayout::Block) {
    // Max-norm distance from the centre, ties broken by the Euclidean one, then by index: a block.
    auto key = [&](std::size_t i) {
      double m = 0, e = 0;
      for (int d = 0; d < dim; ++d) {
        const double off = std::fabs(sites[i * dim + d] - centre[d]);
        m = std::max(m, off), e += off * off;
      }
      return std::make_pair(m, e);
    };
    std::nth_element(order.begin(), order.begin() + long(n), order.end(),
                     [&](std::size_t a, std::size_t b) { return key(a) < key(b) || (!(key(b) < key(a)) && a < b); });
  } else {
    for (std::size_t i = 0; i < n; ++i)  // partial Fisher-Yates: the first n are a uniform draw
      std::swap(order[i], order[i + std::size_t(rng.uniform() * double(count - i))]);
  }
  std::vector<double> out(n * std::size_t(dim));
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < dim; ++d) {
      double x = sites[order[i] * dim + d];
      if (layout == FluidLayout::Random) x += (2 * rng.uniform() - 1) * 0.2 * dp;
      out[i * dim + d] = x;
    }
  return out;
}

std::unique_ptr<Simulation> make_simulation_with_layout(const ParamSet& params, Backend backend,
                                                        FluidLayout layout, uint64_t seed) {
  SceneParticles ip = build_scene(params);
  const int dim = ip.dim;
  const std::vector<double> sites = fluid_layout_sites(params, ip.fluid_count(), layout, seed);
  const double mass = ip.liquid.rho0 * std::pow(ip.liquid.dp, dim);
  std::size_t j = 0;
  for (std::size_t i = 0; i < ip.size(); ++i) {
    if (ip.kind[i] != kFluid) continue;
    for (int d = 0; d < dim; ++d) {
      ip.position[i * dim + d] = sites[j * dim + d];
      ip.velocity[i * dim + d] = 0;
    }
    ip.density[i] = ip.liquid.rho0;
    ip.mass[i] = mass;
    ++j;
  }
  const Precision precision = params.text("scene.precision") == "double" ? Precision::Double : Precision::Float;
  return make_solver(params, backend, precision, ip);
}

}  // namespace ejecta
