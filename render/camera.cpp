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
  if (two_d_) {
    half_w_ = 0.55f * ext.x;
    half_h_ = 0.55f * ext.y;
    return;
  }
  const float radius = 0.5f * glm::length(ext);
  // The bounding sphere fits the narrower field of view (horizontal when the frame is tall).
  const float half_y = glm::radians(fov_y_) * 0.5f;
  const float half = std::min(half_y, std::atan(std::tan(half_y) * aspect_));
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

float Camera::view_half_height() const {
  if (two_d_) return std::max(half_h_, half_w_) / zoom_;  // conservative before the aspect is known
  return distance_ * std::tan(glm::radians(fov_y_) * 0.5f);
}

glm::mat4 Camera::view() const {
  if (two_d_) return glm::translate(glm::mat4(1.f), -glm::vec3(target_.x, target_.y, 0.f));
  const glm::vec3 eye = target_ - forward() * distance_;
  return glm::lookAt(eye, target_, glm::vec3(0, 0, 1));
}

glm::mat4 Camera::proj(float aspect) const {
  if (two_d_) {
    // Both half extents fit: the taller of h and w / aspect.
    const float hh = std::max(half_h_, half_w_ / std::max(aspect, 1e-6f)) / zoom_;
    const float hw = hh * aspect;
    return glm::ortho(-hw, hw, -hh, hh, -10.f, 10.f);
  }
  return glm::perspective(glm::radians(fov_y_), aspect, distance_ * 1e-3f, distance_ * 100.f);
}

}  // namespace ejecta::render
