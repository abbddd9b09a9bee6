#pragma once
// Host side of boundary.model = mdbc_english2022 (physics/boundary_mdbc_english2022.h): the boundary
// interface from the scene's geometry (SceneParticles::wall_boxes, scene_builder.cpp) in the solver's
// precision and dimension, and the model's parameters.
#include "params/param_set.h"
#include "physics/boundary_mdbc_english2022.h"
#include "scene/scene_builder.h"

#include <string>

namespace ejecta {

template <class T, int D>
MdbcWalls<T, D> make_mdbc_walls(const ParamSet& params, const SceneParticles& init) {
  MdbcWalls<T, D> w;
  if (init.wall_boxes.size() > std::size_t(kMdbcMaxBoxes))
    throw ParamError(params.where("boundary.model") + ": boundary.model = mdbc_english2022 takes at most " +
                     std::to_string(kMdbcMaxBoxes) + " tanks and obstacles together; the scene has " +
                     std::to_string(init.wall_boxes.size()) +
                     ". Merge some obstacles, or use boundary.model = adami2012 or dbc_crespo2007");
  w.geometry.n = int(init.wall_boxes.size());
  for (int b = 0; b < w.geometry.n; ++b) {
    const WallBox& box = init.wall_boxes[std::size_t(b)];
    for (int d = 0; d < D; ++d) {
      w.geometry.lo[b][d] = T(box.lo[d]);
      w.geometry.hi[b][d] = T(box.hi[d]);
    }
    w.geometry.obstacle[b] = box.obstacle ? 1 : 0;
    w.geometry.faces[b] = uint8_t(box.faces);
  }
  w.det_min = T(params.real("boundary.mdbc_det_threshold"));
  w.clamp_rho0 = params.text("boundary.mdbc_min_density") == "rho0";
  return w;
}

}  // namespace ejecta
