// The one scene description and its one builder (scene_particles.h).
#include "scene/scene_particles.h"

#include "scene/gas_scene.h"
#include "scene/mixed_scene.h"
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"

#include <algorithm>
#include <stdexcept>

namespace ejecta {

std::size_t SceneParticles::fluid_count() const {
  return static_cast<std::size_t>(std::count(kind.begin(), kind.end(), uint8_t(kFluid)));
}

std::size_t SceneParticles::count(uint8_t ph) const {
  return static_cast<std::size_t>(std::count(phase.begin(), phase.end(), ph));
}

SceneParticles SceneParticles::subset(const std::vector<std::size_t>& ids, bool keep_ids) const {
  SceneParticles out = *this;  // the materials, and a flaw table kept whole (by scene id)
  const std::size_t m = ids.size(), D = std::size_t(dim);
  auto pick = [&](const auto& from, auto& to, std::size_t width) {
    if (from.empty()) return;
    to.resize(m * width);
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t d = 0; d < width; ++d) to[j * width + d] = from[ids[j] * width + d];
  };
  pick(position, out.position, D);
  pick(velocity, out.velocity, D);
  pick(density, out.density, 1);
  pick(mass, out.mass, 1);
  pick(h, out.h, 1);
  pick(energy, out.energy, 1);
  pick(radius, out.radius, 1);
  pick(kind, out.kind, 1);
  pick(phase, out.phase, 1);
  pick(material, out.material, 1);
  // The picked particles keep their scene ids where a table is indexed by them (the Weibull flaws).
  if (keep_ids || !flaw_offset.empty() || !id.empty()) {
    out.id.resize(m);
    for (std::size_t j = 0; j < m; ++j) out.id[j] = id.empty() ? uint32_t(ids[j]) : id[ids[j]];
  }
  return out;
}

SceneParticles build_scene_particles(const ParamSet& params, const SizeCheck& check) {
  // The layout of each model's bodies, by the scene's physics.model; "mixed" composes the liquid's,
  // the solids' and the grains' layouts into one store (mixed_scene.h). Each layout fills the same
  // description, its particles tagged with their material's model (phase) and the recipe.
  using Layout = SceneParticles (*)(const ParamSet&, const SizeCheck&);
  static const struct {
    const char* model;
    Layout layout;
  } layouts[] = {{"wcsph", build_scene}, {"gas", build_gas_scene}, {"solid", build_solid_scene},
                 {"mixed", build_mixed_scene}};
  const std::string model = params.text("physics.model");
  for (const auto& l : layouts)
    if (model == l.model) return l.layout(params, check);
  throw ParamError(params.where("physics.model") + ": physics.model = " + model + " has no scene layout");
}

}  // namespace ejecta
