#pragma once
// `ejecta --benchmark`: times a ladder of SPHERIC 3D dam breaks of growing size on one backend.
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
};

// The benchmark's 3D dam break (SPHERIC) resolved to about `target` particles (with opt.sets and
// opt.precision applied); *count gets the exact total. The render benchmark draws the same scenes.
ParamSet benchmark_scene(const BenchmarkOptions& opt, long target, std::size_t* count);

// The default ladder of total particle counts (fluid + walls) for a backend.
std::vector<long> default_ladder(Backend backend);

// Runs every rung and prints its line as soon as it is measured. Returns the exit code (0).
// ParamError, BlowUpError and OutOfMemoryError propagate to main().
int run_benchmark(const BenchmarkOptions& opt);

}  // namespace ejecta::app
