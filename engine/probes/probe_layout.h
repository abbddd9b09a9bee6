#pragma once
// Probes and gauges: the [probe.N] and [gauge.N] sections of a scene turned into sample points, the
// quantities each instrument measures and the output columns, in double and independent of the backend.
// The solver uploads this layout once (Simulation::set_probes) and samples it on the device
// (probes/probe_sampler.h); only the column values come back to the host.
//
// Definitions (docs/probes.md):
//  - A probe value is the Shepard-normalised kernel average over the fluid particles within the kernel
//    support, q(x) = sum_f q_j V_j W(x - x_j) / sum_f V_j W(x - x_j), V_j = m_j / rho_j (Shepard 1968;
//    Randles & Libersky 1996). Where the fluid kernel sum is below kDryKernelSum the point is dry and
//    reads 0 (atmospheric pressure, no flow). With source = walls the same average runs over the wall
//    particles instead (Adami et al. 2012 wall pressure: what a wall feels, for a sensor on a wall).
//  - A sensor disc (diameter > 0) is the plain mean over sample points on a square lattice of spacing at
//    most dp/2 clipped to the disc (3D), or along a segment (2D), as a real pressure sensor averages
//    over its membrane.
//  - A gauge gives the free-surface height on a vertical line: the first point, going up from the
//    line's start in steps of dp/4, where the kernel sum over fluid and wall particles
//    c(z) = sum_j V_j W(x - x_j) falls below 1/2, linearly interpolated between the last point above
//    and the first below (the MeasureTool definition of DualSPHysics, Crespo et al. 2015, with the mass
//    sum divided by the density). c is 1 in the bulk and 1/2 at a flat free surface; the walls are in
//    the sum so that c stays 1 down to a wetted floor; a dry floor reads its own height.
//  - A load ([force.N]) is the fluid's force on the wall particles inside a box (a body's walls), the
//    reaction of the liquid's fluid-wall pair terms of the momentum equation (pressure, artificial
//    viscosity, the wall law; physics/fluid_wall_load.h): F = -sum_i m_i sum_{w in box} a_iw, the same
//    pairs the step used (Newton's third law of the pair forces), as DualSPHysics's force on a body.
#include "params/param_set.h"
#include "particles/field_info.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

// Below this fluid kernel sum (a tenth of a full support; a lone particle on the point gives about
// 0.12) a probe point is dry and reads 0.
constexpr double kDryKernelSum = 0.1;
// Gauge line resolution in units of dp, and the colour level of the free surface.
constexpr double kGaugeStepOverDp = 0.25;
constexpr double kGaugeSurfaceLevel = 0.5;
// Most values (field components) one probe may sample.
constexpr int kMaxProbeChannels = 16;

// One sampled quantity of a probe: a component of a registered particle field.
struct ProbeChannel {
  std::string field;  // registered field name ("pressure")
  int component = 0;  // component of that field (0 for scalars)
};

// A probe, a gauge or a load.
struct ProbeInstrument {
  std::string name;        // "P1", or probe<N> / gauge<N>
  std::string section;     // "probe.3" / "gauge.1", for messages
  bool gauge = false;
  bool walls = false;      // probes: average over wall particles instead of fluid (probe.N.source)
  bool load = false;       // a [force.N]: the fluid's force on the wall particles in lo..hi
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  double area = 0;                 // loads: > 0 adds the column NAME.pressure = -F . normal / area
  double normal[3] = {0, 0, 0};    // unit normal of the sensor's face, into the fluid
  double interval = 0;     // s between samples, 0 = every step
  std::string reference;   // CSV of a reference series (viewer), resolved path, "" = none
  int reference_column = 2;  // its column of values (1-based; 1 is the time)
  std::vector<ProbeChannel> channels;  // probes only
  std::size_t first_point = 0, num_points = 0;  // into ProbeLayout::points
  std::size_t first_column = 0;                 // into ProbeLayout::columns
  double start = 0, step = 0;  // gauges: height of the first line point and the spacing
};

// One output column: "P1.pressure" in Pa.
struct ProbeColumn {
  std::string name;
  std::string units;
  std::size_t instrument = 0;
};

struct ProbeLayout {
  int dim = 0;
  std::vector<ProbeInstrument> instruments;
  std::vector<double> points;            // dim per point, every instrument's points in order
  std::vector<uint32_t> point_owner;     // instrument of each point
  std::vector<ProbeColumn> columns;
  std::size_t num_points() const { return point_owner.size(); }
  bool empty() const { return instruments.empty(); }
};

// True when the scene has at least one [probe.N], [gauge.N] or [force.N] section.
bool scene_has_probes(const ParamSet& params);

// Builds the layout; `fields` is the engine's field registry (Simulation::fields()). Throws ParamError
// "<file:line>: probe.2.fields: no particle field 'presure' (fields: ...)" and the like for bad input:
// unknown fields, a zero normal, a gauge whose top is not above its start, probes in a scene whose
// model has none, gauges in 1D, a load box with max <= min.
ProbeLayout make_probe_layout(const ParamSet& params, int dim, const std::vector<FieldInfo>& fields);

// Throws ParamError "<file:line>: force.1.min: the box ... holds no wall particle ..." when a load's box
// selects no wall particle of the built scene (dim coordinates per particle, their kinds).
void check_load_boxes(const ParamSet& params, const ProbeLayout& layout, const std::vector<double>& position,
                      const std::vector<uint8_t>& kind);

}  // namespace ejecta
