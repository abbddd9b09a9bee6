#include "render/camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace ejecta::render {

glm::vec3 Camera::forward() const {
  const float y = glm::radians(yaw_), p = glm::radians(pitch_);
  // Pitch > 0 looks down at the target from above.
  return glm::normalize(glm::vec3(std::cos(p) * std::cos(y), -std::cos(p) * std::sin(y), -std::sin(p)));
}

void Camera::fit(const Bounds& b) {
  bounds_ = b;
  target_ = 0.5f * (b.lo + b.hi);
  const glm::vec3 ext = glm::max(b.hi - b.lo, glm::vec3(1e-6f));
  zoom_ = 1.f;
  // The fit rectangle's size (fractions) and its centre in NDC (y up).
  const float fw = std::clamp(fit_rect_.x1 - fit_rect_.x0, 0.05f, 1.f);
  const float fh = std::clamp(fit_rect_.y1 - fit_rect_.y0, 0.05f, 1.f);
  shift_ = glm::vec2(fit_rect_.x0 + fit_rect_.x1 - 1.f, 1.f - fit_rect_.y0 - fit_rect_.y1);
  if (two_d_) {
    // The frame's half extents are those of the rectangle over its share of the frame.
    half_w_ = 0.55f * ext.x / fw;
    half_h_ = 0.55f * ext.y / fh;
    return;
  }
  const float radius = 0.5f * glm::length(ext);
  // The bounding sphere fits the narrower field of view of the rectangle (horizontal when it is tall).
  const float tan_y = std::tan(glm::radians(fov_y_) * 0.5f);
  const float half = std::min(std::atan(tan_y * fh), std::atan(tan_y * aspect_ * fw));
  distance_ = 1.05f * radius / std::sin(half);
}

void Camera::preset(ViewPreset p) {
  switch (p) {
    case ViewPreset::Front: yaw_ = -90.f, pitch_ = 0.f; break;  // along +y: x right, z up
    case ViewPreset::Side: yaw_ = 0.f, pitch_ = 0.f; break;     // along +x
    case ViewPreset::Top: yaw_ = -90.f, pitch_ = 89.f; break;   // down -z
    case ViewPreset::Iso: yaw_ = -60.f, pitch_ = 30.f; break;
  }
  fit(bounds_);
}

void Camera::look_along(const glm::vec3& dir) {
  if (two_d_ || !(glm::length(dir) > 0)) return;
  const glm::vec3 d = glm::normalize(dir);
  pitch_ = std::clamp(glm::degrees(std::asin(std::clamp(-d.z, -1.f, 1.f))), -89.f, 89.f);
  // Straight up or down: keep the current yaw.
  if (std::fabs(d.x) + std::fabs(d.y) > 1e-6f) yaw_ = glm::degrees(std::atan2(-d.y, d.x));
  fit(bounds_);
}

void Camera::orbit(float dx, float dy) {
  if (two_d_) return;
  yaw_ -= 0.3f * dx;
  pitch_ = std::clamp(pitch_ + 0.3f * dy, -89.f, 89.f);
}

void Camera::pan(float dx, float dy, int viewport_height) {
  const float per_pixel = 2.f * view_half_height() / float(std::max(viewport_height, 1));
  if (two_d_) {
    target_ += glm::vec3(-dx * per_pixel, dy * per_pixel, 0.f);
    return;
  }
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 0, 1)));
  const glm::vec3 up = glm::cross(right, f);
  target_ += (-dx * right + dy * up) * per_pixel;
}

void Camera::zoom(float factor) {
  if (!(factor > 0)) return;
  if (two_d_) zoom_ = std::clamp(zoom_ * factor, 1e-3f, 1e4f);
  else distance_ = std::clamp(distance_ / factor, 1e-4f, 1e6f);
}

void Camera::zoom_at(float factor, float ndc_x, float ndc_y) {
  // The point of the target's plane under the cursor, before and after: moving the target by their
  // difference brings it back under the cursor (a shift of the target shifts that plane's points alike).
  auto under = [&] {
    const glm::mat4 inv = glm::inverse(proj(aspect_) * view());
    const glm::vec4 c = proj(aspect_) * view() * glm::vec4(target_, 1.f);
    const glm::vec4 p = inv * glm::vec4(ndc_x, ndc_y, c.z / c.w, 1.f);
    return glm::vec3(p) / p.w;
  };
  const glm::vec3 before = under();
  zoom(factor);
  const glm::vec3 after = under();
  target_ += before - after;
  if (two_d_) target_.z = 0.f;
}

float Camera::pixels_per_metre(int viewport_height) const {
  return 0.5f * float(viewport_height) / view_half_height();
}

float Camera::view_half_height() const {
  if (two_d_) return std::max(half_h_, half_w_ / aspect_) / zoom_;  // as proj() for the last aspect set
  return distance_ * std::tan(glm::radians(fov_y_) * 0.5f);
}

glm::mat4 Camera::view() const {
  if (two_d_) return glm::translate(glm::mat4(1.f), -glm::vec3(target_.x, target_.y, 0.f));
  const glm::vec3 eye = target_ - forward() * distance_;
  return glm::lookAt(eye, target_, glm::vec3(0, 0, 1));
}

// Clip x += shift.x w, y += shift.y w: the picture moves by shift in NDC, the depth and the sprite
// size (P[1][1], P[3][3]) stay as they were.
glm::mat4 Camera::lens_shift(glm::mat4 p) const {
  for (int c = 0; c < 4; ++c) {
    p[c][0] += shift_.x * p[c][3];
    p[c][1] += shift_.y * p[c][3];
  }
  return p;
}

glm::mat4 Camera::proj(float aspect) const {
  if (two_d_) {
    // Both half extents fit: the taller of h and w / aspect.
    const float hh = std::max(half_h_, half_w_ / std::max(aspect, 1e-6f)) / zoom_;
    const float hw = hh * aspect;
    return lens_shift(glm::ortho(-hw, hw, -hh, hh, -10.f, 10.f));
  }
  return lens_shift(glm::perspective(glm::radians(fov_y_), aspect, distance_ * 1e-3f, distance_ * 100.f));
}

}  // namespace ejecta::render
