#pragma once
// The OpenGL Renderer: two vertex buffers (float4 positions, float colours) that the engine fills
// (particle_upload.h), and a third (float radii) only while the particles have radii of their own
// (grains; set_radii), drawn as point sprites (shaders/particles.*), colour through a 1D colormap
// texture; dimmed walls translucent in a second pass; the collider as a ring; with the walls hidden,
// the outline of the geometry as lines. Needs a current GL 3.3 context for its whole life.
#include "render/gl_program.h"
#include "render/renderer.h"

#include <map>
#include <vector>
#include <memory>
#include <string>

namespace ejecta::render {

class GlParticleRenderer final : public Renderer {
 public:
  GlParticleRenderer();
  ~GlParticleRenderer() override;
  void set_particle_count(std::size_t n) override;
  std::size_t particle_count() const override { return n_; }
  void draw(const Camera& cam, const ViewSettings& s, int width, int height) override;
  // Only the collider ring (when shown), over what is in the framebuffer: the overlay on the CUDA
  // splat rasterizer's frames (cuda_splat.h).
  void draw_collider(const Camera& cam, const ViewSettings& s, int width, int height);
  // With the walls hidden, the wireframe of s.outline over what is in the framebuffer (no depth
  // test: the tank's edges show through the fluid); the GL path and the splat's frames alike.
  void draw_outline(const Camera& cam, const ViewSettings& s, int width, int height);
  // With s.show_tree, the wireframe of s.tree_cells (the octree's top levels), no depth test.
  void draw_tree(const Camera& cam, const ViewSettings& s, int width, int height);

  // Per-particle radii (RenderBuffers::radii, metres; 0: the uniform ViewSettings::radius) on or off.
  // On: a float buffer of particle_count() radii, vertex attribute 2. Off (the default, SPH scenes):
  // no buffer, the attribute reads the constant 0, and the uploads move no extra bytes.
  void set_radii(bool on);
  bool has_radii() const { return radii_; }

  // The buffers the uploaders fill; `generation` changes whenever they are reallocated (or the
  // radius buffer comes or goes), so an interop uploader knows to register them again.
  unsigned position_buffer() const { return vbo_pos_; }
  unsigned colour_buffer() const { return vbo_col_; }
  unsigned radius_buffer() const { return radii_ ? vbo_rad_ : 0; }
  unsigned generation() const { return generation_; }

 private:
  unsigned colormap_texture(const std::string& name);
  // Line segments (box_lines.h) in one colour, over the framebuffer (no depth test).
  void draw_lines(const Camera& cam, const std::vector<float>& v, const glm::vec4& colour, int width, int height);
  void set_common_uniforms(const GlProgram& p, const Camera& cam, const ViewSettings& s, int width, int height,
                           float radius) const;

  std::unique_ptr<GlProgram> particles_, collider_, lines_;
  unsigned vao_ = 0, vbo_pos_ = 0, vbo_col_ = 0, vbo_rad_ = 0;
  bool radii_ = false;
  unsigned vao_collider_ = 0, vbo_collider_ = 0;
  unsigned vao_lines_ = 0, vbo_lines_ = 0;
  std::size_t n_ = 0;
  unsigned generation_ = 0;
  std::map<std::string, unsigned> textures_;
};

}  // namespace ejecta::render
