#pragma once
// Orbit camera for 3D scenes (z up, as 3D scenes put gravity along -z) and a pan/zoom camera for 2D
// scenes (x right, y up, orthographic). Mouse deltas are in pixels.
#include <glm/glm.hpp>

namespace ejecta::render {

struct Bounds {
  glm::vec3 lo{0.f}, hi{1.f};
};

enum class ViewPreset { Front, Side, Top, Iso };

// The part of the frame that fit() frames the scene into, as fractions of the width and height
// (y down, as windows count): the viewer leaves out its panels; headless frames use all of it.
struct FitRect {
  float x0 = 0, y0 = 0, x1 = 1, y1 = 1;
};

class Camera {
 public:
  explicit Camera(bool two_d = false) : two_d_(two_d) {}
  bool two_d() const { return two_d_; }

  // Frames the box (with a small margin) from the current direction, for the last aspect set.
  void fit(const Bounds& b);
  // Width / height of the frame that fit() frames for (the 3D fit needs the narrower of the two
  // fields of view); the viewer sets it before fitting.
  void set_aspect(float aspect) { aspect_ = aspect > 0 ? aspect : 1.f; }
  // Where fit() puts the scene (default: the whole frame). The projection is shifted (an off-axis
  // lens) so that the box's centre sits in the rectangle's centre; orbiting still turns about it.
  void set_fit_rect(const FitRect& r) { fit_rect_ = r; }
  void preset(ViewPreset p);          // 3D: direction; 2D: just fit again
  // 3D: looks along `dir` (from the eye to the target; pitch within +-89 degrees) and fits again.
  void look_along(const glm::vec3& dir);
  glm::vec3 direction() const { return forward(); }  // from the eye to the target
  void orbit(float dx, float dy);     // 3D only: yaw/pitch, 0.3 degrees per pixel
  void pan(float dx, float dy, int viewport_height);  // moves the target with the view plane
  void zoom(float factor);            // > 1 zooms in
  // Zooms keeping the point of the target's plane under (ndc_x, ndc_y) where it is on the screen
  // (the mouse wheel zooms about the cursor), for the last aspect set.
  void zoom_at(float factor, float ndc_x, float ndc_y);
  // Pixels per metre at the target's depth in a frame viewport_height pixels high.
  float pixels_per_metre(int viewport_height) const;

  glm::mat4 view() const;
  glm::mat4 proj(float aspect) const;
  glm::vec3 target() const { return target_; }
  float distance() const { return distance_; }

 private:
  glm::vec3 forward() const;  // from the eye to the target
  float view_half_height() const;
  glm::mat4 lens_shift(glm::mat4 p) const;

  bool two_d_;
  glm::vec3 target_{0.5f};
  float distance_ = 3.f;
  float yaw_ = -90.f, pitch_ = 20.f;  // degrees; yaw -90: looking along +y
  float fov_y_ = 40.f;                // degrees
  float half_h_ = 1.f, half_w_ = 1.f;  // 2D: half extents that fit() found, before zoom
  float zoom_ = 1.f;
  float aspect_ = 16.f / 9.f;
  Bounds bounds_{};
  FitRect fit_rect_{};
  glm::vec2 shift_{0.f};  // NDC offset of the lens (the fit rectangle's centre)
};

}  // namespace ejecta::render
