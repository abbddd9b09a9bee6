#include "viewer/viewer_state.h"

#include "particles/field_values.h"
#include "render/colormap.h"
#include "scene/fluid_drop.h"
#include "scene/grain_drop.h"
#include "scene/grain_layout.h"
#include "viewer/crush_plot.h"
#include "viewer/line_profile.h"
#include "viewer/scene_look.h"
#include "viewer/snapshot.h"
#include "viewer/view_model.h"

#include <algorithm>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace ejecta::viewer {

void rebuild(ViewerState& s) {
  if (s.recorder) toggle_recording(s);  // a recording belongs to one simulation
  s.sim = make_simulation(s.model->params(), s.opt.backend);
  s.device_name.clear();
  s.loop = std::make_unique<StepLoop>(*s.sim, StopRule{});
  s.probes = make_probe_plots(*s.sim);
  if (s.view) {
    // A Reset keeps the look: attach() sets the walls and camera of a new scene.
    const render::WallMode walls = s.view->settings().walls;
    const bool was_3d = !s.view->camera().two_d();
    const glm::vec3 direction = s.view->camera().direction();
    s.view->attach(*s.sim, s.model->params());
    if (!s.look_pending) {
      s.view->settings().walls = walls;
      if (was_3d) s.view->camera().look_along(direction);
    }
  } else {
    s.view = std::make_unique<SceneView>(*s.sim, s.model->params(), s.opt.interop, s.opt.splat);
  }
  s.model->reset_done();
  s.history.clear();
  s.fit_after_layout = true;
  s.profile_set = s.profile_dragging = false;
  s.picked = -1;
  // Material edits survive a Reset of the same scene; a new scene starts from its library.
  const bool keep = !s.look_pending && s.materials && s.materials->reapply(*s.sim);
  if (!keep) s.materials = std::make_unique<MaterialPanelModel>(*s.sim);
  if (s.look_pending) apply_scene_look(s);
}

void apply_scene_look(ViewerState& s) {
  s.look_pending = false;
  const std::string note = viewer::apply_scene_look(*s.view, *s.sim, s.model->params());
  if (s.sim->dim() == 3) {
    const std::string cam = s.model->params().text("view.camera");
    const bool crater = s.model->params().text("view.preset") == "crater";
    s.camera_preset = cam != "auto" ? cam : crater ? "side" : "iso";
  }
  const auto& names = render::colormap_names();
  const auto it = std::find(names.begin(), names.end(), s.view->settings().colormap);
  if (it != names.end()) s.colormap_index = int(it - names.begin());
  if (!note.empty()) s.message = note;
}

std::string save_scene(ViewerState& s, const std::string& path) {
  try {
    ParamSet p = s.model->params();
    store_look(p, s.view->colour(), s.view->settings(), s.camera_preset, "viewer", &s.view->camera());
    std::ofstream out(path);
    out << p.to_ini();
    if (!out) return "cannot write " + path;
    return "saved " + path + " (with its [view] look)";
  } catch (const std::exception& e) {
    return std::string("cannot save: ") + e.what();
  }
}

namespace {

// Adding fluid and snapshots take the panel's scene as the running one: not while [reset] edits wait.
bool scene_is_running_one(ViewerState& s, const char* what) {
  if (s.model->pending_reset().empty()) return true;
  s.message = std::string(what) + ": parameters marked [reset*] are edited but not applied; Reset first";
  return false;
}

}  // namespace

bool drops_grains(const ParamSet& params) {
  return params.text("physics.model") == "mixed" && !params.indices("grains").empty();
}

bool drops_water_too(const ParamSet& params) {
  return !params.indices("tank").empty() || !params.indices("block").empty();
}

void drop_fluid(ViewerState& s, const glm::vec3& at) {
  const ParamSet& params = s.model->params();
  const bool mixed_liquid = params.text("physics.model") == "mixed" && drops_water_too(params);
  if (drops_grains(params) && !(mixed_liquid && s.drop_water)) {
    drop_grains(s, at);
    return;
  }
  if (!scene_is_running_one(s, "drop fluid")) return;
  FluidDrop d;
  d.shape = s.drop_block ? DropShape::Block : DropShape::Sphere;
  d.size = s.drop_size > 0 ? double(s.drop_size) : 4.0 * double(s.view->spacing());
  for (int k = 0; k < s.sim->dim(); ++k) d.center[k] = double(at[k]);
  try {
    std::size_t added = 0;
    std::unique_ptr<Simulation> grown = mixed_liquid ? add_mixed_fluid(*s.sim, params, d, &added)
                                                     : add_fluid(*s.sim, params, d, &added);
    if (s.recorder) toggle_recording(s);  // a recording holds one particle count
    s.loop = std::make_unique<StepLoop>(*grown, StopRule{});
    s.sim = std::move(grown);
    s.view->replace(*s.sim);
    s.picked = -1;  // indices changed
    s.message = "dropped " + std::to_string(added) + " fluid particles";
  } catch (const std::exception& e) {
    s.message = std::string("drop fluid: ") + e.what();
  }
}

void drop_grains(ViewerState& s, const glm::vec3& at) {
  if (!scene_is_running_one(s, "drop grains")) return;
  GrainDrop d;
  d.radius = double(s.drop_size);  // grains come as a sphere (disc); 0: three lattice spacings
  for (int k = 0; k < s.sim->dim(); ++k) d.center[k] = double(at[k]);
  try {
    std::size_t added = 0, left_out = 0;
    std::unique_ptr<Simulation> grown = add_grains(*s.sim, s.model->params(), d, &added, &left_out);
    if (s.recorder) toggle_recording(s);  // a recording holds one particle count
    s.loop = std::make_unique<StepLoop>(*grown, StopRule{});
    s.sim = std::move(grown);
    s.view->replace(*s.sim);
    s.picked = -1;  // indices changed
    s.message = "dropped " + std::to_string(added) + " grains" +
                (left_out ? " (" + std::to_string(left_out) + " lattice sites left out: they would overlap grains or walls)" : "");
  } catch (const std::exception& e) {
    s.message = std::string("drop grains: ") + e.what();
  }
}

glm::vec3 drop_centre(const glm::vec3& under_cursor, bool cursor_in_window, const render::Bounds& b, int dim) {
  bool over = cursor_in_window;
  for (int k = 0; k < dim && k < 3; ++k) over = over && under_cursor[k] >= b.lo[k] && under_cursor[k] <= b.hi[k];
  if (over) return under_cursor;
  glm::vec3 c = 0.5f * (b.lo + b.hi);
  if (dim < 3) c.z = 0.f;
  return c;
}

void reset_layout(ViewerState& s, FluidLayout layout) {
  const char* what = layout == FluidLayout::Block ? "reset block" : "reset random";
  if (!scene_is_running_one(s, what)) return;
  try {
    // A mixed scene of grains lays out its free grains (scene/grain_layout.h), a liquid its fluid.
    const bool grains = s.model->params().text("physics.model") == "mixed";
    std::unique_ptr<Simulation> fresh =
        grains ? make_grain_simulation_with_layout(s.model->params(), s.sim->backend(), layout, s.reset_seed++)
               : make_simulation_with_layout(s.model->params(), s.sim->backend(), layout, s.reset_seed++);
    if (s.recorder) toggle_recording(s);  // a recording belongs to one simulation
    s.loop = std::make_unique<StepLoop>(*fresh, StopRule{});
    s.sim = std::move(fresh);
    s.probes = make_probe_plots(*s.sim);
    s.view->replace(*s.sim);
    s.history.clear();
    s.picked = -1;
    s.message = grains ? std::string(what) + ": the free grains laid out afresh (fixed grains kept)"
                       : std::string(what) + ": " + std::to_string(s.sim->fluid_count()) + " fluid particles laid out afresh";
  } catch (const std::exception& e) {
    s.message = std::string(what) + ": " + e.what();
  }
}

bool load_scene(ViewerState& s, const std::string& path, const std::string& name) {
  try {
    s.model = std::make_unique<ParamPanelModel>(read_scene_file(path));
    s.opt.scene_name = name;
    s.look_pending = true;
    s.reset_requested = true;
    return true;
  } catch (const std::exception& e) {
    s.message = e.what();
    return false;
  }
}

void save_snapshot(ViewerState& s) {
  if (!scene_is_running_one(s, "snapshot")) return;
  const std::string path = dated_path(s.opt.record_dir, "snapshot", "h5");
  try {
    write_snapshot(path, *s.sim, s.model->params(), s.opt.command_line + " (viewer snapshot)");
    s.message = "snapshot " + path + ": ejecta --restart " + path + " continues it";
  } catch (const std::exception& e) {
    s.message = std::string("snapshot: ") + e.what();
  }
}

void update_profile(ViewerState& s) {
  if (!s.profile_set) return;
  const ColourChoice& c = s.view->colour();
  try {
    s.profile_plot = line_profile_plot(*s.sim, c.field, c.component, glm::dvec3(s.profile_a), glm::dvec3(s.profile_b),
                                       200, 2.0 * double(s.view->spacing()));
  } catch (const std::exception& e) {
    s.message = std::string("line profile: ") + e.what();
  }
}

void update_rates(ViewerState& s, double frame_s, long stepped, double step_s) {
  const double a = 0.1;  // exponential smoothing of the displayed rates
  s.fps = (1 - a) * s.fps + a * (frame_s > 0 ? 1.0 / frame_s : 0);
  if (stepped > 0 && step_s > 0)
    s.particle_steps_per_s = (1 - a) * s.particle_steps_per_s + a * double(stepped) * double(s.sim->particle_count()) / step_s;
  else if (!s.running)
    s.particle_steps_per_s = 0;
}

void set_clip(ViewerState& s, bool on) {
  render::ViewSettings& v = s.view->settings();
  v.clip = on && s.sim->dim() == 3;
  if (!v.clip) return;
  const ClipPlane c = clip_facing_camera(particle_bounds(s.sim->download()), s.view->camera().direction());
  v.clip_normal = c.normal;
  v.clip_offset = c.offset;
}

void set_tree_overlay(ViewerState& s, bool on) {
  s.message = set_tree_overlay(s.view->settings(), s.model->params(), on);
}

void toggle_recording(ViewerState& s) {
  if (s.recorder) {
    try {
      s.recorder->finish();
      s.message = "recorded " + std::to_string(s.recorder->frames_written()) + " frames to " + s.recorder->path();
    } catch (const std::exception& e) {
      s.message = std::string("recording failed: ") + e.what();
    }
    s.record_obs.reset();
    s.recorder.reset();
    return;
  }
  const RunInfo info = viewer_run_info(*s.sim, s.model->params(), s.opt.command_line + " (viewer recording)");
  try {
    s.recorder = std::make_unique<AsyncRecorder>(dated_path(s.opt.record_dir, "", "h5"), info, RecordOptions{});
    s.record_obs = std::make_unique<RecordObserver>(*s.recorder,
                                                    default_record_schedule(s.model->params().real("scene.end_time")));
    s.record_obs->record_initial(*s.sim);
    s.message = "recording to " + s.recorder->path();
  } catch (const std::exception& e) {
    s.record_obs.reset();
    s.recorder.reset();
    s.message = std::string("cannot record: ") + e.what();
  }
}

void toggle_video(ViewerState& s) {
  if (s.video) {
    const std::string path = s.video->path();
    const std::size_t n = s.video->frames();
    try {
      s.video->close();
      s.message = "video: " + std::to_string(n) + " frames to " + path;
    } catch (const std::exception& e) {
      s.message = e.what();
    }
    s.video.reset();
    return;
  }
  render::VideoOptions vo;
  vo.width = s.view->framebuffer().width();
  vo.height = s.view->framebuffer().height();
  vo.fps = s.opt.video_fps;
  try {
    s.video = std::make_unique<render::VideoWriter>(dated_path(s.opt.record_dir, "", "mp4"), vo);
    s.message = "recording video to " + s.video->path();
  } catch (const std::exception& e) {
    s.video.reset();
    s.message = std::string("cannot record video: ") + e.what();
  }
}

void video_frame(ViewerState& s) {
  if (!s.video) return;
  const render::Image img = s.view->read();
  try {
    s.video->write(img);
  } catch (const std::invalid_argument&) {
    toggle_video(s);
    s.message = "video stopped: the window was resized (" + s.message + ")";
  } catch (const std::exception& e) {
    s.video.reset();  // the destructor reports ffmpeg's exit status
    s.message = e.what();
  }
}

void inspect(ViewerState& s, long i) {
  s.picked = i;
  s.picked_fields.clear();
  const FrameData f = s.sim->capture_frame();
  if (const FieldData* x = f.find("position"))
    for (int d = 0; d < x->info.components && d < 3; ++d)
      s.picked_position[d] = field_value(*x, std::size_t(i) * std::size_t(x->info.components) + std::size_t(d));
  for (const FieldData& fd : f.fields) {
    const int comps = fd.info.components;
    std::ostringstream v;
    for (int c = 0; c < comps; ++c) {
      const std::size_t k = std::size_t(i) * comps + c;
      const double x = field_value(fd, k);
      v << (c ? ", " : "") << x;
    }
    if (!fd.info.units.empty()) v << " " << fd.info.units;
    s.picked_fields.emplace_back(fd.info.name, v.str());
  }
}

void update_crush_plot(ViewerState& s) {
  const std::vector<Material> mats = s.sim->materials();
  const std::vector<std::size_t> porous = porous_materials(mats);
  if (porous.empty()) {
    s.crush_on = false;
    s.crush_plot = PlotSpec{};
    s.message = "crush curve: the scene has no porous material";
    return;
  }
  s.crush_choice = std::clamp(s.crush_choice, 0, int(porous.size()) - 1);
  const Material& m = mats[porous[std::size_t(s.crush_choice)]];
  CrushSelection sel;
  sel.material = porous[std::size_t(s.crush_choice)];
  if (s.picked >= 0 && s.crush_radius > 0) {
    sel.radius = s.crush_radius;
    for (int d = 0; d < 3; ++d) sel.centre[d] = s.picked_position[d];
  }
  s.crush_plot = crush_plot(m, crush_points(s.sim->capture_frame(crush_fields(m)), m, sel));
}

}  // namespace ejecta::viewer
