#pragma once
// Simulation::fill_render_data and colour_histogram for any solver that keeps its particles in a
// ParticleStore: checks the request against the buffers and the field registry, then runs
// FillRenderData, MeasureColourRange and BinOfColourValue through the solver's exec (one source for
// both backends).
#include "render_data/colour_histogram.h"
#include "render_data/fill_render_data.h"
#include "render_data/render_request.h"

#include <stdexcept>
#include <string>

namespace ejecta {

// The request's field as a ColourSource; std::invalid_argument (prefixed by `who`) for an unknown
// field or a component out of range.
template <class Store>
ColourSource colour_source_of(const Store& store, const RenderRequest& req, const char* who) {
  const FieldInfo* info = store.info(req.field);
  if (!info) {
    std::string known;
    for (const FieldInfo& i : store.fields()) known += (known.empty() ? "" : ", ") + i.name;
    throw std::invalid_argument(std::string(who) + ": no particle field '" + req.field + "' (fields: " + known + ")");
  }
  if (info->components > 1 && req.component >= info->components)
    throw std::invalid_argument(std::string(who) + ": field '" + req.field + "' has " +
                                std::to_string(info->components) + " components, not component " +
                                std::to_string(req.component));
  return ColourSource{store.raw_data(req.field), info->scalar, info->components,
                      info->components > 1 ? req.component : 0};
}

template <class Exec>
ColourRange measure_colour_range(Exec& exec, const uint8_t* kind, const ColourSource& src, std::size_t n,
                                 bool has_fluid) {
  return exec.transform_reduce(n, ColourRange{3.0e38f, -3.0e38f, 0.0f}, MeasureColourRange{kind, src, has_fluid},
                               CombineColourRange{});
}

template <class T, int D, class Exec, class Store>
RenderRange fill_render_data_from_store(Exec& exec, const Store& store, const Vec<T, D>* x, const uint8_t* kind,
                                        std::size_t n, bool has_fluid, const RenderRequest& req,
                                        const RenderBuffers& out) {
  const char* where = Exec::kBackend == Backend::Cuda ? "device" : "host";
  if (out.device != (Exec::kBackend == Backend::Cuda))
    throw std::invalid_argument(std::string("fill_render_data: the ") + to_string(Exec::kBackend) + " backend needs " +
                                where + " buffers");
  if (!out.positions || !out.colours || out.capacity < n)
    throw std::invalid_argument("fill_render_data: buffers for " + std::to_string(out.capacity) +
                                " particles, the scene has " + std::to_string(n));
  const ColourSource src = colour_source_of(store, req, "fill_render_data");
  // Grains carry their radius (kRadiusField, 0 for the other particles); without the field every
  // radius written is 0: the viewer's uniform radius.
  ColourSource radius{nullptr, ScalarType::Float32, 1, 0};
  if (const FieldInfo* r = out.radii ? store.info(kRadiusField) : nullptr)
    if (r->components == 1) radius = ColourSource{store.raw_data(kRadiusField), r->scalar, 1, 0};
  exec.for_each(n, FillRenderData<T, D>{x, kind, src, out.positions, out.colours, radius, out.radii});
  const ColourRange r = measure_colour_range(exec, kind, src, n, has_fluid);
  return RenderRange{r.lo, r.hi};
}

// Simulation::colour_histogram for the same solvers: the range first when lo > hi (as the fill
// measures it), then kColourHistogramBins counts over [lo, hi]; one reduction each, only the counts
// and the range come back to the host.
template <class Exec, class Store>
ColourHistogram colour_histogram_from_store(Exec& exec, const Store& store, const uint8_t* kind, std::size_t n,
                                            bool has_fluid, const RenderRequest& req, float lo, float hi) {
  const ColourSource src = colour_source_of(store, req, "colour_histogram");
  if (lo > hi) {
    const ColourRange r = measure_colour_range(exec, kind, src, n, has_fluid);
    lo = r.lo, hi = r.hi;
  }
  ColourHistogram h;
  h.min = lo, h.max = hi;
  h.counts.assign(kColourHistogramBins, 0u);
  if (n == 0 || lo > hi) return h;
  exec.count_bins(n, kColourHistogramBins, BinOfColourValue{kind, src, has_fluid, lo, hi}, h.counts.data());
  return h;
}

}  // namespace ejecta
