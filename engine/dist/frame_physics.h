#pragma once
// The liquid's per-particle measures (integrators/step_monitor.h's MeasureExtremes,
// physics/diagnostic_sums.h's MeasureDiagnosticSums) applied on the host to chosen rows of a frame,
// so that a distributed run reduces exactly what the single-process solver reduces, over the rows
// that are correct on this rank, before the MPI_Allreduce.
#include "io/frame.h"
#include "physics/diagnostic_sums.h"

#include <cstdint>
#include <vector>

namespace ejecta::dist {

struct RowExtremes {
  double max_v2 = 0, max_a2 = 0;  // over fluid rows, squared in the solver's precision
};

// Over every row of the frame (position, velocity, acceleration, density, mass, kind needed).
RowExtremes frame_extremes(const FrameData& f, int dim);

struct LiquidConstants {
  double gravity[3] = {0, 0, 0};
  double rho0 = 1000, c0 = 0, gamma = 7;
  bool summation = false;
};

// The diagnostic sums over the rows with use[i] != 0.
DiagnosticSums frame_sums(const FrameData& f, int dim, const std::vector<uint8_t>& use, const LiquidConstants& k);

// The solid's (and the gas') sums (physics/diagnostic_sums.h's MeasureMotionEnergySums: kinetic,
// internal from internal_energy, potential in the uniform gravity) over the rows with use[i] != 0.
DiagnosticSums frame_motion_sums(const FrameData& f, int dim, const std::vector<uint8_t>& use, const double gravity[3]);

}  // namespace ejecta::dist
