#pragma once
// The subcommands that work on a recording instead of running a scene: `ejecta info FILE.h5`,
// `ejecta export FILE.h5 --csv` and `ejecta repair FILE.h5`.
#include "cli.h"

#include "io/h5_reader.h"
#include "simulation.h"  // Diagnostics

#include <cstdio>
#include <string>
#include <vector>

namespace ejecta::app {

// Prints what the file holds on stdout. Returns the exit code (0); RecordError propagates.
int run_info(const CliOptions& o);
// Writes the diagnostics table as CSV. Returns the exit code (0); RecordError propagates, a file that
// cannot be written is a std::runtime_error.
int run_export(const CliOptions& o);
// `ejecta export FILE.h5 --probes`: the /probes series as the CSV of a headless run (docs/probes.md).
int run_export_probes(const CliOptions& o);

// `ejecta repair FILE.h5 [--output OUT.h5]`: H5Reader::copy_to, then what the copy holds on stderr.
int run_repair(const CliOptions& o);
// What a run that reads a recording (--restart, --playback) says of it on stderr: the reader's notes
// (frames skipped, a damaged /frames index read through /frame_addresses), one line each.
void print_reader_notes(const H5Reader& r, const std::string& path);

// The CSV itself: a header row of column names, then one row per sample, numbers with 17
// significant digits so they read back exactly. `dim` decides the vector columns (x, y[, z]).
void write_diagnostics_csv(std::FILE* out, const std::vector<Diagnostics>& rows, int dim);
// "run.h5" -> "run" + suffix (the extension replaced, or the suffix appended when there is none; a
// dot in a folder name is not an extension), same folder.
std::string sibling_path(const std::string& h5_path, const std::string& suffix);
// "run.h5" -> "run.csv".
inline std::string default_csv_path(const std::string& h5_path) { return sibling_path(h5_path, ".csv"); }

}  // namespace ejecta::app
