// The window loop: poll events, StepLoop::advance(steps_per_frame) while running (the one step loop;
// parameter edits happen between these calls), fill the vertex buffers, draw, ImGui on top.
#include "viewer/viewer_app.h"

#include "render/colormap.h"
#include "render/frame_render_data.h"
#include "render/particle_upload.h"
#include "render/gl_context.h"
#include "viewer/frame_overlay.h"
#include "viewer/imgui_material_panel.h"
#include "viewer/imgui_panels.h"
#include "viewer/key_bindings.h"
#include "viewer/render_observer.h"
#include "viewer/scene_look.h"
#include "viewer/view_model.h"
#include "viewer/window_input.h"

#include <GL/glew.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>

namespace ejecta::viewer {

namespace {

std::string imgui_ini_path() {
  // Layout persists per user: $XDG_CONFIG_HOME/ejecta/imgui.ini (or ~/.config/...).
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home ? home : ".") / ".config";
  dir /= "ejecta";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return (dir / "imgui.ini").string();
}

std::vector<std::string> scene_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".ini") out.push_back(e.path().filename().string());
  // The teaching pairs (scenes/teaching/, docs/teaching.md) as teaching/NAME_pitfall.ini, ...
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(dir) / "teaching", ec))
    if (e.path().extension() == ".ini") out.push_back("teaching/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The particle under the cursor: nearest to the eye among those whose sprite covers the pixel, each
// at its drawn radius (grains at their own: pick_particle).
long pick(ViewerState& s, double mx, double my, int w, int h) {
  std::vector<std::string> names;
  const bool radii = render::want_particle_radii(*s.sim);
  for (const FieldInfo& f : s.sim->fields())
    if (f.name == "position" || f.name == "kind" || (radii && f.name == kRadiusField)) names.push_back(f.name);
  const FrameData f = s.sim->capture_frame(names);
  std::vector<float> pos, col, rad;
  render::fill_from_frame(f, RenderRequest{"position", -1}, pos, col, &rad);
  return pick_particle(s.view->camera(), s.view->settings(), pos, rad, mx, my, w, h);
}

// The cursor in framebuffer pixels (the window may be scaled on HiDPI screens).
glm::dvec2 cursor(GLFWwindow* win, int w, int h) {
  double mx, my;
  glfwGetCursorPos(win, &mx, &my);
  int ww, wh;
  glfwGetWindowSize(win, &ww, &wh);
  return glm::dvec2(ww > 0 ? mx * w / ww : mx, wh > 0 ? my * h / wh : my);
}

// The world point under the cursor: on the z = 0 plane (2D), at the depth of the scene's centre (3D).
glm::vec3 world_under_cursor(ViewerState& s, GLFWwindow* win, int w, int h) {
  const glm::dvec2 c = cursor(win, w, h);
  const render::Bounds& b = s.view->bounds();
  const glm::vec3 at = s.sim->dim() == 3 ? 0.5f * (b.lo + b.hi) : glm::vec3(0.f);
  glm::vec3 p = unproject(s.view->camera(), c.x, c.y, w, h, at);
  if (s.sim->dim() < 3) p.z = 0.f;
  return p;
}

void mouse(ViewerState& s, GLFWwindow* win, WindowInput& in, int w, int h, double& last_x, double& last_y) {
  double mx, my;
  glfwGetCursorPos(win, &mx, &my);
  // Cursor positions are in screen coordinates; the framebuffer may be larger (HiDPI).
  int ww, wh;
  glfwGetWindowSize(win, &ww, &wh);
  const double sx = ww > 0 ? double(w) / ww : 1, sy = wh > 0 ? double(h) / wh : 1;
  mx *= sx;
  my *= sy;
  const float dx = float(mx - last_x), dy = float(my - last_y);
  last_x = mx;
  last_y = my;
  if (ImGui::GetIO().WantCaptureMouse) return;
  render::Camera& cam = s.view->camera();
  // The wheel zooms about the cursor: the point under it stays there.
  if (in.scroll != 0)
    cam.zoom_at(std::pow(1.15f, float(in.scroll)), float(2 * mx / w - 1), float(1 - 2 * my / h));
  in.scroll = 0;
  const bool left = glfwGetMouseButton(win, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  const bool right = glfwGetMouseButton(win, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  const bool shift = glfwGetKey(win, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  const bool ctrl = glfwGetKey(win, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
  static bool was_left = false;
  const bool clicked = left && !was_left;
  was_left = left;
  if (clicked && ctrl) {
    const long i = pick(s, mx, my, w, h);
    if (i >= 0) inspect(s, i);
    return;
  }
  if (left && shift && s.model->params().flag("collider.enabled")) {
    const ColliderSphere c = s.sim->collider();
    const glm::vec3 p = unproject(cam, mx, my, w, h, glm::vec3(float(c.center[0]), float(c.center[1]), float(c.center[2])));
    const std::string v = format_number(p.x) + ", " + format_number(p.y) + ", " + format_number(s.sim->dim() == 3 ? p.z : 0.f);
    s.model->set("collider.center", v, s.sim.get());
    return;
  }
  // Line profile mode: left drag draws the segment (in the plane under the cursor).
  if (s.profile_on && left && !ctrl) {
    const glm::vec3 p = world_under_cursor(s, win, w, h);
    if (clicked) s.profile_a = p, s.profile_set = false;
    s.profile_b = p;
    s.profile_dragging = true;
    return;
  }
  if (s.profile_dragging && !left) {
    s.profile_dragging = false;
    s.profile_set = glm::length(s.profile_b - s.profile_a) > 0;
    s.profile_frame = -1000;  // compute now
    return;
  }
  if (left && !ctrl) {
    if (cam.two_d()) cam.pan(dx, dy, h);
    else cam.orbit(dx, dy);
  }
  if (right) cam.pan(dx, dy, h);
}

// The back buffer as drawn (scene and GUI), before the swap.
void write_window_png(const std::string& path, int w, int h) {
  render::Image img;
  img.width = w;
  img.height = h;
  img.rgba.resize(std::size_t(w) * h * 4);
  std::vector<uint8_t> rows(img.rgba.size());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
  const std::size_t stride = std::size_t(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(rows.data() + std::size_t(h - 1 - y) * stride, stride, img.rgba.data() + std::size_t(y) * stride);
  render::write_png(path, img);
}

}  // namespace

void handle_action(ViewerState& s, Action a, GLFWwindow* win, int w, int h) {
  render::ViewSettings& v = s.view->settings();
  switch (a) {
    case Action::TogglePause: s.running = !s.running; break;
    case Action::SingleStep: s.step_once = true; break;
    case Action::Reset: s.reset_requested = true; break;
    case Action::MoreSteps: s.steps_per_frame = std::min(10000L, s.steps_per_frame * 2); break;
    case Action::FewerSteps: s.steps_per_frame = std::max(1L, s.steps_per_frame / 2); break;
    case Action::FitView: s.view->fit(); break;
    case Action::PresetFront:
      s.view->camera().preset(render::ViewPreset::Front);
      s.camera_preset = "front";
      break;
    case Action::PresetSide:
      s.view->camera().preset(render::ViewPreset::Side);
      s.camera_preset = "side";
      break;
    case Action::PresetTop:
      s.view->camera().preset(render::ViewPreset::Top);
      s.camera_preset = "top";
      break;
    case Action::PresetIso:
      s.view->camera().preset(render::ViewPreset::Iso);
      s.camera_preset = "iso";
      break;
    case Action::ToggleSprites:
      v.mode = v.mode == render::SpriteMode::Spheres ? render::SpriteMode::Discs : render::SpriteMode::Spheres;
      break;
    case Action::CycleWalls: v.walls = render::WallMode((int(v.walls) + 2) % 3); break;  // dimmed, hidden, shown
    case Action::NextColormap: s.colormap_index = (s.colormap_index + 1) % int(render::colormap_names().size()); break;
    case Action::ToggleAutoRange: s.view->colour().auto_range = !s.view->colour().auto_range; break;
    case Action::ToggleCollider: {
      if (!s.model->find("collider.enabled")) {  // the panels hold only the keys of the scene's model
        s.message = "the collider acts on the liquid (physics.model = wcsph) and on grains (mixed scenes of grains only)";
        break;
      }
      const bool on = !s.model->params().flag("collider.enabled");
      if (on && !s.model->params().is_set("collider.center")) {
        // First use: put it above the middle of the scene.
        const render::Bounds& b = s.view->bounds();
        const glm::vec3 c = 0.5f * (b.lo + b.hi);
        s.model->set("collider.center", format_number(c.x) + ", " + format_number(c.y) + ", " + format_number(c.z),
                     nullptr);
      }
      s.model->set("collider.enabled", on ? "true" : "false", s.sim.get());
      // A mixed scene with liquid or solids keeps it off (it pushes grains only there).
      if (on && !s.sim->collider().enabled) {  // switched back off, so that a reset does not refuse the scene
        s.model->set("collider.enabled", "false", s.sim.get());
        s.message = "the collider of a mixed scene pushes grains only: this scene has liquid or solids";
      }
      break;
    }
    case Action::ToggleClip: set_clip(s, !v.clip); break;
    case Action::ToggleTree: set_tree_overlay(s, !v.show_tree); break;
    case Action::Screenshot: {
      try {
        int w = 0, h = 0;
        glfwGetFramebufferSize(win, &w, &h);
        const std::string path = save_screenshot(*s.view, *s.sim, s.model->params(), s.opt.screenshot_dir, w, h);
        std::printf("ejecta: screenshot %s\n", path.c_str());
        std::fflush(stdout);
        s.message = "screenshot " + path;
      } catch (const std::exception& e) {
        s.message = e.what();
      }
      break;
    }
    case Action::DropFluid: {
      double cx = -1, cy = -1;
      glfwGetCursorPos(win, &cx, &cy);
      int ww = 0, wh = 0;
      glfwGetWindowSize(win, &ww, &wh);
      const bool in_window = cx >= 0 && cy >= 0 && cx < ww && cy < wh;
      drop_fluid(s, drop_centre(world_under_cursor(s, win, w, h), in_window, s.view->bounds(), s.sim->dim()));
      break;
    }
    case Action::ResetBlock: reset_layout(s, FluidLayout::Block); break;
    case Action::ResetRandom: reset_layout(s, FluidLayout::Random); break;
    case Action::SaveSnapshot: save_snapshot(s); break;
    case Action::ToggleProfile:
      s.profile_on = !s.profile_on;
      s.message = s.profile_on ? "line profile: left drag draws the line (L again: orbit/pan)" : "";
      break;
    case Action::ToggleRecord: toggle_recording(s); break;
    case Action::ToggleVideo: toggle_video(s); break;
    case Action::ToggleHelp: s.show_help = !s.show_help; break;
    case Action::Quit: glfwSetWindowShouldClose(win, GLFW_TRUE); break;
  }
}

int run_viewer(const ViewerOptions& opt, std::string* why) {
  auto ctx = render::create_window_context(opt.width, opt.height, "Ejecta - " + opt.scene_name, why);
  if (!ctx) return -1;
  GLFWwindow* win = ctx->window();
  WindowInput input;
  // Ours first; ImGui's backend chains them (install_callbacks = true).
  attach_window_input(win, &input);

  ViewerState s;
  s.opt = opt;
  s.steps_per_frame = opt.steps_per_frame;
  s.model = std::make_unique<ParamPanelModel>(opt.scene);
  s.scene_files = scene_files(opt.scenes_dir);
  s.running = opt.start_running;
  if (!opt.demo_scenes.empty()) {
    s.demo = DemoCycle(opt.demo_scenes, opt.demo_period);
    s.running = true;
  }
  rebuild(s);  // applies the scene's [view] look; the command line's look options override it
  apply_command_line_look(*s.view, s.sim->fields(), opt.colour_by, opt.colormap, opt.look);
  {
    const auto& names = render::colormap_names();
    const auto it = std::find(names.begin(), names.end(), s.view->settings().colormap);
    s.colormap_index = it == names.end() ? 0 : int(it - names.begin());
  }
  if (!opt.look.view.empty() && s.sim->dim() == 3) s.camera_preset = opt.look.view;
  std::fprintf(stderr, "ejecta: viewer on %s; particles through %s%s\n", ctx->description().c_str(),
               s.view->upload_path().c_str(), s.view->interop_note().empty() ? "" : (" (interop " + s.view->interop_note() + ")").c_str());

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  const std::string ini = imgui_ini_path();
  ImGui::GetIO().IniFilename = ini.c_str();
  bool panels_light = render::is_light(s.view->settings());
  apply_panel_theme(panels_light);  // --theme light (or the scene's [view] theme): light panels too
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330");

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  double last_x = 0, last_y = 0;
  long frame = 0;
  while (!glfwWindowShouldClose(win)) {
    glfwPollEvents();
    int w = 0, h = 0;
    glfwGetFramebufferSize(win, &w, &h);
    if (w <= 0 || h <= 0) {
      glfwWaitEvents();  // minimised
      continue;
    }
    if (s.demo.active()) {
      if (input.touched) {
        s.demo.stop();
        s.message = "demo stopped: this scene stays; the viewer is yours";
      } else {
        const double now = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
        const std::string next = s.demo.tick(now);
        if (!next.empty() && load_scene(s, next, next.substr(next.find_last_of('/') + 1))) s.running = true;
        if (s.demo.active()) s.message = s.demo.status(now);
      }
    }
    input.touched = false;
    while (!input.actions.empty()) {
      handle_action(s, input.actions.front(), win, w, h);
      input.actions.pop_front();
    }
    if (s.reset_requested) {
      s.reset_requested = false;
      try {
        rebuild(s);
        s.message = "reset";
      } catch (const std::exception& e) {
        s.message = std::string("reset failed: ") + e.what();
      }
    }
    // Steps: the one StepLoop, between the parameter edits of the previous frame and the drawing.
    const auto t_step = Clock::now();
    long stepped = 0;
    if (s.running || s.step_once) {
      try {
        CompositeObserver observers({s.record_obs.get(), s.probes ? &s.probes->observer() : nullptr});
        stepped = s.loop->advance(s.running ? s.steps_per_frame : 1, &observers);
      } catch (const BlowUpError& e) {
        s.running = false;
        s.message = std::string("blow-up: ") + e.what() + " (Reset to start again)";
      } catch (const std::exception& e) {
        s.running = false;
        s.message = e.what();
      }
      s.step_once = false;
      s.history.add(s.sim->diagnostics());
    }
    const double step_s = std::chrono::duration<double>(Clock::now() - t_step).count();
    try {
      s.view->update();
    } catch (const std::exception& e) {
      s.message = std::string("drawing: ") + e.what();
    }
    s.view->draw(w, h);
    video_frame(s);
    s.view->framebuffer().blit_to_default(w, h);

    if (render::is_light(s.view->settings()) != panels_light) {  // another scene's [view] theme
      panels_light = !panels_light;
      apply_panel_theme(panels_light);
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    draw_control_panel(s);
    draw_legend(s, w, h);
    draw_plots(s);
    if (s.probes) s.probes->draw();
    draw_inspector(s);
    draw_crush_window(s);
    if (s.profile_set && frame - s.profile_frame >= 10) {
      update_profile(s);  // every 10 frames: it copies the field to the host
      s.profile_frame = frame;
    }
    draw_profile(s, w, h);
    draw_help(s);
    draw_teach(s);
    draw_status_bar(s, w, h);
    // Fit-to-view (F, and the first fit of a scene) keeps the scene clear of the panels.
    s.view->set_fit_rect(panel_free_rect());
    if (s.fit_after_layout) {
      s.fit_after_layout = false;
      s.view->fit();
    }
    ImGui::Render();
    glViewport(0, 0, w, h);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frame;
    const bool last_frame = opt.max_frames > 0 && frame >= opt.max_frames;
    if (last_frame && !opt.screenshot_path.empty()) write_window_png(opt.screenshot_path, w, h);
    glfwSwapBuffers(win);
    if (last_frame) glfwSetWindowShouldClose(win, GLFW_TRUE);
    mouse(s, win, input, w, h, last_x, last_y);

    const auto now = Clock::now();
    const double frame_s = std::chrono::duration<double>(now - last).count();
    last = now;
    update_rates(s, frame_s, stepped, step_s);
  }
  if (s.recorder) toggle_recording(s);
  if (s.video) {
    toggle_video(s);
    std::fprintf(stderr, "ejecta: %s\n", s.message.c_str());
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  s.view.reset();
  return 0;
}

}  // namespace ejecta::viewer
