#pragma once
// `ejecta --benchmark [SCENE]`: times a ladder of sizes of one scene on one backend: the built-in
// SPHERIC 3D dam break, or a scene file (e.g. scenes/impact3d.ini) with all its spacings scaled.
#include "core/types.h"
#include "params/param_set.h"

#include <string>
#include <vector>

namespace ejecta::app {

struct BenchmarkOptions {
  Backend backend = Backend::Cpu;
  Precision precision = Precision::Float;
  std::vector<long> sizes;        // target total particle counts; empty = the backend's ladder
  std::vector<std::string> sets;  // --set overrides applied to every rung (particles.dp is the rung's)
  bool json = false;              // one JSON object per rung and line instead of the table
  // --benchmark-record: each rung also times the same steps while recording all fields every 100
  // steps to a temporary file, and reports record_overhead_percent.
  bool record = false;
  // A scene file to benchmark instead of the built-in dam break: each rung scales every spacing of it
  // (particles.dp, or every [solid_block.N] / [gas_block.N] dp by one factor) to reach the size.
  std::string scene_path;
};

// The benchmark's scene (the 3D dam break unless opt.scene_path) resolved to about `target` particles (with opt.sets and
// opt.precision applied); *count gets the exact total. The render benchmark draws the same scenes.
ParamSet benchmark_scene(const BenchmarkOptions& opt, long target, std::size_t* count);

// The default ladder of total particle counts (fluid + walls) for a backend.
std::vector<long> default_ladder(Backend backend);

// Runs every rung and prints its line as soon as it is measured. Returns the exit code (0).
// ParamError, BlowUpError and OutOfMemoryError propagate to main().
int run_benchmark(const BenchmarkOptions& opt);

// `--benchmark-census STEPS`: instead of timing, one JSON line per rung with the neighbour search's work
// (neighbors/level_census.h) on the rung's scene as laid out (STEPS = 0) or after STEPS steps on the
// backend (benchmark_census.cpp). Returns the exit code (0).
int run_benchmark_census(const BenchmarkOptions& opt, long steps);

}  // namespace ejecta::app
