// Geometry sections -> particles.
//
// Everything sits on one Cartesian lattice of spacing dp anchored at the first tank's inner corner:
// sites anchor + (k + 1/2) dp. A box [min, max] holds the sites between its faces, each face snapped
// to the nearest lattice plane, so no particle sits on a box face, two boxes that share a face give
// a seamless lattice across it, and no two particles are ever closer than dp.
// Tank walls are that lattice continued outwards from the tank's inner box for `wall_layers` layers
// (the first wall layer at dp/2 outside the inner face, the fluid's first layer at dp/2 inside), the
// fixed "dummy particle" wall of Adami, Hu & Adams (2012), J. Comput. Phys. 231, 7057. Enough layers
// must cover the kernel support (2h for the Wendland kernels) or particles next to a wall see a
// truncated kernel; the registry enforces wall_layers >= 3.
//
// The fluid starts hydrostatic (weakly compressible SPH with the Tait equation of state, Monaghan
// 1994, J. Comput. Phys. 110, 399; Batchelor 1967 for the form) so that it does not first drop and
// bounce when gravity is switched on: the pressure solves dp/dz = -rho(p) |g| exactly under the
// block's own surface, and each fluid particle's mass is its density times its lattice cell, rho dp^dim,
// so that the SPH volume m / rho of every particle is the cell it fills (continuity density; with
// summation density the mass stays rho0 dp^dim). (With mass rho0 dp^dim the
// volumes read up to p / (gamma B) small and the discrete pressure gradient balances gravity only
// with a gradient that much too steep, a 1% excess at the floor of a 0.3 m tank that never settles.)
// Wall particles get rho0 dp^dim, i.e. the volume dp^dim; the total mass is conserved exactly.
#include "scene/scene_builder.h"

#include "core/types.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

namespace {

// Geometric comparisons are done with this absolute tolerance (metres): scene coordinates are given
// with a handful of digits, so 1e-9 m separates "touching" (a block resting on a tank floor, two
// blocks sharing a face) from real overlap without being confused by round-off of ~1e-16 relative.
constexpr double kTol = 1e-9;

const char kAxis[3] = {'x', 'y', 'z'};

std::string fmt(double v) { return format_number(v); }

// An axis-aligned box using the first `dim` components, remembering the section it came from
// ("block.2") and where that section was set, for error messages.
struct Box {
  int dim = 2;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  std::string section;
  std::string where;

  double extent(int d) const { return hi[d] - lo[d]; }
  // Positive-volume intersection: every used axis overlaps by more than the tolerance, so boxes that
  // only share a face (or an edge) do not count.
  bool overlaps(const Box& o) const {
    for (int d = 0; d < dim; ++d)
      if (std::min(hi[d], o.hi[d]) - std::max(lo[d], o.lo[d]) <= kTol) return false;
    return true;
  }
  bool contains(const Box& o) const {
    for (int d = 0; d < dim; ++d)
      if (o.lo[d] < lo[d] - kTol || o.hi[d] > hi[d] + kTol) return false;
    return true;
  }
  bool contains_point(const double* p) const {
    for (int d = 0; d < dim; ++d)
      if (p[d] < lo[d] || p[d] > hi[d]) return false;
    return true;
  }
};

// Where a section's keys were set: its min key, else its max key (a section written with only one of
// them), else the first other key given; the scene's file when none was.
std::string section_where(const ParamSet& ps, const std::string& section,
                          std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (ps.is_set(section + "." + k)) return ps.where(section + "." + k);
  return ps.where(section + "." + *keys.begin());
}

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw ParamError(where + ": " + message);
}

Box read_box(const ParamSet& ps, int dim, const std::string& section,
             std::initializer_list<const char*> keys) {
  Box b;
  b.dim = dim;
  b.section = section;
  b.where = section_where(ps, section, keys);
  const auto lo = ps.vec3(section + ".min");
  const auto hi = ps.vec3(section + ".max");
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = d < dim ? lo[d] : 0.0;
    b.hi[d] = d < dim ? hi[d] : 0.0;
  }
  for (int d = 0; d < dim; ++d) {
    if (!(b.hi[d] > b.lo[d]))
      fail(b.where, std::string("empty geometry: ") + section + " has max." + kAxis[d] + " <= min." +
                        kAxis[d] + " (" + fmt(b.hi[d]) + " <= " + fmt(b.lo[d]) + "); make " +
                        section + ".max." + kAxis[d] + " larger than " + section + ".min." +
                        kAxis[d]);
  }
  return b;
}

// Cell counts of a box along each used axis (1 on unused axes), as doubles for the size check before
// anything is allocated (a tiny dp can make a count overflow an integer).
void cell_counts(const Box& b, double dp, double* n) {
  for (int d = 0; d < 3; ++d) n[d] = d < b.dim ? std::max(1.0, std::round(b.extent(d) / dp)) : 1.0;
}

// Calls f(k) for every integer cell k in [from, to) (per axis, unused axes 0), last axis outermost,
// x fastest: a fixed order, so the particle order is deterministic.
template <class F>
void for_cells(int dim, const long* from, const long* to, F&& f) {
  long k[3] = {0, 0, 0};
  const long z0 = dim > 2 ? from[2] : 0, z1 = dim > 2 ? to[2] : 1;
  const long y0 = dim > 1 ? from[1] : 0, y1 = dim > 1 ? to[1] : 1;
  for (k[2] = z0; k[2] < z1; ++k[2])
    for (k[1] = y0; k[1] < y1; ++k[1])
      for (k[0] = from[0]; k[0] < to[0]; ++k[0]) f(k);
}

// The scene's one lattice: site k (integer per axis) sits at anchor + (k + 1/2) dp. Every box is
// snapped to it, its faces moved to the nearest lattice plane, so particles of different boxes never
// come closer than dp even when a box's corners are not whole multiples of dp from the anchor (the
// SPHERIC tank, or any scene run at another dp: the benchmark ladder, a --set particles.dp).
struct Lattice {
  int dim;
  double dp;
  double anchor[3];
  // Cells [from, to) of a box along each used axis (at least one cell per axis).
  void cells_of(const Box& b, long* from, long* to) const {
    for (int d = 0; d < 3; ++d) {
      from[d] = 0;
      to[d] = 1;
      if (d >= dim) continue;
      from[d] = std::lround((b.lo[d] - anchor[d]) / dp);
      to[d] = std::max(from[d] + 1, std::lround((b.hi[d] - anchor[d]) / dp));
    }
  }
  void site(const long* k, double* x) const {
    for (int d = 0; d < 3; ++d) x[d] = d < dim ? anchor[d] + (static_cast<double>(k[d]) + 0.5) * dp : 0.0;
  }
  double plane(long k, int d) const { return anchor[d] + static_cast<double>(k) * dp; }
};

struct Builder {
  SceneParticles& out;
  int dim;
  double vol;  // lattice cell, dp^dim

  // A particle of the lattice cell volume `vol` (dp^dim) at density rho, of mass rho vol (or
  // rho0 vol where the mass must not follow the start density).
  void add(const double* x, const double* v, double rho, ParticleKind kind, double mass_density) {
    for (int d = 0; d < dim; ++d) {
      out.position.push_back(x[d]);
      out.velocity.push_back(v[d]);
    }
    out.density.push_back(rho);
    out.mass.push_back(mass_density * vol);
    out.kind.push_back(kind);
    out.phase.push_back(kind == kFluid ? kPhaseLiquid : kPhaseWall);
    out.material.push_back(0);
  }
};

}  // namespace

// Density at depth d under a free surface: dp/dz = -rho(p) g with Tait's rho = rho0 (1 + p/B)^(1/gamma)
// integrates to (1 + p/B)^k = 1 + k rho0 g d / B, k = (gamma - 1) / gamma (p = B (e^(rho0 g d / B) - 1)
// for gamma = 1); the density follows from p through the same EOS. g_depth = |g| d.
double hydrostatic_density(double rho0, double B, double gamma, double g_depth) {
  const double k = (gamma - 1.0) / gamma, s = rho0 * g_depth / B;
  const double p = k < 1e-12 ? B * std::expm1(s) : B * (std::pow(1.0 + k * s, 1.0 / k) - 1.0);
  return rho0 * std::pow(1.0 + p / B, 1.0 / gamma);
}

double gate_stop_time(const ParamSet& ps, const std::string& section) {
  const auto v = ps.vec3(section + ".velocity");
  const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const double travel = ps.real(section + ".travel");  // 0 (the default): none
  return ps.is_set(section + ".travel") && speed > 0 ? travel / speed : std::numeric_limits<double>::infinity();
}

SceneParticles build_scene(const ParamSet& ps, const SizeCheck& check) {
  SceneParticles ip;
  ip.has_liquid = true;
  ps.check_dimension();
  const int dim = static_cast<int>(ps.integer("scene.dim"));
  const double dp = ps.real("particles.dp");
  if (!(dp > 0)) fail(ps.where("particles.dp"), "particles.dp must be positive");
  ip.dim = dim;
  ip.liquid.dp = dp;
  ip.liquid.h = ps.real("particles.h_over_dp") * dp;
  ip.liquid.rho0 = ps.real("fluid.rho0");
  ip.liquid.gamma = ps.real("fluid.gamma");
  const auto g3 = ps.vec3("physics.gravity");
  double gnorm2 = 0;
  for (int d = 0; d < 3; ++d) {
    ip.gravity[d] = d < dim ? g3[d] : 0.0;
    gnorm2 += ip.gravity[d] * ip.gravity[d];
  }
  const double gnorm = std::sqrt(gnorm2);
  // Unit vector pointing up (against gravity); zero when there is no gravity.
  double up[3] = {0, 0, 0};
  if (gnorm > 0)
    for (int d = 0; d < dim; ++d) up[d] = -ip.gravity[d] / gnorm;
  const long layers = ps.integer("boundary.wall_layers");

  // ---- read and check the geometry ----
  std::vector<Box> tanks, blocks, obstacles, gates;
  std::vector<bool> open_top;
  for (int i : ps.indices("tank")) {
    const std::string s = "tank." + std::to_string(i);
    tanks.push_back(read_box(ps, dim, s, {"min", "max", "open_top"}));
    open_top.push_back(ps.flag(s + ".open_top"));
  }
  for (int i : ps.indices("block"))
    blocks.push_back(read_box(ps, dim, "block." + std::to_string(i), {"min", "max", "velocity"}));
  for (int i : ps.indices("obstacle"))
    obstacles.push_back(read_box(ps, dim, "obstacle." + std::to_string(i), {"min", "max"}));
  // Gates: obstacles that move at a constant velocity (the lifted door of a dam break), kept after the
  // obstacles in the particles and the wall boxes so that a gate at rest is the same obstacle.
  std::vector<std::array<double, 3>> gate_v;
  std::vector<double> gate_travel;  // infinite: it keeps moving
  for (int i : ps.indices("gate")) {
    const std::string s = "gate." + std::to_string(i);
    gates.push_back(read_box(ps, dim, s, {"min", "max", "velocity", "travel"}));
    const auto v = ps.vec3(s + ".velocity");
    gate_v.push_back({dim > 0 ? v[0] : 0.0, dim > 1 ? v[1] : 0.0, dim > 2 ? v[2] : 0.0});
    // travel: the distance after which the gate stops and stays (a door lifted by so much); unset, it
    // keeps moving.
    const double travel = ps.is_set(s + ".travel") ? ps.real(s + ".travel") : std::numeric_limits<double>::infinity();
    if (!(travel > 0))
      fail(ps.where(s + ".travel"), s + ".travel = " + fmt(travel) + " m: allowed range > 0 (the distance the gate " +
                                        "moves before it stops); give a positive length, or remove the key for " +
                                        "a gate that keeps moving");
    gate_travel.push_back(travel);
    const std::string where = ps.where(s + ".velocity");
    for (int d = 0; d < dim; ++d) {
      if (!std::isfinite(v[d]))
        fail(where, s + ".velocity." + kAxis[d] + " is not finite; give a speed in m/s");
      if (d < dim - 1 && v[d] != 0)
        fail(where, s + ".velocity." + kAxis[d] + " = " + fmt(v[d]) + ": a gate moves along the last axis only (" +
                        kAxis[dim - 1] + ", up: it is lifted); set the other components to 0");
      if (d == dim - 1 && v[d] < 0)
        fail(where, s + ".velocity." + kAxis[d] + " = " + fmt(v[d]) + " would push the gate into the floor: " +
                        "allowed range >= 0 (a lifted gate); give a positive speed or 0");
    }
    if (gate_v.back()[dim - 1] > 0 && ps.text("boundary.slip") == "no_slip")
      fail(where, s + " moves and boundary.slip = no_slip (" + ps.where("boundary.slip") +
                      "): the continuity term against a moving wall needs the wall's own velocity beside the " +
                      "no-slip mirror, which the neighbour record does not carry; use boundary.slip = at_rest, " +
                      "wall_law or free, or velocity 0");
  }

  if (blocks.empty()) {
    std::string hint;
    for (const char* other : {"gas_block", "solid_block"})
      if (!ps.indices(other).empty())
        hint = std::string("; or, for its [") + other + ".N] sections, set physics.model = " +
               std::string(other).substr(0, std::string(other).find('_')) + " under [physics]";
    fail(ps.source().empty() ? "scene" : ps.source(),
         "the scene has no fluid (physics.model = wcsph): add a [block.1] section with min and max, the corners of "
         "the fluid's box (inside a [tank.N] when the scene has one)" + hint);
  }
  for (const Box& b : blocks) {
    if (!tanks.empty() &&
        std::none_of(tanks.begin(), tanks.end(), [&](const Box& t) { return t.contains(b); }))
      fail(b.where, b.section + " extends outside every tank: move or shrink it so that it lies "
                                "inside the inner box (min..max) of a [tank.N]");
    for (const std::vector<Box>* solids : {&obstacles, &gates})
      for (const Box& o : *solids)
        if (b.overlaps(o))
          fail(b.where, b.section + " overlaps " + o.section + " (" + o.where +
                            "): fluid cannot start inside a solid; shrink or move one of them");
  }
  for (std::size_t i = 0; i < blocks.size(); ++i)
    for (std::size_t j = i + 1; j < blocks.size(); ++j)
      if (blocks[i].overlaps(blocks[j]))
        fail(blocks[j].where, blocks[j].section + " overlaps " + blocks[i].section + " (" +
                                  blocks[i].where +
                                  "): fluid blocks may touch but not overlap; move or shrink one");
  for (const std::vector<Box>* solids : {&obstacles, &gates})
    for (const Box& o : *solids)
      if (!tanks.empty() &&
          std::none_of(tanks.begin(), tanks.end(), [&](const Box& t) { return t.overlaps(o); }))
        fail(o.where, o.section + " lies entirely outside every tank: move it inside a [tank.N]");
  // A lifted gate sweeps its box up by its travel (to the scene's top when it has none): in a tank whose
  // top is closed the raised gate must fit under the roof (whose walls would sit in its path), else the
  // top must be open (the gate leaves through it); it passes no obstacle.
  for (std::size_t g = 0; g < gates.size(); ++g) {
    if (!(gate_v[g][dim - 1] > 0)) continue;
    Box path = gates[g];
    const bool stops = std::isfinite(gate_travel[g]);
    path.hi[dim - 1] = stops ? gates[g].hi[dim - 1] + gate_travel[g] : std::numeric_limits<double>::max();
    auto nm = [](double x) { return fmt(std::round(x * 1e9) / 1e9); };  // sums printed to the nanometre
    for (std::size_t t = 0; t < tanks.size(); ++t)
      if (!open_top[t] && tanks[t].overlaps(gates[g]) && path.hi[dim - 1] > tanks[t].hi[dim - 1] + kTol)
        fail(ps.where(gates[g].section + (stops ? ".travel" : ".velocity")),
             gates[g].section + (stops ? " raised by its travel " + fmt(gate_travel[g]) + " m reaches " + kAxis[dim - 1] +
                                             " = " + nm(path.hi[dim - 1]) + ", above the roof of "
                                       : " is lifted inside ") +
                 tanks[t].section + (stops ? " at " + fmt(tanks[t].hi[dim - 1]) : std::string(", whose top is closed")) +
                 " (" + tanks[t].where + "): " +
                 (stops ? "allowed range <= " + nm(tanks[t].hi[dim - 1] - gates[g].hi[dim - 1]) +
                              " m; shorten the travel, or set " + tanks[t].section + ".open_top = true"
                        : "set " + gates[g].section + ".travel (the raised gate below the roof) or " +
                              tanks[t].section + ".open_top = true (the gate leaves through it)"));
    for (const Box& o : obstacles) {
      if (path.overlaps(o))
        fail(ps.where(gates[g].section + ".velocity"), gates[g].section + " would be lifted through " + o.section +
                                                            " (" + o.where + "): move one of them");
    }
  }

  // ---- size check before allocating ----
  // Counted in double: a tiny dp must give this message, not an integer overflow or a bad_alloc.
  double total = 0;
  // A tank adds its wall shell (outer box minus the inner box), a block or an obstacle its cells.
  auto add_count = [&](const Box& b, bool tank, bool open) {
    double n[3];
    cell_counts(b, dp, n);
    const double inner = n[0] * n[1] * n[2];
    double outer = 1;
    for (int d = 0; d < dim; ++d)
      outer *= n[d] + (d == dim - 1 && open ? 1 : 2) * static_cast<double>(layers);
    total += tank ? outer - inner : inner;
  };
  for (std::size_t i = 0; i < tanks.size(); ++i) add_count(tanks[i], true, open_top[i]);
  for (const Box& b : blocks) add_count(b, false, false);
  for (const Box& o : obstacles) add_count(o, false, false);
  for (const Box& o : gates) add_count(o, false, false);
  // position and velocity (dim doubles each), density, mass, kind.
  check_scene_size(ps, {total, dim, "particles.dp", dp, false, (2.0 * dim + 2) * sizeof(double) + 3}, check);

  // Lattice indices are longs: a box 1e15 spacings or more from the first tank's corner (a far-away
  // second tank of a few cells) is refused rather than overflowed.
  const Box& first_box = tanks.empty() ? blocks.front() : tanks.front();
  for (const std::vector<Box>* boxes : {&tanks, &blocks, &obstacles, &gates})
    for (const Box& b : *boxes)
      for (int d = 0; d < dim; ++d)
        if (!(std::fabs(b.lo[d] - first_box.lo[d]) / dp < 1e15 && std::fabs(b.hi[d] - first_box.lo[d]) / dp < 1e15))
          fail(b.where, b.section + " lies 1e15 spacings or more from the corner of " + first_box.section +
                            ": move it closer or raise particles.dp");

  // ---- speed of sound ----
  ip.liquid.c0 = ps.real("fluid.c0");
  if (ip.liquid.c0 == 0) {
    if (gnorm > 0) {
      // Weakly compressible SPH keeps density fluctuations ~ (v/c0)^2 below 1% if c0 is ten times
      // the largest expected speed (Monaghan 1994); the fastest a column of height H gets is the
      // free-fall speed sqrt(2 g H) (Ritter's dam-break front speed is 2 sqrt(g H), of the same order).
      double H = 0;
      for (const Box& b : blocks) {
        double e = 0;
        for (int d = 0; d < dim; ++d) e += std::fabs(up[d]) * b.extent(d);
        H = std::max(H, e);
      }
      ip.liquid.c0 = 10.0 * std::sqrt(2.0 * gnorm * H);
    } else {
      // No gravity: the only speed scale is the blocks' initial velocity; 1 m/s if they are all at
      // rest, so that c0 stays finite (the user should then set fluid.c0 for their problem).
      double vmax = 0;
      for (const Box& b : blocks) {
        const auto v = ps.vec3(b.section + ".velocity");
        double s = 0;
        for (int d = 0; d < dim; ++d) s += v[d] * v[d];
        vmax = std::max(vmax, std::sqrt(s));
      }
      ip.liquid.c0 = 10.0 * (vmax > 0 ? vmax : 1.0);
    }
  }
  // A gate drives the water at its own speed: it must stay well below the sound speed of the weakly
  // compressible water (Mach 0.3; the flow's density varies by Ma^2, Monaghan 1994), or the plate runs
  // ahead of its own pressure waves (docs/physics.md, fourteenth session: a plate at 3 c0 sprays).
  for (std::size_t g = 0; g < gates.size(); ++g) {
    const double v = gate_v[g][dim - 1];
    if (v >= 0.3 * ip.liquid.c0)
      fail(ps.where(gates[g].section + ".velocity"),
           gates[g].section + ".velocity." + kAxis[dim - 1] + " = " + fmt(v) + " m/s: allowed range < 0.3 c0 = " +
               fmt(std::floor(30 * ip.liquid.c0) / 100) + " m/s (the sound speed fluid.c0 = " +
               fmt(std::round(100 * ip.liquid.c0) / 100) +
               " m/s: the weakly compressible model's Mach limit); lower the speed or raise fluid.c0");
  }
  // Tait: p = B ((rho/rho0)^gamma - 1), B = c0^2 rho0 / gamma, so that dp/drho = c0^2 at rho0.
  const double B = ip.liquid.c0 * ip.liquid.c0 * ip.liquid.rho0 / ip.liquid.gamma;

  // ---- particles ----
  const std::size_t n_est = static_cast<std::size_t>(total);
  ip.position.reserve(n_est * dim);
  ip.velocity.reserve(n_est * dim);
  ip.density.reserve(n_est);
  ip.mass.reserve(n_est);
  ip.kind.reserve(n_est);
  ip.phase.reserve(n_est);
  ip.material.reserve(n_est);
  Builder out{ip, dim, std::pow(dp, dim)};
  // Summation density recomputes rho from the masses at the first step; its runs keep rho0 dp^dim
  // (with hydrostatic masses the summation dam break's energy rose 0.9%, not understood yet).
  const bool summation = ps.text("fluid.density") == "summation";
  const double zero[3] = {0, 0, 0};
  Lattice lat{dim, dp, {0, 0, 0}};
  for (int d = 0; d < dim; ++d) lat.anchor[d] = first_box.lo[d];

  // Dynamic boundary particles (boundary.model = dbc_crespo2007, physics/boundary_dbc_crespo2007.h)
  // carry their own density: a wall particle under or beside a fluid block (within the wall's
  // thickness of its extent across gravity) starts at the hydrostatic density of its depth below the
  // block's surface, with the mass of its cell at it, so a still tank starts in equilibrium (this
  // project's start, not Crespo et al.'s). Only for gravity along an axis; else, and for Adami's walls
  // (whose density is extrapolated every step), rho0.
  struct Column {
    long from[3], to[3];
    double top;
  };
  std::vector<Column> columns;
  int up_axes = 0;
  for (int d = 0; d < dim; ++d) up_axes += up[d] != 0 ? 1 : 0;
  // The modified dynamic boundary particles (mdbc_english2022) take the same start: their density is
  // recomputed from the fluid at the first evaluation, but their constant mass is that of their cell at
  // the hydrostatic density, so that a still tank's walls have the volume dp^dim.
  const std::string wall_model = ps.text("boundary.model");
  const bool dbc_walls =
      (wall_model == "dbc_crespo2007" || wall_model == "mdbc_english2022") && gnorm > 0 && up_axes == 1 && !summation;
  auto wall_density = [&](const long* k, const double* x) {
    double depth = 0;
    for (const Column& c : columns) {
      bool beside = true;
      for (int d = 0; d < dim; ++d)
        if (up[d] == 0) beside = beside && k[d] >= c.from[d] - layers && k[d] < c.to[d] + layers;
      double height = 0;
      for (int d = 0; d < dim; ++d) height += up[d] * x[d];
      if (beside) depth = std::max(depth, c.top - height);
    }
    return depth > 0 ? hydrostatic_density(ip.liquid.rho0, B, ip.liquid.gamma, gnorm * depth) : ip.liquid.rho0;
  };

  // Fluid first, so fluid particles are 0 .. fluid_count-1 in the initial order.
  for (const Box& b : blocks) {
    const auto v3 = ps.vec3(b.section + ".velocity");
    const double v[3] = {v3[0], v3[1], v3[2]};
    long from[3], to[3];
    lat.cells_of(b, from, to);
    // Height of the (snapped) block's top surface along "up": the corner farthest against gravity.
    double top = 0;
    for (int d = 0; d < dim; ++d) top += up[d] * lat.plane(up[d] > 0 ? to[d] : from[d], d);
    if (dbc_walls) columns.push_back(Column{{from[0], from[1], from[2]}, {to[0], to[1], to[2]}, top});
    for_cells(dim, from, to, [&](const long* k) {
      double x[3], height = 0;
      lat.site(k, x);
      for (int d = 0; d < dim; ++d) height += up[d] * x[d];
      const double rho = hydrostatic_density(ip.liquid.rho0, B, ip.liquid.gamma, gnorm * (top - height));
      out.add(x, v, rho, kFluid, summation ? ip.liquid.rho0 : rho);
    });
  }

  // Tank walls: the lattice of the inner box continued `layers` cells outwards on every side
  // (edges and corners included, so the wall is closed), except above the top face when open.
  for (std::size_t t = 0; t < tanks.size(); ++t) {
    const Box& b = tanks[t];
    long in_from[3], in_to[3], from[3] = {0, 0, 0}, to[3] = {1, 1, 1};
    lat.cells_of(b, in_from, in_to);
    for (int d = 0; d < dim; ++d) {
      from[d] = in_from[d] - layers;
      to[d] = in_to[d] + ((d == dim - 1 && open_top[t]) ? 0 : layers);
    }
    for_cells(dim, from, to, [&](const long* k) {
      bool inside = true;
      for (int d = 0; d < dim; ++d) inside = inside && k[d] >= in_from[d] && k[d] < in_to[d];
      if (inside) return;
      double x[3];
      lat.site(k, x);
      const double rho_w = dbc_walls ? wall_density(k, x) : ip.liquid.rho0;
      out.add(x, zero, rho_w, kWall, rho_w);
    });
  }

  // Obstacles: solid boxes filled with wall particles. An obstacle may cross a tank wall (a sill
  // built into the floor, say); only its particles inside some tank's inner box are kept, so none
  // coincides with a tank wall particle.
  // A gate's particles are laid the same way, after the obstacles, with the gate's velocity (which the
  // drift moves them by, integrators/leapfrog_kdk.h).
  auto add_solid = [&](const Box& b, const double* v) {
    long from[3], to[3];
    lat.cells_of(b, from, to);
    for_cells(dim, from, to, [&](const long* k) {
      double x[3];
      lat.site(k, x);
      if (!tanks.empty() && std::none_of(tanks.begin(), tanks.end(),
                                         [&](const Box& t) { return t.contains_point(x); }))
        return;
      const double rho_w = dbc_walls ? wall_density(k, x) : ip.liquid.rho0;
      out.add(x, v, rho_w, kWall, rho_w);
    });
  };
  for (const Box& b : obstacles) add_solid(b, zero);
  for (std::size_t g = 0; g < gates.size(); ++g) add_solid(gates[g], gate_v[g].data());

  // The boundary interface of boundary.model = mdbc_english2022 (physics/boundary_mdbc_english2022.h):
  // the lattice planes the walls were built against, a tank's inner box and each obstacle's box, with
  // the obstacle's faces that meet the fluid (strictly inside some tank's inner box across that axis,
  // so a face standing on a tank's floor or wall is not one; every face when there is no tank).
  auto snapped = [&](const Box& b, bool obstacle) {
    long from[3], to[3];
    lat.cells_of(b, from, to);
    WallBox w;
    w.obstacle = obstacle;
    for (int d = 0; d < dim; ++d) {
      w.lo[d] = lat.plane(from[d], d);
      w.hi[d] = lat.plane(to[d], d);
    }
    return w;
  };
  for (const Box& t : tanks) ip.wall_boxes.push_back(snapped(t, false));
  const std::size_t n_tanks = ip.wall_boxes.size();
  // A lifted gate's trailing (low) face meets the water it releases: wetted too, though it stands on the
  // floor at t = 0.
  auto add_box = [&](const Box& o, const double* v) {
    WallBox w = snapped(o, true);
    for (int d = 0; d < dim; ++d)
      for (int side = 0; side < 2; ++side) {
        const double face = side ? w.hi[d] : w.lo[d];
        bool wet = n_tanks == 0 || (side == 0 && v[d] > 0);
        for (std::size_t t = 0; t < n_tanks; ++t)
          wet = wet || (face > ip.wall_boxes[t].lo[d] + 0.25 * dp && face < ip.wall_boxes[t].hi[d] - 0.25 * dp);
        if (wet) w.faces |= 1u << (2 * d + side);
      }
    for (int d = 0; d < dim; ++d) w.velocity[d] = v[d];
    ip.wall_boxes.push_back(w);
  };
  for (const Box& o : obstacles) add_box(o, zero);
  for (std::size_t g = 0; g < gates.size(); ++g) {
    add_box(gates[g], gate_v[g].data());
    ip.wall_boxes.back().stop_time = gate_stop_time(ps, gates[g].section);
  }
  return ip;
}

}  // namespace ejecta
