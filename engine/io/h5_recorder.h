#pragma once
// Writes a run to one HDF5 file in the "ejecta-particles" format (docs/file-format.md): root
// attributes describing the run, one group per frame under /frames, and an extensible /diagnostics
// table, plus an XDMF sidecar (FILE.xdmf) so ParaView and VisIt open the recording directly.
// The file is flushed after every frame, so a crash loses at most the frame being written (which
// readers recognise by its missing `complete` attribute) and the diagnostics rows of the last second.
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
};

class H5Recorder {
 public:
  // Creates (truncates) `path` and writes the root attributes. Throws RecordError, e.g.
  // "cannot create 'x.h5': Permission denied".
  H5Recorder(const std::string& path, const RunInfo& info, const RecordOptions& opt);
  ~H5Recorder();  // closes (and so flushes); never throws
  H5Recorder(const H5Recorder&) = delete;
  H5Recorder& operator=(const H5Recorder&) = delete;

  // Writes /frames/NNNNNN with the selected fields, marks it complete, flushes, rewrites the XDMF.
  // Throws RecordError for unknown field names (listing the available ones), mis-sized field data
  // and write failures (disk full); the frames written before stay readable.
  void write_frame(const FrameData& frame);
  // Appends one row to /diagnostics. Rows are flushed with the next frame, or on their own once
  // kDiagnosticsFlushSeconds have passed since the last flush: a flush costs milliseconds on some
  // file systems (overlays, network disks), and a row is written every few steps.
  void append_diagnostics(const Diagnostics& d);
  static constexpr double kDiagnosticsFlushSeconds = 1.0;
  std::size_t frames_written() const;
  const std::string& path() const;
  const std::string& xdmf_path() const;
  // Closes the file; further writes throw. Idempotent. Throws RecordError when the final flush fails.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ejecta
