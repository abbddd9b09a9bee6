#pragma once
// The probe side of a solver: WcsphSolver implements it beside the Simulation facade, and
// probe_sampling() finds it (nullptr for the gas and solid models, which have no probes).
// make_simulation installs the scene's [probe.N]/[gauge.N] sections through it.
#include "probes/probe_layout.h"

#include <vector>

namespace ejecta {

class Simulation;

class ProbeSampling {
 public:
  virtual ~ProbeSampling() = default;
  // Uploads the instruments to sample from now on (an empty layout removes them).
  virtual void set_probes(const ProbeLayout& layout) = 0;
  // The installed layout, nullptr when there is none.
  virtual const ProbeLayout* probes() const = 0;
  // Samples every installed instrument on the device at the current state (the end of the last
  // step): one value per ProbeLayout::columns entry, the only numbers that come back to the host;
  // empty without probes.
  virtual std::vector<double> sample_probes() const = 0;
};

ProbeSampling* probe_sampling(Simulation& sim);
const ProbeSampling* probe_sampling(const Simulation& sim);
// The installed layout of `sim`, nullptr when it has none (or its model has no probes).
const ProbeLayout* probe_layout(const Simulation& sim);

}  // namespace ejecta
