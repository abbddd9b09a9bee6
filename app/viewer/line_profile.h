#pragma once
// A field along a segment the user draws (2D and 3D scenes): at evenly spaced points of the segment,
// the Shepard average (Shepard 1968) of the values of the free particles within `radius`, weighted by
// w = (1 - r^2 / radius^2)^2, which sums to one and so reproduces a uniform field exactly. Particles
// are first culled to the segment's neighbourhood and binned along it: linear in the particle count.
// GL-free, so tests check it on fields with known values.
#include "simulation.h"
#include "viewer/plot_widget.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace ejecta::viewer {

struct LineProfile {
  std::vector<double> s;      // distance along the segment from its start (m)
  std::vector<double> value;  // the average there; NaN where no particle is within the radius
};

// positions: n * dim; values: one per particle (a scalar, a component or a magnitude); kinds: n
// (walls are left out; empty: all particles count).
LineProfile line_profile(const std::vector<double>& positions, int dim, const std::vector<double>& values,
                         const std::vector<uint8_t>& kinds, const glm::dvec3& a, const glm::dvec3& b, int samples,
                         double radius);

// The profile of a field of `sim` (component -1: the magnitude of a vector), ready for the plot
// widget: x is the distance along the segment in m, y the field with its units.
PlotSpec line_profile_plot(const Simulation& sim, const std::string& field, int component, const glm::dvec3& a,
                           const glm::dvec3& b, int samples, double radius);

}  // namespace ejecta::viewer
