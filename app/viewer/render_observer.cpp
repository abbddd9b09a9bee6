#include "viewer/render_observer.h"

#include "render/colormap.h"
#include "render/gl_context.h"
#include "render/video_writer.h"
#include "viewer/frame_overlay.h"
#include "viewer/scene_look.h"

#include <cstdio>
#include <filesystem>

namespace ejecta::viewer {

ColourChoice parse_colour_by(const std::string& spec, const std::vector<FieldInfo>& fields) {
  const ColourChoice c = split_colour_spec(spec);
  std::string known;
  std::vector<std::string> names;
  for (const FieldInfo& f : fields) {
    names.push_back(f.name);
    if (f.name == c.field) {
      if (c.component >= f.components)
        throw ParamError("--colour-by " + spec + ": field '" + f.name + "' has " + std::to_string(f.components) +
                         " component(s)");
      return c;
    }
    known += (known.empty() ? "" : ", ") + f.name;
  }
  const std::string near = closest_match(c.field, names);
  throw ParamError("--colour-by: no particle field '" + c.field + "' (fields: " + known + ")" +
                   (near.empty() ? "" : "; did you mean '" + near + "'?"));
}

std::unique_ptr<render::VideoWriter> prepare_render_outputs(const RenderFrameOptions& opt) {
  try {
    if (!opt.colormap.empty()) render::colormap(opt.colormap);
  } catch (const std::invalid_argument& e) {
    throw ParamError(std::string("--colormap: ") + e.what());
  }
  if (!opt.dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(opt.dir, ec);
    if (ec || !std::filesystem::is_directory(opt.dir))
      throw ParamError("--render-dir: cannot create directory '" + opt.dir + "': " + ec.message());
  }
  if (opt.video.empty()) return nullptr;
  render::VideoOptions vo;
  vo.width = opt.width;
  vo.height = opt.height;
  vo.fps = opt.fps;
  return std::make_unique<render::VideoWriter>(opt.video, vo);
}

RenderObserver::RenderObserver(Simulation& sim, const ParamSet& scene, const RenderFrameOptions& opt)
    : sim_(&sim), opt_(opt), scene_(scene) {
  if (!opt.colour_by.empty()) parse_colour_by(opt.colour_by, sim.fields());  // a bad field fails before any GL
  // ffmpeg before the context: a missing ffmpeg is the likelier failure and the cheaper check.
  video_ = prepare_render_outputs(opt);
  std::string why;
  ctx_ = render::create_offscreen_context(&why);
  if (!ctx_) throw std::runtime_error("headless rendering: no offscreen OpenGL context: " + why);
  view_ = std::make_unique<SceneView>(sim, scene, opt.interop, opt.splat);
  look_note_ = apply_scene_look(*view_, sim, scene);
  if (!look_note_.empty()) std::fprintf(stderr, "ejecta: %s\n", look_note_.c_str());
  apply_command_line_look(*view_, sim.fields(), opt.colour_by, opt.colormap, opt.look);
  view_->set_histogram_interval(0);  // every frame's own histogram
  if (opt.legend || opt.overlay || sim.dim() == 1) overlay_ = std::make_unique<FrameOverlay>();
  const std::string to = opt.dir + (opt.dir.empty() || opt.video.empty() ? "" : " and ") + opt.video;
  std::fprintf(stderr, "ejecta: rendering %dx%d frames every %ld steps to %s on %s, particles through %s\n", opt.width,
               opt.height, opt.every, to.c_str(), ctx_->description().c_str(), view_->upload_path().c_str());
}

RenderObserver::~RenderObserver() {
  if (ctx_) {
    ctx_->make_current();
    overlay_.reset();
    view_.reset();  // GL objects go while their context is current
  }
  video_.reset();  // if finish() was not reached (an error): closes, reporting ffmpeg's failure
  const std::string to = opt_.dir + (opt_.dir.empty() || opt_.video.empty() ? "" : " and ") + opt_.video;
  std::fprintf(stderr, "ejecta: wrote %zu frames to %s\n", frames_, to.c_str());
}

void RenderObserver::finish() {
  if (last_frame_step_ != sim_->steps()) write_frame();
  if (video_) video_->close();
}

std::string RenderObserver::context_description() const { return ctx_->description(); }

void RenderObserver::render_initial() { write_frame(); }

void RenderObserver::on_step(const Simulation&) {
  if (++steps_ % opt_.every == 0) write_frame();
}

void RenderObserver::write_frame() {
  ctx_->make_current();
  view_->update();
  view_->draw(opt_.width, opt_.height);
  if (overlay_) {
    const FrameCaption caption{scene_.text("scene.name"), sim_->time(), opt_.legend, opt_.overlay};
    if (sim_->dim() == 1) {
      // 1D: the profiles, not a line of dots a pixel high.
      const Profiles p = profiles_of(*sim_, scene_);
      overlay_->draw(*view_, caption, &p, opt_.width, opt_.height);
    } else {
      overlay_->draw(*view_, caption, nullptr, opt_.width, opt_.height);
    }
  }
  const render::Image img = view_->read();
  if (!opt_.dir.empty()) {
    char name[32];
    std::snprintf(name, sizeof name, "/frame_%06zu.png", frames_);
    render::write_png(opt_.dir + name, img);
  }
  if (video_) video_->write(img);
  last_frame_step_ = sim_->steps();
  ++frames_;
}

}  // namespace ejecta::viewer
