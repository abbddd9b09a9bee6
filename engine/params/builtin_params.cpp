// The table of every scene key Ejecta knows. It is the single source for the INI reader, --set,
// `ejecta --list-params`, docs/parameters.md (regenerate it after editing this file:
// `ejecta --list-params --markdown > docs/parameters.md`; a test fails until you do) and the GUI.
#include <map>
#include <utility>

#include "params/param_registry.h"

namespace ejecta {

namespace {

// One description without group; the modifiers below add the optional facts, so that each table
// entry reads as one call.
ParamDesc param(std::string key, ParamType type, std::string def, std::string units,
                std::string label, std::string help) {
  ParamDesc d;
  d.key = std::move(key);
  d.type = type;
  d.default_value = std::move(def);
  d.units = std::move(units);
  d.label = std::move(label);
  d.help = std::move(help);
  return d;
}
ParamDesc range(ParamDesc d, double lo, double hi) {
  d.min = lo;
  d.max = hi;
  return d;
}
ParamDesc rebuild(ParamDesc d) {
  d.needs_rebuild = true;
  return d;
}
ParamDesc choices(ParamDesc d, std::vector<std::string> c) {
  d.choices = std::move(c);
  return d;
}
// The models that read this key, where they differ from its section's (section_models).
ParamDesc only(ParamDesc d, std::vector<std::string> models) {
  d.models = std::move(models);
  return d;
}

// A default that differs by model (ParamDesc::model_defaults).
ParamDesc per_model(ParamDesc d, std::vector<std::pair<std::string, std::string>> defaults) {
  d.model_defaults = std::move(defaults);
  return d;
}
// Unset, the key is `parent` as `model` reads it (ParamDesc::inherits).
ParamDesc inherit(ParamDesc d, std::string parent, std::string model) {
  d.inherits = std::move(parent);
  d.inherits_model = std::move(model);
  return d;
}

// The physics models (physics.model values) that read the keys of a section; sections not listed
// are read by every model. A key's own only(...) overrides its section's. (A function, so that a
// registry built during static initialisation finds the table constructed.)
const std::map<std::string, std::vector<std::string>>& section_models() {
  static const std::map<std::string, std::vector<std::string>> table = {
    {"fluid", {"wcsph"}},     {"viscosity", {"wcsph"}}, {"boundary", {"wcsph"}}, {"fault", {"wcsph"}},
    {"collider", {"wcsph", "mixed"}},  {"tank", {"wcsph"}},      {"block", {"wcsph"}},    {"obstacle", {"wcsph"}},
    {"gate", {"wcsph"}},
    {"gas", {"gas"}},         {"gas_block", {"gas"}},   {"blast", {"gas"}},      {"solid", {"solid"}},
    {"solid_block", {"solid"}}, {"probe", {"wcsph"}},     {"gauge", {"wcsph"}},
  };
  return table;
}

// Stamps the current group on each entry, so the table is written group by group, and its section's
// models unless the entry names its own.
struct TableBuilder {
  ParamRegistry& reg;
  std::string group;
  void add(ParamDesc d) {
    d.group = group;
    const auto it = section_models().find(d.key.substr(0, d.key.find('.')));
    if (d.models.empty() && it != section_models().end()) d.models = it->second;
    reg.add(std::move(d));
  }
};

ParamRegistry make_builtin() {
  using T = ParamType;
  ParamRegistry reg;
  TableBuilder t{reg, ""};

  t.group = "Scene";
  t.add(param("scene.name", T::String, "unnamed", "", "Name",
              "Name of the scene, used for output file names and recorded in their provenance."));
  t.add(rebuild(range(param("scene.dim", T::Int, "2", "", "Dimension",
                            "Spatial dimension (1, 2 or 3); vectors in the scene use their first "
                            "dim components."),
                      1, 3)));
  t.add(rebuild(choices(param("scene.precision", T::Choice, "float", "", "Precision",
                              "Floating-point precision of the particle data and of the solver "
                              "arithmetic."),
                        {"float", "double"})));
  t.add(range(param("scene.end_time", T::Real, "1.0", "s", "End time",
                    "Simulated time at which a headless run stops; --until overrides it."),
              0, 1e9));

  t.group = "Particles";
  t.add(only(rebuild(range(param("particles.dp", T::Real, "0.01", "m", "Particle spacing",
                            "Initial distance between neighbouring particles, which sets the "
                            "resolution and each particle's mass rho0 dp^dim."),
                      1e-6, 100)), {"wcsph"}));
  t.add(only(rebuild(range(param("particles.h_over_dp", T::Real, "1.5", "", "h / dp",
                            "Smoothing length h divided by the particle spacing; the kernel "
                            "support radius is 2h. 1.5 suits Wendland C2: on a lattice its "
                            "gradient moment is within 0.3% of exact (at 1.3 it is 2.6% off, "
                            "which shows as 2.6% excess hydrostatic pressure); the cubic spline "
                            "is within 1% at 1.3."),
                      1.0, 3.0)), {"wcsph"}));
  t.add(choices(param("particles.kernel", T::Choice, "wendland_c2", "", "Kernel",
                      "Smoothing kernel: the cubic B-spline (Monaghan & Lattanzio 1985) or the "
                      "Wendland C2 kernel (Wendland 1995), which is free of the pairing "
                      "instability."),
                {"cubic_spline", "wendland_c2"}));

  t.group = "Fluid";
  // rho0, c0 and gamma fix the particle masses and the hydrostatic start densities, and the density
  // model the meaning of the density state: changing them live would not be the scene asked for, so
  // they wait for a rebuild. delta-SPH and XSPH act on the rates only and apply between steps.
  t.add(rebuild(range(param("fluid.rho0", T::Real, "1000", "kg/m^3", "Rest density",
                            "Reference density of the fluid, at which the Tait EOS gives zero pressure."),
                      1e-3, 1e5)));
  t.add(rebuild(range(param("fluid.c0", T::Real, "0", "m/s", "Speed of sound",
                            "Numerical speed of sound of the Tait EOS; 0 = automatic, 10 sqrt(2 |g| H) "
                            "with H the tallest fluid block."),
                      0, 1e5)));
  t.add(rebuild(range(param("fluid.gamma", T::Real, "7", "", "Tait exponent",
                            "Exponent of the Tait equation of state p = rho0 c0^2 / gamma "
                            "((rho/rho0)^gamma - 1)."),
                      1, 20)));
  t.add(rebuild(choices(param("fluid.density", T::Choice, "continuity", "", "Density",
                              "How density evolves: integrated with the continuity equation, or "
                              "recomputed as a kernel sum over neighbours (which underestimates it near "
                              "free surfaces)."),
                        {"continuity", "summation"})));
  t.add(range(param("fluid.delta_sph", T::Real, "0.1", "", "delta-SPH",
                    "Coefficient of the delta-SPH density diffusion term (Molteni & Colagrossi "
                    "2009), which damps spurious pressure noise; 0 disables it."),
              0, 1));
  t.add(choices(param("fluid.density_diffusion", T::Choice, "fourtakas2019", "", "Density diffusion",
                      "Form of the delta-SPH term: Molteni & Colagrossi (2009) as published, or "
                      "less the hydrostatic density difference between the two particles "
                      "(Fourtakas et al. 2019), so that it leaves a resting column's profile alone."),
                {"molteni2009", "fourtakas2019"}));
  t.add(param("fluid.wall_diffusion", T::Bool, "false", "", "Density diffusion against walls",
              "The delta-SPH term (fluid.delta_sph, fluid.density_diffusion) between a fluid particle "
              "and wall particles too, with the walls' density as the wall model gives it (mDBC's "
              "ghost node, Adami's extrapolation): a fluid particle's density is drawn towards "
              "the wall's as towards a fluid neighbour's (docs/physics.md, tenth session of issue 12)."));
  t.add(choices(param("fluid.pressure_term", T::Choice, "monaghan1992", "", "Pressure term",
                      "Pair pressure of the momentum equation: p_i/rho_i^2 + p_j/rho_j^2 (Monaghan "
                      "1992), or the pressure of the acoustic Riemann problem between the two "
                      "particles with the low-dissipation limiter of Zhang, Hu & Adams (2017): "
                      "along the pair's line for every pair (zhang2017), or against a wall along "
                      "the wall's normal with the fluid's velocity mirrored (zhang2017_wall_normal, "
                      "their sec. 3.3: no dissipation for flow along a wall)."),
                {"monaghan1992", "zhang2017", "zhang2017_wall_normal"}));
  t.add(range(param("fluid.shifting", T::Real, "0", "", "Particle shifting",
                    "Particle shifting coefficient A (Sun et al. 2017, delta-plus-SPH; Lind et al. "
                    "2012): particles drift by -A h c0 sum_j [1 + 0.2 (W_ij/W(dp))^4] V_j grad W_ij, "
                    "tangentially near a free surface; A = 4 Ma, 0.4 for Mach 0.1; 0 disables it."),
              0, 2));
  t.add(range(param("fluid.xsph", T::Real, "0", "", "XSPH epsilon",
                    "XSPH factor (Monaghan 1989): particles move with their velocity blended by "
                    "this fraction towards the neighbour average; 0 disables it."),
              0, 1));

  t.group = "Viscosity";
  // One artificial viscosity for every model (issue 14): the Monaghan (1992) Pi_ij, with the liquid's
  // weak defaults and the gas's and solid's shock defaults; a mixed scene's liquid and solid bodies
  // each take viscosity.alpha/beta unless [viscosity.liquid] or [viscosity.solid] sets their own.
  t.add(per_model(only(range(param("viscosity.alpha", T::Real, "0.02", "", "Alpha",
                                   "Linear coefficient of the Monaghan (1992) artificial viscosity, acting "
                                   "between approaching particles (for the gas, Monaghan 1997's signal-velocity "
                                   "form; with viscosity.switch the largest value alpha may reach). The default "
                                   "depends on the model; in a mixed scene it applies to every material unless "
                                   "viscosity.liquid.alpha or viscosity.solid.alpha is set."),
                             0, 10),
                       {"wcsph", "gas", "solid"}),
                  {{"wcsph", "0.02"}, {"gas", "1"}, {"solid", "1"}}));
  t.add(per_model(only(range(param("viscosity.beta", T::Real, "0", "", "Beta",
                                   "Quadratic coefficient of the Monaghan (1992) artificial viscosity, for "
                                   "strong compressions (for the gas, the signal velocity v_sig = c_i + c_j - "
                                   "beta v_ij.r_ij/|r_ij| of Monaghan 1997); 0 suits weakly compressible flows. "
                                   "The default depends on the model, as for viscosity.alpha."),
                             0, 10),
                       {"wcsph", "gas", "solid"}),
                  {{"wcsph", "0"}, {"gas", "2"}, {"solid", "2"}}));
  t.add(only(range(param("viscosity.wall_factor", T::Real, "1", "", "Wall factor",
                         "Factor on the artificial viscosity between fluid and wall particles (with "
                         "boundary.slip = at_rest or no_slip); 1 treats walls as fluid, smaller values "
                         "lower the wall friction (DualSPHysics's ViscoBoundFactor)."),
                   0, 1),
             {"wcsph"}));
  t.add(only(rebuild(choices(param("viscosity.switch", T::Choice, "none", "", "Viscosity switch",
                                   "Gas: none, a constant viscosity.alpha; morris_monaghan, a per-particle alpha "
                                   "that rises in compressions and decays elsewhere (Morris & Monaghan 1997)."),
                             {"none", "morris_monaghan"})),
             {"gas"}));
  t.add(only(range(param("viscosity.alpha_min", T::Real, "0.1", "", "Switch alpha_min",
                         "Floor towards which the switched viscosity decays (gas, viscosity.switch = "
                         "morris_monaghan)."),
                   0, 5),
             {"gas"}));
  t.add(only(range(param("viscosity.switch_decay", T::Real, "0.1", "", "Switch decay C",
                         "Decay rate of the switch: tau = h / (C c) (Morris & Monaghan 1997 use 0.1-0.2)."),
                   0.01, 1),
             {"gas"}));
  // Per material where a mixed scene needs different values (a granite sphere in water: the liquid's
  // 0.05, the rock's 1); unset, each is viscosity.alpha/beta as its model reads it.
  t.add(inherit(only(range(param("viscosity.liquid.alpha", T::Real, "0.02", "", "Liquid alpha",
                                 "alpha of the liquid bodies of a mixed scene where they need their own "
                                 "(also between liquid and solid: the liquid's viscosity acts on the "
                                 "boundary pair); unset, viscosity.alpha as the liquid reads it."),
                           0, 10),
                     {"mixed"}),
                "viscosity.alpha", "wcsph"));
  t.add(inherit(only(range(param("viscosity.liquid.beta", T::Real, "0", "", "Liquid beta",
                                 "beta of the liquid bodies of a mixed scene; unset, viscosity.beta as the "
                                 "liquid reads it."),
                           0, 10),
                     {"mixed"}),
                "viscosity.beta", "wcsph"));
  t.add(inherit(only(range(param("viscosity.solid.alpha", T::Real, "1", "", "Solid alpha",
                                 "alpha between the solid bodies of a mixed scene where they need their own; "
                                 "unset, viscosity.alpha as the solid reads it."),
                           0, 10),
                     {"mixed"}),
                "viscosity.alpha", "solid"));
  t.add(inherit(only(range(param("viscosity.solid.beta", T::Real, "2", "", "Solid beta",
                                 "beta between the solid bodies of a mixed scene; unset, viscosity.beta as "
                                 "the solid reads it."),
                           0, 10),
                     {"mixed"}),
                "viscosity.beta", "solid"));

  t.group = "Physics";
  t.add(range(param("physics.gravity", T::Vec3, "0, -9.81, 0", "m/s^2", "Gravity",
                    "Gravitational acceleration; 2D scenes use x, y and 1D scenes x, while 3D "
                    "scenes conventionally put z up (0, 0, -9.81)."),
              -1e4, 1e4));

  t.add(rebuild(choices(param("physics.model", T::Choice, "wcsph", "", "Model",
                              "Physical model: wcsph, the weakly compressible liquid with walls "
                              "(Tait EOS, [tank.N]/[block.N] geometry), or gas, the ideal gas with an "
                              "energy equation and a smoothing length per particle ([gas_block.N] "
                              "geometry, [gas] keys), or solid, elastic(-plastic) bodies with a "
                              "deviatoric stress ([solid_block.N] geometry, [solid] keys), or mixed, "
                              "liquid and solid bodies in one store with two-way coupling ([tank.N], "
                              "[block.N] liquid with the wcsph keys, [solid_block.N] bodies with the solid "
                              "keys; docs/architecture.md, \"One particle engine\")."),
                        {"wcsph", "gas", "solid", "mixed"})));

  t.group = "Gas";
  t.add(rebuild(range(param("gas.gamma", T::Real, "1.6666666666666667", "", "Adiabatic index",
                            "Ratio of specific heats of the ideal gas, p = (gamma - 1) rho u."),
                      1.0001, 10)));
  t.add(rebuild(range(param("gas.eta", T::Real, "1.2", "", "eta",
                            "Smoothing length factor: h = eta (m/rho)^(1/dim) (Price 2012); 1.2 "
                            "suits the cubic spline (about 5, 18 and 58 neighbours in 1D, 2D, 3D)."),
                      0.8, 3)));
  t.add(rebuild(choices(param("gas.h_mode", T::Choice, "variable", "", "Smoothing length",
                              "variable: each particle's h follows its density, solved with the "
                              "summation density, with the grad-h terms (Springel & Hernquist 2002); "
                              "fixed: every particle keeps gas.h."),
                        {"variable", "fixed"})));
  t.add(rebuild(range(param("gas.h", T::Real, "0", "m", "Fixed h",
                            "Smoothing length of every particle when gas.h_mode = fixed (ignored "
                            "otherwise)."),
                      0, 1e6)));
  t.add(rebuild(range(param("gas.h_max", T::Real, "0", "m", "Largest h",
                            "Cap on the smoothing length (a particle alone in vacuum would grow it "
                            "without bound); the neighbour search's levels of grids span the "
                            "smallest first h to this. 0 = 100 times the largest first h."),
                      0, 1e6)));
  t.add(rebuild(range(param("gas.frozen_x", T::Real, "0", "m", "Frozen ends",
                            "Particles within this distance of the smallest or largest x keep their "
                            "initial state (fixed boundary particles at the ends of a shock tube); "
                            "they only take part in the neighbour sums. 0 = none."),
                      0, 1e6)));
  t.add(range(param("gas.h_tolerance", T::Real, "1e-8", "", "h tolerance",
                    "Relative convergence tolerance of the Newton iteration for h (raised to 10 "
                    "machine epsilons in float)."),
              1e-14, 0.1));
  t.add(rebuild(choices(param("gas.density", T::Choice, "summation", "", "Density",
                              "summation: rho = sum m W (with variable h, solved with h); continuity: "
                              "drho/dt integrated, h = eta (m/rho)^(1/dim)."),
                        {"summation", "continuity"})));
  t.add(range(param("gas.conductivity", T::Real, "0", "", "Conductivity alpha_u",
                    "Coefficient of the artificial conductivity (Price 2008), which smooths the "
                    "pressure blip at contact discontinuities; 0 disables it, 1 is usual."),
              0, 5));

  t.group = "Solid";
  t.add(rebuild(param("solid.materials", T::String, "assets/materials.ini", "", "Material library",
                      "Material library file (physics.model = solid): absolute, or relative to the "
                      "working directory, else to the source tree.")));
  t.add(rebuild(range(param("solid.h_over_dp", T::Real, "1.3", "", "h / dp",
                            "Fixed smoothing length of a solid particle in units of its block's "
                            "spacing dp."),
                      0.5, 4)));
  t.add(rebuild(range(param("solid.artificial_stress", T::Real, "0", "", "Artificial stress",
                            "epsilon of the Monaghan (2000) / Gray, Monaghan & Swift (2001) "
                            "artificial stress against the tensile instability, with n = 4; 0 = off, "
                            "0.3 is the usual value (1D, 2D and 3D)."),
                      0, 1)));

  t.add(rebuild(choices(param("solid.plane", T::Choice, "strain", "", "2D plane",
                             "2D solids: strain (eps_zz = 0, a body of infinite depth; a bar has "
                             "c = sqrt(E/((1 - nu^2) rho))) or stress (sigma_zz = 0, a thin plate; "
                             "c = sqrt(E/rho)). stress is refused in 1D and 3D."),
                       {"strain", "stress"})));
  t.add(rebuild(param("solid.gradient_correction", T::Bool, "false", "", "Gradient correction",
                      "Kernel-gradient correction of the velocity gradient (strain and rotation "
                      "rates, continuity; Randles & Libersky 1996, Bonet & Lok 1999): exact for a "
                      "linear velocity field, also at free surfaces.")));
  t.add(rebuild(param("solid.corrected_force", T::Bool, "false", "", "Corrected force",
                      "With solid.gradient_correction: the stress divergence of the momentum "
                      "equation uses the corrected kernel gradient too, a_i = sum_j m_j (sigma_i "
                      "M_i^-T + sigma_j M_j^-T) grad_i W_ij / (rho_i rho_j) (Bonet & Lok 1999): the "
                      "transpose of the corrected strain rate, conserving linear and angular "
                      "momentum and energy; what thin bodies in bending need (free-surface rows).")));
  t.add(rebuild(param("solid.damage", T::Bool, "true", "", "Tensile damage",
                      "Grady-Kipp tensile damage (Benz & Asphaug 1994, 1995) in every body whose "
                      "material has weibull.k and weibull.m; false: no flaws, no damage.")));
  t.add(rebuild(range(param("solid.damage_seed", T::Int, "1", "", "Flaw seed",
                            "Seed of the random assignment of Weibull flaws to particles (each body "
                            "mixes in its number N): the same seed gives the same flaws."),
                      0, 2147483647)));
  t.add(range(param("solid.reference_temperature", T::Real, "293", "K", "Reference temperature",
                    "Temperature at zero specific internal energy, T = T_ref + u / specific_heat, "
                    "for the melt weakening of materials with melt.T_melt, melt.xi."),
              0, 1e5));

  t.group = "Blast";
  t.add(rebuild(range(param("blast.energy", T::Real, "0", "J", "Blast energy",
                            "Energy deposited as internal energy around blast.center (a point "
                            "explosion, the Sedov problem); 0 = no blast."),
                      0, 1e30)));
  t.add(rebuild(param("blast.center", T::Vec3, "0, 0, 0", "m", "Blast centre",
                      "Centre of the point blast.")));
  t.add(rebuild(range(param("blast.radius", T::Real, "0", "m", "Blast radius",
                            "Radius over which the blast energy is spread (cubic-spline weights); "
                            "0 = 2 eta dp of the first gas block."),
                      0, 1e6)));

  // Self-gravity (issue 16; engine/gravity/, docs/physics.md "Self-gravity").
  t.group = "Gravity";
  t.add(only(rebuild(choices(param("gravity.self", T::Choice, "off", "", "Self-gravity",
                                   "Newtonian self-gravity of the particles by a Barnes-Hut octree rebuilt "
                                   "every evaluation (engine/gravity), added to the uniform "
                                   "physics.gravity; its potential energy joins the diagnostics."),
                             {"off", "on"})),
             {"gas", "solid"}));
  t.add(only(range(param("gravity.G", T::Real, "6.674e-11", "m^3/(kg s^2)", "G",
                         "Gravitational constant of the self-gravity (a scene in scaled units sets "
                         "its own, e.g. G = 1)."),
                   0, 1e30),
             {"gas", "solid"}));
  t.add(only(range(param("gravity.theta", T::Real, "0.5", "", "Opening angle",
                         "Barnes-Hut opening angle: a cell of side l is used as a whole (monopole + "
                         "quadrupole) when its centre of mass is farther than l / theta plus its "
                         "offset from the cell centre; smaller is more accurate and slower (median "
                         "force error of a Plummer sphere 2e-5, 9e-5, 4e-4 at 0.3, 0.5, 0.7)."),
                   0.05, 1),
             {"gas", "solid"}));
  t.add(only(range(param("gravity.softening", T::Real, "0", "m", "Softening",
                         "Spline (cubic-spline kernel) softening length eps of the self-gravity: "
                         "Newtonian beyond 2 eps (Hernquist & Katz 1989; Price & Monaghan 2007); "
                         "a pair uses the larger eps of the two. 0: each particle's smoothing length h."),
                   0, 1e30),
             {"gas", "solid"}));
  t.add(only(choices(param("gravity.walk", T::Choice, "warps", "", "Tree walk",
                           "How the octree is walked: warps = a warp per group of 32 walks the tree "
                           "together, 32 cells at a time, into lists in shared memory (Bedorf et al. "
                           "2012; SPH-EXA's Ryoanji), emulated lane by lane on the CPU (the default: "
                           "on the H200 1.29x faster than particles at 10^6, and faster on the CPU too); "
                           "particles = every particle walks with its group's opening test; groups = "
                           "each group of consecutive sorted particles walks once and its particles "
                           "evaluate the interaction lists (Barnes 1990; Bedorf et al. 2012), the "
                           "fastest on the CPU but 6x slower on the GPU. Same opening decisions and "
                           "forces (to round-off)."),
                     {"groups", "particles", "warps"}),
             {"gas", "solid"}));
  t.add(only(range(param("gravity.group", T::Int, "0", "", "Walk group",
                         "Consecutive sorted particles that share one opening test (their bounding "
                         "box) and, with gravity.walk = groups, one interaction list. Smaller groups "
                         "mean fewer interactions and larger errors (16: 15-22% fewer interactions, "
                         "median error +17-27% at theta 0.5); 0 = 32, a GPU warp, on both backends."),
                   0, 1024),
             {"gas", "solid"}));
  t.add(only(range(param("gravity.leaf_size", T::Int, "16", "", "Tree leaf size",
                         "Most particles in a leaf of the self-gravity octree: a node with more is "
                         "split. Larger leaves mean fewer cells and more particle-particle "
                         "interactions (docs/physics.md, \"Cost\")."),
                   1, 256),
             {"gas", "solid"}));
  t.add(only(choices(param("gravity.warp_eval", T::Choice, "staged", "", "Warp walk evaluation",
                           "How gravity.walk = warps evaluates its interaction lists: lanes = every "
                           "lane loads every source from memory itself; staged = the lanes copy 32 "
                           "sources at a time into shared memory together (with their inverse "
                           "softening lengths) and then read them from there (Bedorf et al. 2012; the "
                           "default: 5% faster on the H200). Same forces."),
                     {"lanes", "staged"}),
             {"gas", "solid"}));
  t.add(only(range(param("gravity.warp_targets", T::Int, "1", "", "Warp walk targets per lane",
                         "Particles per lane of gravity.walk = warps: 1 (groups of 32) or 2 (groups of "
                         "64, as SPH-EXA's Ryoanji; implies gravity.warp_eval = staged): one walk "
                         "serves twice the particles, with a larger group box."),
                   1, 2),
             {"gas", "solid"}));
  t.add(only(choices(param("gravity.warp_groups", T::Choice, "tree", "", "Warp walk groups",
                           "The particle groups of gravity.walk = warps: consecutive = 32 (or 64) "
                           "consecutive sorted particles, whose box can span two far cells where the "
                           "Morton order jumps; tree = runs of sibling cells of at most that many "
                           "particles (engine/gravity/gravity_groups.h), tight boxes, some lanes idle (the "
                           "default: the walk at 10^6 takes 7.9 ms against 32.9 on the H200); cousins = the "
                           "same cells packed across the children of one grandparent, so a cell's "
                           "remainder shares a warp with the next cell's first particles (fewer warps, "
                           "boxes up to twice the side)."),
                     {"consecutive", "tree", "cousins"}),
             {"gas", "solid"}));
  // Issue 16, the 8 ms goal (helper gravity6): the build's and the walk's variants.
  t.add(only(choices(param("gravity.build", T::Choice, "keys", "", "Tree build",
                           "How the self-gravity octree is built from the sorted Morton keys: levels = "
                           "top-down, a count, scan and write pass per level with the next level's "
                           "size copied back to the host each time; keys = all levels in one pass "
                           "(engine/gravity/octree_from_keys.h, after Cornerstone): which key runs are "
                           "nodes follows from comparing keys at fixed offsets, three host round "
                           "trips in all. The same tree node for node, so the same forces. keys is the "
                           "default: on the H200 (10^6 particles, float) the levels took 0.19 ms "
                           "against 0.53 with levels."),
                     {"levels", "keys"}),
             {"gas", "solid"}));
  t.add(only(choices(param("gravity.warp_nodes", T::Choice, "packed", "", "Warp walk node data",
                           "What the traversal of gravity.walk = warps with gravity.warp_eval = staged "
                           "reads per node: split = the node's centre of mass and opening radius, then "
                           "its link and children count (four loads); packed = one 32-byte record "
                           "(centre of mass, squared opening radius, children or particle range; "
                           "engine/gravity/octree_build.h, GravityWalkNode), and 1 / eps stored in the "
                           "node. Same forces. packed is the default: with the keys build the whole "
                           "gravity took 7.84 ms against 7.95 with split nodes on the H200 (10^6, float, "
                           "theta 0.5)."),
                     {"split", "packed"}),
             {"gas", "solid"}));

  // The tree neighbour search of the gas (issue 16; engine/neighbors/tree_*.h).
  t.group = "Gas";
  t.add(rebuild(choices(param("gas.neighbour_search", T::Choice, "auto", "", "Neighbour search",
                              "How the gas finds its neighbours (pairs within 2 max(h_i, h_j)): grid = "
                              "levels of grids by h in one sort (neighbors/level_grid.h); tree = the "
                              "Morton-ordered octree of the self-gravity with each node's box and largest "
                              "h, rebuilt every evaluation (neighbors/tree_search.h), which adapts to "
                              "widely varying h and to particles flying far away; auto = in 3D the tree on the "
                              "CPU (1.3-1.9x the steps/s of grid there, uniform to tenfold h) and on a GPU "
                              "when the starting h spreads more than fourfold (grid faster there for near-"
                              "uniform h), grid in 1D and 2D (no faster there). "
                              "Same neighbour sets; docs/physics.md, "
                              "\"Neighbour search for variable h\", compares their speed."),
                        {"auto", "grid", "tree"})));

  t.group = "Boundary";
  t.add(rebuild(range(param("boundary.wall_layers", T::Int, "3", "", "Wall layers",
                            "Layers of fixed wall particles built outside each tank (Adami, Hu & "
                            "Adams 2012); use at least 2 h/dp (3 at h/dp = 1.5) so that fluid next "
                            "to a wall has a full kernel support. 1 or 2 are allowed only to show "
                            "the leak (scenes/teaching/wall_layers_pitfall.ini)."),
                      1, 8)));
  t.add(choices(param("boundary.slip", T::Choice, "at_rest", "", "Wall slip",
                      "Tangential condition at walls: at_rest (the artificial viscosity acts "
                      "against the walls' zero velocity, a partial slip), free slip (no viscous "
                      "interaction with walls), no slip (the fluid sticks to the walls; Adami "
                      "et al. 2012), or wall_law (free slip for the viscosity, and a quadratic "
                      "drag tau_w = rho C_f |u_t| u_t on the fluid's velocity along the wall, "
                      "C_f = boundary.friction, spread over the wetted area by the walls' kernel "
                      "sum; the liquid's own pass, physics/wall_friction.h)."),
                {"at_rest", "free", "no_slip", "wall_law"}));
  // Issue 12 (SPHERIC 2 impact), helper fidelity9: the wall law's coefficient.
  t.add(only(range(param("boundary.friction", T::Real, "0.008", "", "Wall friction C_f",
                         "Drag coefficient C_f of boundary.slip = wall_law: the wall's shear stress "
                         "tau_w = rho C_f |u_t|^2 against the fluid's velocity u_t along the wall (Chezy's "
                         "quadratic law; a smooth wall's log law gives 0.003-0.005 for water at 1-2 m/s "
                         "1-5 mm from the wall). Read with wall_law only. 0.008-0.01 meets Martin & Moyce's "
                         "2D front with mDBC and zhang2017_wall_normal (0.008, the default, has the most "
                         "margin); docs/physics.md, eleventh session."),
                   0, 1),
             {"wcsph"}));
  // Issue 12 (SPHERIC 2 impact), helper fidelity3.
  t.add(choices(param("boundary.wall_pressure", T::Choice, "adami2012", "", "Wall pressure",
                      "Pressure extrapolated to wall particles: adami2012 (the fluid's pressure "
                      "plus rho g . r, Adami et al. 2012 eq. 27 for walls at rest) or "
                      "fluid_acceleration (rho (g - a_f) . r with each fluid particle's "
                      "acceleration, the gradient its momentum equation implies; an option "
                      "measured on SPHERIC 2, docs/physics.md)."),
                {"adami2012", "fluid_acceleration"}));
  // Issue 12 (SPHERIC 2 impact), helper fidelity5: the wall model.
  t.add(only(rebuild(choices(param("boundary.model", T::Choice, "adami2012", "", "Wall model",
                                   "How fixed wall particles push on the liquid: adami2012 (the pressure "
                                   "extrapolated from the fluid each step, Adami, Hu & Adams 2012, eq. 27-28; "
                                   "boundary.wall_pressure picks its variant) or dbc_crespo2007 (dynamic "
                                   "boundary particles, Crespo, Gomez-Gesteira & Dalrymple 2007, DualSPHysics's "
                                   "walls: each wall particle's density follows the continuity equation with "
                                   "the fluid around it, kept >= rho0, and its pressure the fluid's EOS; the "
                                   "walls start hydrostatic) or mdbc_english2022 (modified dynamic boundary "
                                   "particles, English et al. 2022: each wall particle's density is taken from "
                                   "the fluid at a ghost node mirrored across the wall's face by a corrected "
                                   "kernel interpolation, extrapolated to the particle, its pressure the fluid's "
                                   "EOS). Measured on SPHERIC 2 in docs/physics.md."),
                             {"adami2012", "dbc_crespo2007", "mdbc_english2022"})),
             {"wcsph"}));
  // Issue 12, helper fidelity6: the modified dynamic boundary particles' settings.
  t.add(only(rebuild(range(param("boundary.mdbc_det_threshold", T::Real, "1e-3", "", "mDBC determinant threshold",
                         "boundary.model = mdbc_english2022: below this determinant of the (dimensionless) "
                         "corrected-interpolation matrix at a wall's ghost node (a ghost near a free surface "
                         "or a fluid corner) the wall takes the plain Shepard density there, with no "
                         "gradient, as English et al. (2022) do."),
                   0, 1)),
             {"wcsph"}));
  t.add(only(rebuild(choices(param("boundary.mdbc_min_density", T::Choice, "rho0", "", "mDBC density floor",
                           "boundary.model = mdbc_english2022: rho0 keeps each wall's density at or above "
                           "the rest density (as DualSPHysics, so a wall never pulls fluid in); none leaves "
                           "the extrapolated density as it is (tension at the wall)."),
                     {"rho0", "none"})),
             {"wcsph"}));

  t.group = "Time";
  // The integrator owns stage buffers sized at construction: a change waits for a rebuild.
  t.add(rebuild(choices(param("time.integrator", T::Choice, "leapfrog", "", "Integrator",
                      "Time integration scheme: leapfrog (second-order symplectic "
                      "kick-drift-kick, one force evaluation per step), predictor_corrector "
                      "(second-order midpoint, two) or rk23 (adaptive third-order "
                      "Bogacki-Shampine with an error estimate, three); predictor_corrector and "
                      "rk23 need physics.model = gas, solid or mixed."),
                {"leapfrog", "predictor_corrector", "rk23"})));
  t.add(only(range(param("time.rtol", T::Real, "1e-4", "", "Relative tolerance",
                  "rk23: relative tolerance of the embedded error estimate per step."),
              1e-12, 1), {"gas", "solid", "mixed"}));
  t.add(only(range(param("time.atol", T::Real, "1e-6", "", "Absolute tolerance",
                  "rk23: absolute tolerance of the error estimate (state units: m, m/s, J/kg)."),
              1e-15, 1), {"gas", "solid", "mixed"}));
  t.add(only(range(param("time.growth_max", T::Real, "2", "", "Step growth limit",
                    "rk23: largest factor by which dt may grow from one step to the next."),
              1.01, 10), {"gas", "solid", "mixed"}));
  t.add(only(range(param("time.dt_fixed", T::Real, "0", "s", "Fixed dt",
                    "Gas and solid models: a fixed time step instead of the adaptive one (rk23 then runs "
                    "without error control); 0 = adaptive. For convergence studies."),
              0, 1e3), {"gas", "solid", "mixed"}));
  t.add(range(param("time.cfl", T::Real, "0.2", "", "CFL number",
                    "Courant number of the acoustic time step limit: for the liquid dt <= cfl h / (c0 + |v|max + "
                    "0.6 alpha c0) (Monaghan 1992), for the gas and solids cfl times the smallest h over the "
                    "signal speed. 0.3 blew the liquid's SPHERIC 2 up at dp = 0.01 (docs/physics.md, sixteenth "
                    "session). With fluid.shifting = A the liquid's Courant number is at most 0.08 / A (0.2 at "
                    "A = 0.4)."),
              0.01, 1));
  t.add(range(param("time.force_factor", T::Real, "0.25", "", "Force factor",
                    "Factor f of the acceleration time step limit dt <= f sqrt(h / |a|max)."),
              0.01, 1));
  t.add(range(param("time.dt_max", T::Real, "0.001", "s", "Maximum dt",
                    "Upper bound of the adaptive time step."),
              1e-12, 1e3));
  t.add(range(param("time.dt_min", T::Real, "1e-9", "s", "Minimum dt",
                    "Lower bound of the adaptive time step: a step below it is reported as a "
                    "blow-up; 0 disables the check."),
              0, 1));

  t.group = "Fault";
  t.add(range(param("fault.max_density_ratio", T::Real, "1.5", "", "Max density ratio r",
                    "Blow-up detection: the run stops when rho/rho0 of a fluid particle leaves "
                    "[1/r, r]."),
              1.01, 100));

  // The rigid sphere that pushes the fluid (physics/collider_sphere.h); the viewer drags it.
  t.group = "Collider";
  t.add(param("collider.enabled", T::Bool, "false", "", "Collider on",
              "A rigid sphere that pushes the fluid with the repulsive boundary force of Monaghan "
              "(1994), or, in a mixed scene of grains only, the grains with their contact law (as in "
              "the cuda-samples particles demo); the viewer moves it with the mouse."));
  t.add(range(param("collider.center", T::Vec3, "0, 0, 0", "m", "Collider centre",
                    "Centre of the collider sphere (2D scenes use x, y)."),
              -1e6, 1e6));
  t.add(range(param("collider.radius", T::Real, "0.05", "m", "Collider radius",
                    "Radius of the collider sphere."),
              1e-6, 1e3));
  t.add(range(param("collider.velocity", T::Vec3, "0, 0, 0", "m/s", "Collider velocity",
                    "Surface velocity of the sphere: approaching fluid in its contact layer is damped "
                    "towards it (the sphere itself is moved only by the viewer or by this key)."),
              -1e4, 1e4));
  t.add(range(param("collider.strength", T::Real, "2.5", "", "Collider strength",
                    "Coefficient D of the repulsive force in units of (c0/10)^2, the square of the "
                    "largest expected speed; Monaghan (1994) uses D of that order."),
              1e-3, 1e3));

  // How the scene looks in the viewer and in headless frames (app/viewer/scene_look.h); the viewer's
  // "save scene as" writes the current look back here. Command-line look options override them.
  t.group = "View";
  t.add(choices(param("view.preset", T::Choice, "none", "", "Look preset",
                      "crater: a clip plane through the impact axis (the fastest body's line of motion), "
                      "colour by damage (von_mises_stress, else pressure, where the scene has no damage "
                      "field), side camera. view.* keys set in the scene override the preset's choices."),
                {"none", "crater"}));
  t.add(param("view.colour_by", T::String, "velocity", "", "Colour by",
              "Particle field the particles are coloured by; FIELD.x, .y or .z for one component of a "
              "vector (else its magnitude). A field the scene lacks falls back to the default, said in "
              "the status bar."));
  t.add(choices(param("view.colormap", T::Choice, "auto", "", "Colormap",
                      "auto: tab10 (ten discrete colours) for integer fields (kind, material), coolwarm "
                      "(diverging, zero in the middle) for signed quantities (pressure, components), "
                      "viridis otherwise."),
                {"auto", "viridis", "turbo", "coolwarm", "greys", "tab10"}));
  t.add(param("view.auto_range", T::Bool, "true", "", "Auto range",
              "The colour range follows the data of each frame; off: view.range_min to view.range_max."));
  t.add(param("view.range_min", T::Real, "0", "", "Range min",
              "Lower end of the manual colour range, in the units of the colour field."));
  t.add(param("view.range_max", T::Real, "1", "", "Range max",
              "Upper end of the manual colour range, in the units of the colour field."));
  t.add(param("view.clip", T::Bool, "false", "", "Clip plane",
              "3D: hide the particles in front of a plane (dot(view.clip_normal, x) > view.clip_offset)."));
  t.add(range(param("view.clip_normal", T::Vec3, "1, 0, 0", "", "Clip normal",
                    "Normal of the clip plane, towards the hidden side (normalised when used)."),
              -1e3, 1e3));
  t.add(param("view.clip_offset", T::Real, "0", "m", "Clip offset",
              "Signed distance of the clip plane from the origin along its normal."));
  t.add(choices(param("view.camera", T::Choice, "auto", "", "Camera",
                      "3D camera direction: front (along +y), side (along +x), top (down -z), iso; auto: "
                      "iso (side with view.preset = crater). 2D scenes are always seen face on."),
                {"auto", "front", "side", "top", "iso"}));
  t.add(range(param("view.camera_direction", T::Vec3, "0, 0, 0", "", "Camera direction",
                    "3D: the direction the camera looks along (eye to target), overriding view.camera; "
                    "0, 0, 0: use view.camera. \"Save scene as\" writes the current one, orbit included."),
              -1e3, 1e3));
  t.add(choices(param("view.walls", T::Choice, "auto", "", "Walls",
                      "Wall particles shown, dimmed or hidden; auto: hidden in 3D, dimmed in 2D."),
                {"auto", "shown", "dimmed", "hidden"}));
  t.add(choices(param("view.sprites", T::Choice, "spheres", "", "Sprites",
                      "Particles drawn as lit spheres or flat discs."),
                {"spheres", "discs"}));
  t.add(choices(param("view.theme", T::Choice, "dark", "", "Theme",
                      "Background and text of the window, headless frames and screenshots: dark, or light "
                      "(white background, dark text: figures for print). --theme overrides it."),
                {"dark", "light"}));

  // Teaching scenes (issue 17; scenes/teaching/, docs/teaching.md): the [teach] section is text the
  // viewer shows in its Teach panel and `ejecta --teach` lists. It changes nothing in the physics, so
  // every model accepts it; each key is one line of at most 150 characters.
  t.group = "Teach";
  t.add(param("teach.title", T::String, "", "", "Title",
              "Teaching scenes: the title of the lesson, shown in the viewer's Teach panel and by ejecta --teach."));
  t.add(param("teach.text", T::String, "", "", "Summary",
              "Teaching scenes: one sentence on what this scene shows (the pitfall or its fix)."));
  t.add(param("teach.look", T::String, "", "", "What to look at",
              "Teaching scenes: what to look at in the viewer (the field to colour by, the place, the moment)."));
  t.add(param("teach.why", T::String, "", "", "Why",
              "Teaching scenes: why it happens."));
  t.add(param("teach.fix", T::String, "", "", "The fix",
              "Teaching scenes: the fix, as the keys that change (the partner scene NAME_fix.ini has it)."));
  t.add(param("teach.paper", T::String, "", "", "Paper",
              "Teaching scenes: the paper that explains it (authors, year, journal)."));
  t.add(param("teach.measure", T::String, "", "", "Measured",
              "Teaching scenes: the figure the test measures in this scene, and where (tests/test_teaching.cpp)."));

  // Numbered sections: any number of [tank.N], [block.N], [obstacle.N], N = 1, 2, ...
  t.group = "Geometry";
  t.add(rebuild(param("tank.#.min", T::Vec3, "0, 0, 0", "m", "Tank min",
                      "Inner lower corner of a tank; its wall layers are built outside the box "
                      "[min, max].")));
  t.add(rebuild(
      param("tank.#.max", T::Vec3, "1, 1, 1", "m", "Tank max", "Inner upper corner of a tank.")));
  t.add(rebuild(param("tank.#.open_top", T::Bool, "true", "", "Open top",
                      "No wall on the top face of the tank, the one across the last axis (y in "
                      "2D, z in 3D).")));
  t.add(rebuild(param("block.#.min", T::Vec3, "0, 0, 0", "m", "Block min",
                      "Lower corner of a block of fluid, filled with particles on the dp lattice "
                      "up to max.")));
  t.add(rebuild(param("block.#.max", T::Vec3, "0.1, 0.1, 0.1", "m", "Block max",
                      "Upper corner of a block of fluid.")));
  t.add(rebuild(param("block.#.velocity", T::Vec3, "0, 0, 0", "m/s", "Block velocity",
                      "Initial velocity of every particle of the fluid block.")));
  t.add(rebuild(param("gas_block.#.min", T::Vec3, "0, 0, 0", "m", "Gas block min",
                      "Lower corner of a box of gas (physics.model = gas).")));
  t.add(rebuild(param("gas_block.#.max", T::Vec3, "1, 1, 1", "m", "Gas block max",
                      "Upper corner of a box of gas.")));
  t.add(rebuild(range(param("gas_block.#.dp", T::Real, "0.01", "m", "Gas spacing",
                            "Particle spacing of this gas box; mass = density dp^dim."),
                      1e-9, 100)));
  t.add(rebuild(range(param("gas_block.#.offset", T::Real, "0.5", "", "Lattice offset",
                            "Sites at min + (k + offset) dp per axis: 0.5 centres them in the box, "
                            "0 starts on the min face ([min, max)), 1 ends on the max face."),
                      0, 1)));
  t.add(rebuild(range(param("gas_block.#.density", T::Real, "1", "kg/m^3", "Gas density",
                            "Density of the gas in this box."),
                      1e-12, 1e12)));
  t.add(rebuild(range(param("gas_block.#.internal_energy", T::Real, "1", "J/kg", "Internal energy",
                            "Specific internal energy u of the gas in this box (p = (gamma-1) rho u)."),
                      0, 1e30)));
  t.add(rebuild(param("gas_block.#.velocity", T::Vec3, "0, 0, 0", "m/s", "Gas velocity",
                      "Initial velocity of the gas in this box.")));
  t.add(rebuild(choices(param("solid_block.#.shape", T::Choice, "box", "", "Solid shape",
                             "Shape of this body of solid (physics.model = solid): box (min, max), "
                             "sphere (center, radius; a disc in 2D) or shell (center, radius, "
                             "inner_radius; a ring in 2D). Sites lie on a lattice of spacing dp."),
                       {"box", "sphere", "shell"})));
  t.add(rebuild(param("solid_block.#.min", T::Vec3, "0, 0, 0", "m", "Solid block min",
                      "Lower corner of a box of solid (shape = box).")));
  t.add(rebuild(param("solid_block.#.max", T::Vec3, "1, 1, 1", "m", "Solid block max",
                      "Upper corner of a box of solid (shape = box).")));
  t.add(rebuild(param("solid_block.#.center", T::Vec3, "0, 0, 0", "m", "Solid centre",
                      "Centre of a sphere or shell of solid.")));
  t.add(rebuild(range(param("solid_block.#.radius", T::Real, "0.1", "m", "Solid radius",
                            "Outer radius of a sphere or shell of solid."),
                      1e-9, 1e9)));
  t.add(rebuild(range(param("solid_block.#.inner_radius", T::Real, "0", "m", "Solid inner radius",
                            "Inner radius of a shell (ring) of solid; must be below radius."),
                      0, 1e9)));
  t.add(rebuild(choices(param("solid_block.#.motion", T::Choice, "free", "", "Solid motion",
                             "free: the body moves under its stresses; prescribed: its particles keep "
                             "their initial velocity for ever (a clamp with velocity 0, or a driven "
                             "grip). Prescribed particles still carry stress and push on their "
                             "neighbours."),
                       {"free", "prescribed"})));
  t.add(rebuild(range(param("solid_block.#.dp", T::Real, "0.01", "m", "Solid spacing",
                            "Lattice spacing of this solid box; mass = rho0 dp^dim, h = "
                            "solid.h_over_dp dp."),
                      1e-9, 1e6)));  // up to 1000 km: self-gravitating planets (issue 16)
  t.add(rebuild(param("solid_block.#.material", T::String, "basalt", "", "Material",
                      "Name of the material in the library (solid.materials).")));
  t.add(rebuild(param("solid_block.#.velocity", T::Vec3, "0, 0, 0", "m/s", "Solid velocity",
                      "Initial velocity of this solid box.")));
  t.add(rebuild(choices(param("solid_block.#.velocity_profile", T::Choice, "uniform", "", "Velocity profile",
                             "uniform: every particle starts with velocity; cantilever: the first "
                             "bending mode of a cantilever along x clamped at the box's min x, of length "
                             "the box's x extent L (Landau & Lifshitz, Theory of Elasticity, sec. 25): "
                             "v(x) = velocity f(x - min_x)/f(L), f(s) = (cosh ks - cos ks) - "
                             "(cosh kL + cos kL)/(sinh kL + sin kL) (sinh ks - sin ks), kL = 1.8751; "
                             "velocity is then the tip velocity (shape = box only)."),
                       {"uniform", "cantilever"})));
  t.add(rebuild(param("obstacle.#.min", T::Vec3, "0, 0, 0", "m", "Obstacle min",
                      "Lower corner of a solid box filled with fixed wall particles.")));
  t.add(rebuild(param("obstacle.#.max", T::Vec3, "0.1, 0.1, 0.1", "m", "Obstacle max",
                      "Upper corner of a solid obstacle box.")));
  t.add(rebuild(param("gate.#.min", T::Vec3, "0, 0, 0", "m", "Gate min",
                      "Lower corner of a gate: a box of wall particles laid as an obstacle's, which moves at "
                      "a constant velocity from t = 0 (the door lifted to release a dam break's water, "
                      "Kleefsman et al. 2005). The walls' models see it as a moving wall (docs/physics.md, "
                      "\"Fourteenth session\").")));
  t.add(rebuild(param("gate.#.max", T::Vec3, "0.1, 0.1, 0.1", "m", "Gate max", "Upper corner of a gate's box.")));
  t.add(rebuild(param("gate.#.velocity", T::Vec3, "0, 0, 0", "m/s", "Gate velocity",
                      "The gate's constant velocity, along the last axis only (up: y in 2D, z in 3D) and not "
                      "negative: a lifted gate, which leaves through its tank's open top (the tank must have "
                      "open_top = true unless the gate has a travel that keeps it under the roof; the "
                      "neighbour grid wraps, so a gate past the scene's top costs nothing but its particles' "
                      "steps); below 0.3 fluid.c0 (the weakly compressible model's Mach limit). 0: an "
                      "obstacle, bit for bit. Not with boundary.slip = no_slip.")));
  t.add(rebuild(param("gate.#.travel", T::Real, "0", "m", "Gate travel",
                      "The distance the gate moves along its velocity before it stops and stays (a door lifted "
                      "by so much, at travel / |velocity| s; its particles end exactly there). Unset (0): it "
                      "keeps moving. Set, it must be > 0; in a tank with a closed top the raised gate must fit "
                      "under the roof.")));

  // The keys every gauge and load has: its name, sampling interval and reference curve.
  const auto instrument_keys = [&t](const std::string& sec, const std::string& title, const std::string& noun,
                                    const std::string& series, const std::string& values) {
    t.add(param(sec + ".#.name", T::String, "", "", title + " name",
                "Name of the " + noun + " in the CSV header and plots; \"\" = " + sec + "N."));
    t.add(range(param(sec + ".#.interval", T::Real, "0", "s", title + " interval",
                      "Simulated time between samples; 0 = every step."),
                0, 1e9));
    t.add(param(sec + ".#.reference", T::String, "", "", title + " reference",
                "CSV file of a reference " + series + " (time in the first column), relative to the scene file, "
                "drawn over the " + noun + "'s live plot in the viewer. \"\" = none."));
    t.add(range(param(sec + ".#.reference_column", T::Int, "2", "", "Reference column",
                      "Column of the reference file holding this " + noun + "'s " + values + " (1 is the time)."),
                2, 1000));
  };
  // Numbered sections [probe.N], [gauge.N] and [force.N]: instruments sampled on the device (engine/probes,
  // docs/probes.md has the definitions and the CSV format).
  t.group = "Probes";
  t.add(param("probe.#.position", T::Vec3, "0, 0, 0", "m", "Probe position",
              "Point where the probe samples (2D: x, y); the centre of its sensor disc."));
  t.add(param("probe.#.name", T::String, "", "", "Probe name",
              "Name of the probe in the CSV header and plots (letters, digits, '_', '-'); \"\" = probeN."));
  t.add(param("probe.#.fields", T::String, "pressure", "", "Probe fields",
              "Comma-separated particle fields to sample (any field of the engine, e.g. pressure, density, "
              "velocity); a vector field gives one column per component, FIELD.x/.y/.z one component. Each "
              "value is the Shepard-normalised kernel average over the fluid within the support; 0 where "
              "dry (fluid kernel sum below 0.1)."));
  t.add(choices(param("probe.#.source", T::Choice, "fluid", "", "Probe source",
                      "Particles a probe averages: fluid (the Shepard kernel average over the fluid within the "
                      "support) or walls (the same over the wall particles, whose pressure is the one "
                      "extrapolated from the fluid (Adami et al. 2012, cut at 0): the pressure a wall feels, "
                      "for a sensor on a wall; 0 where no fluid is near)."),
                {"fluid", "walls"}));
  t.add(range(param("probe.#.diameter", T::Real, "0", "m", "Sensor diameter",
                    "Diameter of a sensor disc (3D; a segment in 2D) centred on position, normal to "
                    "normal: the probe reads the mean over sample points at most dp/2 apart on it, as a "
                    "pressure sensor averages over its membrane. 0 = a point."),
              0, 1e3));
  t.add(range(param("probe.#.normal", T::Vec3, "1, 0, 0", "", "Sensor normal",
                    "Normal of the sensor disc (with diameter > 0); its length does not matter."),
              -1e3, 1e3));
  t.add(range(param("probe.#.interval", T::Real, "0", "s", "Probe interval",
                    "Simulated time between samples; 0 = every step."),
              0, 1e9));
  t.add(param("probe.#.reference", T::String, "", "", "Probe reference",
              "CSV file of a reference time series (time in the first column; comma, tab or space separated; "
              "lines that do not start with a number are skipped), relative "
              "to the scene file, drawn over the probe's live plot in the viewer. \"\" = none."));
  t.add(range(param("probe.#.reference_column", T::Int, "2", "", "Reference column",
                    "Column of the reference file holding this probe's values (1 is the time)."),
              2, 1000));
  t.add(param("gauge.#.position", T::Vec3, "0, 0, 0", "m", "Gauge position",
              "Foot of the gauge's vertical line: x, y in 3D with z where the search starts; x in 2D with "
              "y where it starts. The gauge reads the free-surface height: the first point going up, in "
              "steps of dp/4, where the kernel sum over fluid and walls falls below 0.5."));
  t.add(param("gauge.#.top", T::Real, "1", "m", "Gauge top",
              "Height (z in 3D, y in 2D) where the gauge's line ends; a line wet to the top reads top."));
  instrument_keys("gauge", "Gauge", "gauge", "height series", "heights");

  t.add(param("force.#.min", T::Vec3, "0, 0, 0", "m", "Load box min",
              "Lower corner of the box that selects the wall particles of a load instrument [force.N]: the "
              "fluid's force on every wall particle inside min..max (a body's walls, e.g. an obstacle's), "
              "summed, sampled on the device as the reaction of the liquid's own fluid-wall pair terms "
              "(pressure, viscosity, the wall law): -sum_i m_i a_iw over the fluid i and the walls w inside. "
              "Columns NAME.force.x/.y/.z in N (3D) or N per metre of depth (2D)."));
  t.add(param("force.#.max", T::Vec3, "0, 0, 0", "m", "Load box max",
              "Upper corner of the load instrument's box (each component above min's, in the scene's "
              "dimensions); the box must hold at least one wall particle."));
  t.add(range(param("force.#.area", T::Real, "0", "m^2", "Load sensor area",
                    "> 0: the load is also read as a pressure sensor's, the column NAME.pressure = -F . n / area "
                    "(n = normal, out of the wall into the fluid): the mean normal stress the walls inside the box "
                    "receive, as a transducer measures the force on its membrane. Give the area of the wall face "
                    "the box covers (2D: its length, in m). 0 = no pressure column."),
              0, 1e6));
  t.add(range(param("force.#.normal", T::Vec3, "1, 0, 0", "", "Load sensor normal",
                    "Normal of the sensor's wall face, pointing into the fluid (with area > 0); its length does "
                    "not matter."),
              -1e3, 1e3));
  instrument_keys("force", "Load", "load", "force series", "values");

  // DEM grains, a material of physics.model = mixed (physics/dem_grains.h; docs/physics.md, "DEM
  // grains"): the block geometry [grains.N] and the contact law [dem] (the cuda-samples `particles`
  // model, physics/dem_contact_linear.h). Model "dem": read when the mixed scene has a [grains.N].
  t.group = "DEM grains";
  const std::vector<std::string> dem{"dem"};
  t.add(only(rebuild(param("grains.#.min", T::Vec3, "0, 0, 0", "m", "Grains min",
                           "Lower corner of a block of DEM grains (physics.model = mixed).")), dem));
  t.add(only(rebuild(param("grains.#.max", T::Vec3, "0.1, 0.1, 0.1", "m", "Grains max",
                           "Upper corner of a block of DEM grains; the block holds as many grains of the "
                           "lattice (first centre at min + radius) as fit inside.")), dem));
  t.add(only(rebuild(range(param("grains.#.radius", T::Real, "0.005", "m", "Grain radius",
                                 "Radius of the grains of this block (spheres in 3D, discs in 2D); mass = "
                                 "density times the sphere's volume (2D: pi r^2, per unit thickness)."),
                           1e-9, 1e3)), dem));
  t.add(only(rebuild(range(param("grains.#.spacing", T::Real, "0", "m", "Grain spacing",
                                 "Lattice spacing of the grain centres; 0 = 2 radius (touching). Must be at "
                                 "least 2 radius (1 + jitter)."),
                           0, 1e3)), dem));
  t.add(only(rebuild(range(param("grains.#.jitter", T::Real, "0", "", "Grain jitter",
                                 "Each grain centre moves by up to jitter * radius along each axis (a fixed "
                                 "hash of its lattice index: the same every run), so that the lattice does "
                                 "not stack in columns."),
                           0, 1)), dem));
  t.add(only(rebuild(range(param("grains.#.density", T::Real, "2600", "kg/m^3", "Grain density",
                                 "Density of the grains' material (2600: quartz sand, granite gravel)."),
                           1e-6, 1e6)), dem));
  t.add(only(rebuild(param("grains.#.velocity", T::Vec3, "0, 0, 0", "m/s", "Grain velocity",
                           "Initial velocity of the grains of this block.")), dem));
  t.add(only(rebuild(range(param("grains.#.size_spread", T::Real, "0", "", "Size spread",
                                 "Polydispersity: each grain's radius is uniform in radius (1 +- size_spread) (a "
                                 "fixed hash of its lattice index), its mass that of its own sphere (disc); "
                                 "spacing must be at least 2 radius (1 + size_spread + jitter). Monodisperse "
                                 "discs crystallise in 2D; a spread of 0.1 - 0.2 keeps a packing random."),
                           0, 0.5)), dem));
  t.add(only(rebuild(param("grains.#.fixed", T::Bool, "false", "", "Fixed grains",
                           "The grains of this block never move (glued): a rough floor or wall for the free "
                           "grains, which touch them by the contact law (the planes of the box are smooth).")), dem));
  t.add(only(range(param("dem.spring", T::Real, "1000", "N/m", "Contact spring",
                         "Normal spring k of the linear contact, between grains and between a grain and "
                         "a wall plane: F = k delta, delta the overlap. The time step resolves a contact: "
                         "dt <= pi sqrt(m / k) / dem.steps_per_contact."),
                   0, 1e15), dem));
  t.add(only(range(param("dem.damping", T::Real, "0", "N s/m", "Contact damping",
                         "Normal dashpot c between grains, on the normal relative velocity; with the "
                         "reduced mass m* of a pair, zeta = c / (2 sqrt(k m*)) and the restitution is "
                         "e = exp(-pi zeta / sqrt(1 - zeta^2))."),
                   0, 1e15), dem));
  t.add(only(range(param("dem.shear", T::Real, "0", "N s/m", "Contact shear",
                         "Tangential viscous friction k_s on the relative tangential velocity of two "
                         "grains in contact, and of a grain on a wall plane."),
                   0, 1e15), dem));
  t.add(only(range(param("dem.attraction", T::Real, "0", "N/m", "Contact attraction",
                         "Cohesion a pulling the centres of two touching grains together, a (x_B - x_A)."),
                   0, 1e15), dem));
  t.add(only(range(param("dem.boundary_damping", T::Real, "0", "N s/m", "Wall damping",
                         "Normal dashpot c_w of a grain on a wall plane (the plane is a grain of infinite "
                         "mass at rest: zeta = c_w / (2 sqrt(k m)))."),
                   0, 1e15), dem));
  t.add(only(range(param("dem.global_damping", T::Real, "0", "1/s", "Global damping",
                         "Drag rate gamma on every grain, dv/dt = -gamma v (the cuda-samples demo's "
                         "per-step velocity factor, as a rate); 0 = none."),
                   0, 1e9), dem));
  t.add(only(rebuild(param("dem.box_min", T::Vec3, "-1, -1, -1", "m", "Grain box min",
                           "Lower corner of the box whose planes are the grains' walls (the liquid's "
                           "walls are its [tank.N]; give the grains the tank's inner box).")), dem));
  t.add(only(rebuild(param("dem.box_max", T::Vec3, "1, 1, 1", "m", "Grain box max",
                           "Upper corner of the box whose planes are the grains' walls.")), dem));
  t.add(only(range(param("dem.steps_per_contact", T::Real, "50", "", "Steps per contact",
                         "The time step is at most t_c / steps_per_contact: linear, t_c = pi sqrt(m / k) the "
                         "undamped contact time of the lightest grain on a wall; hertz_mindlin, the Hertz "
                         "contact time of two of the lightest grains at the free-fall speed across the box."),
                   4, 1e6), dem));
  // The frictional contact for validation (physics/dem_grains_hertz_mindlin.h, issue 17).
  t.add(only(rebuild(choices(param("dem.contact", T::Choice, "linear", "", "Contact law",
                                   "linear: the cuda-samples spring-dashpot (dem.spring, dem.damping, dem.shear, "
                                   "dem.attraction); hertz_mindlin: Hertz normal force, Mindlin tangential spring "
                                   "with Coulomb friction (Cundall & Strack 1979), grain rotation and contact "
                                   "history (dem.youngs_modulus, dem.poisson_ratio, dem.restitution, dem.friction; "
                                   "needs time.integrator = leapfrog). The time step is then the Hertz contact time "
                                   "at the free-fall speed across dem.box_min .. max over dem.steps_per_contact."),
                             {"linear", "hertz_mindlin"})), dem));
  t.add(only(range(param("dem.youngs_modulus", T::Real, "1e7", "Pa", "Young's modulus",
                         "Young's modulus E of the grains and the box planes (hertz_mindlin). DEM practice "
                         "lowers it (1e6 - 1e8 Pa) for a longer time step; the overlap stays small while "
                         "E >> the grains' pressure."),
                   1, 1e13), dem));
  t.add(only(range(param("dem.poisson_ratio", T::Real, "0.3", "", "Poisson ratio",
                         "Poisson ratio nu of the grains and the box planes (hertz_mindlin)."),
                   0, 0.499), dem));
  t.add(only(range(param("dem.restitution", T::Real, "0.5", "", "Restitution",
                         "Normal coefficient of restitution e of a head-on contact (hertz_mindlin; the dashpots "
                         "of Tsuji, Tanaka & Ishida 1992). 1 = elastic."),
                   1e-3, 1), dem));
  t.add(only(range(param("dem.friction", T::Real, "0.5", "", "Friction coefficient",
                         "Coulomb friction mu of the tangential force, |F_t| <= mu |F_n|, between grains and on "
                         "the box planes (hertz_mindlin)."),
                   0, 10), dem));
  t.add(only(range(param("dem.rolling_friction", T::Real, "0", "", "Rolling friction",
                         "Rolling resistance mu_r (hertz_mindlin; type A of Ai et al. 2011, Powder Technol. "
                         "206, 269): a torque mu_r R* |F_n| against the relative rolling of two grains (a "
                         "grain on a plane), at most what stops it within the step. It stands for the shape "
                         "of real grains; 0 = round grains that roll freely."),
                   0, 10), dem));

  // Distributed runs (mpirun -n K, EJECTA_MPI builds; engine/dist/, docs/architecture.md "Distributed
  // runs"). Read by the liquid and the solid, the models that run on several ranks so far.
  t.group = "Distributed";
  t.add(only(rebuild(range(param("dist.skin", T::Real, "1", "", "Halo skin",
                                 "Extra halo depth in kernel supports (2h) beyond the interaction depth: "
                                 "ownership and halos are rebuilt once a particle has moved half of it. "
                                 "Larger: fewer rebuilds, more ghosts."),
                           0.05, 10)), {"wcsph", "solid"}));
  t.add(only(rebuild(range(param("dist.rebalance_threshold", T::Real, "0.1", "", "Rebalance threshold",
                                 "At a rebuild the Morton-key ranges are re-split when the largest rank's work "
                                 "exceeds the mean by more than this fraction."),
                           0, 10)), {"wcsph", "solid"}));
  t.add(only(rebuild(choices(param("dist.halo", T::Choice, "packed", "", "Halo exchange",
                                   "How ghosts get their owners' rows each step: packed = only the rows "
                                   "other ranks hold as ghosts, gathered by the solver's backend into one "
                                   "buffer per peer and scattered back there (on the GPU the buffers go to "
                                   "MPI directly when it is CUDA-aware, else only they are staged through "
                                   "the host); frame = every field of every local particle copied to the "
                                   "host and back each step (the first version, kept for comparison). The "
                                   "same results."),
                             {"packed", "frame"})),
             {"wcsph", "solid"}));
  t.add(only(rebuild(choices(param("dist.overlap", T::Choice, "interior", "", "Overlap the halo",
                                   "dist.halo = packed: interior = inside each step the pair pass runs first "
                                   "over the rows other ranks hold as ghosts, which are then sent, and over "
                                   "the other owned rows while the messages travel; the ghosts are unpacked "
                                   "before the closing kick; on = the exchange after the step, its messages "
                                   "travelling while each rank measures the next step size and the skin "
                                   "check over its own rows; off = the exchange after the step completes "
                                   "first. The same results bit for bit (A/B switch for the halo's time)."),
                             {"interior", "on", "off"})),
             {"wcsph", "solid"}));

  // Speed (issue 18): A/B switches for measuring the liquid's force pass.
  t.group = "Fluid";
  t.add(rebuild(choices(param("fluid.neighbour_record", T::Choice, "arrays", "", "Neighbour record",
                              "How the 3D force pass reads a neighbour: arrays = six arrays of the store "
                              "(the default: with the specialised passes and auto's loop on the H100, 2026-12-06, "
                              "packed is 1.5% faster at the float defaults, 2% slower at the peer's settings "
                              "and 17% slower in double); "
                              "packed = a packed copy of the sorted particles, position with pressure and "
                              "velocity with density (two 16-byte loads and the mass), with the default "
                              "neighbour loop and the specialised passes too, but a thread per particle "
                              "(the fluid list needs the sort buffers it lives in); packed_eos = two "
                              "16-byte loads, the fluid's pressure derived from its density (Tait) in the "
                              "loop. The same results (bit-identical on the CPU); the packed copy lives in "
                              "the sort's buffers and adds 4 (float) or 24 (double) bytes a particle. 2D "
                              "and 1D read the arrays."),
                        {"arrays", "packed", "packed_eos"})));
  t.add(rebuild(choices(param("fluid.neighbour_cells", T::Choice, "half", "", "Neighbour cells",
                              "The liquid's neighbour grid: support = cells of the kernel support, the "
                              "3^D around a particle scanned (27 in 3D, a volume of 216 h^3 for a sphere of "
                              "33.5 h^3); half = cells of half the support (h), the 5^D around it scanned "
                              "(125 h^3 in 3D: 42% fewer candidates, up to 8x the buckets, capped near 2 "
                              "per particle; DualSPHysics's -cellmode:h; the default: on the H200 the force "
                              "pass is 20-28% faster, the step 0-18%). The same neighbours; sums in "
                              "another order (round-off)."),
                        {"support", "half"})));
  t.add(rebuild(choices(param("fluid.force_kernel", T::Choice, "particles", "", "Force kernel",
                              "How the liquid's fused force pass is laid out: particles = a thread per "
                              "particle, each reading its candidates from the arrays (the default); "
                              "cell_blocks = blocks of 128 sorted particles whose candidates (the rows of "
                              "cells around the block) are staged in shared memory tile by tile and read "
                              "there by every particle that scans them (physics/forces_wcsph_cells.h). The "
                              "same pair terms in the same order (bit-identical on the CPU); cell_blocks "
                              "reads the arrays whatever fluid.neighbour_record says, and needs the "
                              "row-major bucket order (else the particle pass runs)."),
                        {"particles", "cell_blocks"})));

  // Speed (issue 18, helper speed7): A/B variants of the particle pass, and the bucket order's bands.
  t.add(rebuild(choices(param("fluid.force_threads", T::Choice, "fluid", "", "Force pass threads",
                              "Which particles the fused force pass launches a thread for (fluid.force_kernel "
                              "= particles, the arrays record (packed: all), no shifting): all = every "
                              "particle, a wall returning at once; fluid = the fluid's sorted indices only, "
                              "listed each pass (one compaction of the indices), so no lane of a warp idles "
                              "on a wall where walls and fluid share buckets (the default: 5% faster at the "
                              "peer's settings on the H200; on the H100, 2026-12-06, equal at the defaults). "
                              "The same results bit for bit."),
                        {"all", "fluid"})));
  // Speed (issue 18, helper speed11): the wall pass's threads.
  t.add(rebuild(choices(param("boundary.wall_threads", T::Choice, "wet", "", "Wall pass threads",
                              "Which particles the walls' pressure pass (boundary.model = adami2012) launches "
                              "a thread for: all = every particle, fluid and dry walls returning at once; "
                              "wet = the wet walls' sorted indices only, listed each pass (a flag that also "
                              "gives the dry walls their values, a scan and a scatter), so no lane of a warp "
                              "idles where a wall shares its row of cells with the fluid (the tank's end "
                              "walls; the default: the density phase 18% faster at 1M, 30% at 4M and 38% "
                              "in double on the H200). The same results bit for bit."),
                        {"all", "wet"})));
  t.add(rebuild(choices(param("fluid.force_registers", T::Choice, "64", "", "Force pass registers",
                              "The CUDA launch bound of the fused force pass in float (fluid.force_kernel = "
                              "particles, no shifting): 72 = 7 blocks of 128 threads a "
                              "SM, at most 72 registers; 64 = 8 blocks, at most 64 registers (more spills, "
                              "more warps; the default, with fluid.force_threads = fluid 3-5% faster on the "
                              "H200). The same results; no effect on the CPU or in double."),
                        {"72", "64"})));
  // Speed (issue 18, helper speed9): the force pass's neighbour loop in two phases, against warp divergence.
  t.add(rebuild(choices(param("fluid.neighbour_batch", T::Choice, "auto", "", "Neighbour batch",
                              "The fused force pass's neighbour loop (3D, fluid.force_kernel = particles; "
                              "with the packed record only row32, auto and the rings batch, at the default "
                              "options; the others run the one loop): off = each candidate tested and, within the support, its pair terms "
                              "computed at once (on the GPU only the lanes with a neighbour at that step run "
                              "them); row16, row32 = per row of cells, the candidates "
                              "within the support first queued (16 or 32 a thread), then their pair terms "
                              "computed with nearly every lane active (physics/forces_wcsph_batch.h); rows2 "
                              "= a queue of 48 flushed every two rows. The same pairs in the same order: "
                              "the same results bit for bit on the CPU. row32: on the H200 "
                              "(2026-12-04) the force pass took 1.385 against 1.502 ms at 1M in float, "
                              "5.74 against 6.28 ms at 4M, 3.14 against 3.65 ms in double, 2.60 against "
                              "2.70 ms at the peer's settings (docs/benchmarks.md). auto (the default) = "
                              "row32, with the fast specialised pass in float (fluid.force_specialised) "
                              "scanning a row up to the queue's room in candidates where a row's candidates "
                              "fit the queue (Ejecta's h/dp 1.5 with half cells; not at h/dp 2 or with "
                              "cells of the support): the same pairs in the same order, 3-4% faster at the "
                              "defaults on the H100 (2026-12-06). row32_shared, "
                              "rows2_shared: row32, rows2 with the queue in the block's shared memory "
                              "instead of the thread's local memory (16 or 24 KB a block of 128 on the "
                              "GPU; exec/thread_slots.h): the same results, another register allocation. "
                              "ring32, ring64, ring32_shared (no shifting): the queue a ring of 32 or 64 "
                              "entries over the rows as one sequence, its pair terms run when every lane of "
                              "the warp holds some (physics/forces_wcsph_ring.h): the same results bit for "
                              "bit on the CPU."),
                        {"off", "row16", "row32", "rows2", "row32_shared", "rows2_shared", "auto", "ring32", "ring64",
                         "ring32_shared"})));
  // Speed (issue 18, stop 36): the force pass compiled for the default options.
  t.add(rebuild(choices(param("fluid.force_specialised", T::Choice, "fast", "", "Force pass specialised",
                              "The fused force pass (fluid.force_kernel = particles, either neighbour record "
                              "but packed_eos, the default neighbour loop): defaults = where the liquid's "
                              "options are the defaults (Monaghan's pair pressure, boundary.slip = at_rest, "
                              "Adami's walls, fluid.wall_diffusion off, the Fourtakas diffusion, fluid.xsph 0, "
                              "viscosity.beta 0, no shifting, the Wendland kernel), a kernel compiled for them with the other "
                              "options' branches left out, else the general one; off = the general kernel "
                              "always. The same results bit for bit on the CPU; on the H100 (2026-12-05) "
                              "the force pass took 1.094 against 1.290 ms at 1M in float, 4.52 against "
                              "5.33 ms at 4M, 2.37 against 2.64 ms in double (docs/benchmarks.md). fast (the "
                              "default) = defaults with the GPU's approximate reciprocal and square root in "
                              "the pair terms (core/pair_math.h): in float rcp.approx and sqrt.approx (1-2 "
                              "ulp; on the H100, 2026-12-05 23:09, 1.033 against 1.085 ms at 1M, 4.30 "
                              "against 4.51 ms at 4M), in double their f64 forms refined by FMA steps to "
                              "about 1 ulp (on the H200, 2026-12-06, 1.57 against 2.17 ms at 1M); the GPU's "
                              "results differ from defaults' by round-off; on the CPU the same instructions "
                              "as defaults."),
                        {"defaults", "fast", "off"})));
  // Speed (issue 18, helper speed7): the bucket order's bands, for the L2 at millions of particles.
  t.group = "Neighbours";
  t.add(only(rebuild(range(param("neighbours.band_rows", T::Int, "0", "", "Bucket order bands",
                                 "The order of the neighbour grid's buckets in memory (and so of the "
                                 "sorted particles): 0 = row-major, rows along x, then y, then z (the "
                                 "default); B > 0 = the same rows in bands of B rows in y, key (y / B, z, "
                                 "y mod B, x), so that a sweep's neighbour rows (about 2 reach + 2 slabs of "
                                 "B + 2 reach rows) stay in the GPU's L2 where whole y-z planes do not "
                                 "(engine/neighbors/bucket_order.h). Every row stays one range; the same "
                                 "neighbours, sums in another order (round-off). A B of the grid's rows in "
                                 "y or more is row-major. -1 = auto: B sized for half the GPU's L2 from the "
                                 "mean particles a row and the bytes a neighbour read takes (about 37 in the "
                                 "float liquid, 186 in the double solid; bucket_order.h), row-major where "
                                 "whole planes fit and on the CPU."),
                           -1, 1 << 20)),
             {"wcsph", "solid", "gas", "mixed"}));

  // Keys that were replaced (issue 14: one viscosity description instead of three alphas and betas).
  const std::string one = "one artificial viscosity for every model";
  const std::string solid_note = one + "; viscosity.solid.alpha/beta where a mixed scene's solid bodies need their own";
  reg.add_replaced({"gas.alpha", "viscosity.alpha", one});
  reg.add_replaced({"gas.beta", "viscosity.beta", one});
  reg.add_replaced({"gas.switch", "viscosity.switch", one});
  reg.add_replaced({"gas.alpha_min", "viscosity.alpha_min", one});
  reg.add_replaced({"gas.switch_decay", "viscosity.switch_decay", one});
  reg.add_replaced({"solid.alpha", "viscosity.alpha", solid_note});
  reg.add_replaced({"solid.beta", "viscosity.beta", solid_note});
  return reg;
}

}  // namespace

const ParamRegistry& ParamRegistry::builtin() {
  static const ParamRegistry reg = make_builtin();
  return reg;
}

}  // namespace ejecta
