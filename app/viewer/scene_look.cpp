#include "viewer/scene_look.h"

#include "render/colormap.h"
#include "render/frame_render_data.h"
#include "viewer/legend_scale.h"
#include "viewer/render_observer.h"

#include <algorithm>
#include <cmath>

namespace ejecta::viewer {

namespace {

// Scalar fields whose values change sign in ordinary runs (the diverging map keeps zero white).
const char* const kSignedScalarFields[] = {"pressure", "density_rate", "energy_rate"};

// The crater preset's colour field, in order of preference.
const char* const kCraterColourFields[] = {"damage", "von_mises_stress", "pressure"};

const FieldInfo* find_field(const std::vector<FieldInfo>& fields, const std::string& name) {
  for (const FieldInfo& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

// "velocity.y" -> ("velocity", 1) when the field has that component; nullopt when it is not a field.
std::optional<ColourChoice> colour_of(const std::string& spec, const std::vector<FieldInfo>& fields) {
  const ColourChoice c = split_colour_spec(spec);
  const FieldInfo* f = find_field(fields, c.field);
  if (!f || c.component >= f->components) return std::nullopt;
  return c;
}

glm::vec3 camera_forward(render::ViewPreset p) {
  switch (p) {
    case render::ViewPreset::Front: return {0, 1, 0};
    case render::ViewPreset::Side: return {1, 0, 0};
    case render::ViewPreset::Top: return {0, 0, -1};
    case render::ViewPreset::Iso: break;
  }
  const float y = glm::radians(-60.f), pt = glm::radians(30.f);  // render/camera.cpp's iso direction
  return glm::normalize(glm::vec3(std::cos(pt) * std::cos(y), -std::cos(pt) * std::sin(y), -std::sin(pt)));
}

render::ViewPreset preset_of(const std::string& name) {
  if (name == "front") return render::ViewPreset::Front;
  if (name == "side") return render::ViewPreset::Side;
  if (name == "top") return render::ViewPreset::Top;
  return render::ViewPreset::Iso;
}

}  // namespace

std::optional<ImpactAxis> find_impact_axis(int dim, std::size_t n, const double* pos, const double* vel) {
  double vmax2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double v2 = 0;
    for (int d = 0; d < dim; ++d) v2 += vel[i * dim + d] * vel[i * dim + d];
    vmax2 = std::max(vmax2, v2);
  }
  if (!(vmax2 > 0)) return std::nullopt;
  glm::dvec3 c(0.0), v(0.0);
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double v2 = 0;
    for (int d = 0; d < dim; ++d) v2 += vel[i * dim + d] * vel[i * dim + d];
    if (v2 < 0.25 * vmax2) continue;  // within half the top speed
    for (int d = 0; d < dim; ++d) c[d] += pos[i * dim + d], v[d] += vel[i * dim + d];
    ++k;
  }
  ImpactAxis a;
  a.point = glm::vec3(c / double(k));
  const double len = glm::length(v);
  if (len > 0) a.direction = glm::vec3(v / len);
  return a;
}

bool is_signed_quantity(const std::string& field, int component) {
  if (component >= 0) return true;
  for (const char* s : kSignedScalarFields)
    if (field == s) return true;
  return false;
}

std::string auto_colormap(const std::string& field, int component, const std::vector<FieldInfo>& fields) {
  const FieldInfo* f = find_field(fields, field);
  if (f && is_categorical(*f)) return "tab10";
  return is_signed_quantity(field, component) ? "coolwarm" : "viridis";
}

std::string colour_spec(const ColourChoice& c) {
  return c.field + (c.component >= 0 ? std::string(".") + "xyz"[c.component] : "");
}

ResolvedLook resolve_look(const ParamSet& scene, const std::vector<FieldInfo>& fields, int dim,
                          const std::optional<ImpactAxis>& axis, const render::Bounds& bounds) {
  ResolvedLook r;
  const bool crater = scene.text("view.preset") == "crater";
  const bool three_d = dim == 3;
  auto note = [&](const std::string& s) { r.note += (r.note.empty() ? "" : "; ") + s; };

  // Colour: the scene's field, else (crater) the first of the preset's fields the scene has.
  const std::string spec = scene.text("view.colour_by");
  std::optional<ColourChoice> c;
  if (scene.is_set("view.colour_by") || !crater) {
    c = colour_of(spec, fields);
    if (!c) {
      c = colour_of("velocity", fields);
      note("view.colour_by = " + spec + ": this scene has no such field; colouring by velocity");
    }
  } else {
    for (const char* name : kCraterColourFields) {
      c = colour_of(name, fields);
      if (c) {
        if (std::string(name) != kCraterColourFields[0])
          note(std::string("view.preset = crater: no damage field in this scene; colouring by ") + name);
        break;
      }
    }
    if (!c) c = colour_of("velocity", fields);
  }
  if (c) r.colour = *c;
  r.colour.auto_range = scene.flag("view.auto_range");
  r.colour.min = float(scene.real("view.range_min"));
  r.colour.max = float(scene.real("view.range_max"));
  const std::string map = scene.text("view.colormap");
  r.colormap = map == "auto" ? auto_colormap(r.colour.field, r.colour.component, fields) : map;

  const std::string walls = scene.text("view.walls");
  r.walls = walls == "shown"    ? render::WallMode::Shown
            : walls == "dimmed" ? render::WallMode::Dimmed
            : walls == "hidden" ? render::WallMode::Hidden
            : three_d           ? render::WallMode::Hidden
                                : render::WallMode::Dimmed;
  r.sprites = scene.text("view.sprites") == "discs" ? render::SpriteMode::Discs : render::SpriteMode::Spheres;
  r.light = scene.text("view.theme") == "light";

  glm::vec3 forward(0.f);
  if (three_d) {
    const std::string cam = scene.text("view.camera");
    r.camera_name = cam != "auto" ? cam : crater ? "side" : "iso";
    r.camera = preset_of(r.camera_name);
    forward = camera_forward(*r.camera);
    const auto d = scene.vec3("view.camera_direction");
    const glm::vec3 dir{float(d[0]), float(d[1]), float(d[2])};
    if (glm::length(dir) > 0) {
      r.camera_direction = glm::normalize(dir);
      forward = *r.camera_direction;
    }
  }

  // Clip plane: the scene's, or (crater) through the impact axis, facing the camera, so that the
  // near half is hidden and the cut face shows the crater's cross-section.
  r.clip = scene.is_set("view.clip") ? scene.flag("view.clip") : crater;
  const auto n = scene.vec3("view.clip_normal");
  r.clip_normal = glm::vec3(float(n[0]), float(n[1]), float(n[2]));
  r.clip_offset = float(scene.real("view.clip_offset"));
  if (crater && three_d && !scene.is_set("view.clip_normal")) {
    const glm::vec3 centre = 0.5f * (bounds.lo + bounds.hi);
    const ImpactAxis a = axis ? *axis : ImpactAxis{centre, {0, 0, -1}};
    if (!axis) note("view.preset = crater: nothing moves; the clip plane passes through the middle of the scene");
    const glm::vec3 f = forward;
    glm::vec3 m = f - glm::dot(f, a.direction) * a.direction;  // the camera direction across the axis
    if (glm::length(m) < 1e-3f) m = std::fabs(a.direction.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    r.clip_normal = -glm::normalize(m - glm::dot(m, a.direction) * a.direction);
    if (!scene.is_set("view.clip_offset")) r.clip_offset = glm::dot(r.clip_normal, a.point);
  }
  if (glm::length(r.clip_normal) > 0) r.clip_normal = glm::normalize(r.clip_normal);
  else r.clip_normal = glm::vec3(1, 0, 0);
  if (r.clip && !three_d) {
    r.clip = false;
    if (scene.is_set("view.clip")) note("view.clip: a 2D scene is its own cross-section; no clip plane");
  }
  return r;
}

void store_look(ParamSet& scene, const ColourChoice& colour, const render::ViewSettings& v,
                const std::string& camera_name, const std::string& where, const render::Camera* camera) {
  scene.set("view.colour_by", colour_spec(colour), where);
  const bool auto_map = v.colormap == auto_colormap(colour.field, colour.component) &&
                        scene.text("view.colormap") == "auto";
  scene.set("view.colormap", auto_map ? "auto" : v.colormap, where);
  scene.set("view.auto_range", colour.auto_range ? "true" : "false", where);
  scene.set("view.range_min", format_number(colour.min), where);
  scene.set("view.range_max", format_number(colour.max), where);
  scene.set("view.clip", v.clip ? "true" : "false", where);
  scene.set("view.clip_normal",
            format_number(v.clip_normal.x) + ", " + format_number(v.clip_normal.y) + ", " + format_number(v.clip_normal.z),
            where);
  scene.set("view.clip_offset", format_number(v.clip_offset), where);
  const char* walls[] = {"hidden", "dimmed", "shown"};
  scene.set("view.walls", walls[int(v.walls)], where);
  scene.set("view.sprites", v.mode == render::SpriteMode::Discs ? "discs" : "spheres", where);
  scene.set("view.theme", v.background == render::light_background() ? "light" : "dark", where);
  if (!camera_name.empty()) scene.set("view.camera", camera_name, where);
  if (camera && !camera->two_d()) {
    const glm::vec3 d = camera->direction();
    scene.set("view.camera_direction", format_number(d.x) + ", " + format_number(d.y) + ", " + format_number(d.z), where);
  }
}

}  // namespace ejecta::viewer

namespace ejecta::viewer {

void apply_resolved_look(SceneView& view, const ResolvedLook& r) {
  view.colour() = r.colour;
  render::ViewSettings& v = view.settings();
  v.colormap = r.colormap;
  v.walls = r.walls;
  v.mode = r.sprites;
  v.background = r.light ? render::light_background() : render::dark_background();
  v.clip = r.clip;
  v.clip_normal = r.clip_normal;
  v.clip_offset = r.clip_offset;
  if (r.camera && !view.camera().two_d()) view.camera().preset(*r.camera);
  if (r.camera_direction && !view.camera().two_d()) view.camera().look_along(*r.camera_direction);
}

std::string apply_scene_look(SceneView& view, const Simulation& sim, const ParamSet& scene) {
  const HostParticles h = sim.download();
  const auto axis = find_impact_axis(h.dim, h.n, h.position.data(), h.velocity.data());
  const ResolvedLook r = resolve_look(scene, sim.fields(), h.dim, axis, view.bounds());
  apply_resolved_look(view, r);
  return r.note;
}

std::string apply_scene_look(SceneView& view, const FrameData& frame, const ParamSet& scene) {
  const FieldData* x = frame.find("position");
  const FieldData* u = frame.find("velocity");
  const int dim = x ? x->info.components : 2;
  std::optional<ImpactAxis> axis;
  if (x && u) {
    auto to_double = [](const FieldData& f) {
      std::vector<double> out(f.bytes.size() / (f.info.scalar == ScalarType::Float64 ? 8 : 4));
      for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = f.info.scalar == ScalarType::Float64 ? reinterpret_cast<const double*>(f.bytes.data())[i]
                                                      : reinterpret_cast<const float*>(f.bytes.data())[i];
      return out;
    };
    const std::vector<double> p = to_double(*x), v = to_double(*u);
    axis = find_impact_axis(dim, frame.particles, p.data(), v.data());
  }
  const ResolvedLook r = resolve_look(scene, render::frame_fields(frame), dim, axis, view.bounds());
  apply_resolved_look(view, r);
  return r.note;
}

}  // namespace ejecta::viewer

namespace ejecta::viewer {

void apply_command_line_look(SceneView& view, const std::vector<FieldInfo>& fields, const std::string& colour_by,
                             const std::string& colormap, const LookOptions& look) {
  if (!colour_by.empty()) {
    view.colour() = parse_colour_by(colour_by, fields);
    view.settings().colormap = auto_colormap(view.colour().field, view.colour().component, fields);
  }
  if (!colormap.empty()) {
    try {
      render::colormap(colormap);
    } catch (const std::invalid_argument& e) {
      throw ParamError(std::string("--colormap: ") + e.what());
    }
    view.settings().colormap = colormap;
  }
  view.apply_look(look);
}

}  // namespace ejecta::viewer
