#include "viewer/frame_overlay.h"

#include "render/image.h"
#include "viewer/legend.h"
#include "viewer/legend_scale.h"

#include <GL/glew.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

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

std::pair<double, float> scale_bar(const render::Camera& cam, int width, int height, float target_px) {
  // Pixels per metre at the target: the sprite shader's projected size (shaders/particles.vert).
  const glm::mat4 p = cam.proj(float(width) / float(std::max(height, 1)));
  const float w = p[3][3] > 0.5f ? 1.f : cam.distance();
  const float ppm = p[1][1] * 0.5f * float(height) / w;
  if (!(ppm > 0) || !std::isfinite(ppm)) return {0, 0};
  const double metres = nice_number(target_px / ppm, true);
  return {metres, float(metres * ppm)};
}

namespace {

constexpr ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                    ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoFocusOnAppearing;

void draw_caption(const FrameCaption& c) {
  // Sized here rather than auto-resized: ImGui hides an auto-resizing window on its first frame,
  // and a screenshot's overlay has only one.
  const std::string time = time_label(c.time);
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const float w = std::max(ImGui::CalcTextSize(c.scene_name.c_str()).x, ImGui::CalcTextSize(time.c_str()).x);
  const float lines = c.scene_name.empty() ? 1.f : 2.f;
  ImGui::SetNextWindowPos(ImVec2(10, 10));
  ImGui::SetNextWindowSize(ImVec2(w + 2 * pad.x, lines * ImGui::GetTextLineHeightWithSpacing() + 2 * pad.y));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("##caption", nullptr, kFixed);
  if (!c.scene_name.empty()) ImGui::TextUnformatted(c.scene_name.c_str());
  ImGui::TextUnformatted(time.c_str());
  ImGui::End();
}

void draw_scale_bar(const render::Camera& cam, int width, int height) {
  const auto [metres, px] = scale_bar(cam, width, height);
  if (!(px > 4)) return;
  const std::string label = length_label(metres);
  const float th = ImGui::GetTextLineHeight();
  ImGui::SetNextWindowPos(ImVec2(10, float(height) - th - 34));
  ImGui::SetNextWindowSize(ImVec2(px + 24, th + 24));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("##scale", nullptr, kFixed);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
  const float y = p.y + th + 4;
  dl->AddRectFilled(ImVec2(p.x, y - 1.5f), ImVec2(p.x + px, y + 1.5f), col);
  dl->AddLine(ImVec2(p.x, y - 5), ImVec2(p.x, y + 5), col, 2.f);
  dl->AddLine(ImVec2(p.x + px, y - 5), ImVec2(p.x + px, y + 5), col, 2.f);
  dl->AddText(ImVec2(p.x + 0.5f * (px - ImGui::CalcTextSize(label.c_str()).x), p.y), col, label.c_str());
  ImGui::End();
}

}  // namespace

void FrameOverlay::draw(SceneView& view, const FrameCaption& caption, const Profiles* profiles, int width,
                        int height) {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(ctx_);
  const render::ViewSettings& v = view.settings();
  if (render::is_light(v)) ImGui::StyleColorsLight();
  else ImGui::StyleColorsDark();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DeltaTime = 1.f / 60.f;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  if (profiles) {
    // The whole frame: the plots on the theme's background, below the caption.
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(v.background.r, v.background.g, v.background.b, 1.f));
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("##profiles", nullptr, kFixed | ImGuiWindowFlags_NoBringToFrontOnFocus);
    // Below the caption (at y = 10: two lines and the window padding).
    const float top =
        caption.overlay ? 18 + 2 * ImGui::GetTextLineHeightWithSpacing() + 2 * ImGui::GetStyle().WindowPadding.y : 8;
    draw_profiles(*profiles, 8, top, float(width) - 16, float(height) - top - 8);
    ImGui::End();
    ImGui::PopStyleColor();
  } else {
    // Frames smaller than the legend get none.
    if (caption.legend && width >= 2 * kLegendWidth && height >= kLegendHeight + 20) {
      const LegendContent c = legend_content(view);
      draw_legend_window(c, float(width) - kLegendWidth - 10, float(height) - legend_height(c) - 10, true);
    }
    if (caption.overlay) draw_scale_bar(view.camera(), width, height);
  }
  if (caption.overlay) draw_caption(caption);
  ImGui::Render();
  view.framebuffer().bind();
  glViewport(0, 0, width, height);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ImGui::SetCurrentContext(previous);
}

std::string save_screenshot(SceneView& view, const Simulation& sim, const ParamSet& scene, const std::string& dir,
                            int width, int height) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = dir.empty() ? fs::current_path(ec) : fs::path(dir);
  fs::create_directories(folder, ec);
  const std::string stem = "ejecta-" + scene.text("scene.name") + "-" + std::to_string(sim.steps());
  fs::path path = folder / (stem + ".png");
  for (int k = 2; fs::exists(path); ++k) path = folder / (stem + "-" + std::to_string(k) + ".png");
  // The particles as they are now, then the overlay over them: what headless frames show.
  view.draw(width, height);
  {
    FrameOverlay overlay;
    FrameCaption caption;
    caption.scene_name = scene.text("scene.name");
    caption.time = sim.time();
    if (sim.dim() == 1) {
      const Profiles p = profiles_of(sim, scene);
      overlay.draw(view, caption, &p, width, height);
    } else {
      overlay.draw(view, caption, nullptr, width, height);
    }
  }
  render::write_png(path.string(), view.read());
  return path.string();
}

}  // namespace ejecta::viewer
