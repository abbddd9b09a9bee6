#pragma once
// Headless rendering: a StepObserver on the headless run's StepLoop that draws every K-th step
// offscreen (EGL device on a GPU server, else Mesa EGL or a hidden window under Xvfb) and writes
// DIR/frame_NNNNNN.png, or a frame of the video (ffmpeg), or both. Frame 0 is the state before the
// first step.
#include "run/step_loop.h"
#include "viewer/scene_view.h"

#include <memory>
#include <string>

namespace ejecta::render {
class GlContext;
class VideoWriter;
}

namespace ejecta::viewer {

class FrameOverlay;

struct RenderFrameOptions {
  long every = 1;
  std::string dir;    // --render-dir: PNG frames; "" = none
  std::string video;  // --render-video: an MP4 through ffmpeg; "" = none
  double fps = 30;    // --render-fps: the video's frame rate
  int width = 1280, height = 720;
  bool interop = true;
  bool splat = true;  // CUDA splat rasterizer where possible (--gl-draw: false)
  // The command line's look (--colour-by, --colormap, --walls, --sprites, --view) over the scene's
  // [view] keys; "" keeps the scene's.
  std::string colour_by;
  std::string colormap;
  LookOptions look;
  bool legend = true;   // the colour legend in the frame's corner (--no-legend: particles only)
  bool overlay = true;  // scene name, time stamp and scale bar (--no-overlay: none)
};

class RenderObserver : public StepObserver {
 public:
  // Creates the directory and the context; throws ParamError for a bad colour field, colormap or
  // directory, std::runtime_error when no offscreen context can be made (with every reason) or
  // ffmpeg is missing.
  RenderObserver(Simulation& sim, const ParamSet& scene, const RenderFrameOptions& opt);
  ~RenderObserver() override;
  void render_initial();  // frame 0
  void on_step(const Simulation&) override;
  // Renders the final state unless the last step was a frame (so --until and --steps always end on
  // the final state), closes the video and checks ffmpeg's exit status (throws std::runtime_error);
  // the run calls it after the last step so that a failed encode is a failed run, not a line in a
  // destructor.
  void finish();
  std::size_t frames() const { return frames_; }
  std::string context_description() const;
  const SceneView& view() const { return *view_; }
  // The scene's look fallbacks ("" when none), also printed to stderr.
  const std::string& look_note() const { return look_note_; }

 private:
  void write_frame();
  Simulation* sim_;
  RenderFrameOptions opt_;
  std::unique_ptr<render::GlContext> ctx_;
  std::unique_ptr<SceneView> view_;
  std::unique_ptr<FrameOverlay> overlay_;
  std::unique_ptr<render::VideoWriter> video_;
  ParamSet scene_;
  std::string look_note_;
  long steps_ = 0;
  long last_frame_step_ = -1;
  std::size_t frames_ = 0;
};

// "velocity" -> magnitude, "velocity.y" -> component 1; ParamError naming the fields for unknown ones.
ColourChoice parse_colour_by(const std::string& spec, const std::vector<FieldInfo>& fields);

// What every headless renderer (live run or playback) checks and opens before its first frame:
// the colormap name, the frame directory (created), and the video (ffmpeg started; null without
// --render-video). Throws ParamError for bad options, std::runtime_error when ffmpeg fails.
std::unique_ptr<render::VideoWriter> prepare_render_outputs(const RenderFrameOptions& opt);

}  // namespace ejecta::viewer
