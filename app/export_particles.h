#pragma once
// `ejecta export FILE.h5 --particles --format csv|vtk [--frame N | --all] [--output OUT]`: the
// per-particle fields of recorded frames, for tools that do not read HDF5 (spreadsheets, pandas) and
// for ParaView, VisIt and Blender's VTK importers.
//
// CSV: one header row of column names with units in brackets ("position_x [m]", "density [kg/m^3]",
// "kind"), vectors split into _x, _y, _z columns (other multi-component fields into _0, _1, ...), then
// one row per particle; floats with 9 (float32) or 17 (float64) significant digits, so they read back
// exactly.
//
// VTK: XML PolyData (.vtp, VTK file format version 1.0): the positions as Points (padded to 3
// components in 1D and 2D), one vertex cell per particle (Verts), every other field as a PointData
// array of its stored type (vectors padded to 3 components), the time as the FieldData array
// TimeValue. The arrays are in one raw binary AppendedData block, little-endian, each preceded by its
// length in bytes as a UInt64 (header_type="UInt64"). Units are listed in an XML comment. With --all a
// .pvd collection lists the frames with their times, so ParaView opens the series as one.
#include "cli.h"

#include "io/frame.h"

#include <cstdio>
#include <string>

namespace ejecta::app {

// Runs the subcommand; returns the exit code (0). RecordError (unreadable file) propagates; a frame
// that does not exist is a ParamError; a file that cannot be written is a std::runtime_error.
int run_export_particles(const CliOptions& o);

// The writers, for tests. `dim` is the recording's dimension (the number of vector components).
void write_particles_csv(std::FILE* out, const FrameData& frame, int dim);
void write_particles_vtp(std::FILE* out, const FrameData& frame, int dim);

// "run.h5", frame 12, "vtp" -> "run_frame000012.vtp" (same folder; the stem of `output` when given).
std::string particle_file_path(const std::string& h5_or_output, long frame, const std::string& ext);

}  // namespace ejecta::app
