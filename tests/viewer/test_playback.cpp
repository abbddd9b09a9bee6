// Playback of recordings: the recorded frame -> render data step (against the frame's own values),
// headless playback of a short recording (one PNG / video frame per recorded frame) and the reader's
// errors for missing and foreign files.
#include "binary_util.h"
#include "gl_test_util.h"
#include "io/h5_reader.h"
#include "render/frame_render_data.h"
#include "render/video_writer.h"
#include "sim_test_util.h"
#include "viewer/playback_model.h"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("ejecta-test-" + name + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

// Component c of particle i of a recorded field, read from its bytes in the stored type.
double value(const FieldData& f, std::size_t i, int c) {
  const std::size_t k = i * std::size_t(f.info.components) + std::size_t(c);
  switch (f.info.scalar) {
    case ScalarType::Float32: return reinterpret_cast<const float*>(f.bytes.data())[k];
    case ScalarType::Float64: return reinterpret_cast<const double*>(f.bytes.data())[k];
    case ScalarType::UInt8: return f.bytes[k];
    case ScalarType::UInt32: return reinterpret_cast<const uint32_t*>(f.bytes.data())[k];
  }
  return NAN;
}

const std::vector<std::string> kCoarse = {"particles.dp=0.005"};

std::string recording(const TempDir& dir, long steps, long every, const RecordOptions& ro = RecordOptions{}) {
  const std::string path = (dir.path / "run.h5").string();
  test::record_steps(path, test::shipped_scene("dambreak2d.ini", kCoarse), steps, every, ro);
  return path;
}

TEST(Playback, FillFromFrameGivesTheRecordedPositionsAndColours) {
  TempDir dir("playback-fill");
  const H5Reader reader(recording(dir, 20, 10));
  ASSERT_EQ(reader.frame_count(), 3u);
  const FrameData f = reader.read_frame(2);
  const FieldData& x = *f.find("position");
  const FieldData& v = *f.find("velocity");
  const FieldData& rho = *f.find("density");
  const FieldData& kind = *f.find("kind");
  ASSERT_EQ(x.info.components, 2);
  std::vector<float> pos, col;

  RenderRange r = render::fill_from_frame(f, RenderRequest{"velocity", -1}, pos, col);
  ASSERT_EQ(pos.size(), 4 * f.particles);
  ASSERT_EQ(col.size(), f.particles);
  float lo = 1e30f, hi = -1e30f;
  std::size_t walls = 0;
  for (std::size_t i = 0; i < f.particles; ++i) {
    EXPECT_EQ(pos[4 * i + 0], float(value(x, i, 0))) << i;
    EXPECT_EQ(pos[4 * i + 1], float(value(x, i, 1))) << i;
    EXPECT_EQ(pos[4 * i + 2], 0.f) << "2D: z = 0";
    EXPECT_EQ(pos[4 * i + 3], float(value(kind, i, 0))) << i;
    const double speed = std::hypot(value(v, i, 0), value(v, i, 1));
    EXPECT_NEAR(col[i], speed, 1e-6 * (1 + speed)) << i;
    if (value(kind, i, 0) == kFluid) lo = std::min(lo, col[i]), hi = std::max(hi, col[i]);
    else ++walls;
    if (::testing::Test::HasFailure()) break;
  }
  ASSERT_GT(walls, 0u);
  EXPECT_EQ(r.min, lo) << "the range is over the fluid";
  EXPECT_EQ(r.max, hi);
  EXPECT_GT(r.max, 0.f) << "20 steps in, the water moves";

  r = render::fill_from_frame(f, RenderRequest{"density", -1}, pos, col);
  for (std::size_t i = 0; i < f.particles; ++i) ASSERT_EQ(col[i], float(value(rho, i, 0))) << i;
  r = render::fill_from_frame(f, RenderRequest{"velocity", 1}, pos, col);
  for (std::size_t i = 0; i < f.particles; ++i) ASSERT_EQ(col[i], float(value(v, i, 1))) << i;

  try {
    render::fill_from_frame(f, RenderRequest{"speed", -1}, pos, col);
    FAIL() << "unknown field accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no recorded field 'speed' (fields: "), std::string::npos) << e.what();
  }
  EXPECT_THROW(render::fill_from_frame(f, RenderRequest{"velocity", 2}, pos, col), std::invalid_argument);
}

TEST(Playback, RecordingWithoutKindDrawsEveryParticleAsFluid) {
  TempDir dir("playback-nokind");
  RecordOptions ro;
  ro.fields = {"position", "density"};
  const H5Reader reader(recording(dir, 2, 2, ro));
  const FrameData f = reader.read_frame(0);
  ASSERT_EQ(f.find("kind"), nullptr);
  std::vector<float> pos, col;
  const RenderRange r = render::fill_from_frame(f, RenderRequest{"density", -1}, pos, col);
  float lo = 1e30f, hi = -1e30f;
  for (std::size_t i = 0; i < f.particles; ++i) {
    ASSERT_EQ(pos[4 * i + 3], 0.f);
    lo = std::min(lo, col[i]), hi = std::max(hi, col[i]);
  }
  EXPECT_EQ(r.min, lo);
  EXPECT_EQ(r.max, hi);
}

// Share of pixels away from the background colour (the top-left pixel).
double covered(const std::string& png) {
  int w = 0, h = 0, comp = 0;
  unsigned char* d = stbi_load(png.c_str(), &w, &h, &comp, 4);
  if (!d) return -1;
  std::size_t n = std::size_t(w) * h, c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    int diff = 0;
    for (int k = 0; k < 3; ++k) diff += std::abs(int(d[4 * i + k]) - int(d[k]));
    c += diff > 6;
  }
  stbi_image_free(d);
  return double(c) / double(n);
}

TEST(Playback, HeadlessPlaybackWritesOnePngPerRecordedFrame) {
  EJECTA_NEED_GL();
  TempDir dir("playback-headless");
  const std::string file = recording(dir, 20, 5);  // frames at steps 0, 5, 10, 15, 20
  const std::string out = (dir.path / "frames").string();
  const auto r = test::run_binary("--playback '" + file + "' --headless --render-dir '" + out +
                                  "' --width 160 --height 120 --colour-by density");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote 5 frames"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("particle-steps"), std::string::npos) << "nothing was simulated:\n" << r.out;
  for (int k = 0; k < 5; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06d.png", k);
    const double c = covered(out + name);
    EXPECT_GT(c, 0.01) << name << ": particles are drawn";
    EXPECT_LT(c, 0.65) << name;  // the fluid, plus the overlay (name, time, scale bar)
  }
  EXPECT_FALSE(fs::exists(out + "/frame_000005.png"));
  const auto bad = test::run_binary("--playback '" + file + "' --headless --render-dir '" + out + "' --colour-by speed");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("no particle field 'speed'"), std::string::npos) << bad.out;
}

TEST(Playback, HeadlessPlaybackToVideo) {
  EJECTA_NEED_GL();
  if (render::find_program("ffprobe").empty()) {
    if (test::gl_required()) FAIL() << "ffmpeg/ffprobe missing (EJECTA_REQUIRE_GL=1: CI installs them)";
    GTEST_SKIP() << "ffmpeg/ffprobe not on PATH (apt install ffmpeg)";
  }
  TempDir dir("playback-video");
  const std::string file = recording(dir, 6, 2);  // 4 frames
  const std::string mp4 = (dir.path / "movie.mp4").string();
  const auto r = test::run_binary("--playback '" + file + "' --headless --render-video '" + mp4 +
                                  "' --width 96 --height 64");
  ASSERT_EQ(r.code, 0) << r.out;
  FILE* p = popen(("ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=width,height,nb_read_frames "
                   "-of csv=p=0 '" + mp4 + "'").c_str(), "r");
  ASSERT_TRUE(p);
  char buf[256] = {};
  const std::size_t got = std::fread(buf, 1, sizeof buf - 1, p);
  pclose(p);
  EXPECT_EQ(std::string(buf, got).substr(0, std::string(buf, got).find('\n')), "96,64,4");
}

TEST(Playback, MissingOrForeignFilesAreInputErrors) {
  TempDir dir("playback-bad");
  auto r = test::run_binary("--playback '" + (dir.path / "none.h5").string() + "' --headless --render-dir '" +
                            dir.path.string() + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot open '"), std::string::npos) << r.out;
  const std::string text = (dir.path / "notes.h5").string();
  std::ofstream(text) << "not a recording\n";
  r = test::run_binary("--playback '" + text + "' --headless --render-dir '" + dir.path.string() + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("is not an HDF5 file"), std::string::npos) << r.out;
  // No display: nothing to do without --headless and an output, and it says how.
  const std::string file = recording(dir, 2, 2);
  r = test::run_binary("--playback '" + file + "'", "DISPLAY= WAYLAND_DISPLAY=");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cannot open a window"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--headless --render-dir DIR or --render-video"), std::string::npos) << r.out;
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--playback x.h5 --headless", "needs --render-dir DIR or --render-video"},
      {"--playback x.h5 --headless --render-dir d --render-every 2", "no --render-every"},
      {"--playback x.h5 --headless --render-dir d --steps 3", "takes no SCENE"},
  };
  for (const Case& c : cases) {
    r = test::run_binary(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

TEST(Playback, ModelPlaysOneFramePerTickAndStopsAtTheEnd) {
  viewer::PlaybackModel m(3);
  m.tick();
  EXPECT_EQ(m.frame(), 0u) << "paused: no advance";
  m.toggle_play();
  EXPECT_TRUE(m.playing());
  m.tick();
  EXPECT_EQ(m.frame(), 1u);
  m.tick();
  EXPECT_EQ(m.frame(), 2u);
  EXPECT_FALSE(m.playing()) << "stops on the last frame";
  m.tick();
  EXPECT_EQ(m.frame(), 2u);
  m.toggle_play();
  EXPECT_EQ(m.frame(), 0u) << "play at the end starts again";
  m.seek(99);
  EXPECT_EQ(m.frame(), 2u);
  m.seek(-4);
  EXPECT_EQ(m.frame(), 0u);
  viewer::PlaybackModel one(1);
  one.toggle_play();
  EXPECT_FALSE(one.playing()) << "nothing to play";
}

// Mean absolute difference of two PNGs' RGB (-1 for different sizes or unreadable files).
double png_difference(const std::string& a, const std::string& b) {
  int wa = 0, ha = 0, wb = 0, hb = 0, comp = 0;
  unsigned char* da = stbi_load(a.c_str(), &wa, &ha, &comp, 4);
  unsigned char* db = stbi_load(b.c_str(), &wb, &hb, &comp, 4);
  double d = -1;
  if (da && db && wa == wb && ha == hb) {
    double s = 0;
    for (std::size_t i = 0; i < std::size_t(wa) * ha; ++i)
      for (int c = 0; c < 3; ++c) s += std::abs(int(da[4 * i + c]) - int(db[4 * i + c]));
    d = s / (3.0 * wa * ha);
  }
  if (da) stbi_image_free(da);
  if (db) stbi_image_free(db);
  return d;
}

TEST(Playback, WindowPlaysTheRecordingFrameByFrame) {
  if (!render::display_available()) {
    if (test::gl_required()) FAIL() << "no display (EJECTA_REQUIRE_GL=1; CI runs the tests under xvfb-run)";
    GTEST_SKIP() << "no display: run under xvfb-run to test the window";
  }
  TempDir dir("playback-window");
  const std::string file = recording(dir, 50, 10);  // 6 frames
  const std::string shot = (dir.path / "shot.png").string(), out = (dir.path / "frames").string();
  // --run plays one recorded frame per drawn frame: the 6th drawn frame shows recorded frame 5.
  auto r = test::run_binary("--playback '" + file + "' --run --frames 6 --screenshot '" + shot +
                            "' --width 320 --height 240 --colour-by density");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("playback ended at frame 5 of 6"), std::string::npos) << r.out;
  r = test::run_binary("--playback '" + file + "' --headless --render-dir '" + out +
                       "' --width 320 --height 240 --colour-by density --no-overlay");
  ASSERT_EQ(r.code, 0) << r.out;
  const double same = png_difference(shot, out + "/frame_000005.png");
  const double first = png_difference(shot, out + "/frame_000000.png");
  EXPECT_GE(same, 0);
  EXPECT_LT(same, 1.0) << "the window shows recorded frame 5 as headless playback draws it";
  EXPECT_GT(first, 4 * same + 0.1) << "and not frame 0";
}

}  // namespace
}  // namespace ejecta
