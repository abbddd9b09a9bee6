#pragma once
// The probe and gauge series of a run (probes/probe_observer.h) in its HDF5 recording
// (docs/file-format.md), written once the recorder has closed the file:
//   /probes/time     float64 [rows]           s
//   /probes/values   float64 [rows, columns]  NaN where an instrument was not due at that time
//   /probes/columns  fixed-length strings [columns]  "P1.pressure"
//   /probes/units    fixed-length strings [columns]  "Pa"
// Strings are fixed-length (H5T_C_S1, null-padded) only: no variable-length data in this group.
#include "io/h5_recorder.h"  // RecordError
#include "probes/probe_observer.h"

#include <string>

namespace ejecta {

// Adds (or replaces) /probes in the closed recording at `path`. Throws RecordError naming the file.
void write_probe_series_h5(const std::string& path, const ProbeSeries& series);
// Reads /probes of the recording at `path` into `out`; false when the file has no probe series.
// Throws RecordError for a file that cannot be opened or a damaged /probes group.
bool read_probe_series_h5(const std::string& path, ProbeSeries* out);

}  // namespace ejecta
