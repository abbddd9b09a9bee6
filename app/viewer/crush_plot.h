#pragma once
// The viewer's crush-curve plot of a porous material (issue 15): the distention alpha against the
// pressure P (p-alpha, engine/physics/porous_palpha.h (P2)) or against the compaction strain eps_c
// (epsilon-alpha, porous_epsalpha.h (E1); eps_c = eps_V = ln(V/V_0) without the thermal correction),
// sampled through the very functions the solver integrates (Material::porous, the material as the
// engine holds it), with the particles of a selection drawn on it as points. No GL or ImGui here: the
// window (imgui_panels.cpp) draws the PlotSpec with plot_widget.h; tests check the model directly.
#include "io/frame.h"
#include "materials/material_library.h"
#include "viewer/plot_widget.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ejecta::viewer {

// The indices of the porous materials (porosity = p_alpha or eps_alpha), in material-index order:
// the plot is offered only for these (none: no plot).
std::vector<std::size_t> porous_materials(const std::vector<Material>& materials);

// The crush curve of porous material m, `samples` points (at least 16) in increasing x plus the
// curve's corners (P_e and P_s; eps_e, eps_X and eps_C), each y = the model's alpha(x).
// p-alpha: x = P over [0, 1.25 P_s]; epsilon-alpha: x = eps_c over [1.25 eps_C, 0] (eps_c <= eps_e
// compacts). Throws std::invalid_argument for a material without porosity.
PlotSeries crush_curve(const Material& m, int samples = 200);

// Which particles the plot shows: those of material `material` (the solver's index), within `radius`
// of `centre` when radius > 0 (e.g. around the particle picked in the viewer), at most max_points of
// them (evenly thinned by index).
struct CrushSelection {
  std::size_t material = 0;
  double centre[3] = {0, 0, 0};
  double radius = 0;  // m; <= 0: every particle of the material
  std::size_t max_points = 4000;
};

// One selected particle on the plot.
struct CrushPoint {
  std::size_t index;  // the engine's current (sorted) index
  double x;           // P (Pa) or eps_c
  double alpha;       // its distention
};

// The fields crush_points() reads for material m (Simulation::capture_frame's names).
std::vector<std::string> crush_fields(const Material& m);
// The selected particles of a frame holding crush_fields(m) (and "material"). Throws
// std::invalid_argument naming a field the frame lacks.
std::vector<CrushPoint> crush_points(const FrameData& frame, const Material& m, const CrushSelection& sel);

// The plot: the curve (a reference, under the points), the points as markers, axes named with units.
PlotSpec crush_plot(const Material& m, const std::vector<CrushPoint>& points, int samples = 200);

}  // namespace ejecta::viewer
