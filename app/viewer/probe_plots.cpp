#include "viewer/probe_plots.h"

#include "probes/probe_api.h"

#include <imgui.h>

#include <cmath>

namespace ejecta::viewer {

ProbePlots::ProbePlots(const Simulation& sim) : obs_(sim) {
  obs_.sample_initial(sim);
  for (const ProbeInstrument& in : obs_.layout().instruments) {
    ReferenceCurve c;
    std::string why;
    if (!in.reference.empty() && !read_reference_curve(in.reference, in.reference_column, &c, &why))
      notes_.push_back(in.section + ": " + why);
    refs_.push_back(std::move(c));
  }
}

PlotSpec ProbePlots::spec(std::size_t column, std::size_t max_points) {
  obs_.flush();
  const ProbeSeries& s = obs_.series();
  const ProbeColumn& col = s.columns[column];
  PlotSpec p;
  // "P1.pressure" -> "P1 pressure"; units as the engine names them.
  p.y_label = col.name;
  const std::size_t dot = p.y_label.find('.');
  if (dot != std::string::npos) p.y_label[dot] = ' ';
  p.y_units = col.units;
  PlotSeries sim;
  sim.name = "Ejecta";
  std::size_t have = 0;
  for (std::size_t r = 0; r < s.rows(); ++r) have += !std::isnan(s.at(r, column));
  const std::size_t stride = have > max_points && max_points > 0 ? (have + max_points - 1) / max_points : 1;
  std::size_t k = 0;
  for (std::size_t r = 0; r < s.rows(); ++r) {
    const double v = s.at(r, column);
    if (std::isnan(v)) continue;
    // Thinned evenly, the latest sample always kept.
    if (k++ % stride == 0 || k == have) {
      sim.x.push_back(s.time[r]);
      sim.y.push_back(v);
    }
  }
  const ReferenceCurve& ref = refs_[col.instrument];
  if (!ref.time.empty()) {
    PlotSeries r;
    r.name = "reference";
    r.reference = true;
    // Only the part up to the simulated time, so the time axis follows the run.
    const double t_end = s.rows() ? s.time.back() : 0;
    for (std::size_t i = 0; i < ref.time.size() && ref.time[i] <= t_end; ++i) {
      r.x.push_back(ref.time[i]);
      r.y.push_back(ref.value[i]);
    }
    p.series.push_back(std::move(r));
  }
  p.series.push_back(std::move(sim));
  return p;
}

void ProbePlots::draw() {
  ImGui::SetNextWindowPos(ImVec2(760, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, 520), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Probes")) {
    ImGui::End();
    return;
  }
  for (const std::string& n : notes_) ImGui::TextWrapped("%s", n.c_str());
  const std::size_t columns = obs_.series().columns.size();
  for (std::size_t c = 0; c < columns; ++c)
    draw_plot(obs_.series().columns[c].name.c_str(), spec(c), 0, 150);
  ImGui::End();
}

std::unique_ptr<ProbePlots> make_probe_plots(const Simulation& sim) {
  return probe_layout(sim) ? std::make_unique<ProbePlots>(sim) : nullptr;
}

}  // namespace ejecta::viewer
