#include "render/gl_framebuffer.h"

#include <GL/glew.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ejecta::render {

Framebuffer::~Framebuffer() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (colour_) glDeleteRenderbuffers(1, &colour_);
  if (depth_) glDeleteRenderbuffers(1, &depth_);
}

void Framebuffer::resize(int width, int height) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("framebuffer size must be positive");
  if (width == w_ && height == h_ && fbo_) return;
  if (!fbo_) {
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &colour_);
    glGenRenderbuffers(1, &depth_);
  }
  w_ = width;
  h_ = height;
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w_, h_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w_, h_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("offscreen framebuffer incomplete (status 0x" + std::to_string(status) + ")");
}

void Framebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, w_, h_);
}

Image Framebuffer::read() const {
  Image img;
  img.width = w_;
  img.height = h_;
  img.rgba.resize(std::size_t(w_) * h_ * 4);
  std::vector<uint8_t> rows(img.rgba.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  // GL's first row is the bottom one.
  const std::size_t stride = std::size_t(w_) * 4;
  for (int y = 0; y < h_; ++y)
    std::copy_n(rows.data() + std::size_t(h_ - 1 - y) * stride, stride, img.rgba.data() + std::size_t(y) * stride);
  return img;
}

void Framebuffer::blit_to_default(int win_w, int win_h) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, w_, h_, 0, 0, win_w, win_h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace ejecta::render
