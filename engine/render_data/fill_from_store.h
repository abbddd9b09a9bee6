#pragma once
// Simulation::fill_render_data for any solver that keeps its particles in a ParticleStore: checks
// the request against the buffers and the field registry, then runs FillRenderData and
// MeasureColourRange through the solver's exec (one source for both backends).
#include "render_data/fill_render_data.h"
#include "render_data/render_request.h"

#include <stdexcept>
#include <string>

namespace ejecta {

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
  const FieldInfo* info = store.info(req.field);
  if (!info) {
    std::string known;
    for (const FieldInfo& i : store.fields()) known += (known.empty() ? "" : ", ") + i.name;
    throw std::invalid_argument("fill_render_data: no particle field '" + req.field + "' (fields: " + known + ")");
  }
  if (info->components > 1 && req.component >= info->components)
    throw std::invalid_argument("fill_render_data: field '" + req.field + "' has " +
                                std::to_string(info->components) + " components, not component " +
                                std::to_string(req.component));
  const ColourSource src{store.raw_data(req.field), info->scalar, info->components,
                         info->components > 1 ? req.component : 0};
  exec.for_each(n, FillRenderData<T, D>{x, kind, src, out.positions, out.colours});
  const ColourRange r = exec.transform_reduce(n, ColourRange{3.0e38f, -3.0e38f, 0.0f},
                                              MeasureColourRange{kind, src, has_fluid}, CombineColourRange{});
  return RenderRange{r.lo, r.hi};
}

}  // namespace ejecta
