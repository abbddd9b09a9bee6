#pragma once
// What one drawn frame of a simulation needs, shared by the window, headless rendering, the render
// benchmark and the tests: renderer, upload path (interop or host copy), offscreen framebuffer,
// camera fitted to the scene, colour choice and view settings. Needs a current GL context.
#include "io/frame.h"
#include "params/param_set.h"
#include "render/camera.h"
#include "render/cuda_splat.h"
#include "render/gl_framebuffer.h"
#include "render/gl_particle_renderer.h"
#include "render/particle_upload.h"
#include "simulation.h"

#include <memory>
#include <string>

namespace ejecta::viewer {

struct ColourChoice {
  std::string field = "velocity";
  int component = -1;  // vectors: -1 magnitude, else the component
  bool auto_range = true;
  float min = 0, max = 1;  // the manual range (and, with auto_range, the last measured one)
};

// "velocity.y" -> ("velocity", 1); "density" -> ("density", -1). Whether the field exists is the
// caller's check (parse_colour_by for the command line, the scene look for [view] colour_by).
ColourChoice split_colour_spec(const std::string& spec);

// The command line's look options (--walls, --sprites, --view, --theme); empty strings keep the
// defaults.
struct LookOptions {
  std::string walls, sprites, view, theme;
};

// The boxes of the scene's [tank.N] (inner box), [obstacle.N] and [gate.N] sections, drawn as a
// wireframe when the walls are hidden (2D: z = 0); a gate's where it is at `time` (s), its box moved by
// v min(t, t_s) (t_s: where its travel stops it), as the solver moves it. update() and show() redraw it
// at the simulation's or the frame's time.
std::vector<render::Bounds> geometry_outline(const ParamSet& scene, int dim, double time = 0);

class SceneView {
 public:
  // allow_splat: on the CUDA backend with interop, draw through the CUDA splat rasterizer
  // (render/cuda_splat.h) instead of GL point sprites; false (--gl-draw) keeps the sprites.
  SceneView(Simulation& sim, const ParamSet& scene, bool allow_interop, bool allow_splat = true);
  // Playback: no simulation; frames of a recording (`scene` is the recorded one), drawn through the
  // host copy by show(). The camera is fitted to `first`.
  SceneView(const FrameData& first, const ParamSet& scene);
  // A new simulation (reset, other scene): new buffers, camera fitted again.
  void attach(Simulation& sim, const ParamSet& scene);
  // The same scene continued by another simulation (fluid added): new buffers, the view as it is.
  void replace(Simulation& sim);
  // The particle spacing the natural radius came from (m).
  float spacing() const { return 2 * natural_radius_; }

  // Engine -> vertex buffers for the current colour choice; with auto_range the range follows the
  // data (a uniform field gets legend_scale.h's uniform_range, an integer field such as kind the
  // fixed range of its categories). Returns the measured range. Also measures the legend's
  // histogram, at most every histogram_interval_s seconds of wall-clock time.
  RenderRange update();
  // Playback: the recorded frame -> vertex buffers (render::fill_from_frame), range as update().
  RenderRange show(const FrameData& frame);
  // Draws into the offscreen framebuffer, sized width x height.
  void draw(int width, int height);
  render::Image read() const { return fb_.read(); }
  const render::Framebuffer& framebuffer() const { return fb_; }

  render::Camera& camera() { return camera_; }
  render::ViewSettings& settings() { return settings_; }
  const render::ViewSettings& settings() const { return settings_; }
  ColourChoice& colour() { return colour_; }
  const ColourChoice& colour() const { return colour_; }
  // "CUDA-GL interop", "host copy" or "CUDA splat (interop)"
  const std::string& upload_path() const { return path_; }
  const std::string& interop_note() const { return note_; }   // why not interop, "" if it is used
  render::SplatRenderer* splat() { return splat_.get(); }     // null where GL sprites draw
  double last_upload_ms() const { return upload_ms_; }
  // Bounds of all particles at attach (walls included): what fit-to-scene frames.
  const render::Bounds& bounds() const { return bounds_; }
  // Fits the camera to bounds() (within the fit rectangle).
  void fit();
  // The part of the frame the scene is fitted into (the viewer leaves out its panels).
  void set_fit_rect(const render::FitRect& r) { camera_.set_fit_rect(r); }
  // Applies --walls/--sprites/--view/--theme (validated by the CLI; unknown words are ignored).
  void apply_look(const LookOptions& look);
  // The fields of the simulation or recording drawn (colour-by, legend units and categories).
  const std::vector<FieldInfo>& fields() const { return fields_; }
  // Counts of the colour values of the fluid in kColourHistogramBins bins over the colour range
  // (legend.h): from Simulation::colour_histogram (binned on the engine's backend) while simulating,
  // from the host frame in playback.
  const std::vector<float>& histogram() const { return histogram_; }
  double last_histogram_ms() const { return histogram_ms_; }  // the last live measurement's time
  // 0 (frames, screenshots): every update() measures it; the window: 0.25 s.
  void set_histogram_interval(double seconds) { histogram_interval_s_ = seconds; }

 private:
  // spacing: the measured particle spacing (0: the scene's particles.dp) for the sphere radius.
  void reset_camera(const render::Bounds& b, int dim, const ParamSet& scene, double spacing);
  void take_range(const RenderRange& r);
  void connect(Simulation& sim);  // the upload path (interop, splat or host copy) for sim's buffers
  void measure_histogram(const std::vector<float>& values, const FieldData* kind);
  void measure_histogram_live();
  // The outline's gates where they are at `time` (geometry_outline); an outline cleared (tests, a look
  // without it) stays cleared, and one without gates is left as it is.
  void follow_gates(double time);
  Simulation* sim_;  // null in playback
  ParamSet outline_scene_;  // the scene whose geometry the outline draws
  int outline_dim_ = 2;
  bool allow_interop_, allow_splat_;
  render::GlParticleRenderer renderer_;
  std::unique_ptr<render::ParticleUploader> uploader_;
  std::unique_ptr<render::SplatRenderer> splat_;  // when set, it fills and draws the particles
  render::Framebuffer fb_;
  render::Camera camera_;
  render::ViewSettings settings_;
  ColourChoice colour_;
  render::Bounds bounds_;
  std::string path_, note_;
  std::vector<float> frame_pos_, frame_col_, frame_rad_;  // playback's host staging
  double upload_ms_ = 0;
  bool fit_pending_ = true;
  float natural_radius_ = 0, auto_radius_ = 0;  // half the spacing; the radius draw() last chose
  std::vector<FieldInfo> fields_;
  std::vector<float> histogram_;
  double histogram_interval_s_ = 0.25;
  double histogram_at_ = -1e30;  // steady-clock seconds of the last measurement
  double histogram_ms_ = 0;
};

}  // namespace ejecta::viewer
