#include "io/h5_common.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ejecta::h5 {

void library_init() {
  static const bool started = [] {
    H5dont_atexit();
    const bool ok = H5open() >= 0;
    // Never print HDF5's error stack: every failure becomes a RecordError that names the file and
    // the cause (h5::Silence guards the calls of threads other than this one).
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return ok;
  }();
  (void)started;
}

Silence::Silence() {
  H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

Silence::~Silence() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }

namespace {
herr_t collect_error(unsigned n, const H5E_error2_t* e, void* data) {
  auto* out = static_cast<std::vector<std::string>*>(data);
  (void)n;
  if (!e || !e->desc || !*e->desc) return 0;
  std::string d = e->desc;
  // The file drivers' messages carry a dump of their arguments ("time = ..., buf = 0x..., bytes
  // actually written = 18446744073709551615, ..."); the reason is the quoted error message.
  const std::string key = "error message = '";
  const std::size_t at = d.find(key);
  if (at != std::string::npos) {
    const std::size_t end = d.find('\'', at + key.size());
    d = d.substr(at + key.size(), end == std::string::npos ? std::string::npos : end - at - key.size());
  }
  out->push_back(d);
  return 0;
}
}  // namespace

std::string error_stack_text() {
  std::vector<std::string> msgs;
  // H5E_WALK_UPWARD starts at the innermost call, where the precise cause (errno text, "truncated
  // file", ...) is recorded; the outer entries only say "unable to open file".
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect_error, &msgs);
  std::string s;
  for (std::size_t i = 0; i < msgs.size() && i < 2; ++i) {
    if (!s.empty()) s += "; ";
    s += msgs[i];
  }
  return s;
}

hid_t file_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return H5T_IEEE_F32LE;
    case ScalarType::Float64: return H5T_IEEE_F64LE;
    case ScalarType::UInt8: return H5T_STD_U8LE;
    case ScalarType::UInt32: return H5T_STD_U32LE;
  }
  return H5I_INVALID_HID;
}

hid_t mem_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return H5T_NATIVE_FLOAT;
    case ScalarType::Float64: return H5T_NATIVE_DOUBLE;
    case ScalarType::UInt8: return H5T_NATIVE_UINT8;
    case ScalarType::UInt32: return H5T_NATIVE_UINT32;
  }
  return H5I_INVALID_HID;
}

bool scalar_type_of(hid_t type, ScalarType* out) {
  const H5T_class_t cls = H5Tget_class(type);
  const std::size_t size = H5Tget_size(type);
  if (cls == H5T_FLOAT) {
    if (size == 4) *out = ScalarType::Float32;
    else if (size == 8) *out = ScalarType::Float64;
    else return false;
    return true;
  }
  if (cls == H5T_INTEGER && H5Tget_sign(type) == H5T_SGN_NONE) {
    if (size == 1) *out = ScalarType::UInt8;
    else if (size == 4) *out = ScalarType::UInt32;
    else return false;
    return true;
  }
  return false;
}

namespace {
// Replaces an existing attribute so that rewriting one (tests, tools) does not fail.
Handle create_attr(hid_t obj, const char* name, hid_t type, hid_t space) {
  if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
  return attribute(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
}

void check(bool ok, const char* what, const char* name) {
  if (!ok) throw RecordError(std::string("cannot write attribute '") + name + "' (" + what + ")");
}

// A fixed-length UTF-8 string type of `n` bytes (at least 1), NUL-padded. Variable-length strings
// are never written: they live in HDF5's global heap, whose reader crashes on a damaged heap.
Handle utf8_fixed_string(std::size_t n) {
  Handle t = type(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), std::max<std::size_t>(1, n));
  H5Tset_strpad(t.get(), H5T_STR_NULLPAD);
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  return t;
}

// An attribute holds exactly one element (what Ejecta writes); a damaged or foreign dataspace with
// more would make H5Aread write past the caller's single value.
bool single_element(hid_t attr) {
  Handle s = space(H5Aget_space(attr));
  return s && H5Sget_simple_extent_npoints(s.get()) == 1;
}

Handle open_attr(hid_t obj, const char* name) {
  if (!has_attr(obj, name)) return Handle{};
  Handle a = attribute(H5Aopen(obj, name, H5P_DEFAULT));
  if (!a || !single_element(a.get())) return Handle{};
  return a;
}
}  // namespace

void write_string_attr(hid_t obj, const char* name, const std::string& value) {
  Handle t = utf8_fixed_string(value.size());
  Handle s = space(H5Screate(H5S_SCALAR));
  Handle a = create_attr(obj, name, t.get(), s.get());
  check(a.valid(), "create", name);
  std::string buf = value;
  buf.resize(std::max<std::size_t>(1, value.size()), '\0');
  check(H5Awrite(a.get(), t.get(), buf.data()) >= 0, "write", name);
}

void write_int_attr(hid_t obj, const char* name, std::int64_t value, hid_t ftype) {
  Handle s = space(H5Screate(H5S_SCALAR));
  Handle a = create_attr(obj, name, ftype, s.get());
  check(a.valid(), "create", name);
  check(H5Awrite(a.get(), H5T_NATIVE_INT64, &value) >= 0, "write", name);
}

void write_double_attr(hid_t obj, const char* name, double value) {
  Handle s = space(H5Screate(H5S_SCALAR));
  Handle a = create_attr(obj, name, H5T_IEEE_F64LE, s.get());
  check(a.valid(), "create", name);
  check(H5Awrite(a.get(), H5T_NATIVE_DOUBLE, &value) >= 0, "write", name);
}

bool has_attr(hid_t obj, const char* name) { return H5Aexists(obj, name) > 0; }

StringRead read_string_attr(hid_t obj, const char* name, std::string* out) {
  Handle a = open_attr(obj, name);
  if (!a) return StringRead::Missing;
  Handle ft = type(H5Aget_type(a.get()));
  if (!ft || H5Tget_class(ft.get()) != H5T_STRING) return StringRead::Missing;
  // Variable-length strings (format version 1) are refused, not read: see utf8_fixed_string.
  if (H5Tis_variable_str(ft.get()) != 0) return StringRead::VariableLength;
  const std::size_t n = H5Tget_size(ft.get());
  if (n == 0 || n > kMaxStringBytes) return StringRead::Missing;
  std::vector<char> buf(n + 1, 0);
  Handle mt = type(H5Tcopy(ft.get()));
  if (!mt || H5Aread(a.get(), mt.get(), buf.data()) < 0) return StringRead::Missing;
  out->assign(buf.data());  // NUL-padded or NUL-terminated
  return StringRead::Ok;
}

bool read_int_attr(hid_t obj, const char* name, std::int64_t* out) {
  Handle a = open_attr(obj, name);
  if (!a) return false;
  Handle ft = type(H5Aget_type(a.get()));
  if (H5Tget_class(ft.get()) != H5T_INTEGER) return false;
  return H5Aread(a.get(), H5T_NATIVE_INT64, out) >= 0;
}

bool read_double_attr(hid_t obj, const char* name, double* out) {
  Handle a = open_attr(obj, name);
  if (!a) return false;
  Handle ft = type(H5Aget_type(a.get()));
  const H5T_class_t c = H5Tget_class(ft.get());
  if (c != H5T_FLOAT && c != H5T_INTEGER) return false;
  return H5Aread(a.get(), H5T_NATIVE_DOUBLE, out) >= 0;
}

namespace {
struct Member {
  const char* name;
  std::size_t offset;
  bool integer;
};
const Member kDiagMembers[] = {
    {"time", HOFFSET(DiagRow, time), false},
    {"step", HOFFSET(DiagRow, step), true},
    {"dt", HOFFSET(DiagRow, dt), false},
    {"particles", HOFFSET(DiagRow, particles), true},
    {"mass", HOFFSET(DiagRow, mass), false},
    {"momentum_x", HOFFSET(DiagRow, momentum_x), false},
    {"momentum_y", HOFFSET(DiagRow, momentum_y), false},
    {"momentum_z", HOFFSET(DiagRow, momentum_z), false},
    {"angular_momentum_x", HOFFSET(DiagRow, angular_momentum_x), false},
    {"angular_momentum_y", HOFFSET(DiagRow, angular_momentum_y), false},
    {"angular_momentum_z", HOFFSET(DiagRow, angular_momentum_z), false},
    {"kinetic", HOFFSET(DiagRow, kinetic), false},
    {"internal", HOFFSET(DiagRow, internal), false},
    {"potential", HOFFSET(DiagRow, potential), false},
    {"total", HOFFSET(DiagRow, total), false},
    {"max_density_error", HOFFSET(DiagRow, max_density_error), false},
    {"max_speed", HOFFSET(DiagRow, max_speed), false},
};
}  // namespace

Handle diag_mem_type() {
  Handle t = type(H5Tcreate(H5T_COMPOUND, sizeof(DiagRow)));
  for (const Member& m : kDiagMembers)
    H5Tinsert(t.get(), m.name, m.offset, m.integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE);
  return t;
}

Handle diag_file_type() {
  // Packed, 8 bytes a column, in the order above.
  const std::size_t n = sizeof(kDiagMembers) / sizeof(kDiagMembers[0]);
  Handle t = type(H5Tcreate(H5T_COMPOUND, n * 8));
  for (std::size_t i = 0; i < n; ++i)
    H5Tinsert(t.get(), kDiagMembers[i].name, i * 8,
              kDiagMembers[i].integer ? H5T_STD_I64LE : H5T_IEEE_F64LE);
  return t;
}

Handle create_recording_file(const std::string& path) {
  Handle fapl = plist(H5Pcreate(H5P_FILE_ACCESS));
  // Superblock version 2 (checksummed, and no "open for writing" flag that a crash would leave
  // set, as version 3 has), then the 1.10 object formats for everything created after it
  // (checksummed chunk indices); see docs/file-format.md.
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST);
  // No metadata or small-data aggregation blocks. HDF5 allocates such a block (2 KiB) at the end
  // of the file and, at every flush, gives back its unused tail: the end of allocation moves
  // back, the file is truncated, and only then is the superblock with the new end written. A
  // kill between that truncate and that write left a file shorter than the end its superblock
  // stores, which HDF5 refuses ("truncated file"; 1 in 1001 random kills, and reproduced at
  // every frame by tests/fault/fault_shim.c). Without aggregation the end of allocation only
  // grows while a frame is written, so no flush truncates the file below a stored end.
  H5Pset_meta_block_size(fapl.get(), 0);
  H5Pset_small_data_block_size(fapl.get(), 0);
  Handle f = file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()));
  if (f && H5Fset_libver_bounds(f.get(), H5F_LIBVER_V110, H5F_LIBVER_LATEST) < 0) f.reset();
  return f;
}

std::string frame_name(std::size_t k) {
  char b[32];
  std::snprintf(b, sizeof b, "%06zu", k);
  return b;
}

Handle frames_group_plist(std::size_t expected_frames) {
  constexpr std::size_t kDefaultCapacity = 1024, kNameLength = 6;
  const std::size_t e = expected_frames;
  const std::size_t capacity =
      std::clamp(e ? e + e / 4 + 2 : kDefaultCapacity, H5Recorder::kMinFrameCapacity, H5Recorder::kMaxFrameCapacity);
  Handle gcpl = plist(H5Pcreate(H5P_GROUP_CREATE));
  H5Pset_link_phase_change(gcpl.get(), unsigned(H5Recorder::kMaxFrameCapacity),
                           unsigned(H5Recorder::kMaxFrameCapacity - 1));
  H5Pset_est_link_info(gcpl.get(), unsigned(capacity), unsigned(kNameLength));
  return gcpl;
}

Handle create_address_index(hid_t f) {
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = 64;  // 512-byte chunks
  Handle space_id = space(H5Screate_simple(1, &zero, &unlimited));
  Handle dcpl = plist(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_chunk(dcpl.get(), 1, &chunk);
  return dataset(H5Dcreate2(f, "frame_addresses", H5T_STD_U64LE, space_id.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT));
}

bool append_address(hid_t index, hsize_t row, hid_t obj) {
  std::uint64_t addr = 0;
  if (!object_address(obj, &addr)) return false;
  const hsize_t rows = row + 1, count = 1;
  if (H5Dset_extent(index, &rows) < 0) return false;
  Handle fs = space(H5Dget_space(index));
  H5Sselect_hyperslab(fs.get(), H5S_SELECT_SET, &row, nullptr, &count, nullptr);
  Handle ms = space(H5Screate_simple(1, &count, nullptr));
  return H5Dwrite(index, H5T_NATIVE_UINT64, ms.get(), fs.get(), H5P_DEFAULT, &addr) >= 0;
}

// HDF5 1.12 replaced addresses by tokens in its object API; the native connector's tokens hold the
// address, so both spell the same number.
bool object_address(hid_t obj, std::uint64_t* out) {
#if H5_VERSION_GE(1, 12, 0)
  H5O_info2_t oi;
  haddr_t a = HADDR_UNDEF;
  if (H5Oget_info3(obj, &oi, H5O_INFO_BASIC) < 0 || H5VLnative_token_to_addr(obj, oi.token, &a) < 0) return false;
#else
  H5O_info_t oi;
  if (H5Oget_info2(obj, &oi, H5O_INFO_BASIC) < 0) return false;
  const haddr_t a = oi.addr;
#endif
  if (a == HADDR_UNDEF) return false;
  *out = std::uint64_t(a);
  return true;
}

hid_t open_by_address(hid_t file, std::uint64_t addr) {
#if H5_VERSION_GE(1, 12, 0)
  H5O_token_t token;
  if (H5VLnative_addr_to_token(file, haddr_t(addr), &token) < 0) return H5I_INVALID_HID;
  return H5Oopen_by_token(file, token);
#else
  return H5Oopen_by_addr(file, haddr_t(addr));
#endif
}

}  // namespace ejecta::h5
