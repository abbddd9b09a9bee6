#include "io/h5_recorder.h"

#include "io/h5_common.h"
#include "io/xdmf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ejecta {

using h5::Handle;

namespace {
constexpr const char* kFormat = "ejecta-particles";
constexpr int kFormatVersion = 2;
constexpr std::size_t kChunkRows = 65536;  // rows per chunk along the particle axis
constexpr hsize_t kDiagChunk = 64;         // diagnostics rows per chunk (8.7 kB)
// Space reserved past the end of the file at a time (at least), so that diagnostics rows do not
// each cost a system call.
constexpr std::size_t kReserveStep = std::size_t(1) << 20;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string with_detail(std::string msg) {
  const std::string d = h5::error_stack_text();
  if (!d.empty()) msg += " (HDF5: " + d + ")";
  return msg;
}

// An upper bound of the bytes HDF5 appends to the file for one frame: the data (deflate can expand
// incompressible data by about 0.1%, plus a few bytes a chunk), each dataset's object header,
// attributes and chunk index, and the group's header.
std::size_t frame_bytes_bound(const std::vector<const FieldData*>& fields, std::size_t n) {
  // Measured (h5stat) for comparison: a dataset's object header with its attributes takes about
  // 600 bytes, a chunk index entry 24; HDF5 allocates metadata in blocks of 2 KiB.
  const std::size_t chunks = n / kChunkRows + 1;
  std::size_t total = 16 * 1024 + 8 * 1024;  // + the frame's entry in /frame_addresses and its index
  for (const FieldData* f : fields)
    total += f->bytes.size() + f->bytes.size() / 256 + chunks * 1024 + 4 * 1024 + f->info.description.size() +
             f->info.units.size();
  return total;
}
}  // namespace

struct H5Recorder::Impl {
  std::string path, part_path, xdmf_path;
  RunInfo info;
  RecordOptions opt;
  Handle file, frames, diag, addresses;
  Handle diag_mem;
  hsize_t diag_rows = 0;
  hsize_t address_rows = 0;
  std::chrono::steady_clock::time_point last_flush = std::chrono::steady_clock::now();
  std::vector<XdmfFrame> written;  // metadata of the complete frames, for the XDMF sidecar
  bool renamed = false;            // FILE.part became FILE (after the first frame)
  // Disk space reservation (fallocate, FALLOC_FL_KEEP_SIZE): the file descriptor HDF5 writes to,
  // and the end of the range reserved so far. `reserve` turns false on file systems without it.
  int fd = -1;
  bool reserve = true;
  std::uint64_t reserved_end = 0;

  const std::string& current_path() const { return renamed ? path : part_path; }

  [[noreturn]] void fail(const std::string& what) const {
    throw RecordError(with_detail("'" + current_path() + "': " + what));
  }

  // Makes sure `bytes` past HDF5's end of allocation are backed by disk blocks, so that the writes
  // of the next frame (or row) cannot fail half-way with ENOSPC, which would leave metadata that
  // points to space never written. Throws DiskFullError before anything of the frame is written.
  void ensure_space(std::size_t bytes, const std::string& what) {
    if (!reserve || fd < 0) return;
    haddr_t eoa = 0;
    if (H5Fget_eoa(file.get(), &eoa) < 0) return;
    if (std::uint64_t(eoa) + bytes <= reserved_end) return;
    // Ahead by kReserveStep when the disk has it, else exactly what is needed.
    for (const std::size_t want : {std::max(bytes, kReserveStep), bytes}) {
      if (::fallocate(fd, FALLOC_FL_KEEP_SIZE, off_t(eoa), off_t(want)) == 0) {
        reserved_end = std::uint64_t(eoa) + want;
        return;
      }
      if (errno != ENOSPC && errno != EDQUOT) break;
    }
    const int e = errno;
    if (e == EOPNOTSUPP || e == ENOSYS || e == EINVAL) {
      reserve = false;  // e.g. some network file systems: no protection, documented
      return;
    }
    throw DiskFullError("'" + current_path() + "': cannot reserve " + std::to_string(bytes) + " bytes for " + what +
                        ": " + std::strerror(e));
  }

  void write_field(hid_t g, const FieldData& fd, std::size_t n) {
    const FieldInfo& fi = fd.info;
    const int rank = fi.components == 1 ? 1 : 2;
    const hsize_t dims[2] = {hsize_t(n), hsize_t(fi.components)};
    // A chunk may not be empty even when the dataset is: at least one row.
    const hsize_t chunk[2] = {hsize_t(std::max<std::size_t>(1, std::min(n, kChunkRows))), hsize_t(fi.components)};
    Handle space = h5::space(H5Screate_simple(rank, dims, nullptr));
    Handle dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(dcpl.get(), rank, chunk);
    if (opt.compression > 0) {
      // Byte shuffling before deflate groups the exponent bytes of floats: markedly better ratios.
      H5Pset_shuffle(dcpl.get());
      H5Pset_deflate(dcpl.get(), unsigned(opt.compression));
    }
    Handle ds = h5::dataset(H5Dcreate2(g, fi.name.c_str(), h5::file_type(fi.scalar), space.get(), H5P_DEFAULT,
                                       dcpl.get(), H5P_DEFAULT));
    if (!ds) fail("cannot create dataset '" + fi.name + "'");
    if (n > 0 && H5Dwrite(ds.get(), h5::mem_type(fi.scalar), H5S_ALL, H5S_ALL, H5P_DEFAULT, fd.bytes.data()) < 0)
      fail("cannot write dataset '" + fi.name + "'");
    h5::write_string_attr(ds.get(), "units", fi.units);
    h5::write_string_attr(ds.get(), "description", fi.description);
    h5::write_int_attr(ds.get(), "persistent", fi.persistent ? 1 : 0, H5T_STD_I32LE);
  }

  void check_sizes(const std::vector<const FieldData*>& chosen, std::size_t n) const {
    for (const FieldData* f : chosen) {
      const FieldInfo& fi = f->info;
      const std::size_t expect = n * std::size_t(std::max(fi.components, 0)) * scalar_bytes(fi.scalar);
      if (fi.components < 1 || f->bytes.size() != expect)
        throw RecordError("'" + current_path() + "': field '" + fi.name + "' holds " + std::to_string(f->bytes.size()) +
                          " bytes, expected " + std::to_string(expect) + " for " + std::to_string(n) +
                          " particles of " + std::to_string(fi.components) + " component(s)");
    }
  }

  // Phase 1's second index: the frame's address as row k of /frame_addresses, flushed with the frame
  // and never rewritten after. Phase 2 rewrites the whole /frames header in place (21 bytes per link
  // of its capacity: 1.4 MB at 65535), and Linux lets SIGKILL cut such a write between two pages: a
  // torn header fails its checksum and hides every frame (tests/mpi/rank_dies.sh hit it in CI). The
  // two indices are never written by the same flush, so one kill can damage at most one of them.
  void append_address(hid_t frame, const std::string& name) {
    if (!h5::append_address(addresses.get(), address_rows, frame))
      fail("cannot append frame " + name + " to /frame_addresses");
    ++address_rows;
  }

  // After the first frame: FILE.part becomes FILE. A stale sidecar of an earlier recording of the
  // same name goes first, so it never describes the new file.
  void publish() {
    std::remove(xdmf_path.c_str());
    if (std::rename(part_path.c_str(), path.c_str()) != 0)
      throw RecordError("cannot rename '" + part_path + "' to '" + path + "': " + std::strerror(errno));
    renamed = true;
  }
};

H5Recorder::H5Recorder(const std::string& path, const RunInfo& info, const RecordOptions& opt)
    : impl_(std::make_unique<Impl>()) {
  h5::library_init();
  Impl& m = *impl_;
  m.path = path;
  m.part_path = path + ".part";
  m.info = info;
  m.opt = opt;
  m.xdmf_path = xdmf_path_for(path);
  if (opt.compression < 0 || opt.compression > 9)
    throw RecordError("'" + path + "': gzip compression level must be 0..9, got " + std::to_string(opt.compression));

  // Try the path with plain open() first: HDF5's own message for an unwritable path is buried in its
  // error stack, while errno gives the one-line reason users expect.
  {
    const int fd = ::open(m.part_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
      throw RecordError("cannot create '" + path + "' (written as '" + m.part_path + "' until its first frame): " +
                        std::strerror(errno));
    ::close(fd);
  }
  try {
    h5::Silence quiet;
    m.file = h5::create_recording_file(m.part_path);
    if (!m.file) throw RecordError(with_detail("cannot create '" + m.part_path + "' as an HDF5 file"));
    Handle fapl = h5::plist(H5Fget_access_plist(m.file.get()));
    int* fdp = nullptr;
    if (H5Fget_vfd_handle(m.file.get(), fapl.get(), reinterpret_cast<void**>(&fdp)) >= 0 && fdp) m.fd = *fdp;
    m.ensure_space(64 * 1024, "the file header");

    const hid_t root = m.file.get();
    h5::write_string_attr(root, "format", kFormat);
    h5::write_int_attr(root, "format_version", kFormatVersion, H5T_STD_I32LE);
    h5::write_string_attr(root, "ejecta_version", info.ejecta_version);
    h5::write_string_attr(root, "git_commit", info.git_commit);
    h5::write_int_attr(root, "dim", info.dim, H5T_STD_I32LE);
    h5::write_string_attr(root, "precision", info.precision);
    h5::write_string_attr(root, "backend", info.backend);
    h5::write_string_attr(root, "scene", info.scene_ini);
    h5::write_string_attr(root, "command_line", info.command_line);
    h5::write_string_attr(root, "start_date", info.start_date);

    // /frames keeps its links in its object header ("compact" storage), sized up front for the
    // expected number of frames: linking a frame then rewrites that one header in place. Growing
    // it (a new header chunk, or the switch to a fractal heap at 9 links that HDF5 makes by
    // default) writes a parent that points to new blocks, and a crash or a full disk between the
    // two writes destroyed the whole group.
    Handle gcpl = h5::frames_group_plist(opt.expected_frames);
    m.frames = h5::group(H5Gcreate2(m.file.get(), "frames", H5P_DEFAULT, gcpl.get(), H5P_DEFAULT));
    if (!m.frames) m.fail("cannot create group /frames");

    m.diag_mem = h5::diag_mem_type();
    Handle ftype = h5::diag_file_type();
    const hsize_t zero = 0, unlimited = H5S_UNLIMITED;
    Handle space = h5::space(H5Screate_simple(1, &zero, &unlimited));
    Handle dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(dcpl.get(), 1, &kDiagChunk);
    m.diag = h5::dataset(
        H5Dcreate2(m.file.get(), "diagnostics", ftype.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
    if (!m.diag) m.fail("cannot create dataset /diagnostics");

    // /frame_addresses: each frame's address, appended with the frame before it is linked, so the
    // frames stay reachable when a kill tears the /frames header (see append_address).
    m.addresses = h5::create_address_index(m.file.get());
    if (!m.addresses) m.fail("cannot create dataset /frame_addresses");
    if (H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL) < 0) m.fail("cannot flush");
  } catch (const RecordError& e) {
    {
      h5::Silence quiet;
      m.addresses.reset();
      m.diag.reset();
      m.frames.reset();
      m.file.reset();
    }
    std::remove(m.part_path.c_str());
    const std::string msg = e.what();
    if (msg.find(m.part_path) != std::string::npos) throw;
    throw RecordError("'" + m.part_path + "': " + msg);
  }
}

H5Recorder::~H5Recorder() {
  try {
    close();
  } catch (...) {
    // A destructor must not throw; the frames flushed before are on disk regardless.
  }
}

void H5Recorder::write_frame(const FrameData& frame) {
  Impl& m = *impl_;
  if (!m.file) throw RecordError("'" + m.path + "': the recording is closed");
  h5::Silence quiet;

  // Resolve the selection against this frame's fields.
  std::vector<const FieldData*> chosen;
  if (m.opt.fields.empty()) {
    for (const auto& f : frame.fields) chosen.push_back(&f);
  } else {
    for (const auto& name : m.opt.fields) {
      const FieldData* f = frame.find(name);
      if (!f) {
        std::vector<std::string> avail;
        for (const auto& x : frame.fields) avail.push_back(x.info.name);
        throw RecordError("'" + m.path + "': unknown field '" + name + "' in the recorded field list; available fields: " +
                          joined(avail));
      }
      if (std::find(chosen.begin(), chosen.end(), f) == chosen.end()) chosen.push_back(f);
    }
  }
  m.check_sizes(chosen, frame.particles);

  const std::size_t k = m.written.size();
  const std::string name = h5::frame_name(k);
  const std::string group_path = "/frames/" + name;
  m.ensure_space(frame_bytes_bound(chosen, frame.particles), "frame " + name);

  // Phase 1: the frame as an anonymous (unlinked) group, flushed. A crash or a failure here leaves
  // unreachable space, never a link to a half-written frame.
  Handle gcpl = h5::plist(H5Pcreate(H5P_GROUP_CREATE));
  // Track creation order so that readers list the fields in the order the solver gave them.
  H5Pset_link_creation_order(gcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  Handle g = h5::group(H5Gcreate_anon(m.file.get(), gcpl.get(), H5P_DEFAULT));
  if (!g) m.fail("cannot create group " + group_path);
  h5::write_double_attr(g.get(), "time", frame.time);
  h5::write_int_attr(g.get(), "step", frame.step);
  h5::write_double_attr(g.get(), "dt", frame.dt);
  h5::write_int_attr(g.get(), "particles", std::int64_t(frame.particles));
  XdmfFrame meta;
  meta.group = group_path;
  meta.time = frame.time;
  meta.particles = frame.particles;
  for (const FieldData* f : chosen) {
    m.write_field(g.get(), *f, frame.particles);
    meta.fields.push_back(f->info);
  }
  // `complete` last: a reader that finds it knows every dataset before it was written.
  h5::write_int_attr(g.get(), "complete", 1, H5T_STD_I32LE);
  m.append_address(g.get(), name);
  if (H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL) < 0) m.fail("cannot flush frame " + name + " to disk");

  // Phase 2: link it into /frames (an in-place rewrite of the pre-sized index) and flush again.
  if (H5Olink(g.get(), m.frames.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT) < 0) m.fail("cannot link " + group_path);
  g.reset();
  if (H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL) < 0) m.fail("cannot flush the link of frame " + name + " to disk");
  m.last_flush = std::chrono::steady_clock::now();
  m.written.push_back(std::move(meta));
  if (!m.renamed) m.publish();
  try {
    write_xdmf(m.path, m.xdmf_path, m.info.dim, m.written);
  } catch (const RecordError& e) {
    throw RecordError(std::string(e.what()) + "; '" + m.path + "' holds frame " + name +
                      ", the sidecar lists the frames before it");
  }
}

void H5Recorder::append_diagnostics(const Diagnostics& d) {
  Impl& m = *impl_;
  if (!m.file) throw RecordError("'" + m.path + "': the recording is closed");
  h5::Silence quiet;
  h5::DiagRow r{};
  r.time = d.time;
  r.step = d.step;
  r.dt = d.dt;
  r.particles = std::int64_t(d.particles);
  r.mass = d.mass;
  r.momentum_x = d.momentum[0];
  r.momentum_y = d.momentum[1];
  r.momentum_z = d.momentum[2];
  r.angular_momentum_x = d.angular_momentum[0];
  r.angular_momentum_y = d.angular_momentum[1];
  r.angular_momentum_z = d.angular_momentum[2];
  r.kinetic = d.kinetic;
  r.internal = d.internal;
  r.potential = d.potential;
  r.total = d.total;
  r.max_density_error = d.max_density_error;
  r.max_speed = d.max_speed;
  m.ensure_space(64 * 1024, "a diagnostics row");
  const hsize_t rows = m.diag_rows + 1;
  if (H5Dset_extent(m.diag.get(), &rows) < 0) m.fail("cannot extend /diagnostics");
  Handle fs = h5::space(H5Dget_space(m.diag.get()));
  const hsize_t start = m.diag_rows, count = 1;
  H5Sselect_hyperslab(fs.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr);
  Handle ms = h5::space(H5Screate_simple(1, &count, nullptr));
  if (H5Dwrite(m.diag.get(), m.diag_mem.get(), ms.get(), fs.get(), H5P_DEFAULT, &r) < 0) {
    H5Dset_extent(m.diag.get(), &m.diag_rows);  // keep the table free of a garbage row
    m.fail("cannot append to /diagnostics");
  }
  m.diag_rows = rows;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - m.last_flush).count() >= kDiagnosticsFlushSeconds) {
    if (H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL) < 0) m.fail("cannot flush /diagnostics to disk");
    m.last_flush = now;
  }
}

std::size_t H5Recorder::frames_written() const { return impl_->written.size(); }
const std::string& H5Recorder::path() const { return impl_->path; }
const std::string& H5Recorder::xdmf_path() const { return impl_->xdmf_path; }

void H5Recorder::close() {
  Impl& m = *impl_;
  if (!m.file) return;
  h5::Silence quiet;
  m.addresses.reset();
  m.diag.reset();
  m.frames.reset();
  m.diag_mem.reset();
  const bool closed = m.file.reset();
  const std::string where = m.current_path();
  if (!m.renamed) {
    // No complete frame: nothing worth keeping, and no stub left behind.
    std::remove(m.part_path.c_str());
    return;
  }
  // Give back the reserved blocks past the end of the file (fallocate kept the file size):
  // truncating a file to its own size frees the blocks allocated beyond it.
  if (m.reserve && m.reserved_end > 0) {
    const int fd = ::open(m.path.c_str(), O_WRONLY);
    struct stat st {};
    if (fd >= 0 && ::fstat(fd, &st) == 0 && m.reserved_end > std::uint64_t(st.st_size)) {
      const int rc = ::ftruncate(fd, st.st_size);
      (void)rc;  // only space accounting: the file's contents are final
    }
    if (fd >= 0) ::close(fd);
  }
  if (!closed) throw RecordError(with_detail("'" + where + "': closing the file failed"));
}

}  // namespace ejecta
