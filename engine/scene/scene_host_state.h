#pragma once
// A scene's per-particle state converted to a solver's precision on the host, for its upload: the store
// solver's common fields (solver/store_solver.h, upload_common) and the liquid's uniform-h path
// (solver/uniform_liquid.h, upload) read the same conversion.
#include "core/vec.h"
#include "scene/scene_particles.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ejecta {

template <class T, int D>
struct SceneHostState {
  std::vector<Vec<T, D>> x, v;
  std::vector<T> rho, m, h;    // h: empty unless asked for
  std::vector<uint32_t> id;    // the scene's ids where it has them and they are asked for, else 0 .. n-1
};

template <class T, int D>
SceneHostState<T, D> scene_host_state(const SceneParticles& init, std::size_t n, bool with_h, bool scene_ids) {
  SceneHostState<T, D> s;
  s.x.resize(n), s.v.resize(n), s.rho.resize(n), s.m.resize(n), s.id.resize(n);
  if (with_h) s.h.resize(n);
  const bool ids = scene_ids && !init.id.empty();
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < D; ++d) {
      s.x[i][d] = T(init.position[i * D + d]);
      s.v[i][d] = T(init.velocity[i * D + d]);
    }
    s.rho[i] = T(init.density[i]);
    s.m[i] = T(init.mass[i]);
    if (with_h) s.h[i] = T(init.h[i]);
    s.id[i] = ids ? init.id[i] : uint32_t(i);
  }
  return s;
}

}  // namespace ejecta
