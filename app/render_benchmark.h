#pragma once
// `ejecta --benchmark-render [SCENE]`: offscreen drawing of the benchmark's 3D dam breaks, or of a scene
// file (as it is, or with its spacings scaled to --benchmark-sizes like `--benchmark SCENE`), on the EGL
// device when present: draw FPS, the per-frame buffer fill (interop or host copy), and the viewer's
// overhead on the simulation at 4 steps per frame, with the frame rate of the whole loop. One JSON line
// per size.
#include "core/types.h"

#include <string>
#include <vector>

namespace ejecta::app {

struct RenderBenchmarkOptions {
  Backend backend = Backend::Cpu;
  Precision precision = Precision::Float;
  std::vector<long> sizes;  // empty: 1e6 on CUDA, 2e4 on the CPU (with scene_path: the scene as it is)
  std::string scene_path;   // empty: the 3D dam break
  std::vector<std::string> sets;
  int width = 1280, height = 720;
  bool interop = true;
  bool splat = true;  // CUDA splat rasterizer where possible (--gl-draw: false)
  long steps_per_frame = 4;
};

// Returns the exit code; throws std::runtime_error without a GL context or in a build without the viewer.
int run_render_benchmark(const RenderBenchmarkOptions& opt);

}  // namespace ejecta::app
