#pragma once
// What is drawn over the particles of headless frames, playback frames and `P` screenshots: the colour
// legend (legend.h), the scene's name and the time stamp, and a scale bar; for 1D scenes the profile
// plots (profile_plot.h) instead of the particles. An ImGui context of its own with only the OpenGL3
// renderer backend (no window, no input), rendered into the frame's framebuffer after the particles.
#include "viewer/profile_plot.h"
#include "viewer/scene_view.h"

#include <string>

struct ImGuiContext;

namespace ejecta::viewer {

// The overlay's text and switches.
struct FrameCaption {
  std::string scene_name;
  double time = 0;
  bool legend = true;   // --no-legend: false
  bool overlay = true;  // scene name, time stamp and scale bar (--no-overlay: false)
};

class FrameOverlay {
 public:
  FrameOverlay();  // needs the current GL context, which it must not outlive
  ~FrameOverlay();
  FrameOverlay(const FrameOverlay&) = delete;
  FrameOverlay& operator=(const FrameOverlay&) = delete;
  // Draws into the view's framebuffer (drawn by SceneView::draw). `profiles`: a 1D scene's plots,
  // drawn over the whole frame in place of the particles, legend and scale bar.
  void draw(SceneView& view, const FrameCaption& caption, const Profiles* profiles, int width, int height);

 private:
  ::ImGuiContext* ctx_ = nullptr;
};

// The scale bar: the length (1, 2 or 5 x 10^k m) that spans about `target_px` pixels at the camera's
// target (the focus of a 3D view), and its length in pixels.
std::pair<double, float> scale_bar(const render::Camera& cam, int width, int height, float target_px = 150);

// The `P` screenshot: the view's last frame with the legend, name, time and scale bar (or a 1D
// scene's profiles) to DIR/ejecta-<scene>-<step>.png, numbered -2, -3, ... rather than overwrite a
// file; returns the path written. Throws std::runtime_error when it cannot be written.
std::string save_screenshot(SceneView& view, const Simulation& sim, const ParamSet& scene, const std::string& dir,
                            int width, int height);

}  // namespace ejecta::viewer
