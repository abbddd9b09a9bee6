#pragma once
// The drawing interface (Polyscope style: state in, pixels out). The viewer, headless rendering and
// the benchmark talk to a Renderer, so a test can check what is drawn through a screenshot, and the
// panel code never touches GL.
#include "render/camera.h"
#include "render_data/render_request.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ejecta::render {

enum class SpriteMode { Spheres, Discs };
// Walls: hidden (the outline of the tanks and obstacles is drawn instead: ViewSettings::outline),
// dimmed (translucent grey: the nearest wall layer over what lies behind it) or shown like the fluid.
enum class WallMode { Hidden, Dimmed, Shown };
// The dimmed walls' grey and opacity, in the sprite shader and the CUDA splat alike.
constexpr float kDimmedWallGrey = 0.6f, kDimmedWallAlpha = 0.3f;

inline glm::vec3 dark_background() { return {0.08f, 0.08f, 0.10f}; }
inline glm::vec3 light_background() { return {1.f, 1.f, 1.f}; }

struct ViewSettings {
  std::string colormap = "viridis";
  float range_min = 0, range_max = 1;
  SpriteMode mode = SpriteMode::Spheres;
  WallMode walls = WallMode::Dimmed;
  float radius = 0.005f;  // world units; the viewer uses half the particle spacing
  // Particles with a radius of their own (grains: RenderBuffers::radii > 0) are drawn at that radius
  // times radius_scale; the viewer sets radius / (half the spacing), so that the radius box and the
  // minimum visible size scale grains alike and keep their size ratios. The others: `radius`.
  float radius_scale = 1.f;
  bool clip = false;      // 3D: hide particles with dot(clip_normal, x) > clip_offset
  glm::vec3 clip_normal{1, 0, 0};
  float clip_offset = 0;
  glm::vec3 background = dark_background();  // light_background() for the light theme
  // The scene's geometry boxes (tank inner boxes, obstacles; 2D: z = 0) drawn as a wireframe when
  // the walls are hidden (SceneView fills it from the scene's sections).
  std::vector<Bounds> outline;
  // The self-gravity octree's top cells (a teaching overlay, issue 16; SceneView fills it while
  // show_tree is on), drawn as lines over the particles whatever the wall mode.
  bool show_tree = false;
  int tree_levels = 3;  // levels 0 .. tree_levels - 1 (the root is level 0)
  std::vector<Bounds> tree_cells;
  bool show_collider = false;
  glm::vec3 collider_center{0.f};
  float collider_radius = 0;
};

// The light theme: a light background (dark text and outlines over it).
inline bool is_light(const ViewSettings& s) { return s.background.r + s.background.g + s.background.b > 1.5f; }

class Renderer {
 public:
  virtual ~Renderer() = default;
  // Sizes the particle buffers (keeping them when the count is unchanged).
  virtual void set_particle_count(std::size_t n) = 0;
  virtual std::size_t particle_count() const = 0;
  // Draws into the currently bound framebuffer of width x height pixels.
  virtual void draw(const Camera& cam, const ViewSettings& s, int width, int height) = 0;
};

}  // namespace ejecta::render
