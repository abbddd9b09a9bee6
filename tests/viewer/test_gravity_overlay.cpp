// The viewer's self-gravity items without GL (issue 16): the `gravitational_potential` and `bound`
// colour fields of a gas scene with self-gravity, the octree overlay's cells (the engine's top levels
// -> boxes -> line segments, what GlParticleRenderer::draw_tree draws) and its toggle.
#include "render/box_lines.h"
#include "sim_test_util.h"
#include "step_util.h"
#include "viewer/legend_scale.h"
#include "viewer/view_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ejecta {
namespace {

// 12 edges per box, each an edge of the box; a flat (2D) box gives its 4 edges twice (as the tank
// outline always drew it), a degenerate one none.
TEST(GravityOverlay, BoxEdgesAreTheBoxesEdges) {
  const render::Bounds b{glm::vec3(0.f, 0.f, 0.f), glm::vec3(1.f, 2.f, 3.f)};
  const std::vector<float> v = render::box_edge_vertices({b});
  ASSERT_EQ(v.size(), 12u * 6u);
  double total = 0;
  for (std::size_t s = 0; s < 12; ++s) {
    const glm::vec3 p0(v[6 * s], v[6 * s + 1], v[6 * s + 2]), p1(v[6 * s + 3], v[6 * s + 4], v[6 * s + 5]);
    const glm::vec3 d = glm::abs(p1 - p0);
    EXPECT_EQ(int(d.x > 0) + int(d.y > 0) + int(d.z > 0), 1) << "axis-aligned";
    total += double(glm::length(p1 - p0));
    for (int a = 0; a < 3; ++a) {
      EXPECT_TRUE(p0[a] == b.lo[a] || p0[a] == b.hi[a]);
      EXPECT_TRUE(p1[a] == b.lo[a] || p1[a] == b.hi[a]);
    }
  }
  EXPECT_DOUBLE_EQ(total, 4.0 * (1 + 2 + 3));
  EXPECT_EQ(render::box_edge_vertices({render::Bounds{glm::vec3(0.f), glm::vec3(1.f, 1.f, 0.f)}}).size(), 8u * 6u);
  EXPECT_TRUE(render::box_edge_vertices({render::Bounds{glm::vec3(1.f), glm::vec3(1.f)}}).empty());
}

ParamSet small_collapse() {
  // 10^3 particles of the cold collapse (G = 1, unit cube of mass 1).
  return test::shipped_scene("cold_collapse3d.ini", {"gas_block.1.dp=0.1"});
}

TEST(GravityOverlay, PotentialAndBoundAreColourFields) {
  const auto sim = make_simulation(small_collapse(), Backend::Cpu);
  test::step_n(*sim, 1);
  const FieldInfo* phi = nullptr;
  const FieldInfo* bound = nullptr;
  const std::vector<FieldInfo> fields = sim->fields();
  for (const FieldInfo& f : fields) {
    if (f.name == "gravitational_potential") phi = &f;
    if (f.name == "bound") bound = &f;
  }
  ASSERT_TRUE(phi && bound);
  EXPECT_FALSE(viewer::is_categorical(*phi));
  ASSERT_TRUE(viewer::is_categorical(*bound));
  const auto names = viewer::category_names(*bound);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[1].second, "bound");
  // A cube at rest (cold, v = 0 at the start) is bound throughout: phi < 0 everywhere, of the order
  // of -G M / (side / 2) in the middle. The colour values come through the render path itself.
  const std::size_t n = sim->particle_count();
  std::vector<float> pos(4 * n), col(n);
  const RenderRange rp = sim->fill_render_data(RenderRequest{"gravitational_potential", -1},
                                               RenderBuffers{pos.data(), col.data(), n, false});
  EXPECT_LT(rp.max, 0.f);
  EXPECT_GT(rp.min, -3.f);
  EXPECT_LT(rp.min, -1.f);  // the cube's centre: -2.38 G M / side for a uniform cube
  const RenderRange rb = sim->fill_render_data(RenderRequest{"bound", -1}, RenderBuffers{pos.data(), col.data(), n, false});
  EXPECT_EQ(rb.min, 1.f);
  EXPECT_EQ(rb.max, 1.f);
}

// The overlay: the engine's top cells of the last build, filtered to the chosen levels, as boxes that
// hold every particle; the toggle only turns on where the scene has self-gravity.
TEST(GravityOverlay, TreeCellsAndToggle) {
  const ParamSet scene = small_collapse();
  const auto sim = make_simulation(scene, Backend::Cpu);
  // The solver evaluates the forces once when it is built: the tree is there before the first step.
  EXPECT_FALSE(sim->gravity_tree_cells(3).empty());
  test::step_n(*sim, 1);
  const std::vector<TreeCellBox> cells = sim->gravity_tree_cells(3);
  ASSERT_FALSE(cells.empty());
  EXPECT_EQ(cells[0].level, 0);
  const std::vector<render::Bounds> two = render::tree_cell_bounds(cells, 2);
  EXPECT_EQ(two.size(), 9u);  // the root and its 8 octants (the particles fill the cube)
  EXPECT_EQ(render::box_edge_vertices(two).size(), 9u * 12u * 6u);
  const HostParticles h = sim->download();
  for (std::size_t i = 0; i < h.n; ++i)
    for (int d = 0; d < 3; ++d) {
      EXPECT_GE(float(h.position[3 * i + d]), two[0].lo[d]);
      EXPECT_LE(float(h.position[3 * i + d]), two[0].hi[d]);
    }

  render::ViewSettings v;
  EXPECT_NE(viewer::set_tree_overlay(v, scene, true), "");
  EXPECT_TRUE(v.show_tree);
  EXPECT_EQ(viewer::set_tree_overlay(v, scene, false), "");
  EXPECT_FALSE(v.show_tree);
  const ParamSet no_gravity = test::shipped_scene("dambreak2d.ini", {"particles.dp=0.02"});
  const std::string why = viewer::set_tree_overlay(v, no_gravity, true);
  EXPECT_FALSE(v.show_tree);
  EXPECT_NE(why.find("gravity.self"), std::string::npos) << why;
  EXPECT_TRUE(make_simulation(no_gravity, Backend::Cpu)->gravity_tree_cells(3).empty());
}

}  // namespace
}  // namespace ejecta
