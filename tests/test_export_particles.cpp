// `ejecta export FILE.h5 --particles`: the CSV reads back to the recorded values with the units in its
// header; the VTK PolyData is laid out as declared (offsets, byte counts, padding) and ParaView's own
// XML PolyData reader opens it (pvpython; skipped, saying so, where it is missing).
#include "export_particles.h"
#include "io/h5_reader.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

struct Recording {
  fs::path dir;
  std::string h5;
  Recording(const std::string& name, const ParamSet& scene, long steps, long every) {
    dir = fs::temp_directory_path() / ("ejecta-export-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    h5 = (dir / "run.h5").string();
    test::record_steps(h5, scene, steps, every);
  }
  ~Recording() { fs::remove_all(dir); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string c;
  while (std::getline(ss, c, ',')) cells.push_back(c);
  return cells;
}

double field_value(const FieldData& f, std::size_t i, int c) {
  const std::size_t k = i * f.info.components + c;
  switch (f.info.scalar) {
    case ScalarType::Float32: {
      float v;
      std::memcpy(&v, f.bytes.data() + 4 * k, 4);
      return v;
    }
    case ScalarType::Float64: {
      double v;
      std::memcpy(&v, f.bytes.data() + 8 * k, 8);
      return v;
    }
    case ScalarType::UInt8: return f.bytes[k];
    case ScalarType::UInt32: {
      std::uint32_t v;
      std::memcpy(&v, f.bytes.data() + 4 * k, 4);
      return v;
    }
  }
  return 0;
}

TEST(ExportParticles, CsvReadsBackExactlyWithUnitsInTheHeader) {
  const Recording rec("csv", test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"}), 20, 10);
  const H5Reader r(rec.h5);
  ASSERT_EQ(r.frame_count(), 3u);
  const FrameData frame = r.read_frame(1);
  const std::string path = (rec.dir / "f1.csv").string();
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  app::write_particles_csv(f, frame, 2);
  std::fclose(f);

  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const std::vector<std::string> header = split(line);
  // Columns: every field's components in order, vectors as _x, _y, units in brackets.
  std::vector<std::pair<const FieldData*, int>> columns;
  for (const auto& fd : frame.fields)
    for (int c = 0; c < fd.info.components; ++c) columns.emplace_back(&fd, c);
  ASSERT_EQ(header.size(), columns.size()) << line;
  EXPECT_EQ(header[0], "position_x [m]");
  EXPECT_EQ(header[1], "position_y [m]");
  EXPECT_NE(line.find("velocity_y [m/s]"), std::string::npos) << line;
  EXPECT_NE(line.find("density [kg/m^3]"), std::string::npos) << line;
  EXPECT_NE(line.find(",kind,"), std::string::npos) << "dimensionless fields have no brackets: " << line;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    ASSERT_EQ(cells.size(), columns.size()) << "row " << rows;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const double want = field_value(*columns[c].first, rows, columns[c].second);
      // 9 digits for float32, 17 for float64: the text reads back to the same stored value.
      const double got = std::strtod(cells[c].c_str(), nullptr);
      if (columns[c].first->info.scalar == ScalarType::Float32)
        ASSERT_EQ(float(got), float(want)) << header[c] << " row " << rows;
      else
        ASSERT_EQ(got, want) << header[c] << " row " << rows;
    }
    ++rows;
  }
  EXPECT_EQ(rows, frame.particles);
}

// The appended block at `offset` (after the '_' marker) as its byte count and bytes.
std::string appended_block(const std::string& vtp, std::uint64_t offset) {
  const std::size_t base = vtp.find("<AppendedData encoding=\"raw\">");
  const std::size_t start = vtp.find('_', base) + 1 + offset;
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, vtp.data() + start, 8);
  return vtp.substr(start + 8, bytes);
}

std::uint64_t offset_of(const std::string& vtp, const std::string& name) {
  const std::size_t at = vtp.find("Name=\"" + name + "\"");
  EXPECT_NE(at, std::string::npos) << name;
  const std::size_t o = vtp.find("offset=\"", at);
  return std::stoull(vtp.substr(o + 8));
}

TEST(ExportParticles, VtkPolyDataLayoutMatchesItsHeader) {
  const Recording rec("vtp", test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"}), 10, 10);
  const H5Reader r(rec.h5);
  const FrameData frame = r.read_frame(1);
  const std::string path = (rec.dir / "f.vtp").string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  app::write_particles_vtp(f, frame, 2);
  std::fclose(f);
  const std::string vtp = slurp(path);
  EXPECT_EQ(vtp.rfind("<?xml version=\"1.0\"?>", 0), 0u);
  EXPECT_NE(vtp.find("<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">"),
            std::string::npos);
  const std::size_t n = frame.particles;
  EXPECT_NE(vtp.find("NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfVerts=\"" + std::to_string(n) + "\""),
            std::string::npos);
  EXPECT_NE(vtp.find("density [kg/m^3]"), std::string::npos) << "units in the comment";
  // Positions padded to x, y, 0; the density's bytes as stored; vertex offsets 1..n.
  const std::string pos = appended_block(vtp, offset_of(vtp, "position"));
  ASSERT_EQ(pos.size(), n * 3 * 4);
  const FieldData& p = *frame.find("position");
  for (std::size_t i = 0; i < n; i += 97) {
    float xyz[3];
    std::memcpy(xyz, pos.data() + 12 * i, 12);
    EXPECT_EQ(xyz[0], float(field_value(p, i, 0)));
    EXPECT_EQ(xyz[1], float(field_value(p, i, 1)));
    EXPECT_EQ(xyz[2], 0.0f);
  }
  const FieldData& rho = *frame.find("density");
  EXPECT_EQ(appended_block(vtp, offset_of(vtp, "density")),
            std::string(reinterpret_cast<const char*>(rho.bytes.data()), rho.bytes.size()));
  const std::string offs = appended_block(vtp, offset_of(vtp, "offsets"));
  ASSERT_EQ(offs.size(), n * 8);
  std::int64_t last = 0;
  std::memcpy(&last, offs.data() + 8 * (n - 1), 8);
  EXPECT_EQ(last, std::int64_t(n));
  EXPECT_NE(vtp.find("</AppendedData>\n</VTKFile>\n"), std::string::npos);
}

std::string run_command(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (p && std::fgets(buf, sizeof buf, p)) out += buf;
  *rc = p ? pclose(p) : -1;
  return out;
}

TEST(ExportParticles, ParaViewReadsTheVtkFilesAndSeries) {
  int rc = 0;
  run_command("command -v pvpython >/dev/null 2>&1", &rc);
  if (rc != 0) GTEST_SKIP() << "pvpython not found (Debian package paraview; scripts/install-deps.sh installs it with EJECTA_WITH_PARAVIEW=1)";
  const Recording rec2("pv2", test::shipped_scene("dambreak2d.ini", {"particles.dp=0.01"}), 20, 10);
  const Recording rec3("pv3", test::shipped_scene("dambreak3d.ini", {"particles.dp=0.05"}), 10, 10);
  app::CliOptions o;
  o.command = "export";
  o.export_particles = true;
  o.export_format = "vtk";
  o.export_all = true;
  o.file_path = rec2.h5;
  ASSERT_EQ(app::run_export_particles(o), 0);
  o.file_path = rec3.h5;
  o.export_all = false;  // the last frame
  o.output_path = (rec3.dir / "last.vtp").string();
  ASSERT_EQ(app::run_export_particles(o), 0);
  const std::string f2 = (rec2.dir / "run_frame000002.vtp").string(), pvd = (rec2.dir / "run.pvd").string();
  const std::string out = run_command("pvpython '" + test::source_dir() + "/tests/pv_vtp_check.py' '" + f2 + "' '" +
                                          o.output_path + "' '" + pvd + "' 2>&1",
                                      &rc);
  ASSERT_EQ(rc, 0) << out;
  std::printf("%s", out.c_str());
  const FrameData last2 = H5Reader(rec2.h5).read_frame(2), last3 = H5Reader(rec3.h5).read_frame(1);
  const std::string n2 = std::to_string(last2.particles), n3 = std::to_string(last3.particles);
  EXPECT_NE(out.find("file=" + f2 + " points=" + n2 + " verts=" + n2 + " "), std::string::npos) << out;
  EXPECT_NE(out.find("file=" + o.output_path + " points=" + n3 + " verts=" + n3 + " "), std::string::npos) << out;
  EXPECT_NE(out.find("velocity:3"), std::string::npos) << "2D vectors padded to 3 components: " << out;
  EXPECT_NE(out.find("density:1"), std::string::npos) << out;
  EXPECT_NE(out.find("kind:1"), std::string::npos) << out;
  char t[64];
  std::snprintf(t, sizeof t, " time=%.17g ", last2.time);
  EXPECT_NE(out.find(t), std::string::npos) << out;
  // The values arrive: the first point and the density range as stored.
  const FieldData& p = *last2.find("position");
  char p0[96];
  std::snprintf(p0, sizeof p0, "p0=%.9g,%.9g,0", field_value(p, 0, 0), field_value(p, 0, 1));
  EXPECT_NE(out.find(p0), std::string::npos) << p0 << " in " << out;
  for (std::size_t at = out.find("density="); at != std::string::npos; at = out.find("density=", at + 1)) {
    double lo = 0, hi = 0;
    ASSERT_EQ(std::sscanf(out.c_str() + at, "density=%lg..%lg", &lo, &hi), 2) << out;
    EXPECT_GT(lo, 900.0);
    EXPECT_LT(hi, 1100.0);
  }
  // The series: three frames with the recorded times.
  EXPECT_NE(out.find("series=" + pvd + " timesteps=0,"), std::string::npos) << out;
}

}  // namespace
}  // namespace ejecta
