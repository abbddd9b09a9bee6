#pragma once
// The probe side of a solver: StoreSolver implements it beside the Simulation facade, and
// probe_sampling() finds it (nullptr for the gas and solid models, which have no probes).
// make_simulation installs the scene's [probe.N]/[gauge.N] sections through it.
//
// Samples are taken on the device and kept there: queue_probe_sample() launches the sampling on the
// step's stream (asynchronously on the GPU, no wait) into the next row of a ring of sample rows
// (ProbeRing), and ProbeRing::read downloads every queued row in one copy. The caller
// (probes/probe_observer.h) reads the ring when it is full and whenever the host needs the samples.
// Sampling does not change the simulation's state, so it is allowed on a const Simulation.
#include "probes/probe_layout.h"

#include <cstddef>
#include <vector>

namespace ejecta {

class Simulation;

// Rows of a new ring: with every instrument sampled every step, one download per 256 steps (a few
// kB: 256 rows of 8-byte values per column).
constexpr std::size_t kDefaultProbeRingSlots = 256;

// The device-side ring of sample rows of one backend (probes/probe_sampler.h).
class ProbeRing {
 public:
  virtual ~ProbeRing() = default;
  virtual const ProbeLayout& layout() const = 0;
  // Rows the ring holds, and rows queued (sampled, not yet read).
  virtual std::size_t slots() const = 0;
  virtual std::size_t queued() const = 0;
  // Reallocates the ring to `slots` rows (at least 1); throws std::logic_error while rows are queued.
  virtual void resize(std::size_t slots) = 0;
  // Downloads the queued rows (queued() rows of layout().columns.size() values, oldest first) into
  // `rows` in one copy, waiting for the sampling to finish, and empties the ring.
  virtual void read(std::vector<double>& rows) = 0;
  // Threads per (sample point, cell row) of the neighbour sums (kProbeLanes in probes/probe_sample.h,
  // 1..64): the same sums split into that many interleaved parts, so values agree to rounding; 1 is
  // one thread per row. For tests and measurements.
  virtual void set_lanes(int lanes) = 0;
  virtual int lanes() const = 0;
};

class ProbeSampling {
 public:
  virtual ~ProbeSampling() = default;
  // Uploads the instruments to sample from now on (an empty layout removes them; queued samples of
  // the old layout are dropped).
  virtual void set_probes(const ProbeLayout& layout) = 0;
  // The ring of the installed instruments, nullptr when there are none.
  virtual ProbeRing* probe_ring() const = 0;
  // Samples every installed instrument at the current state (the end of the last step) into the
  // next row of the ring: one value per ProbeLayout::columns entry. Throws std::logic_error when the
  // ring is full (read it first) or there are no probes. with_loads false leaves the loads ([force.N])
  // out of this sample (a pass over the particles each; their columns in the row are then stale): for a
  // sample at which no load is due.
  virtual void queue_probe_sample(bool with_loads) const = 0;
};

ProbeSampling* probe_sampling(Simulation& sim);
const ProbeSampling* probe_sampling(const Simulation& sim);
// The installed layout of `sim`, nullptr when it has none (or its model has no probes).
const ProbeLayout* probe_layout(const Simulation& sim);
// Samples `sim`'s probes now and returns the row (one value per column), for tests and one-off reads;
// the ring must be empty (throws std::logic_error otherwise, or without probes).
std::vector<double> sample_probes_now(const Simulation& sim);

}  // namespace ejecta
