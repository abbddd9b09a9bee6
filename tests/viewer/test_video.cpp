// Video through ffmpeg: the writer alone (vertical flip, exit status), the binary's --render-video
// (frame count and size as ffprobe reads them) and the clear error without ffmpeg on PATH.
// ffmpeg/ffprobe come from scripts/install-deps.sh; without them the encoding tests skip, except
// under EJECTA_REQUIRE_GL=1 (CI, which installs them), where they must run.
#include "binary_util.h"
#include "gl_test_util.h"
#include "render/video_writer.h"
#include "sim_test_util.h"
#include "viewer/viewer_state.h"

#include <gtest/gtest.h>

#include <filesystem>

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

std::string shell_output(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
  pclose(p);
  return out;
}

#define EJECTA_NEED_FFMPEG()                                                                              \
  do {                                                                                                    \
    if (render::find_program("ffmpeg").empty() || render::find_program("ffprobe").empty()) {              \
      if (test::gl_required()) FAIL() << "ffmpeg/ffprobe missing (EJECTA_REQUIRE_GL=1: CI installs them)"; \
      GTEST_SKIP() << "ffmpeg/ffprobe not on PATH (apt install ffmpeg)";                                  \
    }                                                                                                     \
  } while (0)

// "width,height,frames" of the first video stream, frames counted by decoding.
std::string probe(const std::string& file) {
  std::string s = shell_output("ffprobe -v error -select_streams v:0 -count_frames -show_entries "
                               "stream=width,height,nb_read_frames,codec_name,pix_fmt -of csv=p=0 '" + file + "'");
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

TEST(Video, ProgramLookupOnPath) {
  EXPECT_EQ(render::find_program("ejecta-no-such-program-xyz"), "");
  EXPECT_NE(render::find_program("sh"), "");
}

TEST(Video, MissingFfmpegIsAClearError) {
  render::VideoOptions o;
  o.width = 32;
  o.height = 16;
  o.ffmpeg = "ejecta-no-such-ffmpeg";
  try {
    render::VideoWriter w("/tmp/never.mp4", o);
    FAIL() << "no error without ffmpeg";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), render::kFfmpegNotFound);
  }
}

// Top half red, bottom half blue, handed over bottom-up (as glReadPixels reads): the decoded first
// row must be red again, so the flip is ffmpeg's and in the right direction.
TEST(Video, WriterFlipsBottomUpFramesAndCountsThem) {
  EJECTA_NEED_FFMPEG();
  TempDir dir("video-writer");
  const std::string file = (dir.path / "flip.mp4").string();
  render::VideoOptions o;
  o.width = 64;
  o.height = 32;
  o.fps = 10;
  o.bottom_up = true;
  {
    render::VideoWriter w(file, o);
    std::vector<uint8_t> rows(std::size_t(o.width) * o.height * 4);
    for (int y = 0; y < o.height; ++y)  // y = 0 is the bottom row here
      for (int x = 0; x < o.width; ++x) {
        uint8_t* p = &rows[(std::size_t(y) * o.width + x) * 4];
        const bool top = y >= o.height / 2;
        p[0] = top ? 255 : 0, p[1] = 0, p[2] = top ? 0 : 255, p[3] = 255;
      }
    for (int k = 0; k < 4; ++k) w.write_rgba(rows.data(), rows.size());
    EXPECT_THROW(w.write_rgba(rows.data(), 10), std::invalid_argument);
    w.close();
    EXPECT_EQ(w.frames(), 4u);
  }
  EXPECT_EQ(probe(file), "h264,64,32,yuv420p,4");
  // First decoded frame as RGB: its first pixel (top left) red, its last (bottom right) blue.
  const std::string raw = shell_output("ffmpeg -v error -i '" + file + "' -frames:v 1 -f rawvideo -pix_fmt rgb24 -");
  ASSERT_EQ(raw.size(), std::size_t(64 * 32 * 3)) << raw.substr(0, 200);
  const auto* top = reinterpret_cast<const uint8_t*>(raw.data());
  const auto* bottom = top + raw.size() - 3;
  EXPECT_GT(top[0], 200);
  EXPECT_LT(top[2], 60);
  EXPECT_LT(bottom[0], 60);
  EXPECT_GT(bottom[2], 200);
}

TEST(Video, FfmpegFailureIsReportedAtClose) {
  EJECTA_NEED_FFMPEG();
  render::VideoOptions o;
  o.width = 32;
  o.height = 16;
  // ffmpeg cannot create a file in a directory that does not exist: non-zero exit.
  render::VideoWriter w("/nonexistent-dir-ejecta/x.mp4", o);
  std::vector<uint8_t> frame(32 * 16 * 4, 128);
  try {
    w.write_rgba(frame.data(), frame.size());
    w.close();
    FAIL() << "ffmpeg's failure went unnoticed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ffmpeg"), std::string::npos) << e.what();
  }
}

const char* const kCoarse = "--set particles.dp=0.005";

TEST(Video, HeadlessRenderVideoHasTheFramesAndSize) {
  EJECTA_NEED_GL();
  EJECTA_NEED_FFMPEG();
  TempDir dir("render-video");
  const std::string file = (dir.path / "run.mp4").string();
  const auto r = test::run_binary("--headless --backend cpu --steps 10 --render-every 2 --render-video '" + file +
                                  "' --render-fps 12 --width 160 --height 120 " + kCoarse);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote 6 frames"), std::string::npos) << r.out;
  EXPECT_EQ(probe(file), "h264,160,120,yuv420p,6") << r.out;
  EXPECT_NE(shell_output("ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 '" +
                         file + "'").find("12/1"), std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}), 1) << "no PNGs without --render-dir";
}

TEST(Video, HeadlessPngsAndVideoTogether) {
  EJECTA_NEED_GL();
  EJECTA_NEED_FFMPEG();
  TempDir dir("render-both");
  const std::string file = (dir.path / "run.mp4").string(), pngs = (dir.path / "png").string();
  const auto r = test::run_binary("--headless --backend cpu --steps 4 --render-every 4 --render-video '" + file +
                                  "' --render-dir '" + pngs + "' --width 96 --height 64 " + kCoarse);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(probe(file), "h264,96,64,yuv420p,2");
  EXPECT_TRUE(fs::exists(pngs + "/frame_000001.png"));
}

TEST(Video, WithoutFfmpegOnPathTheRunFailsClearly) {
  TempDir dir("no-ffmpeg");
  const std::string file = (dir.path / "run.mp4").string();
  const auto r = test::run_binary("--headless --backend cpu --steps 2 --render-every 1 --render-video '" + file + "' " +
                                      kCoarse,
                                  "PATH='" + dir.path.string() + "'");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(render::kFfmpegNotFound), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(file));
}

TEST(Video, RenderVideoOptionErrors) {
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--headless --render-video a.mp4", "--render-video needs --render-every"},
      {"--headless --render-every 2 --render-fps 10 --render-dir /tmp/x", "--render-fps needs --render-video"},
      {"--headless --render-every 2 --render-video a.mp4 --render-fps 0", "--render-fps must be in"},
  };
  for (const Case& c : cases) {
    const auto r = test::run_binary(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
  }
}

// The window's "Record video" (button and key G call toggle_video; the frame loop video_frame).
viewer::ViewerState drawn_state(const std::string& dir) {
  const ParamSet scene = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.005"});
  viewer::ViewerState s;
  s.opt.scene = scene;
  s.opt.record_dir = dir;
  s.model = std::make_unique<viewer::ParamPanelModel>(scene);
  s.sim = make_simulation(scene, Backend::Cpu);
  s.loop = std::make_unique<StepLoop>(*s.sim, StopRule{});
  s.view = std::make_unique<viewer::SceneView>(*s.sim, scene, false);
  return s;
}

TEST(Video, WindowToggleRecordsOneFramePerDrawnFrame) {
  EJECTA_NEED_GL();
  EJECTA_NEED_FFMPEG();
  TempDir dir("window-video");
  viewer::ViewerState s = drawn_state(dir.path.string());
  s.view->update();
  s.view->draw(96, 64);
  viewer::toggle_video(s);
  ASSERT_TRUE(s.video) << s.message;
  const std::string path = s.video->path();
  for (int k = 0; k < 3; ++k) {
    s.loop->advance(2);
    s.view->update();
    s.view->draw(96, 64);
    viewer::video_frame(s);
  }
  viewer::toggle_video(s);
  EXPECT_FALSE(s.video);
  EXPECT_NE(s.message.find("3 frames to " + path), std::string::npos) << s.message;
  EXPECT_EQ(probe(path), "h264,96,64,yuv420p,3");
  // A resized window ends the video (its size is fixed), saying why; the file stays valid.
  viewer::toggle_video(s);
  ASSERT_TRUE(s.video) << s.message;
  const std::string second = s.video->path();
  viewer::video_frame(s);
  s.view->draw(128, 64);
  viewer::video_frame(s);
  EXPECT_FALSE(s.video);
  EXPECT_NE(s.message.find("resized"), std::string::npos) << s.message;
  EXPECT_EQ(probe(second), "h264,96,64,yuv420p,1");
}

TEST(Video, WindowToggleWithoutFfmpegSaysHowToGetIt) {
  EJECTA_NEED_GL();
  TempDir dir("window-no-ffmpeg");
  viewer::ViewerState s = drawn_state(dir.path.string());
  s.view->update();
  s.view->draw(96, 64);
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", dir.path.c_str(), 1);
  viewer::toggle_video(s);
  setenv("PATH", path.c_str(), 1);
  EXPECT_FALSE(s.video);
  EXPECT_NE(s.message.find(render::kFfmpegNotFound), std::string::npos) << s.message;
}

}  // namespace
}  // namespace ejecta
