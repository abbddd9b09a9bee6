#include "render_benchmark.h"

#include "benchmark.h"
#include "progress.h"
#include "run/step_loop.h"
#include "simulation.h"

#include <stdexcept>

#ifdef EJECTA_WITH_VIEWER
#include "render/gl_context.h"
#include "render/particle_upload.h"
#include "viewer/scene_view.h"

#include <GL/glew.h>

#include <chrono>
#include <cstdio>
#endif

namespace ejecta::app {

#ifdef EJECTA_WITH_VIEWER
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

int run_render_benchmark(const RenderBenchmarkOptions& opt) {
  std::string why;
  auto ctx = render::create_offscreen_context(&why);
  if (!ctx) throw std::runtime_error("--benchmark-render: no offscreen OpenGL context: " + why);
  std::vector<long> sizes = opt.sizes;
  // A scene file without sizes runs as it is (one line, target 0); the dam break defaults to one size.
  const bool as_is = !opt.scene_path.empty() && sizes.empty();
  if (as_is) sizes = {0L};
  if (sizes.empty()) sizes = {opt.backend == Backend::Cuda ? 1000000L : 20000L};
  BenchmarkOptions bo;
  bo.backend = opt.backend;
  bo.precision = opt.precision;
  bo.sets = opt.sets;
  bo.scene_path = opt.scene_path;
  for (long target : sizes) {
    std::size_t count = 0;
    ParamSet scene;
    if (as_is) {
      scene = read_scene_file(opt.scene_path);
      for (const auto& s : opt.sets) scene.apply_override(s);
      scene.set("scene.precision", to_string(opt.precision), "--precision");
    } else {
      scene = benchmark_scene(bo, target, &count);
    }
    auto sim = make_simulation(scene, opt.backend);
    if (as_is) count = sim->particle_count();
    viewer::SceneView view(*sim, scene, opt.interop, opt.splat);
    StepLoop loop(*sim, StopRule{});
    // Warm-up: first kernels, shader compilation, buffer allocation.
    loop.advance(2);
    view.update();
    view.draw(opt.width, opt.height);
    glFinish();

    // Draw rate alone (the same buffers every frame).
    const int draw_frames = 60;
    auto t0 = Clock::now();
    for (int f = 0; f < draw_frames; ++f) view.draw(opt.width, opt.height);
    glFinish();
    const double draw_s = since(t0) / draw_frames;

    // Buffer fill alone (engine functor into the buffers, through interop or the host).
    const int fill_frames = 30;
    view.set_histogram_interval(1e30);
    t0 = Clock::now();
    for (int f = 0; f < fill_frames; ++f) view.update();
    glFinish();
    const double fill_s = since(t0) / fill_frames;
    // The legend's histogram on every update from here on (the window measures it every 0.25 s): the
    // frame loop below pays its full cost, not a share that depends on when the 0.25 s fall.
    view.set_histogram_interval(0);
    double histogram_ms = 0;
    for (int f = 0; f < fill_frames; ++f) {
      view.update();
      histogram_ms += view.last_histogram_ms() / fill_frames;
    }

    // Stepping alone, then the viewer's frame loop at steps_per_frame: the overhead is the extra time.
    // The host time of each part of a frame (no added synchronisation): the steps wait for each step's
    // dt reduction, the update for the fill's range and the histogram's counts, the draw only queues
    // work, so GPU time that the draw leaves behind shows up in the next frame's steps.
    const int frames = 30;
    sim->synchronize();
    t0 = Clock::now();
    for (int f = 0; f < frames; ++f) loop.advance(opt.steps_per_frame);
    sim->synchronize();
    const double step_s = since(t0) / frames;
    double advance_s = 0, update_s = 0, draw_host_s = 0;
    t0 = Clock::now();
    for (int f = 0; f < frames; ++f) {
      auto t1 = Clock::now();
      loop.advance(opt.steps_per_frame);
      advance_s += since(t1);
      t1 = Clock::now();
      view.update();
      update_s += since(t1);
      t1 = Clock::now();
      view.draw(opt.width, opt.height);
      draw_host_s += since(t1);
    }
    glFinish();
    sim->synchronize();
    const double frame_s = since(t0) / frames;

    JsonObject j;
    j.add("benchmark", "render")
        .add("scene", opt.scene_path.empty() ? std::string("3D dam break (SPHERIC)") : opt.scene_path)
        .add("backend", to_string(sim->backend()))
        .add("device", sim->device_name())
        .add("gl", ctx->description())
        .add("upload_path", view.upload_path())
        .add("particles", count)
        // What the engine writes per particle per frame: float4 position, float colour, and a float
        // radius only where particles have their own (grains; EJECTA_UNIFORM_RADII=1 turns it off).
        .add("render_bytes_per_particle", long(render::want_particle_radii(*sim) ? 24 : 20))
        .add("width", long(opt.width))
        .add("height", long(opt.height))
        .add("draw_fps", draw_s > 0 ? 1.0 / draw_s : 0.0)
        .add("fill_ms", 1e3 * fill_s)
        .add("histogram_ms", histogram_ms)
        .add("steps_per_frame", opt.steps_per_frame)
        .add("step_ms_per_frame", 1e3 * step_s)
        .add("viewer_frame_ms", 1e3 * frame_s)
        .add("frame_steps_ms", 1e3 * advance_s / frames)
        .add("frame_update_ms", 1e3 * update_s / frames)
        .add("frame_draw_host_ms", 1e3 * draw_host_s / frames)
        .add("viewer_fps", frame_s > 0 ? 1.0 / frame_s : 0.0)
        .add("viewer_overhead_percent", step_s > 0 ? 100.0 * (frame_s / step_s - 1) : 0.0);
    std::printf("%s\n", j.str().c_str());
    std::fflush(stdout);
  }
  return 0;
}
#else
int run_render_benchmark(const RenderBenchmarkOptions&) {
  throw std::runtime_error("--benchmark-render: this build has no rendering (configure with -DEJECTA_VIEWER=ON)");
}
#endif

}  // namespace ejecta::app
