#pragma once
// The mixed-material solver (physics.model = mixed; docs/architecture.md, "One particle engine"):
// one particle store for every body of the scene, each particle with a phase (the model of its
// material: liquid, tank wall, solid, DEM grain) and a material index; one evaluation of the rates
// is the sort followed by a list of terms (solver/term_list.h, model_recipes.h), each a pass over the store that registers
// itself (solver/term_registry.h, solver/terms/*.h) with the fields it reads and writes, the keys it
// reads, its stage and the model it belongs to. A model is a recipe of terms (docs/terms.md):
//   liquid: eos_tait_monaghan1994, forces_monaghan1992   (physics/coupling_adami2012.h)
//   solid:  eos_solid_benz_asphaug1994, [correction_randles_libersky1996], forces_solid_gray2001,
//           after every stage the yield limit (physics/solid_model.h)
//   dem (grains):  contact_linear_green2010               (physics/dem_grains.h; cuda-samples particles)
//                  or contact_hertz_mindlin_tsuji1992     (physics/dem_grains_hertz_mindlin.h; friction, rotation)
//   coupling (liquid with walls, solids and grains): boundary_adami2012, reaction_adami2012
// driven by the staged integrators of StagedStoreSolver (leapfrog KDK, predictor-corrector, RK23):
// the state is position, velocity, density, internal energy and deviatoric stress of every particle
// (the liquid's u and S and the walls' rates stay zero).
#include "physics/coupling_adami2012.h"
#include "physics/dem_grains.h"
#include "physics/dem_grains_hertz_mindlin.h"
#include "physics/solid_invariants.h"
#include "physics/solid_model.h"
#include "render_data/fill_from_store.h"
#include "scene/mixed_scene.h"
#include "solver/model_recipes.h"
#include "solver/solid_material_table.h"
#include "solver/staged_store_solver.h"
#include "solver/terms/term_contexts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

template <class T, int D, class Exec>
class MixedSolver final : public StagedStoreSolver<MixedSolver<T, D, Exec>, T, D, Exec> {
  using Base = StagedStoreSolver<MixedSolver<T, D, Exec>, T, D, Exec>;
  friend Base;
  using Base::exec_, Base::n_, Base::store_, Base::array_bytes_, Base::cells_, Base::settings_, Base::dt_max_,
      Base::cfl_, Base::force_factor_, Base::max_speed_, Base::times_, Base::phase_timing_;

 public:
  using Sym = SymTensor<T, D>;

  MixedSolver(const ParamSet& params, const SceneParticles& init) : Base(init.size()) {
    n_moving_ = init.count(kPhaseLiquid) + init.count(kPhaseSolid) + init.count(kPhaseGrain);
    n_grains_ = init.count(kPhaseGrain);
    configure(params, init);
    allocate();
    upload(init);
    make_terms(params);
    this->start();
  }

  const std::vector<Term>& terms() const { return terms_; }
  const std::vector<Term>& hooks() const { return hooks_; }

  // The hooks of stage after_stage: the solids' yield limit.
  void after_stage() {
    this->run_hooks(hooks_, TermStage::AfterStage);
    update_invariants();
  }

  double evaluate() {
    const auto t0 = this->phase_mark();
    cells_->build(pv_.s.x.get(), init_.h.get());
    store_.reorder(cells_->permutation());
    cells_->set_level_hmax(init_.h.get());
    grid_ = cells_->grid();
    update_invariants();  // non-persistent: again after the sort
    times_.sort += this->seconds(t0, this->phase_mark());
    this->run_terms(terms_);
    const auto t1 = std::chrono::steady_clock::now();
    // The time-step limits and (frictional grains) the largest contact count in one reduction.
    const GrainStepExtremes<T> both = exec_.transform_reduce(
        n_, GrainStepExtremes<T>::none(),
        MeasureGrainStepExtremes<T, D>{MeasureSolidExtremes<T, D>{pv_.s},
                                       MeasureDemContacts{hertz_ ? hist_.count : nullptr, pv_.s.phase}},
        CombineGrainStepExtremes<T>{});
    const SolidExtremes<T> e = both.rates();
    times_.forces += this->seconds(t1, std::chrono::steady_clock::now());
    if (e.bad_index != 0xffffffffu)
      this->report_bad_particle(e, "mixed-scene",
                                ", which is not finite (or a density <= 0); try a smaller time.cfl or a larger fluid.c0");
    max_speed_ = std::sqrt(double(e.max_v2));
    double dt = cfl_ * double(e.min_h_vsig);
    dt = std::min(dt, force_factor_ * std::sqrt(double(e.min_h_a)));
    dt = std::min(dt, dt_grain_);
    if (hertz_) {
      check_contact_capacity(DemMostContacts{both.most_count, both.most_index});
      dt = std::min(dt, hertz_dt());
    }
    return std::min(dt, dt_max_);
  }

  // Particles that move (liquid and solid; as SolidSolver counts all its particles): all but tank walls.
  std::size_t fluid_count() const override { return n_moving_; }

  Diagnostics diagnostics() const override {
    MeasureMixedSums<T, D> m{pv_.s, {0, 0, 0}, double(liquid_.eos.rho0), double(liquid_.eos.gamma),
                             double(liquid_.eos.B)};
    for (int d = 0; d < D; ++d) m.gravity[d] = double(liquid_.gravity[d]);
    const DiagnosticSums zero{0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0};
    const DiagnosticSums s = exec_.transform_reduce(n_, zero, m, CombineDiagnosticSums{});
    Diagnostics dg = diagnostics_from_sums(s, D, this->time_, this->steps_, double(this->dt_), n_, s.max_density_error);
    if (hertz_) {
      // The grains' spin, 1/2 I w^2, is kinetic energy too (and part of the total).
      const double spin = exec_.transform_reduce(
          n_, 0.0, MeasureGrainSpinEnergy<T, D>{pv_.s.phase, pv_.s.m, grain_radius_, hist_.w}, SumDoubles{});
      dg.kinetic += spin;
      dg.total += spin;
    }
    return dg;
  }

  RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out) override {
    return fill_render_data_from_store<T, D>(exec_, store_, pv_.s.x.get(), pv_.s.kind.get(), n_, true, req, out);
  }
  ColourHistogram colour_histogram(const RenderRequest& req, float lo, float hi) override {
    return colour_histogram_from_store(exec_, store_, pv_.s.kind.get(), n_, true, req, lo, hi);
  }
  void apply_params(const ParamSet& params) override { configure_live(params); }
  // The collider sphere on the grains (collider.*; the viewer drags it between steps).
  ColliderSphere collider() const override { return collider_host_; }
  void set_collider(const ColliderSphere& c) override {
    if (!n_grains_ || n_moving_ != n_grains_)
      throw std::invalid_argument("collider: in a mixed scene it pushes grains only, and this scene has other bodies");
    set_grain_collider(c);
  }
  std::vector<Material> materials() const override { return materials_; }

  void restore_frame(const FrameData& frame) override {
    Base::restore_frame(frame);
    update_invariants();
  }

 private:
  void update_invariants() { exec_.for_each(n_, SolidVonMisesStress<T, D>{pv_.s.S, nullptr, von_mises_}); }

  void configure(const ParamSet& params, const SceneParticles& init) {
    refuse_unsupported(params);
    const KernelType kt =
        params.text("particles.kernel") == "cubic_spline" ? KernelType::CubicSpline : KernelType::WendlandC2;
    solid_.kernel = VarKernel<T, D>::make(kt);
    liquid_.kernel = solid_.kernel;
    liquid_.eos = TaitEos<T>::make(init.liquid.rho0, init.has_liquid ? init.liquid.c0 : 1.0, init.liquid.gamma);
    solid_.h_over_dp = T(params.real("solid.h_over_dp"));
    materials_ = init.materials;
    mats_.assign(exec_, init.materials, &array_bytes_);
    solid_.mat = mats_.device();
    solid_.n_materials = mats_.size();
    any_yield_ = mats_.any_yield();
    settings_.scheme = scheme_from_name(params.text("time.integrator"));
    art_on_ = params.real("solid.artificial_stress") > 0;
    solid_.correct = params.flag("solid.gradient_correction");
    solid_.correct_force = params.flag("solid.corrected_force");
    solid_.plane_stress = params.text("solid.plane") == "stress";
    if (solid_.plane_stress && D != 2)
      throw ParamError(params.where("solid.plane") + ": solid.plane = stress needs scene.dim = 2");
    if (solid_.correct_force && !solid_.correct)
      throw ParamError(params.where("solid.corrected_force") +
                       ": solid.corrected_force = true needs solid.gradient_correction = true");
    if (n_grains_) {
      double rmax = 0, mmin = std::numeric_limits<double>::max();
      for (std::size_t i = 0; i < n_; ++i)
        if (init.phase[i] == kPhaseGrain) rmax = std::max(rmax, init.radius[i]), mmin = std::min(mmin, init.mass[i]);
      grains_.r_max = T(rmax);
      grain_mass_min_ = mmin;
      hertz_ = params.text("dem.contact") == "hertz_mindlin";
      if (hertz_ && settings_.scheme != Scheme::Leapfrog)
        throw ParamError(params.where("time.integrator") + ": time.integrator = " + params.text("time.integrator") +
                         " with dem.contact = hertz_mindlin (" + params.where("dem.contact") +
                         "): the grains' tangential springs advance once per step, which needs the one evaluation "
                         "per step of time.integrator = leapfrog; use leapfrog or dem.contact = linear");
      const auto lo = params.vec3("dem.box_min"), hi = params.vec3("dem.box_max");
      for (int d = 0; d < D; ++d) grains_.box_lo[d] = T(lo[d]), grains_.box_hi[d] = T(hi[d]);
    }
    // The collider sphere pushes grains only (the cuda-samples demo); the liquid and solids of a mixed
    // scene do not feel it yet: refused there rather than silently passing through them.
    if (params.flag("collider.enabled") && (!n_grains_ || init.count(kPhaseLiquid) || init.count(kPhaseSolid)))
      throw ParamError(params.where("collider.enabled") + ": collider.enabled = true in a mixed scene acts on grains "
                       "only, and this scene has " + std::string(n_grains_ ? "liquid or solid particles" : "no grains") +
                       " (the collider of a mixed liquid or solid is not available yet); remove it, or run the liquid "
                       "alone with physics.model = wcsph");
    configure_live(params);
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, hmin = std::numeric_limits<double>::max(), hmax = 0;
    for (int d = 0; d < D; ++d) lo[d] = std::numeric_limits<double>::max(), hi[d] = -lo[d];
    for (std::size_t i = 0; i < n_; ++i) {
      for (int d = 0; d < D; ++d) {
        lo[d] = std::min(lo[d], init.position[i * D + d]);
        hi[d] = std::max(hi[d], init.position[i * D + d]);
      }
      hmin = std::min(hmin, init.h[i]);
      hmax = std::max(hmax, init.h[i]);
    }
    grid_ = make_level_grid<T, D>(lo, hi, hmin, hmax, n_);
    grid_.band = band_rows_setting(params.integer("neighbours.band_rows"), exec_cache_bytes(exec_), n_, grid_.dims[0], D, 1,
                                   (2.0 * D + 5 + D * (D + 1)) * sizeof(T) + 2);  // bucket_order.h (issue 18)
  }

  // Liquid options of the wcsph solver that the liquid recipe here does not have yet: refused with
  // the key, not silently ignored.
  static void refuse_unsupported(const ParamSet& ps) {
    auto refuse = [&](const std::string& key, const std::string& what, const std::string& value) {
      throw ParamError(ps.where(key) + ": " + key + " = " + value + " is not available for the liquid of a "
                       "mixed scene yet (" + what + "); remove it or run the liquid alone with physics.model = wcsph");
    };
    if (ps.real("fluid.xsph") != 0) refuse("fluid.xsph", "XSPH", format_number(ps.real("fluid.xsph")));
    if (ps.real("fluid.shifting") != 0) refuse("fluid.shifting", "particle shifting", format_number(ps.real("fluid.shifting")));
    if (ps.text("fluid.density") != "continuity") refuse("fluid.density", "summation density", ps.text("fluid.density"));
    if (ps.text("fluid.pressure_term") != "monaghan1992") refuse("fluid.pressure_term", "the Zhang 2017 pair pressure", ps.text("fluid.pressure_term"));
    if (!ps.indices("obstacle").empty())
      throw ParamError(ps.where("obstacle." + std::to_string(ps.indices("obstacle")[0]) + ".min") +
                       ": [obstacle.N] is not available in mixed scenes yet; make the obstacle a "
                       "[solid_block.N] with motion = prescribed");
  }

  void configure_live(const ParamSet& params) {
    if (n_grains_ && n_moving_ == n_grains_) {  // collider.* (live: the viewer toggles and drags it)
      ColliderSphere c;
      c.enabled = params.flag("collider.enabled");
      const auto cc = params.vec3("collider.center"), cv = params.vec3("collider.velocity");
      for (int d = 0; d < 3; ++d) c.center[d] = cc[d], c.velocity[d] = cv[d];
      c.radius = params.real("collider.radius");
      c.strength = params.real("collider.strength");
      set_grain_collider(c);
    }
    const auto g = params.vec3("physics.gravity");
    for (int d = 0; d < D; ++d) solid_.gravity[d] = liquid_.gravity[d] = grains_.gravity[d] = T(g[d]);
    if (n_grains_) {
      const double k = params.real("dem.spring");
      grains_.contact.spring = T(k);
      grains_.contact.damping = T(params.real("dem.damping"));
      grains_.contact.shear = T(params.real("dem.shear"));
      grains_.contact.attraction = T(params.real("dem.attraction"));
      grains_.wall_damping = T(params.real("dem.boundary_damping"));
      if (hertz_) {
        DemHertzMindlinParams<T> hp;
        hp.youngs_a = hp.youngs_b = T(params.real("dem.youngs_modulus"));
        hp.poisson_a = hp.poisson_b = T(params.real("dem.poisson_ratio"));
        hp.restitution = T(params.real("dem.restitution"));
        hp.friction = T(params.real("dem.friction"));
        hm_ = dem_hertz_mindlin_pair(hp);
        rolling_ = T(params.real("dem.rolling_friction"));
        steps_per_contact_ = params.real("dem.steps_per_contact");
        const auto lo = params.vec3("dem.box_min"), hi = params.vec3("dem.box_max");
        double g2 = 0, extent = 0;
        for (int d = 0; d < D; ++d) g2 += double(grains_.gravity[d]) * double(grains_.gravity[d]), extent = std::max(extent, hi[d] - lo[d]);
        fall_speed_ = std::sqrt(2 * std::sqrt(g2) * extent);
      }
      grains_.global_damping = T(params.real("dem.global_damping"));
      // A contact lasts pi sqrt(m* / k); the lightest grain on a wall (m* = m) is the shortest bound
      // that holds for every pair too (m* = m / 2 gives t_c / sqrt 2: resolved by 0.7 of the steps).
      dt_grain_ = k > 0 && !hertz_ ? 3.14159265358979323846 * std::sqrt(grain_mass_min_ / k) / params.real("dem.steps_per_contact")
                        : std::numeric_limits<double>::max();
    }
    // Each material's viscosity: viscosity.solid.* / viscosity.liquid.*, else viscosity.alpha/beta as
    // that model reads it (ParamDesc::inherits).
    solid_.alpha = T(params.real("viscosity.solid.alpha"));
    solid_.beta = T(params.real("viscosity.solid.beta"));
    solid_.art_eps = art_on_ ? T(params.real("solid.artificial_stress")) : T(0);
    solid_.T_ref = T(params.real("solid.reference_temperature"));
    liquid_.alpha = T(params.real("viscosity.liquid.alpha"));
    liquid_.beta = T(params.real("viscosity.liquid.beta"));
    liquid_.wall_visc = T(params.real("viscosity.wall_factor"));
    liquid_.delta = T(params.real("fluid.delta_sph"));
    liquid_.diffusion_hydrostatic = params.text("fluid.density_diffusion") == "fourtakas2019";
    const std::string slip = params.text("boundary.slip");
    liquid_.slip = slip == "no_slip" ? kSlipNoSlip : slip == "at_rest" ? kSlipAtRest : kSlipFree;
    this->configure_time(params);
  }

  void allocate() {
    using V = Vec<T, D>;
    SolidView<T, D>& s = pv_.s;
    s.x = this->template device_field<V>("position", "m", "particle position", true);
    s.v = this->template device_field<V>("velocity", "m/s", "particle velocity", true);
    s.u = this->template device_field<T>("internal_energy", "J/kg", "specific internal energy (solids)", true);
    s.rho = this->template device_field<T>("density", "kg/m^3", "mass density (continuity; tank walls: rho0)", true);
    s.S = this->template device_field<Sym>("deviatoric_stress", "Pa", "deviatoric stress (solids)", true);
    s.h = init_.h = this->template device_field<T>("smoothing_length", "m", "smoothing length h (fixed)", true);
    s.m = init_.m = this->template device_field<T>("mass", "kg", "particle mass", true);
    s.mat = init_.mat = this->template device_field<uint8_t>("material", "", "solid material index (order of first use)", true);
    s.kind = init_.kind = this->template device_field<uint8_t>("kind", "", "0 free, 1 fixed (tank walls, prescribed solids)", true);
    s.phase = init_.phase = this->template device_field<uint8_t>("phase", "", "model of the particle: 0 liquid, 1 tank wall, 2 solid, 3 DEM grain", true);
    id_ = this->template device_field<uint32_t>("id", "", "particle number in the initial layout", true);
    s.p = this->template device_field<T>("pressure", "Pa", "pressure (liquid: Tait; solid: its EOS; walls: Adami)", false);
    s.c = this->template device_field<T>("sound_speed", "m/s", "sound speed (solids: longitudinal)", false);
    s.a = this->template device_field<V>("acceleration", "m/s^2", "total acceleration", false);
    s.du = this->template device_field<T>("energy_rate", "W/kg", "du/dt", false);
    s.drho = this->template device_field<T>("density_rate", "kg/(m^3 s)", "drho/dt", false);
    s.dS = this->template device_field<Sym>("stress_rate", "Pa/s", "dS/dt (Hooke with the Jaumann rate)", false);
    s.R = art_on_ ? this->template device_field<Sym>("artificial_stress", "m^5/(kg s^2)", "artificial stress R/rho^2", false)
                  : nullptr;
    s.L = solid_.correct ? this->template device_field<Vec<T, D * D>>("gradient_correction", "", "M^-1 (row-major)", false)
                         : nullptr;
    s.vsig = this->template device_field<T>("signal_speed", "m/s", "signal speed for the CFL limit", false);
    s.eps_p = this->template device_field<T>("plastic_strain", "", "accumulated equivalent plastic strain", true);
    s.eps_p_step = this->template device_field<T>("plastic_strain_step_start", "", "plastic_strain at the step start", true);
    pv_.pb = this->template device_field<T>("boundary_pressure", "Pa", "pressure the liquid sees at a wall or solid (Adami 2012)", false);
    pv_.rhob = this->template device_field<T>("boundary_density", "kg/m^3", "density the liquid sees at a wall or solid", false);
    pv_.vb = this->template device_field<V>("boundary_velocity", "m/s", "velocity of a wall or solid in the liquid's viscosity", false);
    von_mises_ = this->template device_field<T>("von_mises_stress", "Pa", "von Mises equivalent stress sqrt(3 J2)", false);
    if (n_grains_) grain_radius_ = this->template device_field<T>("grain_radius", "m", "radius of a DEM grain (0: not a grain)", true);
    if (hertz_) {
      using Spin = Vec<T, DemSpinDim<D>::value>;
      constexpr int C = DemContactCapacity<D>::value;
      hist_.partner = this->template device_field<Vec<uint32_t, C>>("contact_partner", "", "ids of a grain's contact partners (4294967295: free slot; walls 4294967280 + 2 axis + side)", true);
      hist_.spring = this->template device_field<Vec<T, D * C>>("contact_spring", "m", "tangential spring of each contact slot (Cundall & Strack 1979)", true);
      hist_.count = this->template device_field<uint32_t>("contact_count", "", "contacts of a grain (coordination number plus walls)", false);
      hist_.w = this->template device_field<Spin>("angular_velocity", "rad/s", "angular velocity of a grain (2D: about z)", true);
      hist_.dw = this->template device_field<Spin>("angular_acceleration", "rad/s^2", "torque / moment of inertia", false);
      hist_.id = id_;
    }
    this->add_ode_var("position", s.x, s.v, true);
    this->add_ode_var("velocity", s.v, s.a, false);
    this->add_ode_var("internal_energy", s.u, s.du, false);
    this->add_ode_var("density", s.rho, s.drho, false);
    this->add_ode_var("deviatoric_stress", s.S, s.dS, false);
    if (hertz_) this->add_ode_var("angular_velocity", hist_.w, hist_.dw, false);
    cells_ = std::make_unique<LevelIndex<T, D, Exec>>(exec_, grid_, n_, &array_bytes_);
    grid_ = cells_->grid();
  }

  void upload(const SceneParticles& init) {
    std::vector<Vec<T, D>> x(n_), v(n_);
    std::vector<T> rho(n_), m(n_), h(n_);
    std::vector<uint32_t> id(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      for (int d = 0; d < D; ++d) {
        x[i][d] = T(init.position[i * D + d]);
        v[i][d] = T(init.velocity[i * D + d]);
      }
      rho[i] = T(init.density[i]);
      m[i] = T(init.mass[i]);
      h[i] = T(init.h[i]);
      id[i] = uint32_t(i);
    }
    for (const FieldInfo& f : store_.fields())
      store_.upload_raw(f.name, std::vector<unsigned char>(
                                    (f.scalar == ScalarType::UInt8 ? 1 : f.scalar == ScalarType::Float64 ? 8 : 4) *
                                        std::size_t(f.components) * n_,
                                    0));
    SolidView<T, D>& s = pv_.s;
    ejecta::upload(exec_, s.x, x.data(), n_);
    ejecta::upload(exec_, s.v, v.data(), n_);
    ejecta::upload(exec_, s.rho, rho.data(), n_);
    ejecta::upload(exec_, init_.h, h.data(), n_);
    ejecta::upload(exec_, init_.m, m.data(), n_);
    ejecta::upload(exec_, init_.mat, init.material.data(), n_);
    ejecta::upload(exec_, init_.kind, init.kind.data(), n_);
    ejecta::upload(exec_, init_.phase, init.phase.data(), n_);
    ejecta::upload(exec_, id_, id.data(), n_);
    if (grain_radius_) {
      std::vector<T> r(n_);
      for (std::size_t i = 0; i < n_; ++i) r[i] = T(init.radius[i]);
      ejecta::upload(exec_, grain_radius_, r.data(), n_);
    }
    if (hertz_) store_.upload_raw("contact_partner", std::vector<unsigned char>(sizeof(hist_.partner[0]) * n_, 0xff));
  }

  // The step's list of terms: the recipes of the scene's models, each term looked up by name in the
  // registry the models' files fill (solver/term_list.h, solver/terms/*.h) and bound to this solver's
  // context; its description is checked against the store (a term cannot read a field no model
  // registered) and the parameter registry.
  void make_terms(const ParamSet& params) {
    terms_ = bind_terms(mixed_model_recipes(solid_.correct, n_grains_ > 0, hertz_), ctx_, store_, params);
    hooks_ = bind_terms(solid_hook_recipes(false, any_yield_, false), ctx_, store_, params);  // no pores, no damage
  }

  // The Hertz contact time of the lightest grain at the larger of the fastest particle's speed and the
  // free-fall speed across the box, sqrt(2 |g| extent), with m* = m/2 and R* = r_max/2 (two grains;
  // shorter than on a wall): t_c = 2.868 (m*^2 / (R* E*^2 v))^(1/5) (Johnson 1985, eq. 11.24), over
  // dem.steps_per_contact.
  double hertz_dt() const {
    const double v = std::max(max_speed_, fall_speed_);
    if (!(v > 0)) return std::numeric_limits<double>::max();
    const double m_star = 0.5 * grain_mass_min_, r_star = 0.5 * double(grains_.r_max), e_star = double(hm_.e_star);
    return 2.868 * std::pow(m_star * m_star / (r_star * e_star * e_star * v), 0.2) / steps_per_contact_;
  }

  void set_grain_collider(const ColliderSphere& c) {
    if (c.enabled && !(c.radius > 0)) throw std::invalid_argument("collider: the radius must be positive");
    collider_host_ = c;
    grains_.collider = c.enabled;
    grains_.collider_r = T(c.radius);
    for (int d = 0; d < D; ++d) grains_.collider_x[d] = T(c.center[d]), grains_.collider_v[d] = T(c.velocity[d]);
  }

  // A grain with more contacts than its list holds stops the run, naming the grain and the capacity.
  void check_contact_capacity(const DemMostContacts& most) const {
    constexpr int C = DemContactCapacity<D>::value;
    if (most.count <= uint32_t(C)) return;
    const std::vector<double> id = store_.download("id");
    std::ostringstream msg;
    msg << "at step " << this->steps_ << ", t = " << this->time_ << " s: grain particle " << std::size_t(id[most.index])
        << " touches " << most.count << " grains and walls, more than the contact list of a grain holds ("
        << C << " in " << D << "D, DemContactCapacity in engine/physics/dem_grains_hertz_mindlin.h); the grains "
        << "overlap too much (raise dem.youngs_modulus or lower the impact speed) or their radii differ too much";
    throw BlowUpError(msg.str());
  }

  SolidMaterialTable<T, Exec> mats_;  // what solid_.mat points to
  SolidModel<T, D> solid_{};
  LiquidModel<T, D> liquid_{};
  GrainModel<T, D> grains_{};
  ColliderSphere collider_host_{};
  bool hertz_ = false;
  DemHertzMindlinPair<T> hm_{};
  T rolling_ = T(0);
  GrainHistoryView<T, D> hist_{};
  double steps_per_contact_ = 50, fall_speed_ = 0;
  DevicePtr<T> grain_radius_;
  std::size_t n_grains_ = 0;
  double grain_mass_min_ = 0, dt_grain_ = std::numeric_limits<double>::max();
  LevelGrid<T, D> grid_{};
  MixedView<T, D> pv_{};
  // pv_.s's read-only fields, writable for the upload and the sort (h)
  struct {
    DevicePtr<T> h, m;
    DevicePtr<uint8_t> mat, kind, phase;
  } init_;
  DevicePtr<uint32_t> id_;
  DevicePtr<T> von_mises_;
  std::vector<Material> materials_;
  // What the terms read when they run (references to the members above).
  MixedTermContext<T, D, Exec> ctx_{exec_,  n_,    grid_, pv_, pv_.s, liquid_,  solid_,
                                    grains_, grain_radius_, hist_, hm_, rolling_, this->dt_};
  std::vector<Term> terms_, hooks_;  // the evaluation's terms, the integrator's hooks
  std::size_t n_moving_ = 0;
  bool any_yield_ = false, art_on_ = false;
};

template <class T, class Exec>
std::unique_ptr<Simulation> make_mixed_solver(const ParamSet& params, const SceneParticles& init) {
  switch (init.dim) {
    case 1: return std::make_unique<MixedSolver<T, 1, Exec>>(params, init);
    case 2: return std::make_unique<MixedSolver<T, 2, Exec>>(params, init);
    default: return std::make_unique<MixedSolver<T, 3, Exec>>(params, init);
  }
}

}  // namespace ejecta
