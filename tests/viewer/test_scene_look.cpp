// A scene's [view] keys reach the viewer state (resolve_look, no GL), the crater preset (clip plane
// through the impact axis, damage colouring with its fallbacks, side camera), saving the look back as
// [view] keys; and, with GL, a headless render of a small 3D solid scene through its clip plane.
#include "binary_util.h"
#include "gl_test_util.h"
#include "io/h5_reader.h"
#include "render/colormap.h"
#include "sim_test_util.h"
#include "viewer/render_observer.h"
#include "viewer/scene_look.h"
#include "viewer/viewer_state.h"
#include "step_util.h"

#include <gtest/gtest.h>
#include <stb_image.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ejecta {
namespace {

namespace fs = std::filesystem;

// A small 3D impact: a basalt ball at 200 m/s down onto a basalt slab (about 1300 particles).
const char* const kImpact3d = R"([scene]
name = impact_view_test
dim = 3
precision = double
end_time = 1e-4

[physics]
model = solid
gravity = 0, 0, 0

[solid_block.1]
min = 0, 0, 0
max = 0.2, 0.2, 0.06
dp = 0.02
material = basalt

[solid_block.2]
shape = sphere
center = 0.13, 0.1, 0.1
radius = 0.03
dp = 0.02
material = basalt
velocity = 0, 0, -200

[view]
preset = crater
)";

ParamSet impact_scene(const std::vector<std::string>& overrides = {}) {
  ParamSet p = read_scene_string(kImpact3d, "impact_view_test.ini");
  p.set("solid.materials", test::source_dir() + "/assets/materials.ini", "test");
  for (const auto& o : overrides) p.apply_override(o);
  return p;
}

render::Bounds bounds_of(const HostParticles& h) {
  render::Bounds b{glm::vec3(1e30f), glm::vec3(-1e30f)};
  for (std::size_t i = 0; i < h.n; ++i)
    for (int d = 0; d < 3; ++d) {
      const float v = d < h.dim ? float(h.position[i * h.dim + d]) : 0.f;
      b.lo[d] = std::min(b.lo[d], v);
      b.hi[d] = std::max(b.hi[d], v);
    }
  return b;
}

viewer::ResolvedLook resolve(const ParamSet& p, const Simulation& sim, std::vector<FieldInfo> fields = {}) {
  const HostParticles h = sim.download();
  if (fields.empty()) fields = sim.fields();
  return viewer::resolve_look(p, fields, h.dim,
                              viewer::find_impact_axis(h.dim, h.n, h.position.data(), h.velocity.data()), bounds_of(h));
}

TEST(SceneLook, ViewKeysReachTheViewerState) {
  const ParamSet p = test::shipped_scene(
      "bar2d.ini", {"solid_block.1.dp=0.02", "solid_block.2.dp=0.02", "view.colour_by=pressure",
                    "view.auto_range=false", "view.range_min=-2e4", "view.range_max=3e4", "view.walls=hidden",
                    "view.sprites=discs"});
  auto sim = make_simulation(p, Backend::Cpu);
  const viewer::ResolvedLook r = resolve(p, *sim);
  EXPECT_EQ(r.colour.field, "pressure");
  EXPECT_EQ(r.colour.component, -1);
  EXPECT_EQ(r.colormap, "coolwarm") << "auto: pressure is signed";
  EXPECT_FALSE(r.colour.auto_range);
  EXPECT_EQ(r.colour.min, -2e4f);
  EXPECT_EQ(r.colour.max, 3e4f);
  EXPECT_EQ(r.walls, render::WallMode::Hidden);
  EXPECT_EQ(r.sprites, render::SpriteMode::Discs);
  EXPECT_FALSE(r.camera) << "2D: no camera direction";
  EXPECT_TRUE(r.note.empty()) << r.note;

  // The shipped bar's own look: the x velocity, a signed component, in coolwarm.
  const ParamSet plain = test::shipped_scene("bar2d.ini", {"solid_block.1.dp=0.02", "solid_block.2.dp=0.02"});
  const viewer::ResolvedLook bar = resolve(plain, *sim);
  EXPECT_EQ(bar.colour.field, "velocity");
  EXPECT_EQ(bar.colour.component, 0);
  EXPECT_EQ(bar.colormap, "coolwarm");

  // Without [view] keys: velocity magnitude in viridis, automatic range, walls dimmed in 2D.
  ParamSet dam = read_scene_string(default_scene_ini(), "<default scene>");
  dam.apply_override("particles.dp=0.01");
  auto dam_sim = make_simulation(dam, Backend::Cpu);
  const viewer::ResolvedLook d = resolve(dam, *dam_sim);
  EXPECT_EQ(d.colour.field, "velocity");
  EXPECT_EQ(d.colour.component, -1);
  EXPECT_EQ(d.colormap, "viridis");
  EXPECT_TRUE(d.colour.auto_range);
  EXPECT_EQ(d.walls, render::WallMode::Dimmed);
  EXPECT_FALSE(d.clip);
  EXPECT_TRUE(d.note.empty()) << d.note;

  // A component, an explicit map, a field the scene lacks (falls back, saying so).
  ParamSet q = plain;
  q.set("view.colour_by", "deviatoric_stress.z", "test");
  EXPECT_EQ(resolve(q, *sim).colour.component, 2);
  EXPECT_EQ(resolve(q, *sim).colormap, "coolwarm");
  q.set("view.colormap", "turbo", "test");
  EXPECT_EQ(resolve(q, *sim).colormap, "turbo");
  q.set("view.colour_by", "damage", "test");
  const viewer::ResolvedLook missing = resolve(q, *sim);
  EXPECT_EQ(missing.colour.field, "velocity");
  EXPECT_NE(missing.note.find("no such field"), std::string::npos) << missing.note;
  q.set("view.clip", "true", "test");
  EXPECT_FALSE(resolve(q, *sim).clip) << "2D scenes are their own cross-section";
}

TEST(SceneLook, ThreeDCameraClipAndWalls) {
  const ParamSet p = impact_scene({"view.preset=none", "view.camera=front", "view.clip=true",
                                   "view.clip_normal=0, 0, 2", "view.clip_offset=0.05", "view.colour_by=velocity.z"});
  auto sim = make_simulation(p, Backend::Cpu);
  const viewer::ResolvedLook r = resolve(p, *sim);
  ASSERT_TRUE(r.camera);
  EXPECT_EQ(*r.camera, render::ViewPreset::Front);
  EXPECT_TRUE(r.clip);
  EXPECT_EQ(r.clip_normal, glm::vec3(0, 0, 1)) << "normalised";
  EXPECT_EQ(r.clip_offset, 0.05f);
  EXPECT_EQ(r.walls, render::WallMode::Hidden) << "auto: hidden in 3D";
  EXPECT_EQ(r.colour.component, 2);
  const viewer::ResolvedLook iso = resolve(impact_scene({"view.preset=none"}), *sim);
  EXPECT_EQ(*iso.camera, render::ViewPreset::Iso);
  EXPECT_FALSE(iso.clip);
  EXPECT_FALSE(iso.camera_direction);
  // An explicit direction, normalised; the crater plane turns with it.
  const viewer::ResolvedLook dir = resolve(impact_scene({"view.camera_direction=0, 2, -2"}), *sim);
  ASSERT_TRUE(dir.camera_direction);
  EXPECT_NEAR(dir.camera_direction->y, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(dir.camera_direction->z, -std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(dir.clip_normal.y, -1.f, 1e-6f) << "the camera's direction across the (vertical) impact axis";
}

TEST(SceneLook, CameraLooksAlongADirection) {
  render::Camera cam(false);
  cam.fit(render::Bounds{glm::vec3(0.f), glm::vec3(1.f)});
  for (const glm::vec3 d : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0.3f, -0.4f, -0.5f), glm::vec3(-1, 1, 0.2f)}) {
    cam.look_along(d);
    const glm::vec3 got = cam.direction(), want = glm::normalize(d);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], want[k], 1e-5f) << k;
  }
  cam.preset(render::ViewPreset::Side);
  EXPECT_NEAR(cam.direction().x, 1.f, 1e-6f) << "scene_look.cpp's side direction is the camera's";
  cam.preset(render::ViewPreset::Front);
  EXPECT_NEAR(cam.direction().y, 1.f, 1e-6f);
  const glm::vec3 iso = cam.direction();
  cam.preset(render::ViewPreset::Iso);
  EXPECT_NE(cam.direction(), iso);
}

TEST(SceneLook, CraterPresetCutsThroughTheImpactAxis) {
  const ParamSet p = impact_scene();
  auto sim = make_simulation(p, Backend::Cpu);
  const HostParticles h = sim->download();
  const auto axis = viewer::find_impact_axis(h.dim, h.n, h.position.data(), h.velocity.data());
  ASSERT_TRUE(axis);
  EXPECT_NEAR(axis->point.x, 0.13f, 0.011f);
  EXPECT_NEAR(axis->point.y, 0.1f, 0.011f);
  EXPECT_NEAR(axis->direction.z, -1.f, 1e-6f);

  // No damage field (damage off): von_mises_stress, said in the note.
  const ParamSet undamaged = impact_scene({"solid.damage=false"});
  auto intact = make_simulation(undamaged, Backend::Cpu);
  const viewer::ResolvedLook r = resolve(undamaged, *intact);
  EXPECT_EQ(r.colour.field, "von_mises_stress");
  EXPECT_EQ(r.colormap, "viridis");
  EXPECT_NE(r.note.find("no damage field"), std::string::npos) << r.note;
  ASSERT_TRUE(r.camera);
  EXPECT_EQ(*r.camera, render::ViewPreset::Side);
  // The side camera looks along +x: the plane x = x_axis hides the near half (x < x_axis).
  EXPECT_TRUE(r.clip);
  EXPECT_NEAR(r.clip_normal.x, -1.f, 1e-6f);
  EXPECT_NEAR(r.clip_normal.z, 0.f, 1e-6f);
  EXPECT_NEAR(r.clip_offset, -axis->point.x, 1e-6f);

  // With a damage field (the damage model's), damage; without stress, pressure.
  const viewer::ResolvedLook dmg = resolve(p, *sim, sim->fields());
  EXPECT_EQ(dmg.colour.field, "damage");
  EXPECT_TRUE(dmg.note.empty()) << dmg.note;
  std::vector<FieldInfo> gas;
  for (const FieldInfo& f : sim->fields())
    if (f.name != "von_mises_stress" && f.name != "damage") gas.push_back(f);
  EXPECT_EQ(resolve(p, *sim, gas).colour.field, "pressure");
  EXPECT_EQ(resolve(p, *sim, gas).colormap, "coolwarm");

  // Keys set in the scene win over the preset.
  const ParamSet own = impact_scene({"view.colour_by=density", "view.camera=front", "view.clip=false"});
  const viewer::ResolvedLook o = resolve(own, *sim);
  EXPECT_EQ(o.colour.field, "density");
  EXPECT_EQ(*o.camera, render::ViewPreset::Front);
  EXPECT_FALSE(o.clip);
  const viewer::ResolvedLook front = resolve(impact_scene({"view.camera=front"}), *sim);
  EXPECT_NEAR(front.clip_normal.y, -1.f, 1e-6f) << "the plane faces the camera chosen";
  EXPECT_NEAR(front.clip_offset, -axis->point.y, 1e-6f);
}

TEST(SceneLook, SavedLookReadsBackAsTheSameLook) {
  const ParamSet p = impact_scene();
  auto sim = make_simulation(p, Backend::Cpu);
  const viewer::ResolvedLook r = resolve(p, *sim);
  render::ViewSettings v;
  v.colormap = "turbo";
  v.walls = render::WallMode::Shown;
  v.mode = render::SpriteMode::Discs;
  v.clip = r.clip;
  v.clip_normal = r.clip_normal;
  v.clip_offset = 0.125f;
  viewer::ColourChoice c = r.colour;
  c.auto_range = false;
  c.min = 1;
  c.max = 5e8;
  ParamSet saved = p;
  viewer::store_look(saved, c, v, "top", "viewer");
  const ParamSet back = read_scene_string(saved.to_ini(), "saved.ini");
  const viewer::ResolvedLook b = resolve(back, *sim);
  EXPECT_EQ(b.colour.field, "damage");
  EXPECT_EQ(b.colormap, "turbo");
  EXPECT_FALSE(b.colour.auto_range);
  EXPECT_EQ(b.colour.max, 5e8f);
  EXPECT_EQ(b.walls, render::WallMode::Shown);
  EXPECT_EQ(b.sprites, render::SpriteMode::Discs);
  EXPECT_TRUE(b.clip);
  EXPECT_EQ(b.clip_offset, 0.125f);
  EXPECT_EQ(*b.camera, render::ViewPreset::Top);
  EXPECT_TRUE(b.note.empty()) << "the saved colour field is explicit: " << b.note;
}

TEST(SceneLook, SignedQuantitiesAndColormapChoices) {
  EXPECT_TRUE(viewer::is_signed_quantity("pressure", -1));
  EXPECT_TRUE(viewer::is_signed_quantity("velocity", 1));
  EXPECT_TRUE(viewer::is_signed_quantity("deviatoric_stress", 0));
  EXPECT_FALSE(viewer::is_signed_quantity("velocity", -1));
  EXPECT_FALSE(viewer::is_signed_quantity("von_mises_stress", -1));
  EXPECT_FALSE(viewer::is_signed_quantity("damage", -1));
  // The registry's view.colormap choices are the renderer's maps and auto.
  std::vector<std::string> expect = {"auto"};
  for (const std::string& n : render::colormap_names()) expect.push_back(n);
  EXPECT_EQ(ParamRegistry::builtin().find("view.colormap")->choices, expect);
}

// ---- With GL ----

double covered(const render::Image& img) {
  std::size_t n = 0;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const uint8_t* p = img.pixel(x, y);
      const uint8_t* bg = img.pixel(0, 0);
      if (std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) > 6) ++n;
    }
  return double(n) / (double(img.width) * img.height);
}

TEST(SceneLook, ViewerStateTakesTheLookKeepsItOverResetAndSavesIt) {
  EJECTA_NEED_GL();
  viewer::ViewerState s;
  const ParamSet scene = impact_scene();
  s.opt.scene = scene;
  s.model = std::make_unique<viewer::ParamPanelModel>(scene);
  viewer::rebuild(s);
  EXPECT_EQ(s.view->colour().field, "damage");
  EXPECT_TRUE(s.view->settings().clip);
  EXPECT_EQ(s.view->settings().colormap, "viridis");
  EXPECT_EQ(render::colormap_names()[std::size_t(s.colormap_index)], "viridis") << "the panel's colormap box agrees";
  EXPECT_EQ(s.camera_preset, "side");
  EXPECT_EQ(s.message.find("no damage field"), std::string::npos) << "nothing to say in the status bar: " << s.message;
  // Spheres touch on the solid's own lattice (solid_block.N.dp), not on particles.dp.
  EXPECT_NEAR(s.view->settings().radius, 0.5 * scene.real("solid_block.1.dp"), 1e-6 * scene.real("solid_block.1.dp"));
  ASSERT_TRUE(s.materials);
  ASSERT_EQ(s.materials->sections().size(), 1u) << "slab and ball are both basalt";

  // The user's choices and material edits survive a Reset of the same scene.
  s.view->colour().field = "density";
  s.view->settings().walls = render::WallMode::Shown;
  s.materials->set(0, "shear_modulus", "2e10", s.sim.get());
  viewer::rebuild(s);
  EXPECT_EQ(s.view->colour().field, "density");
  EXPECT_EQ(s.view->settings().walls, render::WallMode::Shown);
  EXPECT_EQ(s.sim->materials()[0].shear_modulus, 2e10);

  // Save scene as: the current look as [view] keys.
  const fs::path path = fs::temp_directory_path() / ("ejecta-test-look-" + std::to_string(getpid()) + ".ini");
  const std::string msg = viewer::save_scene(s, path.string());
  EXPECT_NE(msg.find("saved"), std::string::npos) << msg;
  const ParamSet saved = read_scene_file(path.string());
  fs::remove(path);
  EXPECT_EQ(saved.text("view.colour_by"), "density");
  EXPECT_EQ(saved.text("view.camera"), "side");
  EXPECT_EQ(saved.text("view.walls"), "shown");
  EXPECT_TRUE(saved.flag("view.clip"));
  EXPECT_EQ(saved.text("view.preset"), "crater");
  EXPECT_NEAR(saved.vec3("view.camera_direction")[0], 1, 1e-6) << "the side camera's direction";

  // Loading a scene (the selector, Open) applies its look and library afresh.
  s.model = std::make_unique<viewer::ParamPanelModel>(scene);
  s.look_pending = true;
  viewer::rebuild(s);
  EXPECT_EQ(s.view->colour().field, "damage");
  EXPECT_EQ(s.sim->materials()[0].shear_modulus, 22.7e9);
  s.view.reset();  // GL objects while the context is current
}

TEST(SceneLook, PlaybackTakesTheRecordedLook) {
  EJECTA_NEED_GL();
  const fs::path path = fs::temp_directory_path() / ("ejecta-test-look-" + std::to_string(getpid()) + ".h5");
  test::record_steps(path.string(), impact_scene({"view.preset=none", "view.colour_by=velocity.z", "view.camera=top"}),
                     2, 1);
  {
    const H5Reader reader(path.string());
    const ParamSet recorded = read_scene_string(reader.info().scene_ini, "recorded");
    const FrameData first = reader.read_frame(0);
    viewer::SceneView view(first, recorded);
    EXPECT_EQ(viewer::apply_scene_look(view, first, recorded), "");
    EXPECT_EQ(view.colour().field, "velocity");
    EXPECT_EQ(view.colour().component, 2);
    EXPECT_EQ(view.settings().colormap, "coolwarm");
    EXPECT_FALSE(view.settings().clip);
    // The crater preset finds the impact axis in the recorded velocities.
    const std::string note = viewer::apply_scene_look(view, first, impact_scene());
    EXPECT_EQ(note.find("no damage field"), std::string::npos) << note;
    EXPECT_TRUE(view.settings().clip);
    EXPECT_NEAR(view.settings().clip_normal.x, -1.f, 1e-6f);
    EXPECT_NEAR(view.settings().clip_offset, -0.13f, 0.011f);
  }
  fs::remove(path);
}

TEST(SceneLook, HeadlessFrameOfASolidSceneThroughItsClipPlane) {
  EJECTA_NEED_GL();
  const fs::path dir = fs::temp_directory_path() / ("ejecta-test-crater-" + std::to_string(getpid()));
  fs::remove_all(dir);
  auto frame_coverage = [&](const ParamSet& scene, std::string* note) {
    auto sim = make_simulation(scene, Backend::Cpu);
    viewer::RenderFrameOptions o;
    o.dir = dir.string();
    o.width = 320;
    o.height = 240;
    o.interop = false;
    o.legend = false;
    o.overlay = false;
    viewer::RenderObserver obs(*sim, scene, o);
    obs.render_initial();
    test::step_n(*sim, 1);
    obs.on_step(*sim);
    if (note) *note = obs.look_note();
    EXPECT_EQ(obs.frames(), 2u);
    EXPECT_EQ(const_cast<viewer::SceneView&>(obs.view()).colour().field, "damage");
    return covered(obs.view().read());
  };
  std::string note;
  // From the iso direction (the side view's silhouette is the same with and without the cut).
  const double cut = frame_coverage(impact_scene({"view.camera=iso"}), &note);
  const double whole = frame_coverage(impact_scene({"view.camera=iso", "view.clip=false"}), nullptr);
  EXPECT_EQ(note.find("no damage field"), std::string::npos) << note;
  EXPECT_GT(whole, 0.02) << "the slab is drawn";
  EXPECT_GT(cut, 0.15 * whole) << "the far half stays";
  EXPECT_LT(cut, 0.9 * whole) << "the near half is clipped";
  EXPECT_TRUE(fs::exists(dir / "frame_000001.png"));
  fs::remove_all(dir);
}

TEST(SceneLook, BinaryRendersTheCraterPresetHeadless) {
  EJECTA_NEED_GL();
  const fs::path dir = fs::temp_directory_path() / ("ejecta-test-crater-cli-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path scene = dir / "impact.ini";
  {
    std::ofstream out(scene);
    out << impact_scene().to_ini();
  }
  const auto r = test::run_binary("--headless --backend cpu --steps 2 --render-every 2 --render-dir '" +
                                  (dir / "frames").string() + "' --width 320 --height 240 '" + scene.string() + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("no damage field"), std::string::npos) << r.out;
  int w = 0, h = 0, comp = 0;
  unsigned char* data = stbi_load((dir / "frames" / "frame_000001.png").string().c_str(), &w, &h, &comp, 4);
  ASSERT_NE(data, nullptr);
  render::Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(data, data + std::size_t(w) * h * 4);
  stbi_image_free(data);
  EXPECT_GT(covered(img), 0.01);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ejecta
