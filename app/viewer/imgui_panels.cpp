#include "viewer/imgui_panels.h"

#include "render/colormap.h"
#include "viewer/format_units.h"
#include "viewer/imgui_material_panel.h"
#include "viewer/key_bindings.h"
#include "viewer/plot_widget.h"
#include "viewer/legend.h"
#include "viewer/profile_plot.h"
#include "viewer/scene_look.h"
#include "viewer/teach_panel.h"
#include "viewer/view_model.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

namespace ejecta::viewer {

namespace {

std::string vec3_text(const double v[3]) {
  return format_number(v[0]) + ", " + format_number(v[1]) + ", " + format_number(v[2]);
}

void set_param(ViewerState& s, const std::string& key, const std::string& value) {
  try {
    const Applied a = s.model->set(key, value, s.sim.get());
    s.message = a == Applied::Live ? key + " = " + value + " (applied)" : key + " = " + value + " (applied on Reset)";
    if (key.rfind("view.", 0) == 0) apply_scene_look(s);  // the scene's look, now
  } catch (const std::exception& e) {
    s.message = e.what();
  }
}

// One widget of the generated panel: its kind follows the registry's type.
void param_widget(ViewerState& s, const Widget& w) {
  const ParamDesc& d = *w.desc;
  const ParamSet& p = s.model->params();
  const bool pending = s.model->pending_reset().count(w.key) > 0;
  std::string label = d.label + (d.needs_rebuild ? (pending ? " [reset*]" : " [reset]") : "") + "##" + w.key;
  const ImGuiInputTextFlags enter = ImGuiInputTextFlags_EnterReturnsTrue;
  ImGui::PushItemWidth(160);
  switch (d.type) {
    case ParamType::Real: {
      double v = p.real(w.key);
      if (ImGui::InputDouble(label.c_str(), &v, 0, 0, "%.6g", enter)) set_param(s, w.key, format_number(v));
      break;
    }
    case ParamType::Int: {
      int v = int(p.integer(w.key));
      if (ImGui::InputInt(label.c_str(), &v, 1, 1, enter)) set_param(s, w.key, std::to_string(v));
      break;
    }
    case ParamType::Bool: {
      bool v = p.flag(w.key);
      if (ImGui::Checkbox(label.c_str(), &v)) set_param(s, w.key, v ? "true" : "false");
      break;
    }
    case ParamType::Choice: {
      const std::string cur = p.text(w.key);
      if (ImGui::BeginCombo(label.c_str(), cur.c_str())) {
        for (const std::string& c : d.choices)
          if (ImGui::Selectable(c.c_str(), c == cur) && c != cur) set_param(s, w.key, c);
        ImGui::EndCombo();
      }
      break;
    }
    case ParamType::Vec3: {
      const auto a = p.vec3(w.key);
      double v[3] = {a[0], a[1], a[2]};
      ImGui::PushItemWidth(240);
      if (ImGui::InputScalarN(label.c_str(), ImGuiDataType_Double, v, 3, nullptr, nullptr, "%.4g", enter))
        set_param(s, w.key, vec3_text(v));
      ImGui::PopItemWidth();
      break;
    }
    case ParamType::String: {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s", p.text(w.key).c_str());
      if (ImGui::InputText(label.c_str(), buf, sizeof buf, enter)) set_param(s, w.key, buf);
      break;
    }
  }
  ImGui::PopItemWidth();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", w.tooltip.c_str());
}

void run_controls(ViewerState& s) {
  if (ImGui::Button(s.running ? "Pause" : "Run")) s.running = !s.running;
  ImGui::SameLine();
  if (ImGui::Button("Step")) s.step_once = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset")) s.reset_requested = true;
  int spf = int(s.steps_per_frame);
  ImGui::PushItemWidth(120);
  if (ImGui::InputInt("steps / frame", &spf)) s.steps_per_frame = spf < 1 ? 1 : spf > 10000 ? 10000 : spf;
  ImGui::PopItemWidth();
  if (ImGui::Button(s.recorder ? "Stop recording" : "Record")) toggle_recording(s);
  if (s.recorder) {
    ImGui::SameLine();
    ImGui::Text("%s: %zu frames", s.recorder->path().c_str(), s.recorder->frames_submitted());
  }
  if (ImGui::Button(s.video ? "Stop video" : "Record video")) toggle_video(s);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The drawn scene (no panels) as MP4 through ffmpeg, one frame per window frame");
  if (s.video) {
    ImGui::SameLine();
    ImGui::Text("%s: %zu frames", s.video->path().c_str(), s.video->frames());
  }
}

void scene_controls(ViewerState& s) {
  if (!ImGui::CollapsingHeader("Scene file", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (ImGui::BeginCombo("scene", s.opt.scene_name.c_str())) {
    for (const std::string& f : s.scene_files)
      if (ImGui::Selectable(f.c_str())) load_scene(s, s.opt.scenes_dir + "/" + f, f);
    ImGui::EndCombo();
  }
  ImGui::InputText("##open", s.open_path, sizeof s.open_path);
  ImGui::SameLine();
  if (ImGui::Button("Open")) {
    try {
      s.model = std::make_unique<ParamPanelModel>(read_scene_file(s.open_path));
      s.opt.scene_name = s.open_path;
      s.look_pending = true;
      s.reset_requested = true;
    } catch (const std::exception& e) {
      s.message = e.what();
    }
  }
  ImGui::InputText("##save", s.save_path, sizeof s.save_path);
  ImGui::SameLine();
  if (ImGui::Button("Save scene as")) s.message = save_scene(s, s.save_path);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The scene with the current look as its [view] keys");
}

// A newly chosen colour quantity gets its default map: diverging for signed ones (scene_look.h).
void select_auto_colormap(ViewerState& s) {
  const ColourChoice& c = s.view->colour();
  const auto& names = render::colormap_names();
  const auto it = std::find(names.begin(), names.end(), auto_colormap(c.field, c.component, s.view->fields()));
  if (it != names.end()) s.colormap_index = int(it - names.begin());
}

void colour_controls(ViewerState& s) {
  if (!ImGui::CollapsingHeader("Colour and view", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ColourChoice& c = s.view->colour();
  const std::vector<FieldInfo> fields = s.sim->fields();
  if (ImGui::BeginCombo("colour by", c.field.c_str())) {
    for (const FieldInfo& f : fields)
      if (ImGui::Selectable(f.name.c_str(), f.name == c.field)) {
        c.field = f.name;
        c.component = -1;
        select_auto_colormap(s);
      }
    ImGui::EndCombo();
  }
  for (const FieldInfo& f : fields)
    if (f.name == c.field && f.components > 1) {
      const char* comps[] = {"magnitude", "x", "y", "z"};
      int k = c.component + 1;
      if (ImGui::Combo("component", &k, comps, f.components + 1)) {
        c.component = k - 1;
        select_auto_colormap(s);
      }
    }
  const auto& names = render::colormap_names();
  if (ImGui::BeginCombo("colormap", names[s.colormap_index].c_str())) {
    for (int i = 0; i < int(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == s.colormap_index)) s.colormap_index = i;
    ImGui::EndCombo();
  }
  s.view->settings().colormap = names[s.colormap_index];
  ImGui::Checkbox("auto range", &c.auto_range);
  if (!c.auto_range) {
    ImGui::InputFloat("min", &c.min, 0, 0, "%.5g");
    ImGui::InputFloat("max", &c.max, 0, 0, "%.5g");
  }
  render::ViewSettings& v = s.view->settings();
  int mode = int(v.mode), walls = int(v.walls);
  const char* modes[] = {"lit spheres", "flat discs"};
  const char* wall_modes[] = {"hidden", "dimmed", "shown"};
  ImGui::Combo("sprites", &mode, modes, 2);
  ImGui::Combo("walls", &walls, wall_modes, 3);
  v.mode = render::SpriteMode(mode);
  v.walls = render::WallMode(walls);
  ImGui::InputFloat("radius [m]", &v.radius, 0, 0, "%.4g");
  if (s.sim->dim() == 3) {
    bool clip = v.clip;
    if (ImGui::Checkbox("clip plane", &clip)) set_clip(s, clip);  // placed as key X places it
    if (v.clip) {
      ImGui::InputFloat3("normal", &v.clip_normal.x);
      ImGui::InputFloat("offset [m]", &v.clip_offset);
    }
  }
  if (s.model->params().text("gravity.self") == "on") {  // the teaching overlay of the octree (key T)
    bool tree = v.show_tree;
    if (ImGui::Checkbox("octree cells", &tree)) set_tree_overlay(s, tree);
    if (v.show_tree) ImGui::SliderInt("tree levels", &v.tree_levels, 1, 5);
  }
  if (ImGui::Button("Fit view")) s.view->fit();
}

void interaction_controls(ViewerState& s) {
  if (!ImGui::CollapsingHeader("Drop fluid or grains, snapshot, line profile")) return;
  // A scene of grains drops grains (grain_drop.h); with liquid too, a choice of grains or water.
  const bool both = drops_grains(s.model->params()) && drops_water_too(s.model->params());
  if (both) {
    int what = s.drop_water ? 1 : 0;
    const char* whats[] = {"grains", "water"};
    ImGui::PushItemWidth(120);
    if (ImGui::Combo("drop", &what, whats, 2)) s.drop_water = what == 1;
    ImGui::PopItemWidth();
  }
  const bool grains = drops_grains(s.model->params()) && !(both && s.drop_water);
  int shape = s.drop_block && !grains ? 1 : 0;
  const char* shapes[] = {"sphere", "block"};
  ImGui::PushItemWidth(120);
  if (!grains && ImGui::Combo("drop shape", &shape, shapes, 2)) s.drop_block = shape == 1;
  ImGui::InputFloat(shape == 1 ? "half edge [m]" : "radius [m]##drop", &s.drop_size, 0, 0, "%.4g");
  ImGui::PopItemWidth();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(grains ? "0: three lattice spacings" : "0: four particle spacings");
  ImGui::TextUnformatted(grains ? "D drops a sphere of grains at the cursor (the first free [grains.N]'s size and density)"
                                : "D drops it at the cursor (liquid scenes, between steps)");
  if (ImGui::Button("Add at view centre")) {
    glm::vec3 c = 0.5f * (s.view->bounds().lo + s.view->bounds().hi);
    if (s.sim->dim() < 3) c.z = 0.f;
    drop_fluid(s, c);
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset block")) reset_layout(s, FluidLayout::Block);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Key B: the scene's fluid as one block in the middle of the tank, at rest");
  ImGui::SameLine();
  if (ImGui::Button("Reset random")) reset_layout(s, FluidLayout::Random);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Key N: the scene's fluid at random lattice sites of the tank, jittered, at rest");
  if (ImGui::Button("Save snapshot")) save_snapshot(s);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The current state (every field) as ejecta-<date>-snapshot.h5; ejecta --restart FILE continues it");
  ImGui::SameLine();
  if (ImGui::Checkbox("line profile", &s.profile_on) && !s.profile_on) s.profile_set = false;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Left drag draws a line; the colour field is plotted along it (key L)");
}

}  // namespace

void apply_panel_theme(bool light) {
  if (light) ImGui::StyleColorsLight();
  else ImGui::StyleColorsDark();
}

void draw_control_panel(ViewerState& s) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, 600), ImGuiCond_FirstUseEver);
  ImGui::Begin("Ejecta");
  run_controls(s);
  scene_controls(s);
  colour_controls(s);
  interaction_controls(s);
  ImGui::Separator();
  ImGui::TextUnformatted("Parameters ([reset]: applied on Reset; hover for key, units, help)");
  for (const PanelGroup& g : s.model->groups()) {
    if (!ImGui::CollapsingHeader(g.name.c_str())) continue;
    for (const Widget& w : g.widgets) param_widget(s, w);
  }
  draw_material_panel(s);
  ImGui::End();
}

void draw_status_bar(ViewerState& s, int win_w, int win_h) {
  ImGui::SetNextWindowPos(ImVec2(0, float(win_h) - 44));
  ImGui::SetNextWindowSize(ImVec2(float(win_w), 44));
  ImGui::Begin("##status", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const Simulation& sim = *s.sim;
  // Asked once per simulation: the CUDA device's properties or /proc/cpuinfo are not per-frame reads.
  if (s.device_name.empty()) s.device_name = sim.device_name();
  const std::string video = s.video ? " | recording video (" + std::to_string(s.video->frames()) + " frames)" : "";
  // Time and dt in engineering form (t = 20 us, not 0.00002 s); the rate is 0 while paused.
  ImGui::Text("%s | %.0f FPS | %s | dt = %s | %s | %s, %s | %s | %s%s",
              particle_summary(sim.particle_count(), sim.fluid_count(), s.model->params().text("physics.model")).c_str(),
              s.fps, format_time(sim.time()).c_str(),
              format_eng(sim.dt(), "s").c_str(), format_eng(s.particle_steps_per_s, "particle-steps/s").c_str(),
              to_string(sim.backend()), s.device_name.c_str(), s.view->upload_path().c_str(),
              s.running ? "running" : "paused", video.c_str());
  if (!s.view->interop_note().empty() || !s.message.empty())
    ImGui::Text("%s%s%s", s.view->interop_note().empty() ? "" : ("interop " + s.view->interop_note()).c_str(),
                s.view->interop_note().empty() || s.message.empty() ? "" : " | ", s.message.c_str());
  ImGui::End();
}

void draw_legend(ViewerState& s, int win_w, int win_h) {
  draw_legend_window(legend_content(*s.view), float(win_w) - kLegendWidth - 10, float(win_h) - kLegendHeight - 60,
                     false);
  if (s.sim->dim() != 1) return;
  // The profiles copy four fields to the host: again only when the state changed, at most every 0.1 s.
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  const bool changed = s.profiles_sim != s.sim.get() || s.profiles_step != s.sim->steps();
  if (changed && (now - s.profiles_at >= 0.1 || !s.running)) {
    s.profiles = profiles_of(*s.sim, s.model->params());
    s.profiles_sim = s.sim.get();
    s.profiles_step = s.sim->steps();
    s.profiles_at = now;
  }
  draw_profile_window(s.profiles, win_w, win_h);
}

void draw_plots(ViewerState& s) {
  ImGui::SetNextWindowPos(ImVec2(380, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(400, 540), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);  // the view first; plots on demand
  if (!ImGui::Begin("Diagnostics")) {
    ImGui::End();
    return;
  }
  if (s.history.size() == 0) ImGui::TextUnformatted("No steps yet: Run (Space) or Step (S).");
  const std::vector<PlotSpec> plots = s.history.plots();
  for (std::size_t i = 0; i < plots.size() && s.history.size() > 0; ++i)
    draw_plot(("diag" + std::to_string(i)).c_str(), plots[i], 0, 160);
  ImGui::End();
}

void draw_inspector(ViewerState& s) {
  if (s.picked < 0) return;
  bool open = true;
  ImGui::SetNextWindowSize(ImVec2(340, 300), ImGuiCond_FirstUseEver);
  ImGui::Begin("Particle inspector", &open);
  ImGui::Text("sorted index %ld (Ctrl + click another particle)", s.picked);
  if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders)) {
    for (const auto& [name, value] : s.picked_fields) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(name.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(value.c_str());
    }
    ImGui::EndTable();
  }
  if (ImGui::Button("Refresh")) inspect(s, s.picked);
  ImGui::End();
  if (!open) s.picked = -1;
}

void draw_teach(ViewerState& s) {
  const TeachPanel t = teach_panel(s.model->params());
  if (t.empty()) return;
  // Top right, clear of the control panel (top left) and the legend (bottom right).
  const ImVec2 screen = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(screen.x > 440 ? screen.x - 430 : 0, 40), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(420, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("Teach");
  if (!t.title.empty()) ImGui::TextUnformatted(t.title.c_str());
  for (const auto& [label, text] : t.rows) {
    ImGui::Separator();
    ImGui::TextDisabled("%s", label.c_str());
    ImGui::TextWrapped("%s", text.c_str());
  }
  ImGui::End();
}

void draw_help(ViewerState& s) {
  if (!s.show_help) return;
  ImGui::Begin("Keys", &s.show_help, ImGuiWindowFlags_AlwaysAutoResize);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders)) {
    for (const auto& [key, what] : help_rows()) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(key.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(what.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::TextUnformatted("Mouse: left drag orbits (3D) or pans (2D), right drag pans, wheel zooms,\n"
                         "Shift + left drag moves the collider, Ctrl + click inspects a particle.");
  ImGui::End();
}

void draw_profile(ViewerState& s, int win_w, int win_h) {
  if (!s.profile_on && !s.profile_set) return;
  if (s.profile_dragging || s.profile_set) {
    // The segment over the scene (framebuffer pixels to ImGui's window coordinates).
    const ImVec2 d = ImGui::GetIO().DisplaySize;
    const glm::mat4 vp = s.view->camera().proj(float(win_w) / float(std::max(win_h, 1))) * s.view->camera().view();
    auto screen = [&](const glm::vec3& p) {
      const glm::vec4 c = vp * glm::vec4(p, 1.f);
      return ImVec2((c.x / c.w * 0.5f + 0.5f) * d.x, (0.5f - c.y / c.w * 0.5f) * d.y);
    };
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    const ImVec2 a = screen(s.profile_a), b = screen(s.profile_b);
    dl->AddLine(a, b, IM_COL32(255, 255, 255, 230), 2.f);
    dl->AddCircleFilled(a, 4.f, IM_COL32(255, 255, 255, 230));
    dl->AddCircle(b, 5.f, IM_COL32(255, 255, 255, 230), 0, 2.f);
  }
  ImGui::SetNextWindowSize(ImVec2(420, 240), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(380, float(win_h) - 300), ImGuiCond_FirstUseEver);
  bool open = true;
  if (ImGui::Begin("Line profile", &open)) {
    if (!s.profile_set) {
      ImGui::TextWrapped("Left drag over the scene draws the line; the plot shows the colour field along it "
                         "(Shepard average of the free particles within two spacings). L leaves the mode.");
    } else {
      draw_plot("profile", s.profile_plot, 0, std::max(120.f, ImGui::GetContentRegionAvail().y - 4));
    }
  }
  ImGui::End();
  if (!open) s.profile_on = s.profile_set = false;
}

render::FitRect panel_free_rect() {
  std::vector<PixelRect> panels;
  for (const char* name : {"Ejecta", "Legend", "##status"}) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    if (w && (w->Active || w->WasActive)) panels.push_back(PixelRect{w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y});
  }
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  return free_fit_rect(d.x, d.y, panels);
}

}  // namespace ejecta::viewer
