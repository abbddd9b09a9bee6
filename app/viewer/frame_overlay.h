#pragma once
// The legend drawn onto headless frames: an ImGui context of its own with only the OpenGL3 renderer
// backend (no window, no input), rendered into the frame's framebuffer after the particles.
#include "viewer/scene_view.h"

struct ImGuiContext;

namespace ejecta::viewer {

class FrameOverlay {
 public:
  FrameOverlay();  // needs the current GL context, which it must not outlive
  ~FrameOverlay();
  FrameOverlay(const FrameOverlay&) = delete;
  FrameOverlay& operator=(const FrameOverlay&) = delete;
  // Draws the legend of the view's colour choice into its framebuffer (bound by SceneView::draw).
  void draw_legend(SceneView& view, const std::string& units, int width, int height);

 private:
  ::ImGuiContext* ctx_ = nullptr;
};

}  // namespace ejecta::viewer
