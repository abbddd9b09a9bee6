#pragma once
// The XDMF sidecar of a recording: a small XML file that describes, for ParaView and VisIt, where
// each frame's particles live in the HDF5 file. It holds no data itself, so it is rewritten whole
// after every frame (atomically: FILE.xdmf.tmp, then rename) rather than appended to.
#include "particles/field_info.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ejecta {

// What the sidecar needs to know about one complete frame.
struct XdmfFrame {
  std::string group;  // "/frames/000000"
  double time = 0;
  std::size_t particles = 0;
  std::vector<FieldInfo> fields;  // the datasets of the frame, in the order they were written
};

// Writes `xdmf_path` describing `frames` of the HDF5 file `h5_path` (referenced by its file name
// only, so the two files can be moved together). Frames without a `position` field of `dim`
// components have no geometry and are left out. Throws RecordError when the file cannot be written.
void write_xdmf(const std::string& h5_path, const std::string& xdmf_path, int dim,
                const std::vector<XdmfFrame>& frames);

// The sidecar's path for a recording: FILE.h5 -> FILE.xdmf (the extension replaced, or appended).
std::string xdmf_path_for(const std::string& h5_path);

// The XDMF text itself (what write_xdmf writes), for tests and tools.
std::string xdmf_text(const std::string& h5_file_name, int dim, const std::vector<XdmfFrame>& frames);

}  // namespace ejecta
