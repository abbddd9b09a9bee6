#pragma once
// The viewer's view logic that needs no GL, for tests: where the clip plane starts, which part of the
// window the scene is fitted into (clear of the panels), how large a particle is drawn at least, and
// the world point under the cursor.
#include "render/camera.h"
#include "render/renderer.h"
#include "simulation.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace ejecta::viewer {

struct ClipPlane {
  glm::vec3 normal{1.f, 0.f, 0.f};  // particles with dot(normal, x) > offset are cut
  float offset = 0;
};

// A plane through the middle of the box, facing the camera: its normal points at the eye (against
// the view direction, eye to target), so the near half is cut and the cut face looks at the viewer.
ClipPlane clip_facing_camera(const render::Bounds& box, const glm::vec3& view_direction);

// The bounding box of the free (non-wall) particles now; of all particles when none is free.
render::Bounds particle_bounds(const HostParticles& h);

struct PixelRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // window pixels, y down
};

// The part of a w x h window left to the scene by the panels: each panel (largest first) cuts the
// free rectangle on the side that keeps the most of it. The whole window when that would leave less
// than a quarter of its width or height.
render::FitRect free_fit_rect(float w, float h, std::vector<PixelRect> panels);

// The radius to draw particles with: the natural one (half the spacing), or larger so that a sprite
// is at least min_px pixels across at pixels_per_metre.
float min_visible_radius(float natural_radius, float pixels_per_metre, float min_px = 4.f);
// The factor on particles' own radii (grains, ViewSettings::radius_scale): radius / natural_radius,
// so that grains keep their true size at the natural radius and their ratios at any other; 1 when
// the natural radius is unknown.
float grain_radius_scale(float radius, float natural_radius);

// The particle under window pixel (mx, my) (y down) of a w x h frame: nearest to the eye (by its
// sphere's front) among those whose drawn disc covers the pixel or lies within min_px of it (small
// sprites stay clickable). pos: the render data's float4 positions (w = kind; walls are skipped
// while hidden), radii: its per-particle radii (RenderBuffers::radii, drawn times s.radius_scale;
// empty or 0: s.radius), as the renderers draw them. -1 when none.
long pick_particle(const render::Camera& cam, const render::ViewSettings& s, const std::vector<float>& pos,
                   const std::vector<float>& radii, double mx, double my, int w, int h, float min_px = 8.f);

// The world point under window pixel (mx, my) at the depth of `at` (2D: the z = 0 plane).
glm::vec3 unproject(const render::Camera& cam, double mx, double my, int w, int h, const glm::vec3& at);

// The self-gravity octree's overlay (key T): on only where the scene has gravity.self = on. Returns
// the message for the status bar (why it stays off, or what is drawn; "" when turned off).
std::string set_tree_overlay(render::ViewSettings& v, const ParamSet& scene, bool on);

}  // namespace ejecta::viewer
