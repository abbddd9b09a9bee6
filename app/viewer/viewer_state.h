#pragma once
// Everything the viewer's panels show and change, apart from GL and ImGui: the simulation and its one
// StepLoop, the panel model, run state, the frame statistics, the recording. viewer_app.cpp owns it,
// imgui_panels.cpp draws it.
#include "io/async_recorder.h"
#include "render/video_writer.h"
#include "run/step_loop.h"
#include "scene/fluid_layout.h"
#include "viewer/demo_cycle.h"
#include "viewer/diag_history.h"
#include "viewer/material_panel_model.h"
#include "viewer/panel_model.h"
#include "viewer/plot_widget.h"
#include "viewer/probe_plots.h"
#include "viewer/profile_plot.h"
#include "viewer/scene_view.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ejecta::viewer {

struct ViewerOptions {
  ParamSet scene;
  std::string scene_name = "default";
  std::string scenes_dir;  // where the scene selector looks (*.ini)
  Backend backend = Backend::Cpu;
  bool interop = true;
  bool splat = true;  // CUDA splat rasterizer where possible (--gl-draw: false)
  long steps_per_frame = 4;
  int width = 1280, height = 800;
  std::string command_line;
  std::string record_dir = ".";  // where the record toggles write ejecta-<date>.h5 / .mp4
  double video_fps = 30;         // the window's videos play at this rate (one frame per drawn frame)
  long max_frames = 0;          // quit after this many frames (0 = when the window closes)
  std::string screenshot_path;  // with max_frames: the last frame, GUI included
  std::string screenshot_dir;   // P screenshots (frame_overlay.h save_screenshot); "" = working directory
  bool start_running = false;
  // Command-line look (--colour-by, --colormap, --walls, ...): "" keeps the scene's [view] keys.
  std::string colour_by;
  std::string colormap;
  LookOptions look;
  // --demo: the scenes to cycle and the seconds per scene (demo_cycle.h); empty = no demo.
  std::vector<std::string> demo_scenes;
  double demo_period = 20;
};

struct ViewerState {
  ViewerOptions opt;
  std::unique_ptr<ParamPanelModel> model;
  std::unique_ptr<MaterialPanelModel> materials;  // the running scene's materials (solid scenes)
  // A newly loaded scene: the next rebuild() applies its [view] keys (a Reset keeps the look).
  bool look_pending = true;
  std::string camera_preset;  // the camera preset last chosen (scene or keys), for "save scene as"
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<StepLoop> loop;
  std::unique_ptr<SceneView> view;  // needs the GL context
  bool running = false;
  bool step_once = false;
  bool reset_requested = false;
  long steps_per_frame = 4;
  std::string message;  // last error or notice, shown in the status bar
  std::string device_name;  // the status bar's, asked once per rebuild
  bool show_help = false;
  // After a (re)build, fit again once the panels are laid out (clear of them).
  bool fit_after_layout = true;
  DiagHistory history;
  // Frame statistics (smoothed).
  double fps = 0, step_ms_per_frame = 0, particle_steps_per_s = 0;
  // Recording (the engine's writer thread, on the same StepLoop).
  std::unique_ptr<AsyncRecorder> recorder;
  std::unique_ptr<RecordObserver> record_obs;
  // The scene's probes and gauges, sampled on the same StepLoop and plotted (probe_plots.h).
  std::unique_ptr<ProbePlots> probes;
  // Video of the drawn scene (no panels), one frame per window frame, through ffmpeg.
  std::unique_ptr<render::VideoWriter> video;
  // Inspector: the picked particle's sorted index, and its fields as text rows.
  long picked = -1;
  std::vector<std::pair<std::string, std::string>> picked_fields;
  glm::dvec3 picked_position{0.0};  // where it was when picked (m)
  int colormap_index = 0;
  // Drop fluid (key D): sphere or block, radius or half edge (0: four particle spacings); grains:
  // a sphere of that radius (0: three lattice spacings).
  bool drop_block = false;
  bool drop_water = false;  // a scene of grains and liquid: D drops water (else grains)
  float drop_size = 0;
  // Line profile (key L): while on, left drag draws the segment; the plot follows the colour field.
  bool profile_on = false, profile_dragging = false;
  bool profile_set = false;  // a segment has been drawn
  glm::vec3 profile_a{0.f}, profile_b{0.f};
  PlotSpec profile_plot;
  long profile_frame = -1000;  // the frame the plot was last computed
  // Crush curve of a porous material (crush_plot.h), in its own window while crush_on: which of the
  // porous materials, the selection (its particles within crush_radius of the picked particle; 0 or
  // nothing picked: all of them), the plot, refreshed every 0.5 s (a host copy of 4 fields).
  bool crush_on = false;
  int crush_choice = 0;  // index into porous_materials(sim->materials())
  float crush_radius = 0;
  PlotSpec crush_plot;
  double crush_at = -1e30;  // steady-clock seconds of the last refresh
  // 1D scenes: the profile plots drawn (profile_plot.h), of simulation profiles_sim at profiles_step.
  Profiles profiles;
  const Simulation* profiles_sim = nullptr;
  long profiles_step = -1;
  double profiles_at = -1e30;  // steady-clock seconds of the last copy
  DemoCycle demo;  // --demo; stopped by the first key or mouse input
  uint64_t reset_seed = 1;  // of the next "reset random" (each press draws a new layout)
  std::vector<std::string> scene_files;
  char save_path[256] = "scene.ini";
  char materials_path[256] = "materials-edited.ini";
  char open_path[256] = "";
};

// Builds (or rebuilds after reset) the simulation, its StepLoop and the view from the model's params.
void rebuild(ViewerState& s);
// The scene's [view] keys onto the view (and the note of any fallback into s.message).
void apply_scene_look(ViewerState& s);
// "Save scene as": the current look into the panel model's [view] keys, then the scene as INI.
// Returns the status message.
std::string save_scene(ViewerState& s, const std::string& path);
// Starts or stops the recording; errors go to s.message.
void toggle_recording(ViewerState& s);
// Starts (at the scene framebuffer's current size) or stops the video; errors go to s.message.
void toggle_video(ViewerState& s);
// After drawing: the frame into the video. A resized window ends the video (its size is fixed).
void video_frame(ViewerState& s);
// Adds a sphere or block of fluid (s.drop_block, s.drop_size) centred at `at` to the running liquid
// scene between steps (engine/scene/fluid_drop.h; a mixed scene's liquid: grain_drop.h add_mixed_fluid);
// in a scene of grains, grains (drop_grains) unless s.drop_water. The view stays as it is. Errors go
// to s.message.
void drop_fluid(ViewerState& s, const glm::vec3& at);
// A scene of grains (physics.model = mixed with [grains.N]): D and the panel's button drop grains, or
// (s.drop_water, where the scene has liquid too: drops_water_too) fluid.
bool drops_grains(const ParamSet& params);
bool drops_water_too(const ParamSet& params);
// Adds a sphere (2D: disc) of grains of radius s.drop_size (0: three lattice spacings) centred at `at`
// to the running scene of grains between steps (engine/scene/grain_drop.h: the first free [grains.N]'s
// radius, size spread and density, at rest, sites that would overlap left out); the message says how
// many were added and left out. drop_fluid calls it in a scene of grains. Errors go to s.message.
void drop_grains(ViewerState& s, const glm::vec3& at);
// Where D drops fluid: the point under the cursor when the cursor is in the window and over the scene's
// bounds (within dim axes), else the centre of the bounds (the view centre after a fit).
glm::vec3 drop_centre(const glm::vec3& under_cursor, bool cursor_in_window, const render::Bounds& bounds, int dim);
// "Reset block" / "reset random" (keys B, N): the scene rebuilt with its fluid laid out afresh
// (engine/scene/fluid_layout.h), the look kept. Liquid scenes; errors go to s.message.
void reset_layout(ViewerState& s, FluidLayout layout);
// Loads the scene file `path` as the next one (the scene selector, the demo): panels, look, a reset.
// Errors go to s.message; returns false then.
bool load_scene(ViewerState& s, const std::string& path, const std::string& name);
// Writes the current state as a restartable snapshot in s.opt.record_dir; the message names the file.
void save_snapshot(ViewerState& s);
// Recomputes the line profile's plot (the colour field along the drawn segment).
void update_profile(ViewerState& s);
// The status bar's rates after a frame of frame_s seconds that stepped `stepped` steps in step_s:
// frames per second, particle-steps per second (smoothed), 0 while paused (nothing is stepped).
void update_rates(ViewerState& s, double frame_s, long stepped, double step_s);
// Clip plane on (through the middle of the free particles' bounding box, facing the camera) or off.
void set_clip(ViewerState& s, bool on);
// The self-gravity octree's top levels drawn (SceneView fills them each frame) or not; a scene without
// self-gravity (gravity.self = on) keeps it off and says why in s.message.
void set_tree_overlay(ViewerState& s, bool on);
// Fills s.picked_fields and s.picked_position for particle index i (all fields of the engine).
void inspect(ViewerState& s, long i);
// The crush-curve plot of s.crush_choice's porous material with the selected particles (crush_plot.h);
// turns crush_on off (with a message) where the scene has no porous material.
void update_crush_plot(ViewerState& s);

}  // namespace ejecta::viewer
