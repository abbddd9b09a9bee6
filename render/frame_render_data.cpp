#include "render/frame_render_data.h"

#include "render_data/fill_render_data.h"

#include <stdexcept>
#include <string>

namespace ejecta::render {

namespace {

std::string field_list(const FrameData& f) {
  std::string known;
  for (const FieldData& d : f.fields) known += (known.empty() ? "" : ", ") + d.info.name;
  return known;
}

ColourSource source(const FieldData& d, int component) {
  return ColourSource{d.bytes.data(), d.info.scalar, d.info.components, d.info.components > 1 ? component : 0};
}

}  // namespace

std::vector<FieldInfo> frame_fields(const FrameData& f) {
  std::vector<FieldInfo> out;
  for (const FieldData& d : f.fields) out.push_back(d.info);
  return out;
}

RenderRange fill_from_frame(const FrameData& f, const RenderRequest& req, std::vector<float>& pos,
                            std::vector<float>& col, std::vector<float>* rad) {
  const FieldData* x = f.find("position");
  if (!x) throw std::invalid_argument("playback: the frame has no 'position' (fields: " + field_list(f) + ")");
  const FieldData* c = f.find(req.field);
  if (!c) throw std::invalid_argument("no recorded field '" + req.field + "' (fields: " + field_list(f) + ")");
  if (c->info.components > 1 && req.component >= c->info.components)
    throw std::invalid_argument("recorded field '" + req.field + "' has " + std::to_string(c->info.components) +
                                " components, not component " + std::to_string(req.component));
  const std::size_t n = x->count();
  if (c->count() != n)
    throw std::invalid_argument("playback: field '" + req.field + "' has " + std::to_string(c->count()) +
                                " values for " + std::to_string(n) + " particles");
  const FieldData* kind = f.find("kind");
  if (kind && (kind->count() != n || kind->info.scalar != ScalarType::UInt8)) kind = nullptr;
  pos.resize(4 * n);
  col.resize(n);
  const int dim = x->info.components;
  // The engine's own per-particle value (ColourSource) and range rule (MeasureColourRange), so that
  // playback colours a frame exactly as the live run did.
  const ColourSource xs = source(*x, 0), cs = source(*c, req.component);
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) pos[4 * i + d] = d < dim ? float(xs.raw(i * dim + d)) : 0.f;
    pos[4 * i + 3] = kind ? float(kind->bytes[i]) : float(kFluid);
    col[i] = cs.value(i);
  }
  if (rad) {
    // The live run's rule (FillRenderData): the grain's radius, 0 for the other particles.
    const FieldData* r = f.find(kRadiusField);
    rad->clear();
    if (r && r->info.components == 1 && r->count() == n) {
      const ColourSource rs = source(*r, 0);
      rad->resize(n);
      for (std::size_t i = 0; i < n; ++i) (*rad)[i] = rs.value(i);
    }
  }
  auto measure = [&](bool fluid_only) {
    ColourRange r{3.0e38f, -3.0e38f, 0.0f};
    const MeasureColourRange m{kind ? kind->bytes.data() : nullptr, cs, fluid_only && kind};
    for (std::size_t i = 0; i < n; ++i) r = CombineColourRange{}(r, m(i));
    return r;
  };
  ColourRange r = measure(true);
  if (r.fluid == 0.0f) r = measure(false);  // no fluid: every particle, as the solvers do
  return RenderRange{r.lo, r.hi};
}

}  // namespace ejecta::render
