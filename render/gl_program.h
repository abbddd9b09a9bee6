#pragma once
// A linked GLSL program from two embedded shader files, with uniform lookup.
#include <string>

namespace ejecta::render {

class GlProgram {
 public:
  // Throws std::runtime_error with the compiler's log and the file name on failure.
  GlProgram(const std::string& vert_path, const std::string& frag_path);
  ~GlProgram();
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;
  void use() const;
  int uniform(const char* name) const;

 private:
  unsigned id_ = 0;
};

}  // namespace ejecta::render
