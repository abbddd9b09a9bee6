#pragma once
// Boxes as line segments, without GL (tests check what is drawn): the tanks' outline and the
// self-gravity octree's top cells (the teaching overlay, issue 16) both go through it.
#include "render/camera.h"
#include "render_data/render_request.h"

#include <vector>

namespace ejecta::render {

// Vertex pairs (x y z, x y z) of the 12 edges of each box; edges of zero length are left out, so a
// flat 2D box (z lo = hi) gives its 4 edges twice (the two z faces coincide) and a 1D box 1 edge.
std::vector<float> box_edge_vertices(const std::vector<Bounds>& boxes);

// The octree cells of levels below max_levels as boxes (their own 2D or 1D extent: z = 0 or
// y = z = 0, as the engine gives them).
std::vector<Bounds> tree_cell_bounds(const std::vector<TreeCellBox>& cells, int max_levels);

}  // namespace ejecta::render
