// libFuzzer target of the recording reader (issue 11): every input is a file image that H5Reader
// opens from memory (HDF5's core driver, no temporary files) and reads the way `ejecta info`,
// `--restart` and `--playback` do. A RecordError is the expected outcome for a damaged file; a
// crash, a sanitizer report, a leak or an allocation beyond libFuzzer's limit is a bug.
// Seeds: tests/fuzz/corpus/fuzz_recording/ (small valid recordings, 1D to 3D, with and without
// gzip, with diagnostics rows). Run: scripts/fuzz.sh (or build/fuzz/fuzz_recording CORPUS_DIR).
#include "io/frame_check.h"
#include "io/h5_reader.h"

#include <cstddef>
#include <cstdint>

// HDF5 1.10 leaks a few hundred bytes on some of its error paths (inside the library, after a
// failed open); those are not Ejecta's, and a leak report would stop the fuzzer at the first one.
extern "C" const char* __lsan_default_suppressions() { return "leak:libhdf5\n"; }
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const ejecta::H5Reader r(data, size, "fuzz.h5");
    (void)r.field_names();
    (void)r.diagnostics();
    for (std::size_t k = 0; k < r.frame_count(); ++k) {
      const ejecta::FrameData f = r.read_frame(k);
      try {
        ejecta::check_restart_frame(f, "fuzz.h5");
      } catch (const ejecta::RecordError&) {
      }
    }
  } catch (const ejecta::RecordError&) {
  }
  return 0;
}
