#pragma once
// One offscreen GL context for the rendering tests (EGL device, EGL surfaceless Mesa, or a hidden
// window under Xvfb). Without any of them a test skips, saying why, unless EJECTA_REQUIRE_GL=1 (CI),
// where it fails: there the GL tests must run.
#include "render/gl_context.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace ejecta::test {

inline render::GlContext* shared_gl_context(std::string* why) {
  static std::string reason;
  static std::unique_ptr<render::GlContext> ctx = [] { return render::create_offscreen_context(&reason); }();
  if (why) *why = reason;
  if (ctx) ctx->make_current();
  return ctx.get();
}

inline bool gl_required() {
  const char* e = std::getenv("EJECTA_REQUIRE_GL");
  return e && std::string(e) == "1";
}

}  // namespace ejecta::test

// Makes the shared context current or skips/fails the test.
#define EJECTA_NEED_GL()                                                                         \
  do {                                                                                           \
    std::string why_;                                                                            \
    if (!ejecta::test::shared_gl_context(&why_)) {                                               \
      if (ejecta::test::gl_required()) FAIL() << "no OpenGL context (EJECTA_REQUIRE_GL=1): " << why_; \
      GTEST_SKIP() << "no OpenGL context: " << why_;                                             \
    }                                                                                            \
  } while (0)
