#include "viewer/scene_view.h"

#include "render/box_lines.h"
#include "scene/scene_builder.h"

#include "render/frame_render_data.h"
#include "viewer/view_model.h"
#include "render_data/colour_histogram.h"
#include "viewer/legend_scale.h"
#include "viewer/scene_look.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>

namespace ejecta::viewer {

ColourChoice split_colour_spec(const std::string& spec) {
  ColourChoice c;
  c.field = spec;
  const auto dot = spec.rfind('.');
  if (dot != std::string::npos && dot + 2 == spec.size() && std::string("xyz").find(spec[dot + 1]) != std::string::npos) {
    c.field = spec.substr(0, dot);
    c.component = int(std::string("xyz").find(spec[dot + 1]));
  }
  return c;
}

SceneView::SceneView(Simulation& sim, const ParamSet& scene, bool allow_interop, bool allow_splat)
    : sim_(&sim), allow_interop_(allow_interop), allow_splat_(allow_splat) {
  attach(sim, scene);
}

SceneView::SceneView(const FrameData& first, const ParamSet& scene)
    : sim_(nullptr), allow_interop_(false), allow_splat_(false) {
  uploader_ = render::make_host_uploader(renderer_);
  path_ = uploader_->path();
  note_ = "not used in playback";
  fields_ = render::frame_fields(first);
  render::fill_from_frame(first, RenderRequest{"position", -1}, frame_pos_, frame_col_);
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  const std::size_t n = frame_pos_.size() / 4;
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], frame_pos_[4 * i + d]);
      hi[d] = std::max(hi[d], frame_pos_[4 * i + d]);
    }
  if (n == 0) lo = hi = glm::vec3(0.f);
  const FieldData* x = first.find("position");
  reset_camera(render::Bounds{lo, hi}, x ? x->info.components : 2, scene, 0);
  settings_.show_collider = false;  // not recorded
}

namespace {

// The particle spacing for the sphere radius: the median of (m / rho)^(1/dim) over the free
// particles (fluid, gas, solid), so that spheres touch on the initial lattice whatever the model
// ([solid_block.N] and [gas_block.N] carry their own dp; particles.dp is the liquid's). 0 when it
// cannot be measured.
double measured_spacing(const HostParticles& h) {
  std::vector<double> s;
  for (std::size_t i = 0; i < h.n; ++i)
    if ((h.kind.empty() || h.kind[i] == 0) && i < h.mass.size() && i < h.density.size() && h.density[i] > 0 &&
        h.mass[i] > 0)
      s.push_back(std::pow(h.mass[i] / h.density[i], 1.0 / std::max(1, h.dim)));
  if (s.empty()) return 0;
  std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
  return s[s.size() / 2];
}

}  // namespace

std::vector<render::Bounds> geometry_outline(const ParamSet& scene, int dim, double time) {
  std::vector<render::Bounds> out;
  for (const char* section : {"tank", "obstacle", "gate"})
    for (int i : scene.indices(section)) {
      const std::string s = std::string(section) + "." + std::to_string(i);
      const auto lo = scene.vec3(s + ".min"), hi = scene.vec3(s + ".max");
      // A gate where it is at `time`: moved by v min(t, t_s) (scene_builder.h, gate_stop_time).
      std::array<double, 3> shift = {0, 0, 0};
      if (section == std::string("gate")) {
        const auto v = scene.vec3(s + ".velocity");
        const double t = std::min(time, gate_stop_time(scene, s));
        for (int d = 0; d < 3; ++d) shift[d] = v[d] * t;
      }
      render::Bounds b;
      for (int d = 0; d < 3; ++d) {
        b.lo[d] = d < dim ? float(lo[d] + shift[d]) : 0.f;
        b.hi[d] = d < dim ? float(hi[d] + shift[d]) : 0.f;
      }
      out.push_back(b);
    }
  return out;
}

void SceneView::reset_camera(const render::Bounds& b, int dim, const ParamSet& scene, double spacing) {
  bounds_ = b;
  outline_scene_ = scene;
  outline_dim_ = dim;
  settings_.outline = geometry_outline(scene, dim);
  const bool two_d = dim < 3;
  camera_ = render::Camera(two_d);
  if (!two_d) camera_.preset(render::ViewPreset::Iso);
  // A 3D tank's opaque wall shell would hide the fluid: hidden there, dimmed in 2D (W cycles).
  settings_.walls = two_d ? render::WallMode::Dimmed : render::WallMode::Hidden;
  camera_.fit(bounds_);
  fit_pending_ = true;
  // Spheres touch their neighbours on the initial lattice.
  settings_.radius = float(0.5 * (spacing > 0 ? spacing : scene.real("particles.dp")));
  natural_radius_ = auto_radius_ = settings_.radius;
}

void SceneView::fit() { camera_.fit(bounds_); }

void SceneView::follow_gates(double time) {
  if (!settings_.outline.empty() && !outline_scene_.indices("gate").empty())
    settings_.outline = geometry_outline(outline_scene_, outline_dim_, time);
}

RenderRange SceneView::show(const FrameData& frame) {
  const auto t0 = std::chrono::steady_clock::now();
  const RenderRange r =
      render::fill_from_frame(frame, RenderRequest{colour_.field, colour_.component}, frame_pos_, frame_col_,
                              render::uniform_radii_forced() ? nullptr : &frame_rad_);
  render::upload_host_arrays(renderer_, frame_pos_, frame_col_, frame_rad_);
  upload_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  take_range(r);
  measure_histogram(frame_col_, frame.find("kind"));
  follow_gates(frame.time);
  return r;
}

void SceneView::connect(Simulation& sim) {
  sim_ = &sim;
  fields_ = sim.fields();
  histogram_.clear();
  histogram_at_ = -1e30;
  uploader_.reset();
  splat_.reset();
  uploader_ = render::make_uploader(renderer_, sim, allow_interop_, &note_);
  path_ = uploader_->path();
  if (path_ != "host copy") {
    note_.clear();
    std::string why;
    if (allow_splat_) splat_ = render::make_splat_renderer(sim, &why);
    if (splat_) path_ = "CUDA splat (interop)";
  }
}

void SceneView::replace(Simulation& sim) { connect(sim); }

void SceneView::attach(Simulation& sim, const ParamSet& scene) {
  connect(sim);
  const HostParticles h = sim.download();
  const int dim = h.dim;
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (std::size_t i = 0; i < h.n; ++i)
    for (int d = 0; d < 3; ++d) {
      const float v = d < dim ? float(h.position[i * dim + d]) : 0.f;
      lo[d] = std::min(lo[d], v);
      hi[d] = std::max(hi[d], v);
    }
  if (h.n == 0) lo = hi = glm::vec3(0.f);
  reset_camera(render::Bounds{lo, hi}, dim, scene, measured_spacing(h));
  const ColliderSphere c = sim.collider();
  settings_.show_collider = c.enabled;
}

RenderRange SceneView::update() {
  const auto t0 = std::chrono::steady_clock::now();
  const RenderRequest req{colour_.field, colour_.component};
  const RenderRange r = splat_ ? splat_->fill(*sim_, req) : uploader_->upload(*sim_, req);
  upload_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  take_range(r);
  measure_histogram_live();
  const ColliderSphere c = sim_->collider();
  follow_gates(sim_->time());
  settings_.show_collider = c.enabled;
  settings_.collider_center = glm::vec3(float(c.center[0]), float(c.center[1]), sim_->dim() == 3 ? float(c.center[2]) : 0.f);
  settings_.collider_radius = float(c.radius);
  // The octree's top levels as the last force evaluation built them (empty without self-gravity).
  settings_.tree_cells = settings_.show_tree ? render::tree_cell_bounds(sim_->gravity_tree_cells(settings_.tree_levels),
                                                                        settings_.tree_levels)
                                             : std::vector<render::Bounds>{};
  return r;
}

void SceneView::measure_histogram(const std::vector<float>& values, const FieldData* kind) {
  const bool fluid_only = kind && kind->info.scalar == ScalarType::UInt8 && kind->count() == values.size();
  histogram_ = viewer::histogram(values, fluid_only ? kind->bytes.data() : nullptr, colour_.min, colour_.max,
                                 kColourHistogramBins);
}

void SceneView::measure_histogram_live() {
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (now - histogram_at_ < histogram_interval_s_) return;
  histogram_at_ = now;
  // Binned by the engine on its backend: only the counts come to the host (no field download).
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const ColourHistogram h = sim_->colour_histogram(RenderRequest{colour_.field, colour_.component}, colour_.min,
                                                     colour_.max);
    histogram_.assign(h.counts.begin(), h.counts.end());
  } catch (const std::invalid_argument&) {
    histogram_.clear();  // a colour field that is not (yet) valid: no histogram
  }
  histogram_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void SceneView::take_range(const RenderRange& r) {
  const FieldInfo* info = nullptr;
  for (const FieldInfo& f : fields_)
    if (f.name == colour_.field) info = &f;
  if (colour_.auto_range && info && is_categorical(*info)) {
    // Category k in the middle of the k-th colour of tab10 (or of any map, in tenths).
    colour_.min = kCategoryMin;
    colour_.max = kCategoryMax;
  } else if (colour_.auto_range && r.min <= r.max) {
    colour_.min = r.min;
    colour_.max = r.max;
    // The diverging map is for signed fields: its white middle stays at zero.
    if (settings_.colormap == "coolwarm") {
      const float m = std::max(std::fabs(r.min), std::fabs(r.max));
      colour_.min = -m;
      colour_.max = m;
    }
    if (!(colour_.max > colour_.min)) {  // a uniform field: its natural range, or one around its value
      const bool is_signed = is_signed_quantity(colour_.field, colour_.component) || settings_.colormap == "coolwarm";
      const auto [lo, hi] = uniform_range(colour_.field, is_signed, colour_.min);
      colour_.min = lo;
      colour_.max = hi;
    }
  }
  settings_.range_min = colour_.min;
  settings_.range_max = colour_.max;
}

void SceneView::draw(int width, int height) {
  // fit() (key F) frames for the aspect of the last frame drawn; the first frame after attach
  // fits again, now that the frame's size is known.
  camera_.set_aspect(float(width) / float(std::max(height, 1)));
  if (fit_pending_) {
    fit();
    fit_pending_ = false;
  }
  // While nobody chose a radius (the panel's radius box; that choice stands), particles are drawn at
  // least 4 pixels across at any zoom: big scenes stay visible, and zoomed in they touch again.
  if (settings_.radius == auto_radius_)
    settings_.radius = auto_radius_ = min_visible_radius(natural_radius_, camera_.pixels_per_metre(height));
  // Grains (their own radii) follow the radius box and the minimum size in proportion: at the
  // natural radius they are drawn at their true size.
  settings_.radius_scale = grain_radius_scale(settings_.radius, natural_radius_);
  fb_.resize(width, height);
  fb_.bind();
  if (splat_) {
    splat_->draw(camera_, settings_, width, height, fb_.id());
    renderer_.draw_outline(camera_, settings_, width, height);
    renderer_.draw_tree(camera_, settings_, width, height);
    renderer_.draw_collider(camera_, settings_, width, height);
  } else {
    renderer_.draw(camera_, settings_, width, height);
  }
}

void SceneView::apply_look(const LookOptions& look) {
  if (look.walls == "hidden") settings_.walls = render::WallMode::Hidden;
  if (look.walls == "dimmed") settings_.walls = render::WallMode::Dimmed;
  if (look.walls == "shown") settings_.walls = render::WallMode::Shown;
  if (look.sprites == "spheres") settings_.mode = render::SpriteMode::Spheres;
  if (look.sprites == "discs") settings_.mode = render::SpriteMode::Discs;
  if (look.theme == "dark") settings_.background = render::dark_background();
  if (look.theme == "light") settings_.background = render::light_background();
  if (!camera_.two_d()) {
    if (look.view == "front") camera_.preset(render::ViewPreset::Front);
    if (look.view == "side") camera_.preset(render::ViewPreset::Side);
    if (look.view == "top") camera_.preset(render::ViewPreset::Top);
    if (look.view == "iso") camera_.preset(render::ViewPreset::Iso);
  }
}

}  // namespace ejecta::viewer
