// The playback window's loop: poll events, move the time control, load the recorded frame when it
// changed, draw it through SceneView (host copy), ImGui on top. The keys are the viewer's table;
// those about a running simulation (step, reset, collider, record) do nothing here.
#include "viewer/playback_window.h"

#include "render/colormap.h"
#include "viewer/scene_look.h"
#include "render/frame_render_data.h"
#include "render/gl_context.h"
#include "viewer/imgui_panels.h"
#include "viewer/key_bindings.h"
#include "viewer/legend.h"
#include "viewer/profile_plot.h"
#include "viewer/playback_model.h"
#include "viewer/render_observer.h"
#include "viewer/window_input.h"

#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <deque>

namespace ejecta::viewer {

namespace {

std::string colour_name(const ColourChoice& c) {
  return c.field + (c.component >= 0 ? std::string(".") + "xyz"[c.component] : "");
}

}  // namespace

int run_playback_window(const H5Reader& reader, const ViewerOptions& opt, std::string* why) {
  const std::size_t count = reader.frame_count();
  if (count == 0) throw ParamError("--playback: '" + opt.scene_name + "' holds no complete frame");
  FrameData frame = reader.read_frame(0);
  const std::vector<FieldInfo> fields = render::frame_fields(frame);
  if (!opt.colour_by.empty()) parse_colour_by(opt.colour_by, fields);  // a bad field fails before any window
  if (!opt.colormap.empty() && !std::count(render::colormap_names().begin(), render::colormap_names().end(), opt.colormap))
    throw ParamError("--colormap: unknown colormap '" + opt.colormap + "'");
  const auto& maps = render::colormap_names();

  auto ctx = render::create_window_context(opt.width, opt.height, "Ejecta - playback " + opt.scene_name, why);
  if (!ctx) return -1;
  GLFWwindow* win = ctx->window();
  WindowInput input;
  attach_window_input(win, &input);

  auto view = std::make_unique<SceneView>(frame, opt.scene);
  std::string message = apply_scene_look(*view, frame, opt.scene);
  apply_command_line_look(*view, fields, opt.colour_by, opt.colormap, opt.look);
  const auto map_it = std::find(maps.begin(), maps.end(), view->settings().colormap);
  int map_index = map_it == maps.end() ? 0 : int(map_it - maps.begin());
  PlaybackModel pb(count);
  if (opt.start_running) pb.toggle_play();
  std::size_t loaded = 0;
  bool show_help = false;
  std::fprintf(stderr, "ejecta: playback of %zu frames of %s on %s\n", count, opt.scene_name.c_str(),
               ctx->description().c_str());

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the viewer's layout file is not for this window
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330");

  double last_x = 0, last_y = 0;
  long drawn = 0;
  while (!glfwWindowShouldClose(win)) {
    glfwPollEvents();
    int w = 0, h = 0;
    glfwGetFramebufferSize(win, &w, &h);
    if (w <= 0 || h <= 0) {
      glfwWaitEvents();
      continue;
    }
    render::ViewSettings& v = view->settings();
    while (!input.actions.empty()) {
      switch (input.actions.front()) {
        case Action::TogglePause: pb.toggle_play(); break;
        case Action::FitView: view->fit(); break;
        case Action::PresetFront: view->camera().preset(render::ViewPreset::Front); break;
        case Action::PresetSide: view->camera().preset(render::ViewPreset::Side); break;
        case Action::PresetTop: view->camera().preset(render::ViewPreset::Top); break;
        case Action::PresetIso: view->camera().preset(render::ViewPreset::Iso); break;
        case Action::ToggleSprites:
          v.mode = v.mode == render::SpriteMode::Spheres ? render::SpriteMode::Discs : render::SpriteMode::Spheres;
          break;
        case Action::CycleWalls: v.walls = render::WallMode((int(v.walls) + 2) % 3); break;
        case Action::NextColormap: map_index = (map_index + 1) % int(maps.size()); break;
        case Action::ToggleAutoRange: view->colour().auto_range = !view->colour().auto_range; break;
        case Action::ToggleClip: v.clip = !v.clip; break;
        case Action::ToggleHelp: show_help = !show_help; break;
        case Action::Quit: glfwSetWindowShouldClose(win, GLFW_TRUE); break;
        default: message = "not in playback: nothing is simulated"; break;
      }
      input.actions.pop_front();
    }
    v.colormap = maps[std::size_t(map_index)];
    if (drawn > 0) pb.tick();
    if (pb.frame() != loaded) {
      try {
        frame = reader.read_frame(pb.frame());
        loaded = pb.frame();
      } catch (const std::exception& e) {
        message = e.what();
        pb.seek(long(loaded));
      }
    }
    try {
      view->show(frame);
    } catch (const std::exception& e) {
      message = std::string("drawing: ") + e.what();
    }
    view->draw(w, h);
    view->framebuffer().blit_to_default(w, h);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("Playback");
    ImGui::TextUnformatted(opt.scene_name.c_str());
    if (ImGui::Button(pb.playing() ? "Pause" : "Play")) pb.toggle_play();
    ImGui::SameLine();
    ImGui::Text("t = %.6g s, step %ld", frame.time, frame.step);
    int k = int(pb.frame());
    if (ImGui::SliderInt("frame", &k, 0, int(count) - 1)) pb.seek(k);
    ColourChoice& c = view->colour();
    if (ImGui::BeginCombo("colour by", colour_name(c).c_str())) {
      for (const FieldInfo& f : fields)
        for (int comp = -1; comp < (f.components > 1 ? f.components : 0); ++comp) {
          ColourChoice o = c;
          o.field = f.name;
          o.component = f.components > 1 ? comp : -1;
          if (ImGui::Selectable(colour_name(o).c_str(), o.field == c.field && o.component == c.component)) c = o;
          if (f.components == 1) break;
        }
      ImGui::EndCombo();
    }
    if (ImGui::BeginCombo("colormap", maps[std::size_t(map_index)].c_str())) {
      for (std::size_t i = 0; i < maps.size(); ++i)
        if (ImGui::Selectable(maps[i].c_str(), int(i) == map_index)) map_index = int(i);
      ImGui::EndCombo();
    }
    ImGui::Checkbox("automatic range", &c.auto_range);
    ImGui::End();
    draw_legend_window(legend_content(*view), float(w) - kLegendWidth - 10, 10, false);
    if (frame.find("position") && frame.find("position")->info.components == 1)
      draw_profile_window(profiles_of(frame, opt.scene), w, h);  // 1D: the profiles
    if (show_help) {
      ImGui::Begin("Keys", &show_help);
      for (const auto& [key, what] : help_rows()) ImGui::Text("%-6s %s", key.c_str(), what.c_str());
      ImGui::End();
    }
    ImGui::SetNextWindowPos(ImVec2(0, float(h) - 28));
    ImGui::SetNextWindowSize(ImVec2(float(w), 28));
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
    ImGui::Text("playback | frame %zu / %zu | t = %.6g s | %zu particles | %s | %s%s%s", pb.frame(), count - 1,
                frame.time, frame.particles, view->upload_path().c_str(), pb.playing() ? "playing" : "paused",
                message.empty() ? "" : " | ", message.c_str());
    ImGui::End();
    ImGui::Render();
    glViewport(0, 0, w, h);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++drawn;
    const bool last_frame = opt.max_frames > 0 && drawn >= opt.max_frames;
    if (last_frame && !opt.screenshot_path.empty()) {
      // The scene as drawn (no panels): what a test can compare against the recording.
      render::write_png(opt.screenshot_path, view->read());
    }
    glfwSwapBuffers(win);
    if (last_frame) glfwSetWindowShouldClose(win, GLFW_TRUE);

    // Mouse: orbit (3D) / pan (2D) with the left button, pan with the right, zoom with the wheel.
    double mx, my;
    glfwGetCursorPos(win, &mx, &my);
    const float dx = float(mx - last_x), dy = float(my - last_y);
    last_x = mx;
    last_y = my;
    if (ImGui::GetIO().WantCaptureMouse) continue;
    render::Camera& cam = view->camera();
    if (input.scroll != 0) cam.zoom(std::pow(1.15f, float(input.scroll)));
    input.scroll = 0;
    if (glfwGetMouseButton(win, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS) {
      if (cam.two_d()) cam.pan(dx, dy, h);
      else cam.orbit(dx, dy);
    }
    if (glfwGetMouseButton(win, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS) cam.pan(dx, dy, h);
  }
  std::fprintf(stderr, "ejecta: playback ended at frame %zu of %zu\n", pb.frame(), count);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  view.reset();
  return 0;
}

}  // namespace ejecta::viewer
