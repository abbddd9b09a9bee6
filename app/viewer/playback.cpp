#include "viewer/playback.h"

#include "render/colormap.h"
#include "viewer/scene_look.h"
#include "render/frame_render_data.h"
#include "render/gl_context.h"
#include "render/video_writer.h"
#include "viewer/frame_overlay.h"

#include <cstdio>
#include <filesystem>

namespace ejecta::viewer {

int run_playback_headless(const H5Reader& reader, const ParamSet& scene, const RenderFrameOptions& opt,
                          const std::string& name) {
  const std::size_t frames = reader.frame_count();
  if (frames == 0) throw ParamError("--playback: '" + name + "' holds no complete frame");
  const FrameData first = reader.read_frame(0);
  const std::vector<FieldInfo> fields = render::frame_fields(first);
  if (!opt.colour_by.empty()) parse_colour_by(opt.colour_by, fields);  // a bad field fails before any GL
  std::unique_ptr<render::VideoWriter> video = prepare_render_outputs(opt);
  std::string why;
  auto ctx = render::create_offscreen_context(&why);
  if (!ctx) throw std::runtime_error("playback: no offscreen OpenGL context: " + why);
  {
    // GL objects go before their context.
    SceneView view(first, scene);
    const std::string note = apply_scene_look(view, first, scene);
    if (!note.empty()) std::fprintf(stderr, "ejecta: %s\n", note.c_str());
    apply_command_line_look(view, fields, opt.colour_by, opt.colormap, opt.look);
    view.set_histogram_interval(0);
    const bool one_d = first.find("position") && first.find("position")->info.components == 1;
    std::unique_ptr<FrameOverlay> overlay;
    if (opt.legend || opt.overlay || one_d) overlay = std::make_unique<FrameOverlay>();
    std::fprintf(stderr, "ejecta: playing back %zu frames of %s at %dx%d on %s\n", frames, name.c_str(), opt.width,
                 opt.height, ctx->description().c_str());
    for (std::size_t k = 0; k < frames; ++k) {
      const FrameData f = k == 0 ? first : reader.read_frame(k);
      view.show(f);
      view.draw(opt.width, opt.height);
      if (overlay) {
        const FrameCaption caption{scene.text("scene.name"), f.time, opt.legend, opt.overlay};
        if (one_d) {
          const Profiles p = profiles_of(f, scene);
          overlay->draw(view, caption, &p, opt.width, opt.height);
        } else {
          overlay->draw(view, caption, nullptr, opt.width, opt.height);
        }
      }
      const render::Image img = view.read();
      if (!opt.dir.empty()) {
        char file[32];
        std::snprintf(file, sizeof file, "/frame_%06zu.png", k);
        render::write_png(opt.dir + file, img);
      }
      if (video) video->write(img);
    }
    overlay.reset();
  }
  if (video) video->close();
  const std::string to = opt.dir + (opt.dir.empty() || opt.video.empty() ? "" : " and ") + opt.video;
  std::fprintf(stderr, "ejecta: wrote %zu frames to %s\n", frames, to.c_str());
  return 0;
}

}  // namespace ejecta::viewer
