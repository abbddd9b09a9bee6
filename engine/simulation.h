#pragma once
// The engine facade (ALIEN style): no GUI or GL types. The viewer, the headless run and the benchmark
// all drive a Simulation through the one step loop in run/step_loop.h.
#include "core/types.h"
#include "gravity/gravity_phase_times.h"
#include "io/frame.h"
#include "materials/material_library.h"
#include "params/param_set.h"
#include "render_data/render_request.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

// Particle data copied to the host, always in double whatever the precision, in the engine's current
// (sorted) order; `id` gives the particle's original index.
struct HostParticles {
  int dim = 0;
  std::size_t n = 0;
  std::vector<double> position;  // n * dim
  std::vector<double> velocity;  // n * dim
  std::vector<double> density;   // n
  std::vector<double> pressure;  // n
  std::vector<double> mass;      // n
  std::vector<uint8_t> kind;     // n, ParticleKind
  std::vector<uint32_t> id;      // n
};

// Sums over all particles (walls have no kinetic energy; potential energy is -m g.x plus, with
// gravity.self = on, the self-gravity energy 1/2 sum m_i phi_i).
struct Diagnostics {
  double time = 0;
  long step = 0;
  double dt = 0;
  std::size_t particles = 0;
  double mass = 0;
  double kinetic = 0, potential = 0, internal = 0, total = 0;
  double self_gravity = 0;  // the self-gravity part of `potential`, 1/2 sum m_i phi_i (0 when off)
  double max_speed = 0;
  double max_density_error = 0;  // max |rho/rho0 - 1| over fluid particles
  double momentum[3] = {0, 0, 0};          // sum m v over the fluid
  double angular_momentum[3] = {0, 0, 0};  // sum m x cross v over the fluid (2D: z only)
};

// Accumulated wall-clock seconds per phase, for the benchmark. gravity: the self-gravity tree build
// and walk (gravity.self = on).
struct PhaseTimes {
  double sort = 0, density = 0, forces = 0, integrate = 0, gravity = 0;
  GravityPhaseTimes gravity_phases;  // the parts of `gravity` (self-gravity), not added to total()
  double total() const { return sort + density + forces + integrate + gravity; }
};

// Neighbour statistics of the last force evaluation (only when counting is enabled).
struct PairCounts {
  double real = 0;       // pairs within the kernel support, counted per particle (i,j) and (j,i)
  double candidate = 0;  // pairs examined in the cells visited
};

// Numerical blow-up: NaN/inf, density runaway, dt collapse. The message names step, time, particle
// id and field.
struct BlowUpError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Not enough device memory; the message says how many particles would fit.
struct OutOfMemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A rigid sphere that pushes the fluid (physics/collider_sphere.h has the force and its citation).
// The collider.* scene keys give it; the viewer moves it between steps with set_collider.
struct ColliderSphere {
  bool enabled = false;
  double center[3] = {0, 0, 0};    // m (2D: x, y)
  double velocity[3] = {0, 0, 0};  // m/s, the surface velocity the contact damping drags towards
  double radius = 0.05;            // m
  double strength = 2.5;           // Monaghan's D in units of (c0/10)^2
};

class StepObserver;

class Simulation {
 public:
  virtual ~Simulation() = default;
  virtual void step() = 0;  // one time step; throws BlowUpError
  virtual double time() const = 0;
  virtual double dt() const = 0;  // the step the next step() will take
  virtual long steps() const = 0;
  virtual std::size_t particle_count() const = 0;
  virtual std::size_t fluid_count() const = 0;
  virtual int dim() const = 0;
  virtual Backend backend() const = 0;
  virtual Precision precision() const = 0;
  virtual HostParticles download() const = 0;
  virtual Diagnostics diagnostics() const = 0;
  virtual const PhaseTimes& phase_times() const = 0;
  virtual void reset_phase_times() = 0;
  // Phase times are exact (the device is waited for at each phase boundary) only while this is on;
  // off by default, so ordinary runs do not sync mid-step.
  virtual void set_phase_timing(bool on) = 0;
  virtual void set_count_pairs(bool on) = 0;
  virtual PairCounts pair_counts() const = 0;
  virtual std::size_t device_bytes() const = 0;  // bytes of device memory the engine holds
  virtual std::string device_name() const = 0;
  // The stream the engine's kernels run on (a cudaStream_t, opaque here: the engine facade has no CUDA
  // types), so that interop code maps and unmaps GL buffers in order with the engine's work instead
  // of synchronising stream 0; nullptr on the CPU backend.
  virtual void* device_stream() const { return nullptr; }
  // Wait for queued device work (for honest timings); a no-op on the CPU.
  virtual void synchronize() = 0;

  // Every particle field the engine holds (the field registry): output, colouring, inspector.
  virtual std::vector<FieldInfo> fields() const = 0;
  // Copies the named fields (all when `names` is empty) to the host in their native types, in the
  // engine's current order, with time, step and dt. Throws std::invalid_argument for unknown names.
  FrameData capture_frame(const std::vector<std::string>& names = {}) const {
    FrameData f;
    capture_frame_into(f, names);
    return f;
  }
  // The same into `frame`, reusing its buffers: a recorder that recycles two frames touches no new
  // memory per frame (fresh pages cost more than the copy itself).
  virtual void capture_frame_into(FrameData& frame, const std::vector<std::string>& names = {}) const = 0;
  // Continues from a frame captured by the same scene, backend-independent: every persistent field
  // and the rates must be present (a frame of all fields). The run then proceeds exactly as the one
  // that recorded it. Throws std::invalid_argument naming a missing or mis-shaped field.
  virtual void restore_frame(const FrameData& frame) = 0;

  // ---- Viewer hooks (issue 4). Not pure, so that other solvers compile before they support them. ----
  // Writes positions (float4) and the requested colour value of every particle into `out`, in the
  // engine's current order, with one functor on either backend (no host round-trip on CUDA), and
  // returns the colour range over the fluid. Throws std::invalid_argument for an unknown field, a
  // component out of range, too small buffers, or host/device buffers on the wrong backend.
  virtual RenderRange fill_render_data(const RenderRequest& req, const RenderBuffers& out);
  // The legend's histogram of the same colour value (render_data/colour_histogram.h): counts in
  // kColourHistogramBins equal bins over [lo, hi], or over the measured range (as fill_render_data's)
  // when lo > hi. One reduction on the solver's backend: only the counts come back to the host. Throws
  // std::invalid_argument as fill_render_data does for the request.
  virtual ColourHistogram colour_histogram(const RenderRequest& req, float lo, float hi);
  // The cells of the self-gravity octree's levels 0 .. levels - 1 as last built (gravity.self = on),
  // for the viewer's teaching overlay; empty for solvers without self-gravity or before the first step.
  virtual std::vector<TreeCellBox> gravity_tree_cells(int /*levels*/) { return {}; }
  // Applies, between steps, every parameter that does not need a rebuild (needs_rebuild = false in
  // the registry): viscosity, delta-SPH, XSPH, gravity, wall slip, kernel, time-step limits, fault
  // threshold, collider. Keys that need a rebuild are ignored here (rebuild with make_simulation).
  // The new values act from the next force evaluation on.
  virtual void apply_params(const ParamSet& params);
  virtual ColliderSphere collider() const;
  virtual void set_collider(const ColliderSphere& c);
  // The materials of a solid scene, in the order of the particles' material index (empty for
  // solvers without materials), and a live replacement of one of them between steps (viewer
  // material panels). set_material throws std::invalid_argument for a bad index, std::logic_error
  // where the solver has no materials.
  virtual std::vector<Material> materials() const;
  virtual void set_material(std::size_t index, const Material& m);

  // The observer whose on_step_queued the steps call (run/step_loop.h: StepLoop sets it around each
  // step, nullptr afterwards). Solvers without that point never call it; their observers sample in
  // on_step.
  void set_step_observer(StepObserver* obs) { step_observer_ = obs; }

 protected:
  // For a solver's step: its last kernel is queued and `time` is the time the step ends at; the step
  // has not waited for the device yet (StepObserver::on_step_queued).
  void step_queued(double time) const;

 private:
  StepObserver* step_observer_ = nullptr;
};

// Builds the scene's particles and the solver on the chosen backend, in the precision and dimension
// the scene gives (scene.precision, scene.dim; the CLI sets them through --set). Throws ParamError for bad scenes
// and, before allocating, for scenes that do not fit in host or device memory (scene/memory_budget.h);
// OutOfMemoryError when an allocation fails all the same; std::runtime_error when CUDA is asked for but
// unavailable.
std::unique_ptr<Simulation> make_simulation(const ParamSet& params, Backend backend);

// True when this build has the CUDA backend and a CUDA device is present.
bool cuda_available();
// Text describing why CUDA is not available (not built / no device), "" when it is.
std::string cuda_unavailable_reason();

// The embedded default scene (a 2D dam break) as INI text.
const char* default_scene_ini();

}  // namespace ejecta
