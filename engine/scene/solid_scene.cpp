// [solid_block.N] bodies -> solid particles. A box [min, max] holds the sites min + (k + 1/2) dp per
// axis, k = 0 .. round(extent/dp) - 1. A sphere or shell (centre c, radius R, inner radius R_i) takes
// the sites of the box [c - R, c + R] on the same rule whose distance r from c has R_i <= r < R
// (R_i = 0 for a sphere); in 2D they are a disc and a ring. A particle's mass is rho0 dp^dim with rho0
// its material's reference density (rho0 / alpha0 for a porous material: its bulk density), its
// (fixed) smoothing length solid.h_over_dp * dp; a body with
// motion = prescribed gets kind 1 (the solver keeps its velocity). velocity_profile = cantilever scales
// the velocity by the first cantilever bending mode along x (cantilever_mode1 below).
// Weibull flaws (physics/damage_grady_kipp.h, Benz & Asphaug 1995): each body of a material with
// weibull.k, weibull.m draws its own, for its volume V = n dp^dim (2D: per unit thickness, 1D: per
// unit cross-section, with k kept in m^-3), from the seed solid.damage_seed mixed with the body's
// number N, so that a body's flaws do not change when other bodies are added.
#include "scene/solid_scene.h"

#include "params/param_registry.h"
#include "physics/damage_grady_kipp.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#ifndef EJECTA_ENGINE_SOURCE_DIR
#define EJECTA_ENGINE_SOURCE_DIR "."
#endif

namespace ejecta {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw ParamError(where + ": " + message);
}

// splitmix64 (Steele, Lea & Flood 2014): one well-mixed seed per body from the scene's seed.
std::uint64_t body_seed(std::uint64_t seed, int body) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * std::uint64_t(body + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool exists(const std::string& p) { return std::ifstream(p).good(); }

// The lattice box of one [solid_block.N] and the test that keeps a site of it.
struct BodyShape {
  enum Kind { Box, Sphere, Shell } kind = Box;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, c[3] = {0, 0, 0};
  double r_out = 0, r_in = 0, dp = 0;
  bool contains(const double* x, int dim) const {
    if (kind == Box) return true;
    double r2 = 0;
    for (int d = 0; d < dim; ++d) r2 += (x[d] - c[d]) * (x[d] - c[d]);
    return r2 < r_out * r_out && r2 >= r_in * r_in;
  }
};

BodyShape body_shape(const ParamSet& ps, const std::string& s, int dim) {
  BodyShape b;
  b.dp = ps.real(s + ".dp");
  const std::string shape = ps.text(s + ".shape");
  if (shape == "box") {
    const auto lo = ps.vec3(s + ".min"), hi = ps.vec3(s + ".max");
    for (int d = 0; d < dim; ++d) {
      if (!(hi[d] > lo[d]))
        fail(ps.where(s + ".max"), "empty geometry: " + s + ".max must exceed " + s + ".min on every axis");
      b.lo[d] = lo[d], b.hi[d] = hi[d];
    }
    return b;
  }
  b.kind = shape == "sphere" ? BodyShape::Sphere : BodyShape::Shell;
  b.r_out = ps.real(s + ".radius");
  b.r_in = b.kind == BodyShape::Shell ? ps.real(s + ".inner_radius") : 0.0;
  if (b.kind == BodyShape::Shell && !(b.r_in < b.r_out))
    fail(ps.where(s + ".inner_radius"),
         s + ".inner_radius = " + format_number(b.r_in) + " must be below " + s + ".radius = " +
             format_number(b.r_out));
  const auto c = ps.vec3(s + ".center");
  for (int d = 0; d < dim; ++d) b.c[d] = c[d], b.lo[d] = c[d] - b.r_out, b.hi[d] = c[d] + b.r_out;
  return b;
}

// The first bending mode of a cantilever clamped at s = 0, free at s = L (Landau & Lifshitz, Theory
// of Elasticity, sec. 25, the vibrations of rods): f(0) = f'(0) = 0 and f''(L) = f'''(L) = 0 give
// cos(kL) cosh(kL) = -1, kL = 1.87510407. Returns f(s)/f(L) (1 at the tip).
double cantilever_mode1(double s, double L) {
  const double kL = 1.87510407, k = kL / L;
  const double q = (std::cosh(kL) + std::cos(kL)) / (std::sinh(kL) + std::sin(kL));
  auto f = [&](double z) { return (std::cosh(k * z) - std::cos(k * z)) - q * (std::sinh(k * z) - std::sin(k * z)); };
  return f(s) / f(L);
}

}  // namespace

std::string resolve_material_library(const std::string& path) {
  if (path.empty() || path[0] == '/' || exists(path)) return path;
  const char* env = std::getenv("EJECTA_SOURCE_DIR");
  const std::string root = env && *env ? env : EJECTA_ENGINE_SOURCE_DIR;
  return root + "/" + path;
}

SceneParticles build_solid_scene(const ParamSet& ps, const SizeCheck& check) {
  SceneParticles g;
  g.recipe = "solid";
  ps.check_dimension();
  const int dim = static_cast<int>(ps.integer("scene.dim"));
  g.dim = dim;
  const auto g3 = ps.vec3("physics.gravity");
  for (int d = 0; d < dim; ++d) g.gravity[d] = g3[d];
  const double h_over_dp = ps.real("solid.h_over_dp");

  const std::vector<int> boxes = ps.indices("solid_block");
  if (boxes.empty())
    fail(ps.where("physics.model"),
         "physics.model = solid but the scene has no solid: add a [solid_block.1] section with min, max, dp "
         "and material");
  const std::string lib_path = resolve_material_library(ps.text("solid.materials"));
  MaterialLibrary lib;
  try {
    lib = load_material_library(lib_path);
  } catch (const MaterialError& e) {
    fail(ps.where("solid.materials"), std::string("material library: ") + e.what());
  }
  const bool damage_on = ps.flag("solid.damage");
  const long long seed = ps.integer("solid.damage_seed");
  std::vector<std::int64_t> flaw_count;  // per particle, while the bodies are laid out
  double total = 0;
  for (int b : boxes) {
    const BodyShape body = body_shape(ps, "solid_block." + std::to_string(b), dim);
    double n = 1;
    for (int d = 0; d < dim; ++d) n *= std::max(1.0, std::round((body.hi[d] - body.lo[d]) / body.dp));
    total += n;
  }
  // position and velocity (dim doubles each), density, mass, h, material, kind, the flaw offsets.
  const std::string dp1 = "solid_block." + std::to_string(boxes[0]) + ".dp";
  check_scene_size(ps, {total, dim, dp1, ps.real(dp1), boxes.size() > 1, (2.0 * dim + 4) * sizeof(double) + 3},
                   check);

  for (int b : boxes) {
    const std::string s = "solid_block." + std::to_string(b);
    const std::string name = ps.text(s + ".material");
    auto it = lib.find(name);
    if (it == lib.end()) {
      std::string best, known;
      std::size_t bd = 1000;
      for (const auto& kv : lib) {
        known += (known.empty() ? "" : ", ") + kv.first;
        const std::size_t d = edit_distance(name, kv.first);
        if (d < bd) bd = d, best = kv.first;
      }
      std::string msg = "unknown material '" + name + "' in " + lib_path;
      if (!best.empty() && bd <= std::max<std::size_t>(2, name.size() / 3)) msg += "; did you mean '" + best + "'?";
      msg += " (materials: " + known + ")";
      fail(ps.where(s + ".material"), msg);
    }
    std::size_t mi = 0;
    while (mi < g.materials.size() && g.materials[mi].name != name) ++mi;
    if (mi == g.materials.size()) {
      if (g.materials.size() == 8)
        fail(ps.where(s + ".material"), "more than 8 different materials in one scene");
      g.materials.push_back(it->second);
    }
    const Material& mat = g.materials[mi];
    const BodyShape body = body_shape(ps, s, dim);
    const auto vel = ps.vec3(s + ".velocity");
    const bool cantilever = ps.text(s + ".velocity_profile") == "cantilever";
    if (cantilever && body.kind != BodyShape::Box)
      fail(ps.where(s + ".velocity_profile"),
           s + ".velocity_profile = cantilever needs " + s + ".shape = box (the mode runs along x from min x)");
    const uint8_t kind = ps.text(s + ".motion") == "prescribed" ? 1 : 0;
    const double dp = body.dp;
    long cnt[3] = {1, 1, 1};
    for (int d = 0; d < dim; ++d) cnt[d] = std::max(1L, std::lround((body.hi[d] - body.lo[d]) / dp));
    // A porous material starts at its bulk density rho0 / alpha0 (rho0 is the matrix's).
    const double rho_bulk = mat.porous.kind != kPorousNone ? mat.rho0 / mat.porous.alpha0 : mat.rho0;
    const double m = rho_bulk * std::pow(dp, dim);
    const std::size_t before = g.mass.size();
    for (long kz = 0; kz < cnt[2]; ++kz)
      for (long ky = 0; ky < cnt[1]; ++ky)
        for (long kx = 0; kx < cnt[0]; ++kx) {
          const long k[3] = {kx, ky, kz};
          double x[3] = {0, 0, 0};
          for (int d = 0; d < dim; ++d) x[d] = body.lo[d] + (static_cast<double>(k[d]) + 0.5) * dp;
          if (!body.contains(x, dim)) continue;
          for (int d = 0; d < dim; ++d) {
            g.position.push_back(x[d]);
            g.velocity.push_back(cantilever ? vel[d] * cantilever_mode1(x[0] - body.lo[0], body.hi[0] - body.lo[0])
                                            : vel[d]);
          }
          g.density.push_back(rho_bulk);
          g.mass.push_back(m);
          g.h.push_back(h_over_dp * dp);
          g.material.push_back(static_cast<uint8_t>(mi));
          g.kind.push_back(kind);
        }
    if (g.mass.size() == before)
      fail(ps.where(s + ".dp"), "no lattice site of spacing dp lies inside " + s + "; decrease " + s + ".dp");
    const std::size_t nb = g.mass.size() - before;
    if (damage_on && mat.damage) {
      const WeibullFlaws f = assign_weibull_flaws(nb, mat.weibull_k, mat.weibull_m, double(nb) * std::pow(dp, dim),
                                                  body_seed(std::uint64_t(seed), b));
      for (std::size_t i = 0; i < nb; ++i) flaw_count.push_back(f.count(i));
      g.flaw_strain.insert(g.flaw_strain.end(), f.strains.begin(), f.strains.end());
    } else {
      flaw_count.insert(flaw_count.end(), nb, 0);
    }
  }
  if (!g.flaw_strain.empty()) {
    g.flaw_offset.resize(g.size() + 1);
    g.flaw_offset[0] = 0;
    for (std::size_t i = 0; i < g.size(); ++i) g.flaw_offset[i + 1] = g.flaw_offset[i] + flaw_count[i];
  }
  g.phase.assign(g.size(), kPhaseSolid);
  return g;
}

}  // namespace ejecta
