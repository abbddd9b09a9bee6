#pragma once
// Reads a recording in the "ejecta-particles" format (docs/file-format.md). Frames that a crash left
// incomplete (no `complete` attribute, missing or short datasets) are skipped and counted, with a note
// saying why, so a recording of an interrupted run stays usable up to its last complete frame.
#include "io/frame.h"
#include "io/h5_recorder.h"  // RecordError, Diagnostics

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace ejecta {

class H5Reader {
 public:
  // Opens and indexes the file. Throws RecordError for a missing file, a directory, a file that is
  // not HDF5, an HDF5 file that is not an Ejecta recording, another format version, or a
  // truncated/corrupt file; sizes the file claims are checked before anything is allocated.
  explicit H5Reader(const std::string& path);
  // Reads a file image held in memory (HDF5's core driver; nothing touches the disk); `name` is the
  // file name used in messages. For the fuzzer and the corruption tests.
  H5Reader(const void* image, std::size_t size, const std::string& name);
  ~H5Reader();
  H5Reader(const H5Reader&) = delete;
  H5Reader& operator=(const H5Reader&) = delete;

  const RunInfo& info() const;
  std::size_t frame_count() const;     // complete frames only
  std::size_t partial_frames() const;  // incomplete frames that were skipped
  // One line per skipped frame ("frame 000003 skipped: no 'complete' attribute ...").
  const std::vector<std::string>& notes() const;
  // Complete frame k (0-based among the complete ones) with all its fields in their stored types.
  FrameData read_frame(std::size_t k) const;
  std::vector<Diagnostics> diagnostics() const;
  std::vector<std::string> field_names() const;  // of the first complete frame
  // Writes a fresh recording at `out_path` (as OUT.part, renamed once whole) and its XDMF sidecar:
  // the root attributes, every other top-level object (/diagnostics, /probes) and the complete
  // frames, their chunks copied as stored, linked under /frames again. `ejecta repair` runs it on a
  // file whose /frames index was damaged. Throws RecordError.
  void copy_to(const std::string& out_path) const;

 private:
  void index();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ejecta
