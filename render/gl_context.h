#pragma once
// OpenGL contexts: a GLFW window for the viewer, and offscreen contexts for headless rendering and
// tests, tried in this order:
//   1. EGL on the device platform (EGL_EXT_device_enumeration + EGL_PLATFORM_DEVICE_EXT): a GPU
//      server without X; hardware devices are preferred over Mesa's software device;
//   2. EGL on Mesa's surfaceless platform (llvmpipe): CI and laptops without a display;
//   3. a hidden GLFW window: any X server, Xvfb included.
// Rendering always goes to an offscreen Framebuffer (gl_framebuffer.h), so no context needs a
// drawable surface of the frame's size.
#include <memory>
#include <string>

struct GLFWwindow;

namespace ejecta::render {

enum class ContextKind { Window, EglDevice, EglSurfaceless, HiddenWindow };
const char* to_string(ContextKind k);

class GlContext {
 public:
  virtual ~GlContext() = default;
  virtual void make_current() = 0;
  virtual ContextKind kind() const = 0;
  virtual GLFWwindow* window() { return nullptr; }  // Window and HiddenWindow only
  // "EGL device / NVIDIA H200/PCIe/SSE2 / 4.6.0 NVIDIA ...": the path and GL_RENDERER, GL_VERSION.
  std::string description() const { return description_; }
  std::string vendor() const { return vendor_; }

 protected:
  // Loads the GL entry points with GLEW (once current) and records the renderer strings. Throws
  // std::runtime_error when the context is not usable (GL below 3.3).
  void finish_setup();
  std::string description_, vendor_;
};

// A visible window (title, size in screen coordinates) with vsync off; nullptr and `error` filled when
// GLFW cannot open one (no display).
std::unique_ptr<GlContext> create_window_context(int width, int height, const std::string& title,
                                                 std::string* error);
// The first offscreen context that works, in the order above; nullptr with every reason in `log`.
// `allow` limits the kinds tried (tests use it to ask for the EGL device only).
struct OffscreenChoice {
  bool egl_device = true, egl_surfaceless = true, hidden_window = true;
};
std::unique_ptr<GlContext> create_offscreen_context(std::string* log, OffscreenChoice allow = {});

// True when an X (or Wayland) display can be opened by GLFW.
bool display_available();

}  // namespace ejecta::render
