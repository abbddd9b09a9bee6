#include "io/xdmf.h"

#include "io/file_paths.h"
#include "io/frame.h"
#include "io/h5_recorder.h"  // RecordError

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace ejecta {

namespace {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default: o += c;
    }
  }
  return o;
}

const char* number_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float32:
    case ScalarType::Float64: return "Float";
    case ScalarType::UInt8: return "UChar";
    case ScalarType::UInt32: return "UInt";
  }
  return "Float";
}

std::string dims_of(std::size_t n, int components) {
  std::string d = std::to_string(n);
  if (components > 1) d += " " + std::to_string(components);
  return d;
}

void data_item(std::ostringstream& o, const std::string& h5, const std::string& group, const FieldInfo& f,
               std::size_t n, const char* indent) {
  o << indent << "<DataItem Format=\"HDF\" NumberType=\"" << number_type(f.scalar) << "\" Precision=\""
    << scalar_bytes(f.scalar) << "\" Dimensions=\"" << dims_of(n, f.components) << "\">"
    << escape(h5) << ":" << group << "/" << escape(f.name) << "</DataItem>\n";
}

}  // namespace

std::string xdmf_text(const std::string& h5, int dim, const std::vector<XdmfFrame>& frames) {
  std::ostringstream o;
  o.precision(17);
  o << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    << "<!-- Written by Ejecta next to " << escape(h5)
    << "; describes its complete frames for ParaView/VisIt. Regenerated after every frame. -->\n"
    << "<Xdmf Version=\"3.0\">\n  <Domain>\n"
    << "    <Grid Name=\"particles\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const XdmfFrame& fr : frames) {
    const FieldInfo* pos = nullptr;
    for (const auto& f : fr.fields)
      if (f.name == "position" && f.components == dim) pos = &f;
    if (!pos) continue;  // no geometry, nothing a viewer could place
    const std::string name = fr.group.substr(fr.group.rfind('/') + 1);
    o << "      <Grid Name=\"frame_" << name << "\" GridType=\"Uniform\">\n"
      << "        <Time Value=\"" << fr.time << "\"/>\n"
      << "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << fr.particles
      << "\" NodesPerElement=\"1\"/>\n";
    if (dim == 3) {
      o << "        <Geometry GeometryType=\"XYZ\">\n";
      data_item(o, h5, fr.group, *pos, fr.particles, "          ");
    } else if (dim == 2) {
      // ParaView and VisIt pad XY geometry with z = 0.
      o << "        <Geometry GeometryType=\"XY\">\n";
      data_item(o, h5, fr.group, *pos, fr.particles, "          ");
    } else {
      // 1D: there is no "X" geometry type; X_Y with an inline row of zeros for y (XML data, 2 bytes
      // a particle) places the particles on the x axis without storing zeros in the HDF5 file.
      o << "        <Geometry GeometryType=\"X_Y\">\n";
      data_item(o, h5, fr.group, *pos, fr.particles, "          ");
      o << "          <DataItem Format=\"XML\" NumberType=\"Float\" Precision=\"4\" Dimensions=\""
        << fr.particles << "\">";
      for (std::size_t i = 0; i < fr.particles; ++i) o << (i ? " 0" : "0");
      o << "</DataItem>\n";
    }
    o << "        </Geometry>\n";
    for (const auto& f : fr.fields) {
      if (&f == pos) continue;
      // Scalar for one component; "Vector" otherwise, also for 2 components: ParaView derives the
      // component count from Dimensions (values / points), so an (n, 2) vector arrives as a
      // 2-component array (it is not made the active vector, which needs 3).
      o << "        <Attribute Name=\"" << escape(f.name) << "\" AttributeType=\""
        << (f.components == 1 ? "Scalar" : "Vector") << "\" Center=\"Node\">\n";
      data_item(o, h5, fr.group, f, fr.particles, "          ");
      o << "        </Attribute>\n";
    }
    o << "      </Grid>\n";
  }
  o << "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return o.str();
}

void write_xdmf(const std::string& h5_path, const std::string& xdmf_path, int dim,
                const std::vector<XdmfFrame>& frames) {
  const std::size_t slash = h5_path.find_last_of('/');
  const std::string h5_name = slash == std::string::npos ? h5_path : h5_path.substr(slash + 1);
  const std::string text = xdmf_text(h5_name, dim, frames);
  // Write a temporary file and rename it over the old one: a viewer (or a crash) never sees a
  // half-written sidecar, rename() within one directory being atomic on POSIX file systems.
  const std::string tmp = xdmf_path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw RecordError("cannot write '" + tmp + "': " + std::strerror(errno));
  const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int werr = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    const int e = !wrote ? werr : errno;
    std::remove(tmp.c_str());
    throw RecordError("cannot write '" + tmp + "': " + std::strerror(e));
  }
  if (std::rename(tmp.c_str(), xdmf_path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw RecordError("cannot rename '" + tmp + "' to '" + xdmf_path + "': " + std::strerror(e));
  }
}

std::string xdmf_path_for(const std::string& h5_path) { return path_stem(h5_path) + ".xdmf"; }

}  // namespace ejecta
