#include "io/h5_reader.h"

#include "io/h5_common.h"
#include "io/xdmf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ejecta {

using h5::Handle;

namespace {
constexpr const char* kFormat = "ejecta-particles";
constexpr std::int64_t kFormatVersion = 2;
// Limits on what a file may claim before anything is allocated for it: a damaged dataspace must not
// turn into a huge allocation (std::bad_alloc) or a loop over 2^64 links.
constexpr std::int64_t kMaxParticles = std::int64_t(1) << 40;
constexpr int kMaxComponents = 64;
constexpr hsize_t kMaxLinks = hsize_t(1) << 24;
constexpr std::size_t kMaxNameBytes = 1024;
// Data stored in a file of S bytes decompresses to at most about 1032 S (deflate's best ratio).
std::uint64_t max_payload_bytes(std::uint64_t file_bytes) { return 1100 * file_bytes + (std::uint64_t(1) << 20); }

// Link names of a group in creation order when the group tracks it (the recorder's frames do), else
// in name order (groups written by other tools).
bool link_names(hid_t g, std::vector<std::string>* out) {
  H5G_info_t gi;
  if (H5Gget_info(g, &gi) < 0 || gi.nlinks > kMaxLinks) return false;
  for (H5_index_t idx : {H5_INDEX_CRT_ORDER, H5_INDEX_NAME}) {
    out->clear();
    bool ok = true;
    for (hsize_t i = 0; i < gi.nlinks && ok; ++i) {
      const ssize_t len = H5Lget_name_by_idx(g, ".", idx, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
      if (len < 0 || std::size_t(len) > kMaxNameBytes) {
        ok = false;
        break;
      }
      std::string name(std::size_t(len) + 1, '\0');
      if (H5Lget_name_by_idx(g, ".", idx, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT) != len) {
        ok = false;
        break;
      }
      name.resize(std::size_t(len));
      out->push_back(name);
    }
    if (ok) return true;
  }
  return false;
}

struct DatasetShape {
  ScalarType scalar = ScalarType::Float32;
  std::size_t rows = 0;
  int components = 1;
};

// Why a dataset cannot be a field of a frame of `n` particles, "" when it can. `file_bytes` bounds
// the data it may hold.
std::string check_dataset(hid_t ds, std::size_t n, std::uint64_t file_bytes, DatasetShape* shape) {
  Handle t = h5::type(H5Dget_type(ds));
  if (!t || !h5::scalar_type_of(t.get(), &shape->scalar)) return "unsupported element type";
  Handle s = h5::space(H5Dget_space(ds));
  if (!s || H5Sget_simple_extent_type(s.get()) != H5S_SIMPLE) return "not a simple array";
  const int rank = H5Sget_simple_extent_ndims(s.get());
  if (rank != 1 && rank != 2) return "rank " + std::to_string(rank) + ", expected 1 or 2";
  hsize_t dims[2] = {0, 1};
  if (H5Sget_simple_extent_dims(s.get(), dims, nullptr) != rank) return "unreadable dimensions";
  if (dims[0] != hsize_t(n)) return std::to_string(dims[0]) + " rows for " + std::to_string(n) + " particles";
  if (dims[1] < 1 || dims[1] > hsize_t(kMaxComponents))
    return std::to_string(dims[1]) + " components (1.." + std::to_string(kMaxComponents) + " expected)";
  shape->rows = std::size_t(dims[0]);
  shape->components = int(dims[1]);
  const std::uint64_t bytes = std::uint64_t(dims[0]) * dims[1] * scalar_bytes(shape->scalar);
  if (bytes > max_payload_bytes(file_bytes))
    return std::to_string(bytes) + " bytes of data claimed by a file of " + std::to_string(file_bytes) + " bytes";
  return "";
}
}  // namespace

struct H5Reader::Impl {
  std::string path;
  Handle file;
  std::uint64_t file_bytes = 0;
  RunInfo info;
  std::vector<std::string> frames;  // group names of the complete frames, in order
  // Their addresses when /frames was damaged and the frames were found through /frame_addresses
  // (empty when /frames was read).
  std::vector<std::uint64_t> frame_addresses;
  // The file image while the in-memory constructor indexes it (null otherwise): index_by_address
  // reads raw bytes at an address from here or from the file.
  const unsigned char* image = nullptr;
  std::size_t image_size = 0;
  std::size_t partial = 0;
  std::vector<std::string> notes;

  [[noreturn]] void fail(const std::string& what) const {
    std::string msg = "'" + path + "': " + what;
    const std::string d = h5::error_stack_text();
    if (!d.empty()) msg += " (HDF5: " + d + ")";
    throw RecordError(msg);
  }

  // Frame k's group: /frames/NAME, or the group at its address when /frames was damaged.
  Handle open_frame(std::size_t k) const {
    if (frame_addresses.empty())
      return h5::group(H5Gopen2(file.get(), ("/frames/" + frames[k]).c_str(), H5P_DEFAULT));
    Handle g = h5::object(h5::open_by_address(file.get(), frame_addresses[k]));
    return g && H5Iget_type(g.get()) == H5I_GROUP ? std::move(g) : Handle{};
  }

  // Returns "" when the frame group `g` is complete, else why it is not.
  std::string check_frame(hid_t g) const {
    std::int64_t complete = 0;
    if (!h5::read_int_attr(g, "complete", &complete))
      return "no 'complete' attribute (the run was probably interrupted while writing it)";
    if (complete != 1) return "'complete' is " + std::to_string(complete) + ", not 1";
    std::int64_t n = 0;
    if (!h5::read_int_attr(g, "particles", &n) || n < 0 || n > kMaxParticles)
      return "no valid 'particles' attribute";
    std::vector<std::string> names;
    if (!link_names(g, &names)) return "cannot list its datasets";
    for (const auto& ds_name : names) {
      Handle ds = h5::dataset(H5Dopen2(g, ds_name.c_str(), H5P_DEFAULT));
      if (!ds) return "dataset '" + ds_name + "' cannot be opened";
      DatasetShape shape;
      const std::string why = check_dataset(ds.get(), std::size_t(n), file_bytes, &shape);
      if (!why.empty()) return "dataset '" + ds_name + "': " + why;
    }
    return "";
  }

  // Whether a version 2 object header ("OHDR") starts at `addr`: read from the image, or from the
  // file through `fd`.
  bool has_object_header(std::uint64_t addr, int fd) const {
    char sig[4] = {};
    if (addr == 0 || addr > file_bytes || file_bytes - addr < 64) return false;
    if (image) {
      if (addr + 4 > image_size) return false;
      std::memcpy(sig, image + addr, 4);
    } else if (fd < 0 || ::pread(fd, sig, 4, off_t(addr)) != 4) {
      return false;
    }
    return std::memcmp(sig, "OHDR", 4) == 0;
  }

  // The way back to the frames when /frames cannot be listed: /frame_addresses, row k the address of
  // frame k, written with the frame before it was linked (docs/file-format.md). False when the file
  // has no such dataset (recorded before it existed) or it cannot be read either.
  bool index_by_address(const std::string& damage) {
    const hid_t root = file.get();
    if (H5Lexists(root, "frame_addresses", H5P_DEFAULT) <= 0) return false;
    Handle ds = h5::dataset(H5Dopen2(root, "frame_addresses", H5P_DEFAULT));
    if (!ds) return false;
    Handle space = h5::space(H5Dget_space(ds.get()));
    hsize_t rows = 0;
    if (!space || H5Sget_simple_extent_ndims(space.get()) != 1 ||
        H5Sget_simple_extent_dims(space.get(), &rows, nullptr) != 1 || rows > kMaxLinks)
      return false;
    std::vector<std::uint64_t> addr(std::size_t(rows), 0);
    if (rows > 0 && H5Dread(ds.get(), H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, addr.data()) < 0) return false;
    const int fd = image ? -1 : ::open(path.c_str(), O_RDONLY);
    for (std::size_t k = 0; k < addr.size(); ++k) {
      const std::string name = h5::frame_name(k);
      // Only a version 2 object header ("OHDR", checksummed; the recorder writes no other) is handed
      // to HDF5: the rows are raw data without a checksum, and a damaged one must not make HDF5 parse
      // arbitrary bytes as an unchecked version 1 header.
      Handle g = has_object_header(addr[k], fd) ? h5::object(h5::open_by_address(root, addr[k])) : Handle{};
      const std::string why = !g || H5Iget_type(g.get()) != H5I_GROUP ? "no frame group at its address"
                                                                       : check_frame(g.get());
      if (why.empty()) {
        frames.push_back(name);
        frame_addresses.push_back(addr[k]);
      } else {
        ++partial;
        notes.push_back("frame " + name + " skipped: " + why);
      }
    }
    if (fd >= 0) ::close(fd);
    notes.insert(notes.begin(), "the /frames index is damaged (" + damage + "); the " + std::to_string(frames.size()) +
                                    " complete frame(s) were found through /frame_addresses; `ejecta repair` " +
                                    "writes a copy whose /frames lists them again");
    return true;
  }
};

H5Reader::H5Reader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  h5::library_init();
  Impl& m = *impl_;
  m.path = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw RecordError("cannot open '" + path + "': " + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    throw RecordError("'" + path + "' is a directory; give the recording's .h5 file (e.g. '" + path + "/run.h5')");
  if (!S_ISREG(st.st_mode)) throw RecordError("'" + path + "' is not a regular file; give a recording's .h5 file");
  {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw RecordError("cannot open '" + path + "': " + std::strerror(errno));
    ::close(fd);
  }
  h5::Silence quiet;
  const htri_t is_h5 = H5Fis_hdf5(path.c_str());
  if (is_h5 == 0) throw RecordError("'" + path + "' is not an HDF5 file (no HDF5 signature found)");
  m.file = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  index();
}

H5Reader::H5Reader(const void* image, std::size_t size, const std::string& name) : impl_(std::make_unique<Impl>()) {
  h5::library_init();
  Impl& m = *impl_;
  m.path = name;
  h5::Silence quiet;
  if (size < 8 || std::memcmp(image, "\211HDF\r\n\032\n", 8) != 0)
    throw RecordError("'" + name + "' is not an HDF5 file (no HDF5 signature found)");
  // The core driver reads the file from memory; the image is copied, never written back.
  Handle fapl = h5::plist(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_fapl_core(fapl.get(), 1 << 16, 0);
  H5Pset_file_image(fapl.get(), const_cast<void*>(image), size);
  m.file = h5::file(H5Fopen(name.c_str(), H5F_ACC_RDONLY, fapl.get()));
  m.image = static_cast<const unsigned char*>(image);
  m.image_size = size;
  index();
  m.image = nullptr;  // the caller's buffer may go; HDF5 keeps its own copy
  m.image_size = 0;
}

void H5Reader::index() {
  Impl& m = *impl_;
  const std::string& path = m.path;
  if (!m.file)
    m.fail("cannot open the HDF5 file; it may be truncated or corrupt (e.g. copied while being written or "
           "cut short by a full disk)");
  hsize_t file_bytes = 0;
  if (H5Fget_filesize(m.file.get(), &file_bytes) < 0) m.fail("cannot read the file size");
  m.file_bytes = file_bytes;

  const hid_t root = m.file.get();
  std::string format;
  const h5::StringRead fr = h5::read_string_attr(root, "format", &format);
  if (fr == h5::StringRead::VariableLength)
    throw RecordError("'" + path + "' was written by format version 1 (variable-length strings), which this Ejecta " +
                      "no longer reads: a damaged variable-length string can crash HDF5. Record the run again");
  if (fr != h5::StringRead::Ok)
    throw RecordError("'" + path + "' is an HDF5 file but not an Ejecta recording (no 'format' attribute)");
  if (format != kFormat)
    throw RecordError("'" + path + "' is an HDF5 file but not an Ejecta recording (format is '" + format +
                      "', expected '" + kFormat + "')");
  std::int64_t version = 0;
  if (!h5::read_int_attr(root, "format_version", &version))
    throw RecordError("'" + path + "' has no 'format_version' attribute; it is not a valid Ejecta recording");
  if (version != kFormatVersion)
    throw RecordError("'" + path + "' was written by format version " + std::to_string(version) +
                      "; this Ejecta reads version " + std::to_string(kFormatVersion));

  std::int64_t dim = 0;
  if (!h5::read_int_attr(root, "dim", &dim) || dim < 1 || dim > 3)
    throw RecordError("'" + path + "': the 'dim' attribute is missing or not 1, 2 or 3; the file is damaged");
  m.info.dim = int(dim);
  const std::pair<const char*, std::string*> strings[] = {
      {"precision", &m.info.precision},   {"backend", &m.info.backend},         {"scene", &m.info.scene_ini},
      {"command_line", &m.info.command_line}, {"start_date", &m.info.start_date},
      {"ejecta_version", &m.info.ejecta_version}, {"git_commit", &m.info.git_commit}};
  for (const auto& [name, out] : strings)
    if (h5::read_string_attr(root, name, out) != h5::StringRead::Ok)
      throw RecordError("'" + path + "': the root attribute '" + name +
                        "' is missing or not a fixed-length string; the file is damaged");

  if (H5Lexists(root, "frames", H5P_DEFAULT) <= 0) {
    m.notes.push_back("no /frames group: the run stopped before its first frame");
    return;
  }
  Handle frames = h5::group(H5Gopen2(root, "frames", H5P_DEFAULT));
  std::vector<std::string> names;
  if (!frames || !link_names(frames.get(), &names)) {
    std::string damage = h5::error_stack_text();
    if (damage.empty()) damage = "cannot list it";
    if (m.index_by_address("HDF5: " + damage)) return;
    m.fail("cannot list /frames; the file may be corrupt");
  }
  // Frame groups are listed by name (zero-padded, so name order is frame order) whatever the
  // creation-order index says.
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    Handle g = h5::group(H5Gopen2(frames.get(), name.c_str(), H5P_DEFAULT));
    const std::string why = g ? m.check_frame(g.get()) : "cannot open the group";
    if (why.empty()) {
      m.frames.push_back(name);
    } else {
      ++m.partial;
      m.notes.push_back("frame " + name + " skipped: " + why);
    }
  }
}

H5Reader::~H5Reader() {
  h5::Silence quiet;
  impl_->file.reset();
}

const RunInfo& H5Reader::info() const { return impl_->info; }
std::size_t H5Reader::frame_count() const { return impl_->frames.size(); }
std::size_t H5Reader::partial_frames() const { return impl_->partial; }
const std::vector<std::string>& H5Reader::notes() const { return impl_->notes; }

FrameData H5Reader::read_frame(std::size_t k) const {
  const Impl& m = *impl_;
  if (k >= m.frames.size())
    throw RecordError("'" + m.path + "': frame " + std::to_string(k) + " requested, the file has " +
                      std::to_string(m.frames.size()) + " complete frame(s)");
  h5::Silence quiet;
  const std::string gpath = "/frames/" + m.frames[k];
  Handle g = m.open_frame(k);
  if (!g) m.fail("cannot open " + gpath);
  FrameData fr;
  std::int64_t step = 0, n = 0;
  if (!h5::read_double_attr(g.get(), "time", &fr.time) || !h5::read_int_attr(g.get(), "step", &step) ||
      !h5::read_double_attr(g.get(), "dt", &fr.dt) || !h5::read_int_attr(g.get(), "particles", &n))
    m.fail(gpath + " lacks one of the attributes time, step, dt, particles");
  if (n < 0 || n > kMaxParticles) m.fail(gpath + ": 'particles' is " + std::to_string(n));
  fr.step = long(step);
  fr.particles = std::size_t(n);
  std::vector<std::string> names;
  if (!link_names(g.get(), &names)) m.fail("cannot list " + gpath);
  for (const auto& name : names) {
    Handle ds = h5::dataset(H5Dopen2(g.get(), name.c_str(), H5P_DEFAULT));
    if (!ds) m.fail("cannot open " + gpath + "/" + name);
    DatasetShape shape;
    const std::string why = check_dataset(ds.get(), fr.particles, m.file_bytes, &shape);
    if (!why.empty()) m.fail(gpath + "/" + name + ": " + why);
    FieldData fd;
    fd.info.name = name;
    fd.info.components = shape.components;
    fd.info.scalar = shape.scalar;
    if (h5::read_string_attr(ds.get(), "units", &fd.info.units) == h5::StringRead::VariableLength ||
        h5::read_string_attr(ds.get(), "description", &fd.info.description) == h5::StringRead::VariableLength)
      m.fail(gpath + "/" + name + ": variable-length string attribute (not written by this format)");
    std::int64_t persistent = 1;
    h5::read_int_attr(ds.get(), "persistent", &persistent);
    fd.info.persistent = persistent != 0;
    fd.bytes.resize(fr.particles * std::size_t(shape.components) * scalar_bytes(shape.scalar));
    if (!fd.bytes.empty() &&
        H5Dread(ds.get(), h5::mem_type(shape.scalar), H5S_ALL, H5S_ALL, H5P_DEFAULT, fd.bytes.data()) < 0)
      m.fail("cannot read " + gpath + "/" + name + "; the file may be corrupt");
    fr.fields.push_back(std::move(fd));
  }
  return fr;
}

std::vector<Diagnostics> H5Reader::diagnostics() const {
  const Impl& m = *impl_;
  h5::Silence quiet;
  std::vector<Diagnostics> out;
  if (H5Lexists(m.file.get(), "diagnostics", H5P_DEFAULT) <= 0) return out;
  Handle ds = h5::dataset(H5Dopen2(m.file.get(), "diagnostics", H5P_DEFAULT));
  if (!ds) m.fail("cannot open /diagnostics");
  Handle s = h5::space(H5Dget_space(ds.get()));
  hsize_t rows = 0;
  if (!s || H5Sget_simple_extent_ndims(s.get()) != 1) m.fail("/diagnostics is not a 1-D table");
  H5Sget_simple_extent_dims(s.get(), &rows, nullptr);
  if (rows * sizeof(h5::DiagRow) > max_payload_bytes(m.file_bytes))
    m.fail("/diagnostics claims " + std::to_string(rows) + " rows, more than the file can hold");
  std::vector<h5::DiagRow> buf(rows);
  Handle mt = h5::diag_mem_type();
  if (rows > 0 && H5Dread(ds.get(), mt.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()) < 0)
    m.fail("cannot read /diagnostics; the file may be corrupt");
  out.reserve(rows);
  for (const auto& r : buf) {
    Diagnostics d;
    d.time = r.time;
    d.step = long(r.step);
    d.dt = r.dt;
    d.particles = std::size_t(r.particles);
    d.mass = r.mass;
    d.momentum[0] = r.momentum_x;
    d.momentum[1] = r.momentum_y;
    d.momentum[2] = r.momentum_z;
    d.angular_momentum[0] = r.angular_momentum_x;
    d.angular_momentum[1] = r.angular_momentum_y;
    d.angular_momentum[2] = r.angular_momentum_z;
    d.kinetic = r.kinetic;
    d.internal = r.internal;
    d.potential = r.potential;
    d.total = r.total;
    d.max_density_error = r.max_density_error;
    d.max_speed = r.max_speed;
    out.push_back(d);
  }
  return out;
}

std::vector<std::string> H5Reader::field_names() const {
  const Impl& m = *impl_;
  std::vector<std::string> names;
  if (m.frames.empty()) return names;
  h5::Silence quiet;
  Handle g = m.open_frame(0);
  if (!g || !link_names(g.get(), &names)) m.fail("cannot list the fields of frame " + m.frames[0]);
  return names;
}

namespace {
// Copies one attribute of the source root to the destination root, type and shape as stored.
herr_t copy_root_attr(hid_t src, const char* name, const H5A_info_t*, void* dst) {
  Handle a = h5::attribute(H5Aopen(src, name, H5P_DEFAULT));
  Handle type = h5::type(a ? H5Aget_type(a.get()) : H5I_INVALID_HID);
  Handle space = h5::space(a ? H5Aget_space(a.get()) : H5I_INVALID_HID);
  if (!type || !space || H5Tis_variable_str(type.get()) != 0) return -1;
  std::vector<char> buf(std::size_t(H5Aget_storage_size(a.get())) + 1);
  if (H5Aread(a.get(), type.get(), buf.data()) < 0) return -1;
  Handle b = h5::attribute(H5Acreate2(*static_cast<hid_t*>(dst), name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  return b && H5Awrite(b.get(), type.get(), buf.data()) >= 0 ? 0 : -1;
}
}  // namespace

void H5Reader::copy_to(const std::string& out_path) const {
  const Impl& m = *impl_;
  h5::Silence quiet;
  const std::string part = out_path + ".part";
  const auto fail = [&](const std::string& what) {
    const std::string d = h5::error_stack_text();
    std::remove(part.c_str());
    throw RecordError("'" + out_path + "': " + what + (d.empty() ? "" : " (HDF5: " + d + ")"));
  };
  std::vector<XdmfFrame> meta;
  {
    Handle out = h5::create_recording_file(part);
    if (!out) fail("cannot create '" + part + "' as an HDF5 file");
    hid_t dst = out.get();
    const hid_t root = m.file.get();
    if (H5Aiterate2(root, H5_INDEX_NAME, H5_ITER_INC, nullptr, copy_root_attr, &dst) < 0)
      fail("cannot copy the root attributes of '" + m.path + "'");
    std::vector<std::string> top;
    if (!link_names(root, &top)) fail("cannot list the top level of '" + m.path + "'");
    for (const auto& name : top)
      if (name != "frames" && name != "frame_addresses" &&
          H5Ocopy(root, name.c_str(), dst, name.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0)
        fail("cannot copy /" + name + " of '" + m.path + "'");
    Handle gcpl = h5::frames_group_plist(m.frames.size());
    Handle frames = h5::group(H5Gcreate2(dst, "frames", H5P_DEFAULT, gcpl.get(), H5P_DEFAULT));
    Handle index = h5::create_address_index(dst);
    if (!frames || !index) fail("cannot create /frames");
    for (std::size_t k = 0; k < m.frames.size(); ++k) {
      Handle g = m.open_frame(k);
      if (!g || H5Ocopy(g.get(), ".", frames.get(), m.frames[k].c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0)
        fail("cannot copy frame " + m.frames[k]);
      Handle copied = h5::group(H5Gopen2(frames.get(), m.frames[k].c_str(), H5P_DEFAULT));
      if (!copied || !h5::append_address(index.get(), k, copied.get())) fail("cannot index frame " + m.frames[k]);
      const FrameData f = read_frame(k);
      XdmfFrame x{"/frames/" + m.frames[k], f.time, f.particles, {}};
      for (const auto& field : f.fields) x.fields.push_back(field.info);
      meta.push_back(std::move(x));
    }
    index.reset();
    frames.reset();
    if (H5Fflush(dst, H5F_SCOPE_GLOBAL) < 0 || !out.reset()) fail("cannot write '" + part + "'");
  }
  if (std::rename(part.c_str(), out_path.c_str()) != 0)
    fail("cannot rename '" + part + "' to '" + out_path + "': " + std::strerror(errno));
  write_xdmf(out_path, xdmf_path_for(out_path), m.info.dim, meta);
}

}  // namespace ejecta
