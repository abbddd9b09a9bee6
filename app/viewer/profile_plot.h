#pragma once
// 1D scenes as profile plots: density, velocity, pressure and specific internal energy against x, one
// marker per particle, with the exact solution overlaid where the scene has one (a 1D gas scene of two
// [gas_block.N] boxes that meet at one point is a Riemann problem: engine/physics/riemann_exact.h,
// Toro 2009, ch. 4). A 1D scene drawn as sprites is a line of dots one or two pixels high, so the
// window, headless frames and screenshots draw these plots instead.
#include "io/frame.h"
#include "params/param_set.h"
#include "physics/riemann_exact.h"
#include "simulation.h"

#include <optional>
#include <string>
#include <vector>

namespace ejecta::viewer {

// A shock tube: left and right states meeting at x0 at t = 0.
struct RiemannSetup {
  GasState left, right;
  double gamma = 1.4;
  double x0 = 0;
};
// The Riemann problem of `scene`, or nullopt where it is not one (not 1D gas, not exactly two blocks,
// blocks that do not touch).
std::optional<RiemannSetup> riemann_setup(const ParamSet& scene);

struct ProfileCurve {
  std::string name, units;  // "density", "kg/m^3"
  std::vector<double> x, y;  // the particles
  std::vector<double> exact_y;  // at Profiles::exact_x; empty without an exact solution
};

struct Profiles {
  double time = 0;
  std::vector<ProfileCurve> curves;  // those of density, velocity, pressure, internal_energy present
  std::vector<double> exact_x;       // where the exact solution is sampled (empty: none)
};

// The profiles of a frame holding position (1 component) and any of the four fields; the exact
// solution at the frame's time where `scene` is a Riemann problem.
Profiles profiles_of(const FrameData& frame, const ParamSet& scene);
// The same from a running simulation (captures the fields it needs).
Profiles profiles_of(const Simulation& sim, const ParamSet& scene);

// Draws the plots (2 x 2 panels, axes with nice ticks, particles as markers, the exact solution as a
// line) into the current ImGui window's draw list, in the rectangle at (x, y) of size w x h.
void draw_profiles(const Profiles& p, float x, float y, float w, float h);
// The plot marker and exact-line colours (tests look for them).
constexpr unsigned kProfileMarkerRgb = 0x1f77b4, kProfileExactRgb = 0xd62728;
// The window's "Profiles" window (1D scenes), over most of a win_w x win_h window.
void draw_profile_window(const Profiles& p, int win_w, int win_h);

}  // namespace ejecta::viewer
