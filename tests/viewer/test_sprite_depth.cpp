// The sphere impostors write the depth of their surface, not of their centre: two overlapping
// spheres intersect where their surfaces cross, while flat discs simply stack by centre depth.
#include "gl_test_util.h"
#include "render/colormap.h"
#include "render/gl_framebuffer.h"
#include "render/gl_particle_renderer.h"

#include <GL/glew.h>

namespace ejecta {
namespace {

TEST(SpriteDepth, SpheresIntersectDiscsStack) {
  EJECTA_NEED_GL();
  // Looking down -z (2D camera). A at x = 0, z = 0, colour 0 (viridis purple); B at x = r, z = 0.2 r,
  // colour 1 (yellow): B's centre is nearer the eye.
  const float r = 0.1f;
  const float pos[8] = {0.f, 0.f, 0.f, 0.f, r, 0.f, 0.2f * r, 0.f};
  const float col[2] = {0.f, 1.f};
  render::GlParticleRenderer renderer;
  renderer.set_particle_count(2);
  glBindBuffer(GL_ARRAY_BUFFER, renderer.position_buffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof pos, pos);
  glBindBuffer(GL_ARRAY_BUFFER, renderer.colour_buffer());
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof col, col);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  render::Camera cam(true);
  cam.set_aspect(1.f);
  cam.fit(render::Bounds{glm::vec3(-2 * r, -1.5f * r, 0.f), glm::vec3(3 * r, 1.5f * r, 0.f)});
  render::ViewSettings s;
  s.radius = r;
  s.range_min = 0;
  s.range_max = 1;
  render::Framebuffer fb;
  fb.resize(200, 200);
  // World x of a pixel column on the centre row, through the camera's matrices.
  const glm::mat4 vp = cam.proj(1.f) * cam.view();
  auto column = [&](float x) {
    const glm::vec4 c = vp * glm::vec4(x, 0.f, 0.f, 1.f);
    return int((c.x / c.w * 0.5f + 0.5f) * 200.f);
  };
  const int near_a = column(0.1f * r);  // inside the overlap, next to A's centre
  auto colour_at = [&](render::SpriteMode mode) {
    s.mode = mode;
    fb.bind();
    renderer.draw(cam, s, 200, 200);
    const render::Image img = fb.read();
    const uint8_t* p = img.pixel(near_a, 100);
    return std::array<int, 3>{p[0], p[1], p[2]};
  };
  const auto sphere = colour_at(render::SpriteMode::Spheres), disc = colour_at(render::SpriteMode::Discs);
  // Yellow has a large green channel, purple a small one (shading scales both).
  EXPECT_GT(disc[1], 150) << "discs: B's nearer centre covers A";
  EXPECT_LT(sphere[1], 60) << "spheres: A's surface bulges nearer than B's there";
  EXPECT_GT(sphere[2], sphere[1]) << "and it is A's purple";
}

}  // namespace
}  // namespace ejecta
