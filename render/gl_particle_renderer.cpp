#include "render/gl_particle_renderer.h"

#include "render/box_lines.h"
#include "render/colormap.h"

#include <GL/glew.h>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <vector>

namespace ejecta::render {

GlParticleRenderer::GlParticleRenderer()
    : particles_(std::make_unique<GlProgram>("shaders/particles.vert", "shaders/particles.frag")),
      collider_(std::make_unique<GlProgram>("shaders/particles.vert", "shaders/collider.frag")),
      lines_(std::make_unique<GlProgram>("shaders/lines.vert", "shaders/lines.frag")) {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_pos_);
  glGenBuffers(1, &vbo_col_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_pos_);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_col_);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  // The radii: attribute 2, its array enabled only while set_radii(true); disabled, the shader reads
  // the current value 0 (set in draw): the uniform radius.
  glGenBuffers(1, &vbo_rad_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_rad_);
  glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
  // One vertex for the collider: its centre (w = 0, a "fluid" point), colour unused.
  glGenVertexArrays(1, &vao_collider_);
  glGenBuffers(1, &vbo_collider_);
  glBindVertexArray(vao_collider_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_collider_);
  glBufferData(GL_ARRAY_BUFFER, 5 * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, reinterpret_cast<void*>(4 * sizeof(float)));
  glEnableVertexAttribArray(1);
  glGenVertexArrays(1, &vao_lines_);
  glGenBuffers(1, &vbo_lines_);
  glBindVertexArray(vao_lines_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_lines_);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindVertexArray(0);
}

GlParticleRenderer::~GlParticleRenderer() {
  for (auto& [name, tex] : textures_) glDeleteTextures(1, &tex);
  const unsigned bufs[] = {vbo_pos_, vbo_col_, vbo_rad_, vbo_collider_, vbo_lines_};
  glDeleteBuffers(5, bufs);
  glDeleteVertexArrays(1, &vao_);
  glDeleteVertexArrays(1, &vao_collider_);
  glDeleteVertexArrays(1, &vao_lines_);
}

void GlParticleRenderer::set_particle_count(std::size_t n) {
  if (n == n_) return;
  n_ = n;
  ++generation_;
  glBindBuffer(GL_ARRAY_BUFFER, vbo_pos_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(4 * sizeof(float) * n), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_col_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(sizeof(float) * n), nullptr, GL_DYNAMIC_DRAW);
  if (radii_) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo_rad_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(sizeof(float) * n), nullptr, GL_DYNAMIC_DRAW);
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GlParticleRenderer::set_radii(bool on) {
  if (on == radii_) return;
  radii_ = on;
  ++generation_;
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_rad_);
  // Off: the storage goes (a 1-float placeholder), the attribute array is disabled.
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(sizeof(float) * (on ? std::max<std::size_t>(n_, 1) : 1)), nullptr,
               GL_DYNAMIC_DRAW);
  if (on)
    glEnableVertexAttribArray(2);
  else
    glDisableVertexAttribArray(2);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

unsigned GlParticleRenderer::colormap_texture(const std::string& name) {
  auto it = textures_.find(name);
  if (it != textures_.end()) return it->second;
  const Colormap& m = colormap(name);
  std::vector<float> data;
  for (const auto& c : m.rgb) data.insert(data.end(), c.begin(), c.end());
  unsigned tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_1D, tex);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB32F, GLsizei(m.rgb.size()), 0, GL_RGB, GL_FLOAT, data.data());
  // Linear between samples, clamped at the ends: the same as Colormap::sample on the CPU.
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  textures_[name] = tex;
  return tex;
}

void GlParticleRenderer::set_common_uniforms(const GlProgram& p, const Camera& cam, const ViewSettings& s, int width,
                                             int height, float radius) const {
  const glm::mat4 view = cam.view(), proj = cam.proj(float(width) / float(std::max(height, 1)));
  p.use();
  glUniformMatrix4fv(p.uniform("u_view"), 1, GL_FALSE, glm::value_ptr(view));
  glUniformMatrix4fv(p.uniform("u_proj"), 1, GL_FALSE, glm::value_ptr(proj));
  glUniform1f(p.uniform("u_radius"), radius);
  glUniform1f(p.uniform("u_radius_scale"), s.radius_scale);
  glVertexAttrib1f(2, 0.f);  // a_radius where its array is off: the uniform radius
  glUniform1f(p.uniform("u_viewport_height"), float(height));
  glUniform1i(p.uniform("u_walls"), int(s.walls));
  glUniform1i(p.uniform("u_pass"), 0);
  glUniform1i(p.uniform("u_clip_on"), s.clip && !cam.two_d() ? 1 : 0);
  glUniform4f(p.uniform("u_clip"), s.clip_normal.x, s.clip_normal.y, s.clip_normal.z, s.clip_offset);
}

void GlParticleRenderer::draw(const Camera& cam, const ViewSettings& s, int width, int height) {
  glClearColor(s.background.r, s.background.g, s.background.b, 1.f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glDisable(GL_BLEND);
  // The light comes from over the viewer's left shoulder (view space); cuda_splat.cu uses the same.
  const glm::vec3 light = glm::normalize(glm::vec3(-0.4f, 0.6f, 0.7f));
  if (n_ > 0) {
    set_common_uniforms(*particles_, cam, s, width, height, s.radius);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_1D, colormap_texture(s.colormap));
    glUniform1i(particles_->uniform("u_colormap"), 0);
    glUniform2f(particles_->uniform("u_range"), s.range_min, s.range_max);
    glUniform1i(particles_->uniform("u_mode"), s.mode == SpriteMode::Discs ? 1 : 0);
    glUniform3f(particles_->uniform("u_light"), light.x, light.y, light.z);
    glUniform2f(particles_->uniform("u_wall"), kDimmedWallGrey, kDimmedWallAlpha);
    glBindVertexArray(vao_);
    glDrawArrays(GL_POINTS, 0, GLsizei(n_));
    if (s.walls == WallMode::Dimmed) {
      // Translucent walls, the nearest layer only (as the splat draws them): their depth first (no
      // colour), then their colour blended where they are that nearest surface.
      glUniform1i(particles_->uniform("u_pass"), 1);
      glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
      glDrawArrays(GL_POINTS, 0, GLsizei(n_));
      glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
      glDepthMask(GL_FALSE);
      glDepthFunc(GL_LEQUAL);
      glEnable(GL_BLEND);
      glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      glDrawArrays(GL_POINTS, 0, GLsizei(n_));
      glDisable(GL_BLEND);
      glDepthFunc(GL_LESS);
      glDepthMask(GL_TRUE);
    }
  }
  draw_outline(cam, s, width, height);
  draw_tree(cam, s, width, height);
  draw_collider(cam, s, width, height);
  glBindVertexArray(0);
}

void GlParticleRenderer::draw_outline(const Camera& cam, const ViewSettings& s, int width, int height) {
  if (s.walls != WallMode::Hidden || s.outline.empty()) return;
  // Mid grey against either theme's background.
  const float g = is_light(s) ? 0.35f : 0.7f;
  draw_lines(cam, box_edge_vertices(s.outline), glm::vec4(g, g, g, 1.f), width, height);
}

void GlParticleRenderer::draw_tree(const Camera& cam, const ViewSettings& s, int width, int height) {
  if (!s.show_tree || s.tree_cells.empty()) return;
  // Orange, darker on the light theme: apart from the grey outline and from most colormaps' ends.
  const glm::vec4 c = is_light(s) ? glm::vec4(0.75f, 0.35f, 0.f, 1.f) : glm::vec4(1.f, 0.6f, 0.1f, 1.f);
  draw_lines(cam, box_edge_vertices(s.tree_cells), c, width, height);
}

void GlParticleRenderer::draw_lines(const Camera& cam, const std::vector<float>& v, const glm::vec4& colour, int width,
                                    int height) {
  if (v.empty()) return;
  const glm::mat4 view = cam.view(), proj = cam.proj(float(width) / float(std::max(height, 1)));
  lines_->use();
  glUniformMatrix4fv(lines_->uniform("u_view"), 1, GL_FALSE, glm::value_ptr(view));
  glUniformMatrix4fv(lines_->uniform("u_proj"), 1, GL_FALSE, glm::value_ptr(proj));
  glUniform4f(lines_->uniform("u_colour"), colour.r, colour.g, colour.b, colour.a);
  glBindVertexArray(vao_lines_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_lines_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(v.size() * sizeof(float)), v.data(), GL_DYNAMIC_DRAW);
  glDisable(GL_DEPTH_TEST);
  glLineWidth(1.f);
  glDrawArrays(GL_LINES, 0, GLsizei(v.size() / 3));
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
}

void GlParticleRenderer::draw_collider(const Camera& cam, const ViewSettings& s, int width, int height) {
  if (!(s.show_collider && s.collider_radius > 0)) return;
  glEnable(GL_PROGRAM_POINT_SIZE);
  const float v[5] = {s.collider_center.x, s.collider_center.y, s.collider_center.z, 0.f, 0.f};
  glBindBuffer(GL_ARRAY_BUFFER, vbo_collider_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof v, v);
  set_common_uniforms(*collider_, cam, s, width, height, s.collider_radius);
  glDisable(GL_DEPTH_TEST);  // always visible, also inside the fluid
  glBindVertexArray(vao_collider_);
  glDrawArrays(GL_POINTS, 0, 1);
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
}

}  // namespace ejecta::render
