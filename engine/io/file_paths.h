#pragma once
// One rule for a recording's sibling files (the XDMF sidecar, the CSV of `export`, a repaired copy, the
// per-frame particle files): the path without its file extension.
#include <string>

namespace ejecta {

// "runs/a.h5" -> "runs/a"; "runs.v2/a" -> "runs.v2/a" (a dot in a folder name is not an extension);
// "runs/.h5" -> "runs/.h5" (nor is the leading dot of a file name).
inline std::string path_stem(const std::string& path) {
  const std::size_t slash = path.rfind('/'), start = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t dot = path.rfind('.');
  return dot != std::string::npos && dot > start ? path.substr(0, dot) : path;
}

}  // namespace ejecta
