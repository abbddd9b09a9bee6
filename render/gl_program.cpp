#include "render/gl_program.h"

#include "render/colormap.h"

#include <GL/glew.h>

#include <stdexcept>
#include <vector>

namespace ejecta::render {

namespace {

// The info log of a shader or a program (glGetShaderiv/glGetShaderInfoLog or the program pair).
template <class GetIv, class GetLog>
std::string info_log(unsigned id, GetIv get_iv, GetLog get_log) {
  GLint len = 0;
  get_iv(id, GL_INFO_LOG_LENGTH, &len);
  std::vector<char> log(std::size_t(len) + 1, 0);
  get_log(id, len, nullptr, log.data());
  return log.data();
}

unsigned compile(GLenum type, const std::string& path) {
  const char* src = embedded_asset(path);
  if (!src) throw std::runtime_error("shader " + path + " is not embedded in this build");
  const unsigned s = glCreateShader(type);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    const std::string log = info_log(s, glGetShaderiv, glGetShaderInfoLog);
    glDeleteShader(s);
    throw std::runtime_error(path + ": " + log);
  }
  return s;
}

}  // namespace

GlProgram::GlProgram(const std::string& vert_path, const std::string& frag_path) {
  const unsigned vs = compile(GL_VERTEX_SHADER, vert_path);
  const unsigned fs = compile(GL_FRAGMENT_SHADER, frag_path);
  id_ = glCreateProgram();
  glAttachShader(id_, vs);
  glAttachShader(id_, fs);
  glLinkProgram(id_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    const std::string log = info_log(id_, glGetProgramiv, glGetProgramInfoLog);
    glDeleteProgram(id_);
    throw std::runtime_error("linking " + vert_path + " + " + frag_path + ": " + log);
  }
}

GlProgram::~GlProgram() {
  if (id_) glDeleteProgram(id_);
}
void GlProgram::use() const { glUseProgram(id_); }
int GlProgram::uniform(const char* name) const { return glGetUniformLocation(id_, name); }

}  // namespace ejecta::render
