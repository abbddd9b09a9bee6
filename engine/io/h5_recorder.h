#pragma once
// Writes a run to one HDF5 file in the "ejecta-particles" format (docs/file-format.md): root
// attributes describing the run, one group per frame under /frames, and an extensible /diagnostics
// table, plus an XDMF sidecar (FILE.xdmf) so ParaView and VisIt open the recording directly.
// Crash and disk-full safety (docs/file-format.md, "Crash safety"): the file is written as FILE.part
// and renamed to FILE after its first complete frame; a frame is written as an unlinked group,
// flushed, and only then linked into /frames (a pre-sized index) and flushed again; the disk space of
// each frame is reserved before HDF5 writes it, so a full disk stops the recording between frames.
#include "io/frame.h"
#include "simulation.h"  // Diagnostics

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

// Every failure of the recorder and the reader; the message names the file and the cause.
struct RecordError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RecordOptions {
  int compression = 0;              // gzip level 0..9, 0 = no filter
  std::vector<std::string> fields;  // fields to record; empty = all
  // Frames the run expects to record (0 = unknown): /frames is created with room for this many
  // links (at least kMinFrameCapacity, 1024 when unknown, at most kMaxFrameCapacity), so adding a
  // frame rewrites its index in place; past that, HDF5 grows it (see docs/file-format.md).
  std::size_t expected_frames = 0;
};

// Thrown when the disk (or quota) is full; the frames written before stay readable.
struct DiskFullError : RecordError {
  using RecordError::RecordError;
};

class H5Recorder {
 public:
  // Creates `path`.part and writes the root attributes; `path` itself (and its XDMF sidecar) is
  // replaced only when the first frame is complete. Throws RecordError, e.g.
  // "cannot create 'x.h5.part': Permission denied".
  H5Recorder(const std::string& path, const RunInfo& info, const RecordOptions& opt);
  ~H5Recorder();  // closes (and so flushes); never throws
  H5Recorder(const H5Recorder&) = delete;
  H5Recorder& operator=(const H5Recorder&) = delete;

  // Writes /frames/NNNNNN with the selected fields, marks it complete, flushes, links it, flushes,
  // rewrites the XDMF. Throws RecordError for unknown field names (listing the available ones),
  // mis-sized field data and write failures, DiskFullError when its space cannot be reserved; the
  // frames written before stay readable. frames_written() counts the frames in the HDF5 file, so
  // it includes a frame whose XDMF rewrite failed.
  void write_frame(const FrameData& frame);
  // Appends one row to /diagnostics. Rows are flushed with the next frame, or on their own once
  // kDiagnosticsFlushSeconds have passed since the last flush: a flush costs milliseconds on some
  // file systems (overlays, network disks), and a row is written every few steps.
  void append_diagnostics(const Diagnostics& d);
  static constexpr double kDiagnosticsFlushSeconds = 1.0;
  std::size_t frames_written() const;
  static constexpr std::size_t kMinFrameCapacity = 8, kMaxFrameCapacity = 65535;
  const std::string& path() const;
  const std::string& xdmf_path() const;
  // Closes the file; further writes throw. Idempotent. Throws RecordError when the final flush fails.
  // A recording without a complete frame is removed (FILE.part), so a failed start leaves nothing.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ejecta
