#pragma once
// Mixed scenes (physics.model = mixed): one store of particles whose materials have different models.
// The scene's sections say the model of each body:
//   [tank.N], [block.N]  the liquid (model wcsph: Tait EOS from [fluid], walls of Adami et al. 2012),
//                        laid out exactly as in a liquid scene (scene_builder.h);
//   [solid_block.N]      a body of a library material (solid.materials) with the solid model
//                        (elastic-plastic, its own EOS; a strengthless material such as the library's
//                        Tillotson water is a fluid of that model), laid out as in a solid scene.
//   [grains.N]           DEM grains (physics/dem_grains.h, the [dem] keys): spheres (discs in 2D)
//                        of one radius on a lattice of spacing (default 2 radius) filling min..max.
// Liquid sites closer than 0.9 (dp_liquid + dp_solid) / 2 to a solid particle are removed: the solid
// displaces the liquid it starts in. Everything in double; the solver converts.
#include "materials/material_library.h"
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

// Throws ParamError with file:line, the key and a suggestion for bad input.
SceneParticles build_mixed_scene(const ParamSet& params, const SizeCheck& check = {});

// The models the bodies of a mixed scene use ("wcsph" for [block.N]/[tank.N], "solid" for
// [solid_block.N], "dem" for [grains.N]), with the section that brings each in (for the model-key check).
std::vector<std::pair<std::string, std::string>> mixed_scene_models(const ParamSet& params);

}  // namespace ejecta
