#pragma once
// A scene's look from its [view] keys (engine/params/builtin_params.cpp, group View): colour field
// and colormap, range, clip plane, camera direction, walls, sprites, and the "crater" preset. Read
// when a scene loads (viewer, headless --render-every frames, playback), written back by "save scene
// as". No GL here: resolve_look() turns the keys into the values SceneView takes (scene_view.h
// applies them), so the tests check it without a context.
#include "params/param_set.h"
#include "particles/field_info.h"
#include "render/renderer.h"
#include "viewer/scene_view.h"

#include <optional>
#include <string>
#include <vector>

namespace ejecta::viewer {

// The line along which a body hits the scene: through `point`, along `direction` (unit). Found from
// the particles: the fastest ones (within half the top speed) give the centroid and mean direction.
struct ImpactAxis {
  glm::vec3 point{0.f};
  glm::vec3 direction{0.f, 0.f, -1.f};
};
// nullopt when nothing moves. pos/vel: n * dim values.
std::optional<ImpactAxis> find_impact_axis(int dim, std::size_t n, const double* pos, const double* vel);

// What resolve_look gives: everything the viewer state takes from a scene's [view] keys.
struct ResolvedLook {
  ColourChoice colour;
  std::string colormap;  // a colormap name (auto resolved)
  render::WallMode walls = render::WallMode::Dimmed;
  render::SpriteMode sprites = render::SpriteMode::Spheres;
  bool light = false;  // view.theme = light
  bool clip = false;
  glm::vec3 clip_normal{1, 0, 0};
  float clip_offset = 0;
  std::optional<render::ViewPreset> camera;  // 3D only
  std::optional<glm::vec3> camera_direction;  // 3D only, unit; applied after the preset
  std::string camera_name;                   // "iso", "side", ... ("" in 2D)
  std::string note;  // for the status bar: fallbacks taken ("" when none)
};

// Signed quantities get the diverging map by default: any single component of a vector or tensor,
// and the scalar fields in kSignedScalarFields (pressure, rates); magnitudes and invariants do not.
bool is_signed_quantity(const std::string& field, int component);
// "tab10" for an integer field among `fields` (kind, material: categories, legend_scale.h),
// "coolwarm" for a signed quantity, else "viridis".
std::string auto_colormap(const std::string& field, int component, const std::vector<FieldInfo>& fields = {});

// The [view] keys of `scene` against the fields the scene has (colour-by falls back, saying so in
// note), its dimension and impact axis (the crater preset's clip plane; the middle of `bounds`
// without one).
ResolvedLook resolve_look(const ParamSet& scene, const std::vector<FieldInfo>& fields, int dim,
                          const std::optional<ImpactAxis>& axis, const render::Bounds& bounds);

// The colour spec "velocity", "velocity.y" of a choice.
std::string colour_spec(const ColourChoice& c);

// The viewer's current look as [view] keys into `scene` (for "save scene as"): colour, colormap,
// range, clip, walls, sprites, theme, the camera preset last chosen ("" keeps the scene's) and, 3D, the
// camera's direction (null: 2D, none).
void store_look(ParamSet& scene, const ColourChoice& colour, const render::ViewSettings& v,
                const std::string& camera_name, const std::string& where,
                const render::Camera* camera = nullptr);

}  // namespace ejecta::viewer

namespace ejecta::viewer {

// Sets the view's colour choice, colormap, walls, sprites, clip plane and camera from `r`.
void apply_resolved_look(SceneView& view, const ResolvedLook& r);
// The scene's look onto a view of `sim` (its fields, dimension, particles for the impact axis);
// returns the note for the status bar.
std::string apply_scene_look(SceneView& view, const Simulation& sim, const ParamSet& scene);
// The same for playback, from a recorded frame.
std::string apply_scene_look(SceneView& view, const FrameData& frame, const ParamSet& scene);

}  // namespace ejecta::viewer

namespace ejecta::viewer {

// The command line's look over the scene's: --colour-by (ParamError for a field the scene lacks;
// its colormap follows unless --colormap is given), --colormap (ParamError for an unknown one),
// --walls/--sprites/--view. "" keeps what the scene set.
void apply_command_line_look(SceneView& view, const std::vector<FieldInfo>& fields, const std::string& colour_by,
                             const std::string& colormap, const LookOptions& look);

}  // namespace ejecta::viewer
