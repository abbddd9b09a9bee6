#pragma once
// An offscreen render target (RGBA8 colour + 24-bit depth renderbuffers) that every frame is drawn
// into: the viewer blits it to the window, headless rendering and tests read it back.
#include "render/image.h"

namespace ejecta::render {

class Framebuffer {
 public:
  Framebuffer() = default;
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;

  // (Re)allocates for the size if it changed; needs a current context.
  void resize(int width, int height);
  void bind() const;  // as the draw and read framebuffer, with the viewport set
  unsigned id() const { return fbo_; }
  int width() const { return w_; }
  int height() const { return h_; }
  Image read() const;                      // top row first
  void blit_to_default(int win_w, int win_h) const;  // onto the window's back buffer

 private:
  unsigned fbo_ = 0, colour_ = 0, depth_ = 0;
  int w_ = 0, h_ = 0;
};

}  // namespace ejecta::render
