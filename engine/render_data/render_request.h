#pragma once
// What the viewer asks the engine to draw, and where the engine writes it (Simulation::fill_render_data).
// Plain data, no GL types: the viewer hands in pointers it got from GL (mapped through CUDA-GL interop
// on the CUDA backend, or a host staging buffer on the CPU backend).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

// Colour source: a registered particle field (Simulation::fields()). Vectors are coloured by their
// magnitude (component < 0) or by one component; scalars ignore `component`.
struct RenderRequest {
  std::string field = "velocity";
  int component = -1;
};

// Caller-owned output, at least `capacity` particles long:
//   positions: 4 floats per particle, x y z w (2D: z = 0, 1D: y = z = 0; w = ParticleKind, 0 fluid, 1 wall)
//   colours:   1 float per particle, the requested value
//   radii:     optional (nullptr: not written), 1 float per particle: the particle's own radius in
//              metres where it has one (a DEM grain: its field kRadiusField), 0 where it has none (SPH
//              particles, drawn at the viewer's uniform radius). The viewer asks for it only when the
//              engine has the field (has_particle_radii), so SPH scenes move no extra bytes.
// `device` says the pointers are CUDA device memory (required on the CUDA backend) or host memory
// (required on the CPU backend); a mismatch is a std::invalid_argument, never a silent copy.
struct RenderBuffers {
  float* positions = nullptr;
  float* colours = nullptr;
  std::size_t capacity = 0;
  bool device = false;
  float* radii = nullptr;
};

// The particle field that gives a particle its own drawn radius (m; 0: none): the DEM grains' radius.
constexpr const char* kRadiusField = "grain_radius";

// One cell of the self-gravity octree as the viewer draws it (Simulation::gravity_tree_cells): its
// box in metres (2D: z = 0; 1D: y = z = 0) and its level (0: the root).
struct TreeCellBox {
  double lo[3], hi[3];
  int level;
};

// Range of the colour values over the fluid particles (over all particles when there is no fluid),
// for the automatic colour range. min > max when there is nothing to measure.
struct RenderRange {
  float min = 0, max = 0;
};

// The legend's histogram (Simulation::colour_histogram): counts of the requested colour value over
// the fluid particles (all particles when there is no fluid) in counts.size() equal bins over
// [min, max]; values outside go to the end bins, non-finite values to none. min > max: nothing to
// measure (no particles), all counts 0.
struct ColourHistogram {
  float min = 0, max = 0;
  std::vector<uint32_t> counts;
};

}  // namespace ejecta
