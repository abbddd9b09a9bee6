#pragma once
// Solid scenes (physics.model = solid): [solid_block.N] boxes, spheres or shells, each on its own lattice of spacing dp,
// of a material named from the library (solid.materials, default assets/materials.ini) and with an
// initial velocity. Everything in double; the solver converts.
#include "materials/material_library.h"
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "scene/scene_size.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ejecta {

// The library path of solid.materials: absolute as given; relative to the working directory when
// that file exists, else to the source tree (EJECTA_SOURCE_DIR in the environment, or the build's).
std::string resolve_material_library(const std::string& path);

// Throws ParamError naming the file:line of the offending key (an unknown material with a suggestion).
// `check` sees the particle count before anything large is allocated (scene/scene_size.h).
SceneParticles build_solid_scene(const ParamSet& params, const SizeCheck& check = {});

}  // namespace ejecta
