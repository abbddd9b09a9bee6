#include "viewer/viewer_state.h"

#include "ejecta_version.h"
#include "render/colormap.h"
#include "viewer/scene_look.h"

#include <algorithm>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace ejecta::viewer {

void rebuild(ViewerState& s) {
  if (s.recorder) toggle_recording(s);  // a recording belongs to one simulation
  s.sim = make_simulation(s.model->params(), s.opt.backend);
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
  char name[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof name, "ejecta-%Y%m%d-%H%M%S.h5", std::gmtime(&now));
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  RunInfo info;
  info.dim = s.sim->dim();
  info.precision = to_string(s.sim->precision());
  info.backend = to_string(s.sim->backend());
  info.scene_ini = s.model->params().to_ini();
  info.command_line = s.opt.command_line + " (viewer recording)";
  info.start_date = date;
  info.ejecta_version = EJECTA_VERSION;
  info.git_commit = EJECTA_GIT_COMMIT;
  try {
    s.recorder = std::make_unique<AsyncRecorder>(s.opt.record_dir + "/" + name, info, RecordOptions{});
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
  char name[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(name, sizeof name, "ejecta-%Y%m%d-%H%M%S.mp4", std::gmtime(&now));
  render::VideoOptions vo;
  vo.width = s.view->framebuffer().width();
  vo.height = s.view->framebuffer().height();
  vo.fps = s.opt.video_fps;
  try {
    s.video = std::make_unique<render::VideoWriter>(s.opt.record_dir + "/" + name, vo);
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
  for (const FieldData& fd : f.fields) {
    const int comps = fd.info.components;
    std::ostringstream v;
    for (int c = 0; c < comps; ++c) {
      const std::size_t k = std::size_t(i) * comps + c;
      double x = 0;
      switch (fd.info.scalar) {
        case ScalarType::Float32: x = reinterpret_cast<const float*>(fd.bytes.data())[k]; break;
        case ScalarType::Float64: x = reinterpret_cast<const double*>(fd.bytes.data())[k]; break;
        case ScalarType::UInt8: x = fd.bytes[k]; break;
        case ScalarType::UInt32: x = reinterpret_cast<const uint32_t*>(fd.bytes.data())[k]; break;
      }
      v << (c ? ", " : "") << x;
    }
    if (!fd.info.units.empty()) v << " " << fd.info.units;
    s.picked_fields.emplace_back(fd.info.name, v.str());
  }
}

}  // namespace ejecta::viewer
