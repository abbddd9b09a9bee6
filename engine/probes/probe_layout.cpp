#include "probes/probe_layout.h"

#include "core/types.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ejecta {

namespace {

const char kAxis[3] = {'x', 'y', 'z'};
// Sample points along a sensor diameter: spacing at most dp/2, at most this many.
constexpr int kMaxDiscPointsAcross = 15;
// Longest gauge line, in points (a 1 m line at dp = 1 mm has 4001).
constexpr std::size_t kMaxGaugePoints = 100000;

[[noreturn]] void fail(const ParamSet& ps, const std::string& key, const std::string& message) {
  throw ParamError(ps.where(key) + ": " + key + ": " + message);
}

// The scene's directory from where a key was set ("scenes/x.ini:12" -> "scenes/"), "" for --set and
// defaults (relative to the working directory).
std::string scene_dir(const std::string& where) {
  const std::size_t colon = where.rfind(':');
  if (colon == std::string::npos || where.rfind("--", 0) == 0) return "";
  const std::string path = where.substr(0, colon);
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::string field_list(const std::vector<FieldInfo>& fields) {
  std::string s;
  for (const FieldInfo& f : fields) s += (s.empty() ? "" : ", ") + f.name;
  return s;
}

// "pressure, velocity.x" -> channels and column suffixes, checked against the registry.
void parse_fields(const ParamSet& ps, const std::string& key, int dim, const std::vector<FieldInfo>& fields,
                  ProbeInstrument& inst, std::vector<std::pair<std::string, std::string>>& cols) {
  std::stringstream in(ps.text(key));
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) fail(ps, key, "empty field name in the list (give e.g. 'pressure, velocity')");
    std::string name = item;
    int comp = -1;
    const std::size_t dot = item.rfind('.');
    if (dot != std::string::npos && dot + 2 == item.size() && item[dot + 1] >= 'x' && item[dot + 1] <= 'z') {
      name = item.substr(0, dot);
      comp = item[dot + 1] - 'x';
    }
    const auto f = std::find_if(fields.begin(), fields.end(), [&](const FieldInfo& fi) { return fi.name == name; });
    if (f == fields.end())
      fail(ps, key, "no particle field '" + name + "' (fields: " + field_list(fields) + ")");
    if (comp >= 0 && (f->components == 1 || comp >= f->components || comp >= dim))
      fail(ps, key, "'" + item + "': field '" + name + "' has " + std::to_string(f->components) +
                        " component(s); use " + (f->components == 1 ? name : name + ".x .. " + name + "." + kAxis[f->components - 1]));
    const int first = comp >= 0 ? comp : 0, last = comp >= 0 ? comp : f->components - 1;
    for (int c = first; c <= last; ++c) {
      inst.channels.push_back(ProbeChannel{name, c});
      const bool suffix = f->components > 1;
      cols.emplace_back(name + (suffix ? std::string(".") + kAxis[c] : ""), f->units);
    }
  }
  if (inst.channels.empty()) fail(ps, key, "no field given (the default is pressure)");
  if (inst.channels.size() > std::size_t(kMaxProbeChannels))
    fail(ps, key, std::to_string(inst.channels.size()) + " values; a probe samples at most " +
                      std::to_string(kMaxProbeChannels) + " (split the fields over two probes)");
}

// The sensor normal of `key` (a probe's disc, a load read as a membrane), unit length in its first dim
// components (the rest 0); a zero one is an input error.
void unit_normal(const ParamSet& ps, const std::string& key, int dim, double n[3]) {
  const auto nv = ps.vec3(key);
  double len = 0;
  for (int d = 0; d < dim; ++d) len += nv[d] * nv[d];
  len = std::sqrt(len);
  if (!(len > 0)) fail(ps, key, "the sensor normal must not be zero in its first " + std::to_string(dim) +
                                    " components (e.g. 1, 0, 0 for a face looking along +x)");
  for (int d = 0; d < 3; ++d) n[d] = d < dim ? nv[d] / len : 0.0;
}

void add_point(ProbeLayout& l, const double* x, std::size_t owner) {
  for (int d = 0; d < l.dim; ++d) l.points.push_back(x[d]);
  l.point_owner.push_back(uint32_t(owner));
}

// Sample points of a sensor disc (3D) or segment (2D) of diameter `diam` centred on c, normal n: the
// centres of an m x m lattice (m cells across the diameter) that lie in the disc; one point when the
// diameter is below dp/2.
void add_disc(ProbeLayout& l, const double* c, double diam, const double* n, double dp, std::size_t owner) {
  const int m = std::min(kMaxDiscPointsAcross, std::max(1, int(std::ceil(diam / (0.5 * dp) - 1e-9))));
  const int dim = l.dim;
  double e1[3] = {0, 0, 0}, e2[3] = {0, 0, 0};
  if (dim == 2) {
    e1[0] = -n[1], e1[1] = n[0];
  } else {
    // e1 = n x (the axis least aligned with n), e2 = n x e1.
    int a = 0;
    for (int d = 1; d < 3; ++d)
      if (std::fabs(n[d]) < std::fabs(n[a])) a = d;
    double u[3] = {0, 0, 0};
    u[a] = 1;
    e1[0] = n[1] * u[2] - n[2] * u[1], e1[1] = n[2] * u[0] - n[0] * u[2], e1[2] = n[0] * u[1] - n[1] * u[0];
    const double l1 = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (double& v : e1) v /= l1;
    e2[0] = n[1] * e1[2] - n[2] * e1[1], e2[1] = n[2] * e1[0] - n[0] * e1[2], e2[2] = n[0] * e1[1] - n[1] * e1[0];
  }
  const double cell = diam / m, r = 0.5 * diam;
  const int mb = dim == 3 ? m : 1;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < mb; ++b) {
      const double u = (a - 0.5 * (m - 1)) * cell, v = dim == 3 ? (b - 0.5 * (m - 1)) * cell : 0;
      if (m > 1 && u * u + v * v > r * r * (1 + 1e-12)) continue;
      double x[3];
      for (int d = 0; d < 3; ++d) x[d] = c[d] + u * e1[d] + v * e2[d];
      add_point(l, x, owner);
    }
}

}  // namespace

bool scene_has_probes(const ParamSet& params) {
  return !params.indices("probe").empty() || !params.indices("gauge").empty() || !params.indices("force").empty();
}

ProbeLayout make_probe_layout(const ParamSet& ps, int dim, const std::vector<FieldInfo>& fields) {
  ProbeLayout l;
  l.dim = dim;
  const double dp = ps.real("particles.dp");
  const bool any = scene_has_probes(ps);
  if (any && ps.text("physics.model") != "wcsph") {
    const std::string first = !ps.indices("probe").empty()   ? "probe." + std::to_string(ps.indices("probe")[0]) + ".position"
                              : !ps.indices("gauge").empty() ? "gauge." + std::to_string(ps.indices("gauge")[0]) + ".position"
                                                             : "force." + std::to_string(ps.indices("force")[0]) + ".min";
    fail(ps, first, "probes, gauges and loads are available with physics.model = wcsph only (this scene "
                    "has physics.model = " + ps.text("physics.model") + "); remove the section");
  }

  auto common = [&](const std::string& s, const char* kind, int index) {
    ProbeInstrument in;
    in.section = s;
    in.gauge = std::string(kind) == "gauge";
    in.name = ps.text(s + ".name");
    if (in.name.empty()) in.name = kind + std::to_string(index);
    if (in.name.find_first_of(", \t\"") != std::string::npos)
      fail(ps, s + ".name", "'" + in.name + "' would break the CSV header: use letters, digits, '_' or '-'");
    for (const ProbeInstrument& o : l.instruments)
      if (o.name == in.name) fail(ps, s + ".name", "'" + in.name + "' is also the name of " + o.section + "; names must differ");
    in.interval = ps.real(s + ".interval");
    const std::string ref = ps.text(s + ".reference");
    if (!ref.empty()) in.reference = ref[0] == '/' ? ref : scene_dir(ps.where(s + ".reference")) + ref;
    in.reference_column = int(ps.integer(s + ".reference_column"));
    return in;
  };

  for (int i : ps.indices("probe")) {
    const std::string s = "probe." + std::to_string(i);
    ProbeInstrument in = common(s, "probe", i);
    in.walls = ps.text(s + ".source") == "walls";
    std::vector<std::pair<std::string, std::string>> cols;
    parse_fields(ps, s + ".fields", dim, fields, in, cols);
    const auto pos = ps.vec3(s + ".position");
    const double diam = ps.real(s + ".diameter");
    in.first_point = l.num_points();
    if (diam > 0) {
      if (dim == 1) fail(ps, s + ".diameter", "a sensor disc needs 2D or 3D; use diameter = 0 in 1D");
      double n[3];
      unit_normal(ps, s + ".normal", dim, n);
      add_disc(l, pos.data(), diam, n, dp, l.instruments.size());
    } else {
      add_point(l, pos.data(), l.instruments.size());
    }
    in.num_points = l.num_points() - in.first_point;
    in.first_column = l.columns.size();
    for (auto& c : cols) l.columns.push_back(ProbeColumn{in.name + "." + c.first, c.second, l.instruments.size()});
    l.instruments.push_back(std::move(in));
  }

  for (int i : ps.indices("gauge")) {
    const std::string s = "gauge." + std::to_string(i);
    if (dim == 1) fail(ps, s + ".position", "a gauge measures a height: it needs a 2D or 3D scene");
    ProbeInstrument in = common(s, "gauge", i);
    const auto pos = ps.vec3(s + ".position");
    const int up = dim - 1;
    const double top = ps.real(s + ".top");
    if (!(top > pos[up]))
      fail(ps, s + ".top", "the line's top (" + format_number(top) + " m) must be above its start, position." +
                               kAxis[up] + " = " + format_number(pos[up]) + " m");
    in.start = pos[up];
    in.step = kGaugeStepOverDp * dp;
    const double count = std::floor((top - in.start) / in.step + 1e-9) + 1;
    if (count > double(kMaxGaugePoints))
      fail(ps, s + ".top", "the line is " + format_number(count) + " points of dp/4; at most " +
                               std::to_string(kMaxGaugePoints) + ": lower top or raise position." + kAxis[up]);
    in.first_point = l.num_points();
    double x[3] = {pos[0], pos[1], pos[2]};
    for (std::size_t k = 0; k < std::size_t(count); ++k) {
      x[up] = in.start + double(k) * in.step;
      add_point(l, x, l.instruments.size());
    }
    in.num_points = l.num_points() - in.first_point;
    in.first_column = l.columns.size();
    l.columns.push_back(ProbeColumn{in.name + ".height", "m", l.instruments.size()});
    l.instruments.push_back(std::move(in));
  }

  // Loads: a box of wall particles, no sample points; one column per component of the force.
  static const char* const kForceUnits[3] = {"N/m^2", "N/m", "N"};
  for (int i : ps.indices("force")) {
    const std::string s = "force." + std::to_string(i);
    ProbeInstrument in = common(s, "force", i);
    in.load = true;
    const auto lo = ps.vec3(s + ".min"), hi = ps.vec3(s + ".max");
    for (int d = 0; d < dim; ++d)
      if (!(hi[d] > lo[d]))
        fail(ps, s + ".max", std::string("max.") + kAxis[d] + " = " + format_number(hi[d]) + " m must be above min." +
                                 kAxis[d] + " = " + format_number(lo[d]) + " m (the box selects the wall particles "
                                 "whose load is summed; e.g. an obstacle's box grown by its wall layers)");
    for (int d = 0; d < 3; ++d) in.lo[d] = lo[d], in.hi[d] = hi[d];
    in.first_point = l.num_points();
    in.num_points = 0;
    in.first_column = l.columns.size();
    for (int d = 0; d < dim; ++d)
      l.columns.push_back(ProbeColumn{in.name + ".force." + kAxis[d], kForceUnits[dim - 1], l.instruments.size()});
    in.area = ps.real(s + ".area");
    if (in.area > 0) {
      unit_normal(ps, s + ".normal", dim, in.normal);
      l.columns.push_back(ProbeColumn{in.name + ".pressure", "Pa", l.instruments.size()});
    }
    l.instruments.push_back(std::move(in));
  }
  return l;
}

void check_load_boxes(const ParamSet& ps, const ProbeLayout& l, const std::vector<double>& position,
                      const std::vector<uint8_t>& kind) {
  const int dim = l.dim;
  for (const ProbeInstrument& in : l.instruments) {
    if (!in.load) continue;
    std::size_t walls = 0, fluid = 0;
    for (std::size_t j = 0; j < kind.size(); ++j) {
      bool inside = true;
      for (int d = 0; d < dim; ++d) inside = inside && position[j * dim + d] >= in.lo[d] && position[j * dim + d] <= in.hi[d];
      if (inside) (kind[j] == kFluid ? fluid : walls) += 1;
    }
    if (walls == 0)
      fail(ps, in.section + ".min", "the box min..max holds no wall particle (" + std::to_string(fluid) +
                                        " fluid particles): a load sums the fluid's force on the wall particles inside "
                                        "it; put the box around a wall or obstacle, wall layers included (they lie "
                                        "up to a few dp outside the wall's face)");
  }
}

}  // namespace ejecta
