#include "render/box_lines.h"

namespace ejecta::render {

std::vector<float> box_edge_vertices(const std::vector<Bounds>& boxes) {
  std::vector<float> v;
  v.reserve(boxes.size() * 12 * 6);
  for (const Bounds& b : boxes) {
    const glm::vec3 c[2] = {b.lo, b.hi};
    for (int axis = 0; axis < 3; ++axis)
      for (int k = 0; k < 4; ++k) {
        glm::vec3 p0, p1;
        const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
        p0[axis] = c[0][axis], p1[axis] = c[1][axis];
        p0[a1] = p1[a1] = c[k & 1][a1];
        p0[a2] = p1[a2] = c[k >> 1][a2];
        if (p0 == p1) continue;
        v.insert(v.end(), {p0.x, p0.y, p0.z, p1.x, p1.y, p1.z});
      }
  }
  return v;
}

std::vector<Bounds> tree_cell_bounds(const std::vector<TreeCellBox>& cells, int max_levels) {
  std::vector<Bounds> out;
  for (const TreeCellBox& c : cells) {
    if (c.level >= max_levels) continue;
    out.push_back(Bounds{glm::vec3(float(c.lo[0]), float(c.lo[1]), float(c.lo[2])),
                         glm::vec3(float(c.hi[0]), float(c.hi[1]), float(c.hi[2]))});
  }
  return out;
}

}  // namespace ejecta::render
