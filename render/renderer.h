#pragma once
// The drawing interface (Polyscope style: state in, pixels out). The viewer, headless rendering and
// the benchmark talk to a Renderer, so a test can check what is drawn through a screenshot, and the
// panel code never touches GL.
#include "render/camera.h"
#include "render_data/render_request.h"

#include <cstddef>
#include <string>

namespace ejecta::render {

enum class SpriteMode { Spheres, Discs };
enum class WallMode { Hidden, Dimmed, Shown };

struct ViewSettings {
  std::string colormap = "viridis";
  float range_min = 0, range_max = 1;
  SpriteMode mode = SpriteMode::Spheres;
  WallMode walls = WallMode::Dimmed;
  float radius = 0.005f;  // world units; the viewer uses half the particle spacing
  bool clip = false;      // 3D: hide particles with dot(clip_normal, x) > clip_offset
  glm::vec3 clip_normal{1, 0, 0};
  float clip_offset = 0;
  glm::vec3 background{0.08f, 0.08f, 0.10f};
  bool show_collider = false;
  glm::vec3 collider_center{0.f};
  float collider_radius = 0;
};

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
