#pragma once
// Shared HDF5 plumbing for the recorder and the reader: RAII handles, a scoped silencer for HDF5's
// automatic error printing (we turn failures into RecordError messages instead of letting the library
// dump its error stack on stderr), attribute helpers and the ScalarType <-> HDF5 type mapping.
// Only the .cpp files of engine/io include this header; it is not part of the public API.
#include "io/frame.h"
#include "io/h5_recorder.h"  // RecordError

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace ejecta {

namespace h5 {

// Starts the HDF5 library once, without its exit-time cleanup. If a flush failed (disk full), HDF5
// 1.10 can leave the file half-closed, and its atexit handler then crashes while closing it again;
// every file Ejecta opens is closed explicitly, so the handler has nothing left to do.
void library_init();

// Owns one hid_t and closes it with the matching H5?close (files, groups, datasets, attributes, types,
// spaces and property lists each have their own close function).
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer c) : id_(id), close_(c) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  explicit operator bool() const { return valid(); }
  // Closes now and reports whether the close succeeded (closing a file flushes it, which can fail).
  bool reset() {
    bool ok = true;
    if (id_ >= 0 && close_) ok = close_(id_) >= 0;
    id_ = H5I_INVALID_HID;
    return ok;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

inline Handle file(hid_t id) { return Handle(id, H5Fclose); }
inline Handle group(hid_t id) { return Handle(id, H5Gclose); }
inline Handle dataset(hid_t id) { return Handle(id, H5Dclose); }
inline Handle attribute(hid_t id) { return Handle(id, H5Aclose); }
inline Handle type(hid_t id) { return Handle(id, H5Tclose); }
inline Handle space(hid_t id) { return Handle(id, H5Sclose); }
inline Handle plist(hid_t id) { return Handle(id, H5Pclose); }
inline Handle object(hid_t id) { return Handle(id, H5Oclose); }  // any of group, dataset, named type

// Switches HDF5's automatic error printing off for its lifetime and restores whatever was installed
// before (an application may have its own handler).
class Silence {
 public:
  Silence();
  ~Silence();
  Silence(const Silence&) = delete;
  Silence& operator=(const Silence&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// The innermost messages of HDF5's current error stack, "" when empty (for "detail: ..." suffixes).
std::string error_stack_text();

// The file (on-disk, little-endian) and memory (native) types of a field element.
hid_t file_type(ScalarType t);
hid_t mem_type(ScalarType t);
// Maps a dataset's type back; false for types Ejecta never writes.
bool scalar_type_of(hid_t type, ScalarType* out);

// Attributes on any object (file root, group, dataset). Strings are fixed-length UTF-8, NUL-padded,
// sized to their text (format version 2; version 1 wrote variable-length strings).
void write_string_attr(hid_t obj, const char* name, const std::string& value);
void write_int_attr(hid_t obj, const char* name, std::int64_t value, hid_t file_type = H5T_STD_I64LE);
void write_double_attr(hid_t obj, const char* name, double value);
bool has_attr(hid_t obj, const char* name);
// Readers: false when the attribute is missing, holds more than one element or has an incompatible
// type. A string attribute is read only when it is fixed-length and at most kMaxStringBytes long.
constexpr std::size_t kMaxStringBytes = std::size_t(64) << 20;
enum class StringRead { Ok, Missing, VariableLength };
StringRead read_string_attr(hid_t obj, const char* name, std::string* out);
bool read_int_attr(hid_t obj, const char* name, std::int64_t* out);
bool read_double_attr(hid_t obj, const char* name, double* out);

// One row of /diagnostics. The memory compound type is built from this struct with HOFFSET; the file
// type packs the same named members little-endian. HDF5 matches members by name when converting, so
// a reader survives columns being added or reordered in a later version.
struct DiagRow {
  double time;
  std::int64_t step;
  double dt;
  std::int64_t particles;
  double mass;
  double momentum_x, momentum_y, momentum_z;
  double angular_momentum_x, angular_momentum_y, angular_momentum_z;
  double kinetic, internal, potential, total;
  double max_density_error, max_speed;
};
Handle diag_mem_type();
Handle diag_file_type();

// A new recording file with the recorder's crash-safe settings (docs/file-format.md, points 5 and
// 7): superblock version 2, the 1.10 object formats, no aggregation blocks. Invalid on failure.
Handle create_recording_file(const std::string& path);
// Frame k's group name: six zero-padded digits ("000042"), so name order is frame order.
std::string frame_name(std::size_t k);
// The creation properties of /frames: compact link storage sized for `expected_frames` + 25% links
// (RecordOptions::expected_frames; 1024 when 0, clamped to H5Recorder's capacity limits), so that
// linking a frame rewrites one header in place instead of growing it.
Handle frames_group_plist(std::size_t expected_frames);
// /frame_addresses, the second index of the frames (the address of frame k in row k), and one
// appended row: the address of the open object `obj`. False (with HDF5's error stack) on failure.
Handle create_address_index(hid_t file);
bool append_address(hid_t index, hsize_t row, hid_t obj);

// An object's address in its file, and the object at an address (a group, a dataset; H5I_INVALID_HID
// when nothing valid is there). The recorder keeps each frame's address in /frame_addresses, the
// reader's way to the frames when the /frames index is damaged (docs/file-format.md).
bool object_address(hid_t obj, std::uint64_t* out);
hid_t open_by_address(hid_t file, std::uint64_t addr);

}  // namespace h5
}  // namespace ejecta
