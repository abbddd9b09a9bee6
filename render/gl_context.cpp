// GLFW and EGL context creation. GLEW loads the entry points in every case; under EGL its glewInit()
// ends with GLEW_ERROR_NO_GLX_DISPLAY (4) after it has loaded all the core and extension functions
// (only its GLX part failed, which an EGL context does not use), so 4 counts as success there.
#include "render/gl_context.h"

#include <GL/glew.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace ejecta::render {

const char* to_string(ContextKind k) {
  switch (k) {
    case ContextKind::Window: return "window";
    case ContextKind::EglDevice: return "EGL device";
    case ContextKind::EglSurfaceless: return "EGL surfaceless";
    default: return "hidden window";
  }
}

void GlContext::finish_setup() {
  glewExperimental = GL_TRUE;  // core profiles: load every entry point, not only the advertised ones
  const GLenum err = glewInit();
  const bool egl = kind() == ContextKind::EglDevice || kind() == ContextKind::EglSurfaceless;
  if (err != GLEW_OK && !(egl && err == 4 /* GLEW_ERROR_NO_GLX_DISPLAY */))
    throw std::runtime_error(std::string("glewInit failed: ") +
                             reinterpret_cast<const char*>(glewGetErrorString(err)));
  while (glGetError() != GL_NO_ERROR) {
  }  // glewInit's probing of a core context leaves GL_INVALID_ENUM behind
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  if (major * 10 + minor < 33)
    throw std::runtime_error(std::string("OpenGL 3.3 is needed, the context has ") + (version ? version : "?"));
  vendor_ = vendor ? vendor : "";
  description_ = std::string(to_string(kind())) + " / " + (renderer ? renderer : "?") + " / " +
                 (version ? version : "?");
}

// ---------------------------------------------------------------- GLFW

namespace {

bool glfw_ready(std::string* error) {
  // glfwInit is idempotent; its failure (no display) is reported through the error callback.
  static std::string last;
  glfwSetErrorCallback([](int, const char* msg) { last = msg; });
  if (glfwInit() == GLFW_TRUE) return true;
  if (error) *error = "GLFW: " + (last.empty() ? std::string("cannot initialise") : last);
  return false;
}

class GlfwContext final : public GlContext {
 public:
  GlfwContext(GLFWwindow* w, ContextKind k) : w_(w), kind_(k) {
    make_current();
    finish_setup();
  }
  ~GlfwContext() override { glfwDestroyWindow(w_); }
  void make_current() override { glfwMakeContextCurrent(w_); }
  ContextKind kind() const override { return kind_; }
  GLFWwindow* window() override { return w_; }

 private:
  GLFWwindow* w_;
  ContextKind kind_;
};

std::unique_ptr<GlContext> glfw_context(int w, int h, const std::string& title, bool visible, std::string* error) {
  if (!glfw_ready(error)) return nullptr;
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  GLFWwindow* win = glfwCreateWindow(w, h, title.c_str(), nullptr, nullptr);
  if (!win) {
    if (error) *error = "GLFW could not create an OpenGL 3.3 core window";
    return nullptr;
  }
  try {
    auto ctx = std::make_unique<GlfwContext>(win, visible ? ContextKind::Window : ContextKind::HiddenWindow);
    if (visible) glfwSwapInterval(0);
    return ctx;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

// ---------------------------------------------------------------- EGL

class EglContext final : public GlContext {
 public:
  EglContext(EGLDisplay d, EGLContext c, EGLSurface s, ContextKind k) : dpy_(d), ctx_(c), surf_(s), kind_(k) {
    make_current();
    finish_setup();
  }
  ~EglContext() override {
    eglMakeCurrent(dpy_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surf_ != EGL_NO_SURFACE) eglDestroySurface(dpy_, surf_);
    eglDestroyContext(dpy_, ctx_);
    // The display is left initialised: EGL displays are shared per device, and terminating one
    // under another live context of the same device would break it.
  }
  void make_current() override {
    if (!eglMakeCurrent(dpy_, surf_, surf_, ctx_)) throw std::runtime_error("eglMakeCurrent failed");
  }
  ContextKind kind() const override { return kind_; }

 private:
  EGLDisplay dpy_;
  EGLContext ctx_;
  EGLSurface surf_;
  ContextKind kind_;
};

std::string egl_error(const char* what) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s failed (EGL error 0x%x)", what, unsigned(eglGetError()));
  return buf;
}

// A 3.3 core context on an EGL display, with a small pbuffer when the config has one (some drivers
// refuse EGL_NO_SURFACE without EGL_KHR_surfaceless_context); drawing goes to an FBO anyway.
std::unique_ptr<GlContext> egl_context_on(EGLDisplay dpy, ContextKind kind, std::string* error) {
  EGLint major = 0, minor = 0;
  if (!eglInitialize(dpy, &major, &minor)) {
    *error = egl_error("eglInitialize");
    return nullptr;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    *error = egl_error("eglBindAPI(EGL_OPENGL_API)");
    return nullptr;
  }
  const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                             EGL_BLUE_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  const EGLint cfg_attr_nosurf[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint count = 0;
  bool pbuffer = eglChooseConfig(dpy, cfg_attr, &cfg, 1, &count) && count > 0;
  if (!pbuffer && !(eglChooseConfig(dpy, cfg_attr_nosurf, &cfg, 1, &count) && count > 0)) {
    *error = "no EGL config with desktop OpenGL";
    return nullptr;
  }
  const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
  if (ctx == EGL_NO_CONTEXT) {
    *error = egl_error("eglCreateContext (OpenGL 3.3 core)");
    return nullptr;
  }
  EGLSurface surf = EGL_NO_SURFACE;
  if (pbuffer) {
    const EGLint pb_attr[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surf = eglCreatePbufferSurface(dpy, cfg, pb_attr);
  }
  try {
    return std::make_unique<EglContext>(dpy, ctx, surf, kind);
  } catch (const std::exception& e) {
    *error = e.what();
    eglDestroyContext(dpy, ctx);
    return nullptr;
  }
}

template <class F>
F egl_proc(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

std::unique_ptr<GlContext> egl_device_context(std::string* error) {
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!client || !std::strstr(client, "EGL_EXT_device_enumeration") || !std::strstr(client, "EGL_EXT_platform_device")) {
    *error = "EGL device platform: EGL_EXT_device_enumeration / EGL_EXT_platform_device not supported";
    return nullptr;
  }
  auto query_devices = egl_proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto query_string = egl_proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  auto platform_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  EGLDeviceEXT devices[16];
  EGLint n = 0;
  if (!query_devices || !platform_display || !query_devices(16, devices, &n) || n == 0) {
    *error = "EGL device platform: no devices";
    return nullptr;
  }
  // First the GPU that CUDA calls device 0 (the one the engine computes on, so that interop can
  // share its buffers; EGL_NV_device_cuda says which it is), then other hardware, then Mesa's
  // software rasteriser, which is listed as a device too ("EGL_MESA_device_software").
  auto query_attrib = egl_proc<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
  auto rank = [&](EGLDeviceEXT d) {
    const char* ext = query_string ? query_string(d, EGL_EXTENSIONS) : nullptr;
    if (ext && std::strstr(ext, "EGL_MESA_device_software")) return 2;
    EGLAttrib cuda = -1;
    if (ext && std::strstr(ext, "EGL_NV_device_cuda") && query_attrib && query_attrib(d, EGL_CUDA_DEVICE_NV, &cuda) &&
        cuda == 0)
      return 0;
    return 1;
  };
  std::vector<EGLDeviceEXT> order;
  for (int pass = 0; pass < 3; ++pass)
    for (EGLint i = 0; i < n; ++i)
      if (rank(devices[i]) == pass) order.push_back(devices[i]);
  std::string reasons;
  for (EGLDeviceEXT dev : order) {
    EGLDisplay dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, dev, nullptr);
    std::string why;
    if (dpy == EGL_NO_DISPLAY) why = egl_error("eglGetPlatformDisplayEXT");
    else if (auto ctx = egl_context_on(dpy, ContextKind::EglDevice, &why)) return ctx;
    reasons += (reasons.empty() ? "" : "; ") + why;
  }
  *error = "EGL device platform: " + reasons;
  return nullptr;
}

std::unique_ptr<GlContext> egl_surfaceless_context(std::string* error) {
  auto platform_display = egl_proc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!platform_display || !client || !std::strstr(client, "EGL_MESA_platform_surfaceless")) {
    *error = "EGL surfaceless platform: EGL_MESA_platform_surfaceless not supported";
    return nullptr;
  }
  EGLDisplay dpy = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (dpy == EGL_NO_DISPLAY) {
    *error = egl_error("EGL surfaceless: eglGetPlatformDisplayEXT");
    return nullptr;
  }
  std::string why;
  auto ctx = egl_context_on(dpy, ContextKind::EglSurfaceless, &why);
  if (!ctx) *error = "EGL surfaceless platform: " + why;
  return ctx;
}

}  // namespace

bool display_available() {
  const char* x = std::getenv("DISPLAY");
  const char* wl = std::getenv("WAYLAND_DISPLAY");
  if (!(x && *x) && !(wl && *wl)) return false;
  return glfw_ready(nullptr);
}

std::unique_ptr<GlContext> create_window_context(int width, int height, const std::string& title,
                                                 std::string* error) {
  std::string why;
  if (!display_available()) {
    if (error) *error = "no display (DISPLAY and WAYLAND_DISPLAY are unset or cannot be opened)";
    return nullptr;
  }
  auto ctx = glfw_context(width, height, title, true, &why);
  if (!ctx && error) *error = why;
  return ctx;
}

std::unique_ptr<GlContext> create_offscreen_context(std::string* log, OffscreenChoice allow) {
  std::string reasons, why;
  auto note = [&](const std::string& r) { reasons += (reasons.empty() ? "" : "; ") + r; };
  if (allow.egl_device) {
    if (auto c = egl_device_context(&why)) return c;
    note(why);
  }
  if (allow.egl_surfaceless) {
    if (auto c = egl_surfaceless_context(&why)) return c;
    note(why);
  }
  if (allow.hidden_window) {
    if (display_available()) {
      if (auto c = glfw_context(64, 64, "ejecta offscreen", false, &why)) return c;
      note(why);
    } else {
      note("hidden GLFW window: no display");
    }
  }
  if (log) *log = reasons;
  return nullptr;
}

}  // namespace ejecta::render
