#include "viewer/view_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ejecta::viewer {

ClipPlane clip_facing_camera(const render::Bounds& box, const glm::vec3& view_direction) {
  ClipPlane c;
  if (glm::length(view_direction) > 0) c.normal = -glm::normalize(view_direction);
  c.offset = glm::dot(c.normal, 0.5f * (box.lo + box.hi));
  return c;
}

render::Bounds particle_bounds(const HostParticles& h) {
  render::Bounds b{glm::vec3(std::numeric_limits<float>::max()), glm::vec3(-std::numeric_limits<float>::max())};
  bool any = false;
  for (int pass = 0; pass < 2 && !any; ++pass)
    for (std::size_t i = 0; i < h.n; ++i) {
      if (pass == 0 && i < h.kind.size() && h.kind[i] == kWall) continue;
      any = true;
      for (int d = 0; d < 3; ++d) {
        const float v = d < h.dim ? float(h.position[i * std::size_t(h.dim) + std::size_t(d)]) : 0.f;
        b.lo[d] = std::min(b.lo[d], v);
        b.hi[d] = std::max(b.hi[d], v);
      }
    }
  if (!any) b = render::Bounds{glm::vec3(0.f), glm::vec3(0.f)};
  return b;
}

render::FitRect free_fit_rect(float w, float h, std::vector<PixelRect> panels) {
  PixelRect f{0, 0, w, h};
  auto area = [](const PixelRect& r) { return std::max(0.f, r.x1 - r.x0) * std::max(0.f, r.y1 - r.y0); };
  std::sort(panels.begin(), panels.end(), [&](const PixelRect& a, const PixelRect& b) { return area(a) > area(b); });
  for (const PixelRect& p : panels) {
    if (p.x1 <= f.x0 || p.x0 >= f.x1 || p.y1 <= f.y0 || p.y0 >= f.y1) continue;  // outside what is left
    PixelRect cut[4] = {f, f, f, f};
    cut[0].x0 = p.x1;  // the panel on the left: the scene right of it
    cut[1].x1 = p.x0;
    cut[2].y0 = p.y1;
    cut[3].y1 = p.y0;
    f = *std::max_element(cut, cut + 4, [&](const PixelRect& a, const PixelRect& b) { return area(a) < area(b); });
  }
  if (f.x1 - f.x0 < 0.25f * w || f.y1 - f.y0 < 0.25f * h) return render::FitRect{};
  return render::FitRect{f.x0 / w, f.y0 / h, f.x1 / w, f.y1 / h};
}

long pick_particle(const render::Camera& cam, const render::ViewSettings& s, const std::vector<float>& pos,
                   const std::vector<float>& radii, double mx, double my, int w, int h, float min_px) {
  const glm::mat4 view = cam.view(), proj = cam.proj(float(w) / float(std::max(h, 1)));
  const std::size_t n = pos.size() / 4;
  long best = -1;
  float best_front = std::numeric_limits<float>::max(), best_d2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (pos[4 * i + 3] > 0.5f && s.walls == render::WallMode::Hidden) continue;
    const glm::vec4 v = view * glm::vec4(pos[4 * i], pos[4 * i + 1], pos[4 * i + 2], 1.f);
    const glm::vec4 c = proj * v;
    if (c.w <= 0) continue;
    const float sx = (c.x / c.w * 0.5f + 0.5f) * float(w), sy = (0.5f - c.y / c.w * 0.5f) * float(h);
    const float d2 = (sx - float(mx)) * (sx - float(mx)) + (sy - float(my)) * (sy - float(my));
    // The drawn radius (particles.vert): own radius times the scale, else the uniform one; in pixels
    // r P11 h / (2 w_clip) (w_clip = 1 orthographic).
    const float own = i < radii.size() ? radii[i] : 0.f;
    const float r = own > 0 ? own * s.radius_scale : s.radius;
    const float rpx = std::max(min_px, r * proj[1][1] * 0.5f * float(h) / c.w);
    if (d2 > rpx * rpx) continue;
    const float front = -v.z - r;  // distance of the sphere's front from the eye plane
    const float tie = 1e-4f * r;
    if (front < best_front - tie || (std::abs(front - best_front) <= tie && d2 < best_d2))
      best = long(i), best_front = front, best_d2 = d2;
  }
  return best;
}

float grain_radius_scale(float radius, float natural_radius) {
  return natural_radius > 0 && radius > 0 ? radius / natural_radius : 1.f;
}

float min_visible_radius(float natural_radius, float pixels_per_metre, float min_px) {
  if (!(pixels_per_metre > 0)) return natural_radius;
  return std::max(natural_radius, 0.5f * min_px / pixels_per_metre);
}

glm::vec3 unproject(const render::Camera& cam, double mx, double my, int w, int h, const glm::vec3& at) {
  const glm::mat4 vp = cam.proj(float(w) / float(h)) * cam.view();
  const glm::vec4 c = vp * glm::vec4(at, 1.f);
  const float ndc_z = c.z / c.w;
  const glm::vec4 ndc(2.f * float(mx) / float(w) - 1.f, 1.f - 2.f * float(my) / float(h), ndc_z, 1.f);
  const glm::vec4 p = glm::inverse(vp) * ndc;
  return glm::vec3(p) / p.w;
}

std::string set_tree_overlay(render::ViewSettings& v, const ParamSet& scene, bool on) {
  const bool gravity = scene.text("gravity.self") == "on";
  v.show_tree = on && gravity;
  if (!v.show_tree) v.tree_cells.clear();
  if (on && !gravity) return "the octree exists with self-gravity only (gravity.self = on, gas and solid models)";
  return v.show_tree ? "octree: the top " + std::to_string(v.tree_levels) + " levels of the last force evaluation's tree"
                     : "";
}

}  // namespace ejecta::viewer
