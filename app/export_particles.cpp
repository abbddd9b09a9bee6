#include "export_particles.h"

#include "io/file_paths.h"
#include "io/h5_reader.h"
#include "params/param_set.h"  // ParamError

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace ejecta::app {

namespace {

const char* vtk_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return "Float32";
    case ScalarType::Float64: return "Float64";
    case ScalarType::UInt8: return "UInt8";
    case ScalarType::UInt32: return "UInt32";
  }
  return "?";
}

// Component c of particle i as a double (every stored type converts exactly).
double value(const FieldData& f, std::size_t i, int c) {
  const std::size_t k = i * std::size_t(f.info.components) + std::size_t(c);
  const unsigned char* p = f.bytes.data() + k * scalar_bytes(f.info.scalar);
  switch (f.info.scalar) {
    case ScalarType::Float32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ScalarType::Float64: {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case ScalarType::UInt8: return *p;
    case ScalarType::UInt32: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
  return 0;
}

// Column suffixes of a field: "" for a scalar, _x/_y/_z for a vector of the dimension, else _0, _1, ...
std::string suffix(const FieldData& f, int c, int dim) {
  if (f.info.components == 1) return "";
  if (f.info.components == dim && dim <= 3) return std::string("_") + "xyz"[c];
  return "_" + std::to_string(c);
}

// The file's frames must hold the same number of rows per field.
void check_frame(const FrameData& frame) {
  for (const auto& f : frame.fields)
    if (f.count() != frame.particles)
      throw std::runtime_error("field '" + f.info.name + "' holds " + std::to_string(f.count()) +
                               " values for " + std::to_string(frame.particles) + " particles");
}

void write_or_fail(std::FILE* out, const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, out) != bytes) throw std::runtime_error(std::strerror(errno));
}

std::string xml_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '&') r += "&amp;";
    else if (c == '<') r += "&lt;";
    else if (c == '>') r += "&gt;";
    else if (c == '"') r += "&quot;";
    else if (c == '-' && !r.empty() && r.back() == '-') r += " -";  // no "--" inside an XML comment
    else r += c;
  }
  return r;
}

// Writes `frame` to `path` with `writer`, closing the file and reporting write errors by name.
template <class Writer>
void write_file(const std::string& path, const FrameData& frame, int dim, Writer writer) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  try {
    writer(f, frame, dim);
  } catch (const std::exception& e) {
    std::fclose(f);
    throw std::runtime_error("cannot write '" + path + "': " + e.what());
  }
  const bool ok = !std::ferror(f);
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

}  // namespace

void write_particles_csv(std::FILE* out, const FrameData& frame, int dim) {
  check_frame(frame);
  std::string header;
  for (const auto& f : frame.fields)
    for (int c = 0; c < f.info.components; ++c) {
      header += (header.empty() ? "" : ",") + f.info.name + suffix(f, c, dim);
      if (!f.info.units.empty()) header += " [" + f.info.units + "]";
    }
  std::fprintf(out, "%s\n", header.c_str());
  std::string row;
  char buf[40];
  for (std::size_t i = 0; i < frame.particles; ++i) {
    row.clear();
    for (const auto& f : frame.fields)
      for (int c = 0; c < f.info.components; ++c) {
        const double v = value(f, i, c);
        switch (f.info.scalar) {
          case ScalarType::Float32: std::snprintf(buf, sizeof buf, "%.9g", v); break;
          case ScalarType::Float64: std::snprintf(buf, sizeof buf, "%.17g", v); break;
          default: std::snprintf(buf, sizeof buf, "%.0f", v);
        }
        if (!row.empty()) row += ',';
        row += buf;
      }
    row += '\n';
    write_or_fail(out, row.data(), row.size());
  }
}

void write_particles_vtp(std::FILE* out, const FrameData& frame, int dim) {
  check_frame(frame);
  const FieldData* position = frame.find("position");
  if (!position) throw std::runtime_error("the frame has no 'position' field");
  const std::size_t n = frame.particles;
  // Each appended block: a UInt64 byte count, then the values. Vectors of the dimension are padded to
  // 3 components (VTK points and vectors are 3D).
  struct Block {
    const FieldData* field;  // null: the Verts connectivity / offsets
    int components;          // as written
    std::uint64_t bytes;
  };
  auto padded = [&](const FieldData& f) { return f.info.components == dim && dim < 3 ? 3 : f.info.components; };
  std::vector<Block> blocks;
  std::uint64_t offset = 0;
  std::string xml_points, xml_data, xml_verts, comment;
  auto add = [&](const FieldData* f, int comps, std::uint64_t bytes) {
    const std::uint64_t at = offset;
    blocks.push_back(Block{f, comps, bytes});
    offset += 8 + bytes;
    return std::to_string(at);
  };
  {
    const int comps = 3;
    const std::string at = add(position, comps, n * comps * scalar_bytes(position->info.scalar));
    xml_points = std::string("      <Points>\n        <DataArray type=\"") + vtk_type(position->info.scalar) +
                 "\" Name=\"position\" NumberOfComponents=\"3\" format=\"appended\" offset=\"" + at +
                 "\"/>\n      </Points>\n";
  }
  std::string scalars, vectors;
  for (const auto& f : frame.fields) {
    comment += "  " + xml_escape(f.info.name) + " [" + (f.info.units.empty() ? "-" : xml_escape(f.info.units)) +
               "]: " + xml_escape(f.info.description) + "\n";
    if (&f == position) continue;
    const int comps = padded(f);
    if (comps == 1 && scalars.empty()) scalars = f.info.name;
    if (comps == 3 && vectors.empty()) vectors = f.info.name;
    const std::string at = add(&f, comps, n * comps * scalar_bytes(f.info.scalar));
    xml_data += std::string("        <DataArray type=\"") + vtk_type(f.info.scalar) + "\" Name=\"" +
                xml_escape(f.info.name) + "\" NumberOfComponents=\"" + std::to_string(comps) +
                "\" format=\"appended\" offset=\"" + at + "\"/>\n";
  }
  const std::string conn = add(nullptr, 1, n * 8), offs = add(nullptr, 1, n * 8);
  xml_verts = "      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" offset=\"" +
              conn + "\"/>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" offset=\"" + offs +
              "\"/>\n      </Verts>\n";

  char time_buf[40];
  std::snprintf(time_buf, sizeof time_buf, "%.17g", frame.time);
  std::string head = "<?xml version=\"1.0\"?>\n<!-- ejecta particles, step " + std::to_string(frame.step) +
                     ", t = " + time_buf + " s; fields [units]:\n" + comment + "-->\n" +
                     "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
                     "  <PolyData>\n"
                     "    <FieldData>\n"
                     "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">" +
                     time_buf + "</DataArray>\n    </FieldData>\n" +
                     "    <Piece NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfVerts=\"" + std::to_string(n) +
                     "\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n" +
                     "      <PointData" + (scalars.empty() ? "" : " Scalars=\"" + xml_escape(scalars) + "\"") +
                     (vectors.empty() ? "" : " Vectors=\"" + xml_escape(vectors) + "\"") + ">\n" + xml_data +
                     "      </PointData>\n" + xml_points + xml_verts +
                     "    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _";
  write_or_fail(out, head.data(), head.size());

  // The blocks, in the order of their offsets. x86 and ARM hosts are little-endian, as declared.
  std::vector<unsigned char> buf;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const Block& k = blocks[b];
    write_or_fail(out, &k.bytes, 8);
    if (!k.field) {
      // Verts: connectivity 0..n-1 (b is the first of the two) and offsets 1..n.
      const std::int64_t first = b + 1 < blocks.size() ? 0 : 1;
      std::vector<std::int64_t> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = std::int64_t(i) + first;
      write_or_fail(out, v.data(), n * 8);
      continue;
    }
    const FieldData& f = *k.field;
    const std::size_t sb = scalar_bytes(f.info.scalar), src = std::size_t(f.info.components) * sb,
                      dst = std::size_t(k.components) * sb;
    if (src == dst) {
      write_or_fail(out, f.bytes.data(), f.bytes.size());
      continue;
    }
    buf.assign(n * dst, 0);  // zero-padded components
    for (std::size_t i = 0; i < n; ++i) std::memcpy(buf.data() + i * dst, f.bytes.data() + i * src, src);
    write_or_fail(out, buf.data(), buf.size());
  }
  const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
  write_or_fail(out, tail.data(), tail.size());
}

std::string particle_file_path(const std::string& base, long frame, const std::string& ext) {
  const std::string stem = path_stem(base);
  char num[16];
  std::snprintf(num, sizeof num, "%06ld", frame);
  return stem + "_frame" + num + "." + ext;
}

int run_export_particles(const CliOptions& o) {
  const H5Reader r(o.file_path);
  const std::size_t frames = r.frame_count();
  if (frames == 0) throw ParamError("export: '" + o.file_path + "' holds no complete frame");
  std::size_t first = frames - 1, last = frames - 1;
  if (o.export_all) {
    first = 0;
  } else if (o.export_frame) {
    if (std::size_t(*o.export_frame) >= frames)
      throw ParamError("export --frame: '" + o.file_path + "' has complete frames 0.." + std::to_string(frames - 1) +
                       ", not frame " + std::to_string(*o.export_frame));
    first = last = std::size_t(*o.export_frame);
  }
  const bool vtk = o.export_format == "vtk";
  const std::string ext = vtk ? "vtp" : "csv";
  const int dim = r.info().dim;
  const bool one = first == last && !o.export_all;
  const std::string base = o.output_path.empty() ? o.file_path : o.output_path;
  if (one && o.output_path == "-") {
    write_particles_csv(stdout, r.read_frame(first), dim);
    std::fflush(stdout);
    return 0;
  }
  std::string pvd;
  std::string written;
  for (std::size_t k = first; k <= last; ++k) {
    const FrameData frame = r.read_frame(k);
    // One frame with --output: that very file; otherwise numbered files next to the stem.
    const std::string path = one && !o.output_path.empty() ? o.output_path : particle_file_path(base, long(k), ext);
    if (vtk)
      write_file(path, frame, dim, write_particles_vtp);
    else
      write_file(path, frame, dim, write_particles_csv);
    char t[40];
    std::snprintf(t, sizeof t, "%.17g", frame.time);
    const auto slash = path.find_last_of('/');
    pvd += std::string("    <DataSet timestep=\"") + t + "\" part=\"0\" file=\"" +
           xml_escape(slash == std::string::npos ? path : path.substr(slash + 1)) + "\"/>\n";
    written = path;
  }
  if (one) {
    std::fprintf(stderr, "wrote frame %zu (%s) to %s\n", first, vtk ? "VTK PolyData" : "CSV", written.c_str());
    return 0;
  }
  std::fprintf(stderr, "wrote %zu frames (%s) to %s .. %s\n", last - first + 1, vtk ? "VTK PolyData" : "CSV",
               particle_file_path(base, long(first), ext).c_str(), written.c_str());
  if (vtk) {
    // A ParaView collection: the frames as one time series (files relative to the .pvd's folder).
    const std::string pvd_path = path_stem(base) + ".pvd";
    std::FILE* f = std::fopen(pvd_path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write '" + pvd_path + "': " + std::strerror(errno));
    std::fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n%s"
                    "  </Collection>\n</VTKFile>\n", pvd.c_str());
    const bool ok = !std::ferror(f);
    if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write '" + pvd_path + "'");
    std::fprintf(stderr, "wrote the series %s (open it in ParaView)\n", pvd_path.c_str());
  }
  return 0;
}

}  // namespace ejecta::app
