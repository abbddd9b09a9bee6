#include "viewer/frame_overlay.h"

#include "viewer/imgui_panels.h"

#include <GL/glew.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

namespace ejecta::viewer {

FrameOverlay::FrameOverlay() {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ctx_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx_);
  ImGui::GetIO().IniFilename = nullptr;  // nothing to persist for frames
  ImGui::StyleColorsDark();
  ImGui_ImplOpenGL3_Init("#version 330");
  ImGui::SetCurrentContext(previous);
}

FrameOverlay::~FrameOverlay() {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(ctx_);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(ctx_);
  ImGui::SetCurrentContext(previous == ctx_ ? nullptr : previous);
}

void FrameOverlay::draw_legend(SceneView& view, const std::string& units, int width, int height) {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(ctx_);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DeltaTime = 1.f / 60.f;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  draw_legend_window(view.colour(), units, view.settings().colormap, float(width) - 130, float(height) - 280, true);
  ImGui::Render();
  view.framebuffer().bind();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ImGui::SetCurrentContext(previous);
}

}  // namespace ejecta::viewer
