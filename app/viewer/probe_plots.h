#pragma once
// The viewer's "Probes" window: the scene's probes and gauges ([probe.N], [gauge.N]) sampled on the
// viewer's one StepLoop by a ProbeObserver, and one small plot per output column against time
// (plot_widget.h), over the section's reference curve when it names one (docs/probes.md).
#include "probes/probe_observer.h"
#include "probes/probe_reference.h"
#include "viewer/plot_widget.h"

#include <memory>
#include <string>
#include <vector>

namespace ejecta::viewer {

class ProbePlots {
 public:
  // `sim` must have probes (probe_layout(sim)); samples the initial state. Reference curves that
  // cannot be read are left out and noted (notes()), the run goes on.
  explicit ProbePlots(const Simulation& sim);
  StepObserver& observer() { return obs_; }
  // The samples downloaded so far (spec() downloads the queued ones).
  const ProbeSeries& series() const { return obs_.series(); }
  const std::vector<std::string>& notes() const { return notes_; }
  // The plot of output column c: the simulated series (at most max_points, evenly thinned) and the
  // instrument's reference curve, time on x, the column's quantity and units on y. Downloads the
  // samples still queued on the device first (ProbeObserver::flush).
  PlotSpec spec(std::size_t column, std::size_t max_points = 2000);
  // The ImGui window, one plot per column (only while it is open are the samples downloaded each frame).
  void draw();

 private:
  ProbeObserver obs_;
  std::vector<ReferenceCurve> refs_;  // per instrument, empty: none
  std::vector<std::string> notes_;
};

// A ProbePlots for `sim` when its scene has probes, else nullptr.
std::unique_ptr<ProbePlots> make_probe_plots(const Simulation& sim);

}  // namespace ejecta::viewer
