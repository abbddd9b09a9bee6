// The HDF5 recording format (docs/file-format.md): round trips through H5Recorder/H5Reader, crash
// and corruption handling, the XDMF sidecar, and an independent h5py reader (tests/io_check.py).
#include "io/h5_reader.h"
#include "io/h5_recorder.h"
#include "io/xdmf.h"

#include "sim_test_util.h"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

std::string source_dir() {
  const char* env = std::getenv("EJECTA_SOURCE_DIR");
  return env && *env ? env : EJECTA_SOURCE_DIR;
}

// A fresh directory per test, removed afterwards (tests may run in parallel under ctest).
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("ejecta_io") {}
};

RunInfo run_info(int dim, const std::string& precision) {
  RunInfo i;
  i.dim = dim;
  i.precision = precision;
  i.backend = "cpu";
  // Newlines, '=', quotes and non-ASCII text must survive unchanged.
  i.scene_ini = "[scene]\nname = dam break \"test\"\nexpr = a=b=c\n\n# comment: ünïcödé ✓\n[solver]\ncfl = 0.25\n";
  i.command_line = "ejecta run --set scene.dim=" + std::to_string(dim) + " --record out.h5";
  i.start_date = "2024-05-01T12:34:56Z";
  i.ejecta_version = "0.1.0";
  i.git_commit = "0123456789abcdef";
  return i;
}

// Deterministic contents; floats include NaN, -0, infinity and a denormal to prove bit-exactness.
FieldData make_field(const std::string& name, ScalarType t, int comps, std::size_t n, unsigned seed) {
  FieldData f;
  f.info.name = name;
  f.info.components = comps;
  f.info.scalar = t;
  f.info.units = "m/s^" + std::to_string(comps);
  f.info.description = "test field " + name + " (seed " + std::to_string(seed) + ")";
  f.info.persistent = (seed % 2) == 0;
  const std::size_t count = n * std::size_t(comps);
  f.bytes.resize(count * scalar_bytes(t));
  std::uint32_t x = 2463534242u + seed * 7919u;
  for (std::size_t i = 0; i < count; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    const double v = (double(x) / 4294967296.0 - 0.5) * 1e3;
    unsigned char* p = f.bytes.data() + i * scalar_bytes(t);
    switch (t) {
      case ScalarType::Float32: {
        float fv = float(v);
        if (i == 1) fv = std::numeric_limits<float>::quiet_NaN();
        if (i == 2) fv = -0.0f;
        if (i == 3) fv = std::numeric_limits<float>::infinity();
        if (i == 4) fv = std::numeric_limits<float>::denorm_min();
        std::memcpy(p, &fv, 4);
        break;
      }
      case ScalarType::Float64: {
        double dv = v;
        if (i == 1) dv = std::numeric_limits<double>::quiet_NaN();
        if (i == 2) dv = -0.0;
        if (i == 3) dv = -std::numeric_limits<double>::infinity();
        if (i == 4) dv = std::numeric_limits<double>::denorm_min();
        std::memcpy(p, &dv, 8);
        break;
      }
      case ScalarType::UInt8: *p = static_cast<unsigned char>(x); break;
      case ScalarType::UInt32: std::memcpy(p, &x, 4); break;
    }
  }
  return f;
}

// A frame with the solver-like fields plus every (type, components) combination.
FrameData make_frame(int dim, bool dbl, std::size_t n, unsigned seed) {
  FrameData fr;
  fr.time = 0.125 * seed + 1e-17;
  fr.step = 1000000000000L + seed;
  fr.dt = 1.0 / 3.0 * (seed + 1);
  fr.particles = n;
  const ScalarType real = dbl ? ScalarType::Float64 : ScalarType::Float32;
  fr.fields.push_back(make_field("position", real, dim, n, seed * 31 + 1));
  fr.fields.push_back(make_field("velocity", real, dim, n, seed * 31 + 2));
  fr.fields.push_back(make_field("density", real, 1, n, seed * 31 + 3));
  fr.fields.push_back(make_field("kind", ScalarType::UInt8, 1, n, seed * 31 + 4));
  fr.fields.push_back(make_field("id", ScalarType::UInt32, 1, n, seed * 31 + 5));
  const std::pair<ScalarType, const char*> types[] = {{ScalarType::Float32, "f32"},
                                                      {ScalarType::Float64, "f64"},
                                                      {ScalarType::UInt8, "u8"},
                                                      {ScalarType::UInt32, "u32"}};
  unsigned s = 10;
  for (const auto& [t, tn] : types)
    for (int c = 1; c <= 3; ++c) fr.fields.push_back(make_field(std::string(tn) + "_" + std::to_string(c), t, c, n, seed * 31 + s++));
  return fr;
}

void expect_same_frame(const FrameData& a, const FrameData& b) {
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.dt, b.dt);
  EXPECT_EQ(a.particles, b.particles);
  ASSERT_EQ(a.fields.size(), b.fields.size());
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    const FieldData& x = a.fields[i];
    const FieldData& y = b.fields[i];
    SCOPED_TRACE(x.info.name);
    EXPECT_EQ(x.info.name, y.info.name);  // same order as written
    EXPECT_EQ(x.info.components, y.info.components);
    EXPECT_EQ(x.info.scalar, y.info.scalar);
    EXPECT_EQ(x.info.units, y.info.units);
    EXPECT_EQ(x.info.description, y.info.description);
    EXPECT_EQ(x.info.persistent, y.info.persistent);
    EXPECT_TRUE(x.bytes == y.bytes) << "bytes differ";
  }
}

void expect_same_info(const RunInfo& a, const RunInfo& b) {
  EXPECT_EQ(a.dim, b.dim);
  EXPECT_EQ(a.precision, b.precision);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.scene_ini, b.scene_ini);
  EXPECT_EQ(a.command_line, b.command_line);
  EXPECT_EQ(a.start_date, b.start_date);
  EXPECT_EQ(a.ejecta_version, b.ejecta_version);
  EXPECT_EQ(a.git_commit, b.git_commit);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Expects `f` to throw RecordError whose message contains every string of `parts`.
template <class F>
void expect_record_error(F&& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no RecordError thrown";
  } catch (const RecordError& e) {
    const std::string msg = e.what();
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

std::uint32_t crc32(const std::vector<unsigned char>& b) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char byte : b) {
    c ^= byte;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

// Runs a shell command, returns its exit status and stdout+stderr.
int run_capture(const std::string& cmd, std::string* out) {
  out->clear();
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// A Python interpreter that has h5py: the first python3 on PATH may be a pyenv without the Debian
// python3-h5py package, so the system interpreter is tried too. "" when none has it.
std::string python_with_h5py() {
  for (const char* py : {"python3", "/usr/bin/python3"}) {
    std::string out;
    if (run_capture(std::string(py) + " -c 'import h5py, numpy'", &out) == 0) return py;
  }
  return "";
}

// Writes a recording of `frames` frames (dim 2, float) and returns what was written.
std::vector<FrameData> write_recording(const std::string& path, std::size_t frames, std::size_t n = 50,
                                       int dim = 2, bool dbl = false, int gzip = 0) {
  std::vector<FrameData> written;
  RecordOptions opt;
  opt.compression = gzip;
  H5Recorder rec(path, run_info(dim, dbl ? "double" : "float"), opt);
  for (std::size_t k = 0; k < frames; ++k) {
    written.push_back(make_frame(dim, dbl, n, unsigned(k)));
    rec.write_frame(written.back());
  }
  rec.close();
  return written;
}

TEST(H5RoundTrip, EveryTypeDimPrecisionAndCompression) {
  TempDir tmp;
  for (int dim = 1; dim <= 3; ++dim)
    for (bool dbl : {false, true})
      for (int gzip : {0, 6}) {
        SCOPED_TRACE("dim " + std::to_string(dim) + (dbl ? " double" : " float") + " gzip " + std::to_string(gzip));
        const std::string path = tmp / ("rt_" + std::to_string(dim) + (dbl ? "d" : "f") + std::to_string(gzip) + ".h5");
        // Frame sizes vary; one run crosses the 65536-row chunk size.
        const std::vector<std::size_t> sizes = {37, dim == 3 && gzip ? std::size_t(70001) : std::size_t(1000), 1};
        std::vector<FrameData> written;
        {
          RecordOptions opt;
          opt.compression = gzip;
          H5Recorder rec(path, run_info(dim, dbl ? "double" : "float"), opt);
          EXPECT_EQ(rec.path(), path);
          for (std::size_t k = 0; k < sizes.size(); ++k) {
            written.push_back(make_frame(dim, dbl, sizes[k], unsigned(k + 3 * dim)));
            rec.write_frame(written.back());
          }
          EXPECT_EQ(rec.frames_written(), sizes.size());
        }  // the destructor closes
        H5Reader r(path);
        expect_same_info(r.info(), run_info(dim, dbl ? "double" : "float"));
        ASSERT_EQ(r.frame_count(), sizes.size());
        EXPECT_EQ(r.partial_frames(), 0u);
        for (std::size_t k = 0; k < sizes.size(); ++k) expect_same_frame(written[k], r.read_frame(k));
        std::vector<std::string> names;
        for (const auto& f : written[0].fields) names.push_back(f.info.name);
        EXPECT_EQ(r.field_names(), names);
        EXPECT_THROW(r.read_frame(sizes.size()), RecordError);
      }
}

TEST(H5RoundTrip, FileLayoutIsAsDocumented) {
  // Checked with raw HDF5 calls, independently of H5Reader.
  TempDir tmp;
  const std::string path = tmp / "layout.h5";
  RecordOptions opt;
  opt.compression = 4;
  {
    H5Recorder rec(path, run_info(3, "float"), opt);
    rec.write_frame(make_frame(3, false, 100, 0));
  }
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  int version = 0;
  const hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
  ASSERT_GE(a, 0);
  H5Aread(a, H5T_NATIVE_INT, &version);
  H5Aclose(a);
  EXPECT_EQ(version, 2);
  // Strings are fixed-length (a damaged variable-length string can crash HDF5's reader).
  const hid_t sa = H5Aopen(f, "scene", H5P_DEFAULT);
  ASSERT_GE(sa, 0);
  const hid_t st = H5Aget_type(sa);
  EXPECT_EQ(H5Tget_class(st), H5T_STRING);
  EXPECT_EQ(H5Tis_variable_str(st), 0);
  EXPECT_EQ(H5Tget_size(st), run_info(3, "float").scene_ini.size());
  H5Tclose(st);
  H5Aclose(sa);
  const hid_t ds = H5Dopen2(f, "/frames/000000/velocity", H5P_DEFAULT);
  ASSERT_GE(ds, 0);
  const hid_t sp = H5Dget_space(ds);
  hsize_t dims[2] = {0, 0};
  EXPECT_EQ(H5Sget_simple_extent_dims(sp, dims, nullptr), 2);
  EXPECT_EQ(dims[0], 100u);
  EXPECT_EQ(dims[1], 3u);
  const hid_t dcpl = H5Dget_create_plist(ds);
  EXPECT_EQ(H5Pget_layout(dcpl), H5D_CHUNKED);
  bool deflate = false;
  for (int i = 0; i < H5Pget_nfilters(dcpl); ++i) {
    unsigned flags = 0;
    std::size_t nelem = 0;
    if (H5Pget_filter2(dcpl, unsigned(i), &flags, &nelem, nullptr, 0, nullptr, nullptr) == H5Z_FILTER_DEFLATE) deflate = true;
  }
  EXPECT_TRUE(deflate);
  H5Pclose(dcpl);
  H5Sclose(sp);
  H5Dclose(ds);
  const hid_t g = H5Gopen2(f, "/frames/000000", H5P_DEFAULT);
  int complete = 0;
  const hid_t ca = H5Aopen(g, "complete", H5P_DEFAULT);
  ASSERT_GE(ca, 0);
  H5Aread(ca, H5T_NATIVE_INT, &complete);
  H5Aclose(ca);
  EXPECT_EQ(complete, 1);
  H5Gclose(g);
  EXPECT_GT(H5Lexists(f, "diagnostics", H5P_DEFAULT), 0);
  H5Fclose(f);
}

TEST(H5Recorder, FieldSelectionWritesOnlyTheChosenFields) {
  TempDir tmp;
  const std::string path = tmp / "sel.h5";
  RecordOptions opt;
  opt.fields = {"density", "position", "u32_2"};
  const FrameData fr = make_frame(2, true, 64, 1);
  {
    H5Recorder rec(path, run_info(2, "double"), opt);
    rec.write_frame(fr);
    rec.write_frame(fr);
  }
  H5Reader r(path);
  ASSERT_EQ(r.frame_count(), 2u);
  EXPECT_EQ(r.field_names(), opt.fields);  // in the order asked for
  const FrameData back = r.read_frame(1);
  ASSERT_EQ(back.fields.size(), 3u);
  for (const auto& f : back.fields) EXPECT_TRUE(f.bytes == fr.find(f.info.name)->bytes) << f.info.name;
}

TEST(H5Recorder, UnknownFieldIsRejectedNamingTheAvailableOnes) {
  TempDir tmp;
  RecordOptions opt;
  opt.fields = {"position", "vorticity"};
  H5Recorder rec(tmp / "unknown.h5", run_info(2, "float"), opt);
  expect_record_error([&] { rec.write_frame(make_frame(2, false, 10, 0)); },
                      {"vorticity", "available", "position", "velocity", "density", "kind", "id", "u32_3"});
  EXPECT_EQ(rec.frames_written(), 0u);
}

TEST(H5Recorder, MisSizedFieldIsRejected) {
  TempDir tmp;
  H5Recorder rec(tmp / "bad.h5", run_info(2, "float"), {});
  FrameData fr = make_frame(2, false, 10, 0);
  fr.fields[2].bytes.pop_back();
  expect_record_error([&] { rec.write_frame(fr); }, {"density", "bytes"});
  // The half-written frame was unlinked: the next good frame takes its place.
  rec.write_frame(make_frame(2, false, 10, 1));
  rec.close();
  H5Reader r(tmp / "bad.h5");
  EXPECT_EQ(r.frame_count(), 1u);
  EXPECT_EQ(r.partial_frames(), 0u);
}

TEST(H5Recorder, DiagnosticsAppendAndReadBack) {
  TempDir tmp;
  const std::string path = tmp / "diag.h5";
  std::vector<Diagnostics> rows;
  {
    H5Recorder rec(path, run_info(3, "double"), {});
    for (int i = 0; i < 5; ++i) {
      Diagnostics d;
      d.time = 0.1 * i + 1e-16;
      d.step = 10L * i + 3;
      d.dt = 1e-4 / (i + 1);
      d.particles = 1000u + i;
      d.mass = 1.5 + i;
      d.kinetic = 2.25 * i;
      d.potential = -9.81 * i;
      d.internal = 0.5 / (i + 1);
      d.total = d.kinetic + d.potential + d.internal;
      d.max_speed = 3.0 + i;
      d.max_density_error = 0.01 * i;
      for (int c = 0; c < 3; ++c) {
        d.momentum[c] = i * 10 + c + 0.1;
        d.angular_momentum[c] = -(i * 10 + c + 0.2);
      }
      rows.push_back(d);
      rec.append_diagnostics(d);
      if (i == 2) rec.write_frame(make_frame(3, true, 5, 0));  // interleaving frames and rows
    }
  }
  H5Reader r(path);
  const std::vector<Diagnostics> back = r.diagnostics();
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) test::expect_same_diagnostics(rows[i], back[i]);
  EXPECT_EQ(r.frame_count(), 1u);
}

TEST(H5Recorder, UnwritablePathNamesThePath) {
  expect_record_error([] { H5Recorder rec("/nonexistent-ejecta-dir/sub/run.h5", run_info(2, "float"), {}); },
                      {"cannot create '/nonexistent-ejecta-dir/sub/run.h5'", "No such file or directory"});
  expect_record_error([] { H5Recorder rec("/proc/ejecta-run.h5", run_info(2, "float"), {}); },
                      {"cannot create '/proc/ejecta-run.h5'"});
  RecordOptions bad;
  bad.compression = 12;
  TempDir tmp;
  expect_record_error([&] { H5Recorder rec(tmp / "c.h5", run_info(2, "float"), bad); }, {"0..9", "12"});
}

TEST(H5Recorder, DiskFullKeepsTheEarlierFrames) {
  TempDir tmp;
  const std::string mnt = tmp / "tiny";
  fs::create_directory(mnt);
  std::string out;
  if (run_capture("mount -t tmpfs -o size=1m tmpfs '" + mnt + "'", &out) != 0)
    GTEST_SKIP() << "cannot mount a 1 MiB tmpfs to fill (needs root and CAP_SYS_ADMIN): " << out;
  struct Unmount {
    std::string dir;
    ~Unmount() { std::system(("umount '" + dir + "'").c_str()); }
  } unmount{mnt};

  const std::string path = mnt + "/full.h5";
  std::vector<FrameData> written;
  bool failed = false;
  std::string message;
  {
    H5Recorder rec(path, run_info(3, "float"), {});
    for (int k = 0; k < 40 && !failed; ++k) {
      FrameData fr = make_frame(3, false, 2000, unsigned(k));  // ~150 kB a frame
      try {
        rec.write_frame(fr);
        written.push_back(fr);
      } catch (const RecordError& e) {
        failed = true;
        message = e.what();
      }
    }
    EXPECT_EQ(rec.frames_written(), written.size());
    try {
      rec.close();
    } catch (const RecordError&) {
      // Closing flushes again into a full disk; what matters is what the reader finds.
    }
  }
  ASSERT_TRUE(failed) << "1 MiB never filled up";
  EXPECT_NE(message.find(path), std::string::npos) << message;
  ASSERT_GT(written.size(), 0u);
  H5Reader r(path);
  EXPECT_EQ(r.frame_count(), written.size()) << "after: " << message;
  EXPECT_GE(written.size(), 3u);  // 1 MiB holds several 150 kB frames
  for (std::size_t k = 0; k < std::min(r.frame_count(), written.size()); ++k) expect_same_frame(written[k], r.read_frame(k));
}

TEST(H5Recorder, KilledWriterLeavesAReadableFile) {
  // A child process records 3 frames, each after its diagnostics row as RecordObserver does, and
  // dies without closing (no destructor, no H5Fclose): the per-frame flush must have put every
  // frame and every row before it on disk, and the file must open without h5clear.
  TempDir tmp;
  const std::string path = tmp / "killed.h5";
  std::vector<FrameData> frames;
  for (unsigned k = 0; k < 3; ++k) frames.push_back(make_frame(2, false, 200, k));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      auto* rec = new H5Recorder(path, run_info(2, "float"), {});  // leaked on purpose
      for (const auto& f : frames) {
        rec->append_diagnostics(Diagnostics{});
        rec->write_frame(f);
      }
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  H5Reader r(path);
  ASSERT_EQ(r.frame_count(), 3u);
  EXPECT_EQ(r.partial_frames(), 0u);
  for (std::size_t k = 0; k < 3; ++k) expect_same_frame(frames[k], r.read_frame(k));
  EXPECT_EQ(r.diagnostics().size(), 3u);
}

TEST(H5Reader, PartialFrameIsSkipped) {
  TempDir tmp;
  const std::string path = tmp / "crash.h5";
  const std::vector<FrameData> written = write_recording(path, 3);
  // What a crash in the middle of frame 3 leaves behind: the group, its attributes but the last,
  // one dataset. And a frame 4 that claims completeness but whose dataset is short.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  for (int k : {3, 4}) {
    const std::string name = "/frames/00000" + std::to_string(k);
    const hid_t g = H5Gcreate2(f, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(g, 0);
    const hid_t sc = H5Screate(H5S_SCALAR);
    const long long n = 50;
    const hid_t pa = H5Acreate2(g, "particles", H5T_STD_I64LE, sc, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(pa, H5T_NATIVE_LLONG, &n);
    H5Aclose(pa);
    if (k == 4) {
      const int one = 1;
      const hid_t ca = H5Acreate2(g, "complete", H5T_STD_I32LE, sc, H5P_DEFAULT, H5P_DEFAULT);
      H5Awrite(ca, H5T_NATIVE_INT, &one);
      H5Aclose(ca);
    }
    H5Sclose(sc);
    const hsize_t dims[1] = {hsize_t(k == 3 ? 50 : 20)};
    std::vector<float> data(dims[0], 1.0f);
    const hid_t sp = H5Screate_simple(1, dims, nullptr);
    const hid_t ds = H5Dcreate2(g, "density", H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    H5Dclose(ds);
    H5Sclose(sp);
    H5Gclose(g);
  }
  H5Fclose(f);

  H5Reader r(path);
  EXPECT_EQ(r.frame_count(), 3u);
  EXPECT_EQ(r.partial_frames(), 2u);
  ASSERT_EQ(r.notes().size(), 2u);
  EXPECT_NE(r.notes()[0].find("000003"), std::string::npos) << r.notes()[0];
  EXPECT_NE(r.notes()[0].find("complete"), std::string::npos) << r.notes()[0];
  EXPECT_NE(r.notes()[1].find("000004"), std::string::npos) << r.notes()[1];
  EXPECT_NE(r.notes()[1].find("20 rows"), std::string::npos) << r.notes()[1];
  for (std::size_t k = 0; k < 3; ++k) expect_same_frame(written[k], r.read_frame(k));
}

TEST(H5Reader, TruncatedFileIsReportedNotCrashed) {
  TempDir tmp;
  const std::string path = tmp / "whole.h5";
  write_recording(path, 6, 500);
  for (double fraction : {0.5, 0.9, 0.01}) {
    const std::string cut = tmp / "cut.h5";
    fs::copy_file(path, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, std::uintmax_t(double(fs::file_size(path)) * fraction));
    SCOPED_TRACE(fraction);
    expect_record_error([&] { H5Reader r(cut); }, {cut, "truncated or corrupt"});
  }
}

TEST(H5Reader, ForeignFilesGetClearErrors) {
  TempDir tmp;
  expect_record_error([&] { H5Reader r(tmp / "missing.h5"); }, {"cannot open '" + (tmp / "missing.h5") + "'", "No such file"});

  const std::string text = tmp / "notes.h5";
  std::ofstream(text) << "this is not HDF5\n";
  expect_record_error([&] { H5Reader r(text); }, {"'" + text + "' is not an HDF5 file"});

  const std::string other = tmp / "other.h5";
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  H5Fclose(f);
  expect_record_error([&] { H5Reader r(other); },
                      {"'" + other + "' is an HDF5 file but not an Ejecta recording (no 'format' attribute)"});
}

TEST(H5Reader, OtherFormatVersionIsRefused) {
  TempDir tmp;
  const std::string path = tmp / "v2.h5";
  write_recording(path, 1);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  H5Adelete(f, "format_version");
  const hid_t sc = H5Screate(H5S_SCALAR);
  const int three = 3;
  const hid_t a = H5Acreate2(f, "format_version", H5T_STD_I32LE, sc, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_INT, &three);
  H5Aclose(a);
  H5Sclose(sc);
  H5Fclose(f);
  expect_record_error([&] { H5Reader r(path); }, {"written by format version 3; this Ejecta reads version 2"});
}

// A minimal structural check of the sidecar without an XML library (io_check.py does the full XML
// parse): every HDF DataItem reference exists in the file with the declared dimensions and size.
void check_xdmf_references(const std::string& h5_path, const std::string& xdmf_path, std::size_t grids) {
  const std::string x = read_text(xdmf_path);
  ASSERT_FALSE(x.empty());
  EXPECT_NE(x.find("CollectionType=\"Temporal\""), std::string::npos);
  std::size_t count = 0, pos = 0;
  while ((pos = x.find("<Grid Name=\"frame_", pos)) != std::string::npos) ++count, ++pos;
  EXPECT_EQ(count, grids);
  const std::regex item("<DataItem Format=\"HDF\" NumberType=\"(\\w+)\" Precision=\"(\\d)\" Dimensions=\"([0-9 ]+)\">([^<:]+):([^<]+)</DataItem>");
  const hid_t f = H5Fopen(h5_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  std::size_t items = 0;
  for (auto it = std::sregex_iterator(x.begin(), x.end(), item); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    ++items;
    EXPECT_EQ(m[4].str(), fs::path(h5_path).filename().string());
    const std::string dpath = m[5].str();
    const hid_t ds = H5Dopen2(f, dpath.c_str(), H5P_DEFAULT);
    ASSERT_GE(ds, 0) << dpath << " does not exist";
    const hid_t sp = H5Dget_space(ds);
    hsize_t dims[2] = {0, 0};
    const int rank = H5Sget_simple_extent_dims(sp, dims, nullptr);
    std::string d = std::to_string(dims[0]);
    if (rank == 2) d += " " + std::to_string(dims[1]);
    EXPECT_EQ(d, m[3].str()) << dpath;
    const hid_t t = H5Dget_type(ds);
    EXPECT_EQ(std::to_string(H5Tget_size(t)), m[2].str()) << dpath;
    EXPECT_EQ(H5Tget_class(t) == H5T_FLOAT, m[1].str() == "Float") << dpath;
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(ds);
  }
  H5Fclose(f);
  if (grids > 0) {
    EXPECT_GT(items, grids);  // geometry plus attributes in every grid
  }
}

TEST(XdmfSidecar, ReferencesExistWithTheDeclaredDimensions) {
  TempDir tmp;
  for (int dim = 1; dim <= 3; ++dim) {
    SCOPED_TRACE(dim);
    const std::string path = tmp / ("x" + std::to_string(dim) + ".h5");
    const std::string xdmf = tmp / ("x" + std::to_string(dim) + ".xdmf");
    {
      H5Recorder rec(path, run_info(dim, "float"), {});
      EXPECT_EQ(rec.xdmf_path(), xdmf);
      // Before the first frame there is neither the file nor its sidecar, only FILE.part.
      EXPECT_FALSE(fs::exists(xdmf));
      EXPECT_FALSE(fs::exists(path));
      EXPECT_TRUE(fs::exists(path + ".part"));
      for (unsigned k = 0; k < 3; ++k) {
        rec.write_frame(make_frame(dim, k == 1, 20 + k, k));
        check_xdmf_references(path, xdmf, k + 1);  // rewritten after every frame
        EXPECT_FALSE(fs::exists(path + ".part"));
        EXPECT_FALSE(fs::exists(xdmf + ".tmp"));
      }
    }
    const std::string x = read_text(xdmf);
    const char* geom = dim == 3 ? "GeometryType=\"XYZ\"" : dim == 2 ? "GeometryType=\"XY\"" : "GeometryType=\"X_Y\"";
    EXPECT_NE(x.find(geom), std::string::npos);
    EXPECT_NE(x.find("<Time Value=\"0.125"), std::string::npos);
    EXPECT_NE(x.find("NumberType=\"UChar\" Precision=\"1\""), std::string::npos);
    EXPECT_NE(x.find("NumberType=\"UInt\" Precision=\"4\""), std::string::npos);
    EXPECT_NE(x.find("NumberType=\"Float\" Precision=\"8\""), std::string::npos);
  }
}

TEST(XdmfSidecar, FramesWithoutPositionHaveNoGrid) {
  TempDir tmp;
  RecordOptions opt;
  opt.fields = {"density"};
  const std::string path = tmp / "nopos.h5";
  {
    H5Recorder rec(path, run_info(2, "float"), opt);
    rec.write_frame(make_frame(2, false, 10, 0));
  }
  check_xdmf_references(path, tmp / "nopos.xdmf", 0);
}

TEST(IOCheckPython, IndependentReaderAgrees) {
  const std::string py = python_with_h5py();
  if (py.empty()) GTEST_SKIP() << "no python3 with h5py and numpy (install python3-h5py: scripts/install-deps.sh)";
  const std::string script = source_dir() + "/tests/io_check.py";
  TempDir tmp;
  for (int dim : {1, 2, 3}) {
    SCOPED_TRACE(dim);
    const std::string path = tmp / ("py" + std::to_string(dim) + ".h5");
    const std::string xdmf = tmp / ("py" + std::to_string(dim) + ".xdmf");
    const std::vector<FrameData> written = write_recording(path, 4, 300, dim, dim == 2, dim == 3 ? 5 : 0);
    // A crash's leftover: frame 000004 without `complete`.
    {
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
      const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      ASSERT_GE(f, 0);
      H5Gclose(H5Gcreate2(f, "/frames/000004", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      H5Fclose(f);
    }
    std::string out;
    const std::string cmd = py + " '" + script + "' '" + path + "' --dataset 2 velocity --dataset 1 kind --dataset 3 u32_2 --xdmf '" + xdmf + "'";
    const int rc = run_capture(cmd, &out);
    ASSERT_EQ(rc, 0) << cmd << "\n" << out;
    EXPECT_NE(out.find("format=ejecta-particles version=2"), std::string::npos) << out;
    EXPECT_NE(out.find("complete_frames=4 partial_frames=1"), std::string::npos) << out;
    char want[64];
    std::snprintf(want, sizeof want, "crc32=%08x shape=300", unsigned(crc32(written[2].find("velocity")->bytes)));
    EXPECT_NE(out.find(want), std::string::npos) << want << " not in\n" << out;
    std::snprintf(want, sizeof want, "crc32=%08x shape=300 dtype=|u1", unsigned(crc32(written[1].find("kind")->bytes)));
    EXPECT_NE(out.find(want), std::string::npos) << want << " not in\n" << out;
    std::snprintf(want, sizeof want, "crc32=%08x shape=300x2 dtype=<u4", unsigned(crc32(written[3].find("u32_2")->bytes)));
    EXPECT_NE(out.find(want), std::string::npos) << want << " not in\n" << out;
    EXPECT_NE(out.find("xdmf_ok grids=4"), std::string::npos) << out;

    H5Reader r(path);  // and ours agrees on the counts
    EXPECT_EQ(r.frame_count(), 4u);
    EXPECT_EQ(r.partial_frames(), 1u);
  }
}

TEST(IOCheckPython, ReadsARecordedSimulation) {
  // A real run (2D dam break, coarse) recorded through the writer thread, then read by h5py: the
  // frame count, the position checksum of a frame and every XDMF reference must agree with ours.
  const std::string py = python_with_h5py();
  if (py.empty()) GTEST_SKIP() << "no python3 with h5py and numpy (install python3-h5py: scripts/install-deps.sh)";
  TempDir tmp;
  const std::string path = tmp / "run.h5";
  test::record_steps(path, test::shipped_scene("dambreak2d.ini", {"particles.dp=0.0028575"}), 100, 25,
                     RecordOptions{3, {}});
  H5Reader r(path);
  ASSERT_EQ(r.frame_count(), 5u);
  const FrameData f2 = r.read_frame(2);
  EXPECT_EQ(f2.step, 50);
  std::string out;
  const std::string cmd = py + " '" + source_dir() + "/tests/io_check.py' '" + path +
                          "' --dataset 2 position --xdmf '" + (tmp / "run.xdmf") + "'";
  ASSERT_EQ(run_capture(cmd, &out), 0) << cmd << "\n" << out;
  EXPECT_NE(out.find("complete_frames=5 partial_frames=0"), std::string::npos) << out;
  char want[64];
  std::snprintf(want, sizeof want, "crc32=%08x", unsigned(crc32(f2.find("position")->bytes)));
  EXPECT_NE(out.find(want), std::string::npos) << want << " not in\n" << out;
  EXPECT_NE(out.find("xdmf_ok grids=5"), std::string::npos) << out;
}

}  // namespace
}  // namespace ejecta
