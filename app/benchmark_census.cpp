// `ejecta --benchmark SCENE --benchmark-census STEPS`: the neighbour search's work at each rung of the
// benchmark's ladder (issue 18: the impact's cost per particle jumps from 2M to 4M particles). Each
// rung's scene is the benchmark's own (benchmark_scene: the same spacing search); with STEPS = 0 its
// particles as laid out, else the state after STEPS steps on the backend (the timed steps of
// `--benchmark` start after 31; each step's force phase is reported too, in ms). The census itself is
// neighbors/level_census.h, on the host; the half_cells_* keys are the same search in cells of half the
// support (h), for the force pass's next lead.
#include "benchmark.h"
#include "neighbors/level_census.h"
#include "progress.h"
#include "run/step_loop.h"
#include "scene/scene_particles.h"
#include "simulation.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ejecta::app {
namespace {

// A captured field as doubles (float or double storage).
std::vector<double> field_doubles(const FrameData& f, const std::string& name) {
  const FieldData* d = f.find(name);
  if (!d) throw std::runtime_error("--benchmark-census: the solver has no field " + name);
  const std::size_t m = d->count() * std::size_t(d->info.components);
  std::vector<double> out(m);
  for (std::size_t k = 0; k < m; ++k) {
    if (d->info.scalar == ScalarType::Float64) {
      std::memcpy(&out[k], d->bytes.data() + 8 * k, 8);
    } else {
      float v;
      std::memcpy(&v, d->bytes.data() + 4 * k, 4);
      out[k] = v;
    }
  }
  return out;
}

}  // namespace

int run_benchmark_census(const BenchmarkOptions& opt, long steps) {
  const std::vector<long> sizes = opt.sizes.empty() ? default_ladder(opt.backend) : opt.sizes;
  for (long target : sizes) {
    std::size_t count = 0;
    const ParamSet p = benchmark_scene(opt, target, &count);
    const SceneParticles init = build_scene_particles(p);
    const int dim = init.dim;
    const std::size_t n = init.size();
    // The label: moving at the start (a projectile) or not (its target), by scene particle number.
    std::vector<uint8_t> moving(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      for (int d = 0; d < dim; ++d) moving[i] = moving[i] || init.velocity[i * dim + d] != 0;
    std::vector<double> pos = init.position, h = init.h;
    if (h.empty()) h.assign(n, init.liquid.h);
    std::vector<uint8_t> label = moving;
    double time = 0;
    std::vector<double> forces_ms;  // each step's force phase (the benchmark's phase timing)
    if (steps > 0) {
      std::unique_ptr<Simulation> sim = make_simulation(p, opt.backend);
      sim->set_phase_timing(true);
      // The steps go through the one step loop; the observer takes each step's force phase.
      struct ForcePhase : StepObserver {
        Simulation& sim;
        std::vector<double>& ms;
        ForcePhase(Simulation& s, std::vector<double>& m) : sim(s), ms(m) {}
        void on_step(const Simulation&) override {
          sim.synchronize();
          ms.push_back(1e3 * sim.phase_times().forces);
          sim.reset_phase_times();
        }
      } obs(*sim, forces_ms);
      sim->reset_phase_times();
      StepLoop(*sim, StopRule{std::numeric_limits<double>::infinity(), steps}).run(&obs);
      time = sim->time();
      const FrameData f = sim->capture_frame({"position", "smoothing_length", "id"});
      pos = field_doubles(f, "position");
      h = field_doubles(f, "smoothing_length");
      const std::vector<double> id = field_doubles(f, "id");  // uint32 ids are exact in double
      for (std::size_t i = 0; i < n; ++i) label[i] = moving[std::size_t(id[i])];
    }
    const LevelCensus c = level_census(dim, pos.data(), h.data(), label.data(), n);
    // The same search in cells of half the support (make_level_grid's split 2; not a solver option yet).
    const LevelCensus half = level_census(dim, pos.data(), h.data(), nullptr, n, 0, 2);
    std::size_t projectile = 0;
    for (uint8_t m : moving) projectile += m;
    std::vector<double> dims, cells, per_level;
    for (int l = 0; l < c.levels; ++l) {
      for (int d = 0; d < 3; ++d) dims.push_back(c.dims[l][d]);
      cells.push_back(c.cell[l]);
      per_level.push_back(double(c.level_particles[l]));
    }
    const double dp = init.h.empty() ? init.liquid.dp : c.h_min / p.real("solid.h_over_dp");
    JsonObject j;
    j.add("census", p.text("scene.name"))
        .add("target", target)
        .add("particles", n)
        .add("moving", projectile)
        .add("steps", steps)
        .add("time", time)
        .add("h_min", c.h_min)
        .add("h_max", c.h_max)
        .add("h_mean", c.h_mean)
        .add("h_spread", (c.h_max - c.h_min) / c.h_min)  // 0: one h to the last bit
        .add("levels", c.levels)
        .add("dims", dims)
        .add("cell", cells)
        .add("level_particles", per_level)
        .add("buckets", c.buckets)
        .add("occupied", c.occupied)
        .add("fullest", c.fullest)
        .add("per_occupied", double(n) / double(c.occupied ? c.occupied : 1))
        .add("candidates_max", c.candidates_max)
        .add("neighbours", c.neighbours)
        .add("neighbours_max", c.neighbours_max);
    // The search's work per particle and per warp, with the solver's cells and with half cells.
    for (const auto& [prefix, k] : {std::pair<std::string, const LevelCensus&>{"", c}, {"half_cells_", half}})
      j.add(prefix + "candidates", k.candidates)
          .add(prefix + "ranges", k.ranges)
          .add(prefix + "warp_trips", k.warp_trips)
          .add(prefix + "warp_bodies", k.warp_bodies);
    j.add("label_gap", c.label_gap)  // null without a pair across labels
        .add("label_gap_dp", c.label_gap / dp)
        .add("forces_ms", forces_ms);
    std::printf("%s\n", j.str().c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace ejecta::app
