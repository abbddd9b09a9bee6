#include "file_commands.h"

#include "io/file_paths.h"
#include "io/h5_probes.h"
#include "io/h5_reader.h"
#include "io/xdmf.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ejecta::app {

namespace {

const char* scalar_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return "float32";
    case ScalarType::Float64: return "float64";
    case ScalarType::UInt8: return "uint8";
    case ScalarType::UInt32: return "uint32";
  }
  return "?";
}

}  // namespace

std::string sibling_path(const std::string& h5_path, const std::string& suffix) { return path_stem(h5_path) + suffix; }

int run_info(const CliOptions& o) {
  const H5Reader r(o.file_path);
  const RunInfo& info = r.info();
  const std::size_t frames = r.frame_count();
  std::printf("file               %s\n", o.file_path.c_str());
  if (frames == 0) {
    std::printf("frames             0 (no complete frame)\n");
  } else {
    // Time stamps and the field table come from the frames themselves; reading the first and last
    // frame costs two frames of I/O, which is what an overview of a recording is worth.
    const FrameData first = r.read_frame(0);
    const FrameData last = frames > 1 ? r.read_frame(frames - 1) : first;
    std::printf("frames             %zu\n", frames);
    std::printf("time range         %.9g .. %.9g s (steps %ld .. %ld)\n", first.time, last.time, first.step, last.step);
    std::printf("particles          %zu\n", first.particles);
    std::printf("fields             %zu\n", first.fields.size());
    for (const auto& f : first.fields)
      std::printf("  %-16s [%s] %d x %s%s%s\n", f.info.name.c_str(), f.info.units.empty() ? "-" : f.info.units.c_str(),
                  f.info.components, scalar_name(f.info.scalar), f.info.description.empty() ? "" : "  ",
                  f.info.description.c_str());
  }
  std::printf("partial frames     %zu skipped\n", r.partial_frames());
  for (const auto& note : r.notes()) std::printf("  %s\n", note.c_str());
  std::printf("diagnostics        %zu rows\n", r.diagnostics().size());
  std::printf("dim                %d\n", info.dim);
  std::printf("precision          %s\n", info.precision.c_str());
  std::printf("backend            %s\n", info.backend.c_str());
  std::printf("ejecta             %s (commit %s)\n", info.ejecta_version.c_str(), info.git_commit.c_str());
  std::printf("started            %s\n", info.start_date.c_str());
  std::printf("command line       %s\n", info.command_line.c_str());
  std::printf("scene:\n%s", info.scene_ini.c_str());
  if (!info.scene_ini.empty() && info.scene_ini.back() != '\n') std::printf("\n");
  return 0;
}

int run_repair(const CliOptions& o) {
  const H5Reader r(o.file_path);
  r.copy_to(o.output_path);
  const H5Reader copy(o.output_path);
  std::fprintf(stderr, "wrote %s (+ %s): %zu complete frame(s) of %s, %zu diagnostics row(s)%s\n",
               o.output_path.c_str(), xdmf_path_for(o.output_path).c_str(), copy.frame_count(), o.file_path.c_str(),
               copy.diagnostics().size(),
               r.notes().empty() ? "" : (std::string("; the original: ") + r.notes()[0]).c_str());
  return 0;
}

void print_reader_notes(const H5Reader& r, const std::string& path) {
  for (const auto& note : r.notes()) std::fprintf(stderr, "ejecta: note: '%s': %s\n", path.c_str(), note.c_str());
}

int run_export_probes(const CliOptions& o) {
  const H5Reader r(o.file_path);  // the recording's own checks first: a foreign file says so
  ProbeSeries s;
  if (!read_probe_series_h5(o.file_path, &s))
    throw RecordError("'" + o.file_path + "' holds no probe series: record a scene with [probe.N] or [gauge.N] "
                      "sections (without --no-probes)");
  std::string out_path = o.output_path;
  if (out_path.empty()) {
    out_path = default_csv_path(o.file_path);
    out_path.insert(out_path.size() - 4, "_probes");
  }
  try {
    write_probe_csv(s, out_path);
  } catch (const ProbeError& e) {
    throw std::runtime_error(e.what());
  }
  if (out_path != "-") std::fprintf(stderr, "wrote %zu probe rows of %zu columns to %s\n", s.rows(), s.columns.size(), out_path.c_str());
  return 0;
}

void write_diagnostics_csv(std::FILE* out, const std::vector<Diagnostics>& rows, int dim) {
  const int nv = dim == 3 ? 3 : 2;
  const char* axes[3] = {"x", "y", "z"};
  // Units in brackets, as the particle fields give them (2D and 1D sums are per unit depth or area).
  std::fprintf(out, "time [s],step,dt [s],particles,mass [kg],kinetic [J],potential [J],internal [J],total [J],"
                    "max_speed [m/s],max_density_error");
  for (int a = 0; a < nv; ++a) std::fprintf(out, ",momentum_%s [kg m/s]", axes[a]);
  // In 2D only the z component of x cross v exists.
  if (nv == 3)
    for (int a = 0; a < 3; ++a) std::fprintf(out, ",angular_momentum_%s [kg m^2/s]", axes[a]);
  else
    std::fprintf(out, ",angular_momentum_z [kg m^2/s]");
  std::fprintf(out, "\n");
  for (const auto& d : rows) {
    std::fprintf(out, "%.17g,%ld,%.17g,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", d.time, d.step, d.dt,
                 d.particles, d.mass, d.kinetic, d.potential, d.internal, d.total, d.max_speed, d.max_density_error);
    for (int a = 0; a < nv; ++a) std::fprintf(out, ",%.17g", d.momentum[a]);
    if (nv == 3)
      for (int a = 0; a < 3; ++a) std::fprintf(out, ",%.17g", d.angular_momentum[a]);
    else
      std::fprintf(out, ",%.17g", d.angular_momentum[2]);
    std::fprintf(out, "\n");
  }
}

int run_export(const CliOptions& o) {
  if (o.export_probes) return run_export_probes(o);
  const H5Reader r(o.file_path);
  const std::vector<Diagnostics> rows = r.diagnostics();
  const std::string out_path = o.output_path.empty() ? default_csv_path(o.file_path) : o.output_path;
  if (out_path == "-") {
    write_diagnostics_csv(stdout, rows, r.info().dim);
    std::fflush(stdout);
    return 0;
  }
  std::FILE* f = std::fopen(out_path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write '" + out_path + "': " + std::strerror(errno));
  write_diagnostics_csv(f, rows, r.info().dim);
  const bool ok = !std::ferror(f);
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write '" + out_path + "': " + std::strerror(errno));
  std::fprintf(stderr, "wrote %zu diagnostics rows to %s\n", rows.size(), out_path.c_str());
  return 0;
}

}  // namespace ejecta::app
