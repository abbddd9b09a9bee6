#pragma once
// The boundary interface of the scene's walls (boxes snapped to the particle lattice) and the ghost
// node of a wall particle mirrored across it: used by boundary.model = mdbc_english2022
// (physics/boundary_mdbc_english2022.h) and by the wall-normal Riemann problem of
// fluid.pressure_term = zhang2017_wall_normal (physics/pressure_zhang2017.h), whose wall normal at a
// wall particle is the direction from it to its ghost node.
#include "core/hd.h"
#include "core/vec.h"

#include <cstdint>

namespace ejecta {

// The boundary interface, from the scene's geometry (scene_builder.cpp, wall_geometry): boxes snapped
// to the particle lattice. A tank's box is its inner box (its walls lie outside it); an obstacle's box
// is the solid (its walls inside), with the faces that meet the fluid flagged (a face on a tank's wall
// or outside every tank is no interface).
constexpr int kMdbcMaxBoxes = 12;

template <class T, int D>
struct MdbcGeometry {
  int n = 0;
  Vec<T, D> lo[kMdbcMaxBoxes], hi[kMdbcMaxBoxes];
  uint8_t obstacle[kMdbcMaxBoxes];  // 0: a tank's inner box; 1: an obstacle
  uint8_t faces[kMdbcMaxBoxes];     // obstacles: bit 2d the low face of axis d meets the fluid, 2d+1 the high

  // The ghost node of the wall particle at x: inside an obstacle, mirrored across its nearest wetted
  // face; else across the nearest tank's inner box (through its edge or corner beside one). A particle
  // with neither is its own ghost (no fluid reaches it).
  EJ_INLINE Vec<T, D> ghost(const Vec<T, D>& x) const {
    for (int b = 0; b < n; ++b) {
      if (!obstacle[b]) continue;
      bool inside = true;
      for (int d = 0; d < D; ++d) inside = inside && x[d] > lo[b][d] && x[d] < hi[b][d];
      if (!inside) continue;
      T best = T(-1);
      int axis = -1;
      T shift = T(0);
      for (int d = 0; d < D; ++d) {
        const T to_lo = x[d] - lo[b][d], to_hi = hi[b][d] - x[d];
        if (((faces[b] >> (2 * d)) & 1u) && (best < T(0) || to_lo < best)) {
          best = to_lo;
          axis = d;
          shift = T(-2) * to_lo;
        }
        if (((faces[b] >> (2 * d + 1)) & 1u) && (best < T(0) || to_hi < best)) {
          best = to_hi;
          axis = d;
          shift = T(2) * to_hi;
        }
      }
      Vec<T, D> g = x;
      if (axis >= 0) g[axis] += shift;
      return g;
    }
    T best = T(-1);
    Vec<T, D> g = x;
    for (int b = 0; b < n; ++b) {
      if (obstacle[b]) continue;
      Vec<T, D> s = x;
      for (int d = 0; d < D; ++d) s[d] = fmin(fmax(x[d], lo[b][d]), hi[b][d]);
      const T d2 = norm2(x - s);
      if (best < T(0) || d2 < best) {
        best = d2;
        g = s * T(2) - x;
      }
    }
    return g;
  }
};

}  // namespace ejecta
