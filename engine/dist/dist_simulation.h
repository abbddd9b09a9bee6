#pragma once
// A distributed run (issue 19; docs/architecture.md, "Distributed runs") of the liquid or the solid: a
// Simulation that wraps this rank's StoreSolver (the liquid alone, or solids alone) over its own particles plus a halo of ghosts, so that THE step loop
// (run/step_loop.h) drives it unchanged. After each local step the ghosts receive their owners'
// end-of-step rows (all fields, rates included), the next dt is the minimum over the ranks of the
// solver's limit measured over correct rows, and faults are agreed by every rank. Ownership and halos
// are rebuilt (migration, and rebalancing past dist.rebalance_threshold) once some particle has moved
// more than half the skin since the last rebuild (Verlet-list skin: the halo is one coarse cell of
// support * layers + skin, so it stays complete until then).
#include "dist/decomposition.h"
#include "dist/dist_comm.h"
#include "dist/frame_physics.h"
#include "dist/halo_rows.h"
#include "params/param_set.h"
#include "scene/scene_particles.h"
#include "solver/row_subset_pass.h"
#include "simulation.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace ejecta {


// True when this process is one of several mpirun ranks (then make_simulation builds a
// DistributedSimulation); initialises MPI on first call in that case.
bool distributed_run();

// Counters of the decomposition, for tests and the log.
struct DistStats {
  long rebuilds = 0, rebalances = 0;
  std::size_t owned = 0, ghosts = 0;
  double imbalance = 0;  // of the last rebuild, max/mean - 1 of the ranks' work
  // Seconds on this rank since the start: the local solver's steps (device work waited for), the halo
  // (download, pack, exchange, unpack, upload, dt reduction; waiting for slower ranks included), of which mpi_s in the MPI exchange
  // itself, and the rebuild checks with their migrations.
  double step_s = 0, halo_s = 0, mpi_s = 0, rebuild_s = 0;
  // Of halo_s with dist.halo = packed: finding and gathering the send rows (with their download when
  // staged), and the upload and scatter of the received ones; the rows and bytes this rank sent.
  double pack_s = 0, unpack_s = 0;
  // Of rebuild_s: the frame of the owned rows (packed: downloaded at a rebuild only), the migration
  // with the keys, balance and plans, the new local solver, and the restore of the rows into it.
  double rebuild_capture_s = 0, rebuild_migrate_s = 0, rebuild_solver_s = 0, rebuild_restore_s = 0;
  std::size_t halo_rows_sent = 0, halo_bytes_sent = 0;
  bool packed = false;  // dist.halo = packed
  bool overlap = false;  // dist.overlap = on or interior: work while the halo travels
  bool interior = false;  // dist.overlap = interior: the interior rows' pair pass while the halo travels
  double overlap_s = 0;  // of halo_s with overlap: the work done between posting and waiting
  double wait_s = 0;     // of halo_s with overlap: blocked in the wait (the transfer not hidden)
  // dist.overlap = interior, at the last rebuild: the owned rows some peer holds as ghosts (their pair
  // pass runs first, then they are sent) and the other owned rows (computed while the halo travels).
  std::size_t boundary_rows = 0, interior_rows = 0;
  bool device_direct = false;  // packed device buffers handed to MPI (CUDA-aware MPI)
  // CUDA backend: this rank's device, the node's device count, whether MPI is CUDA-aware (and why
  // it was decided so).
  int device = -1, devices = 0;
  std::string device_name;
  bool cuda_aware = false;
  std::string cuda_aware_why;
};

// Host memory that stages the packed halo, grown on demand: page-locked on the CUDA backend (the copies
// then run at the bus' bandwidth), ordinary otherwise.
class StageBuffer {
 public:
  StageBuffer() = default;
  StageBuffer(const StageBuffer&) = delete;
  StageBuffer& operator=(const StageBuffer&) = delete;
  ~StageBuffer() { release(); }
  unsigned char* get(std::size_t bytes, bool pinned);

 private:
  void release();
  unsigned char* p_ = nullptr;
  std::size_t n_ = 0;
  bool pinned_ = false;
};

class DistributedSimulation final : public Simulation {
 public:
  DistributedSimulation(const ParamSet& params, Backend backend);

  void step() override;
  double time() const override { return local_->time(); }
  double dt() const override { return local_->dt(); }
  long steps() const override { return local_->steps(); }
  // This rank's own particles (capture and download return them, without ghosts).
  std::size_t particle_count() const override { return owned_.size(); }
  std::size_t fluid_count() const override { return owned_fluid_; }
  int dim() const override { return local_->dim(); }
  Backend backend() const override { return local_->backend(); }
  Precision precision() const override { return local_->precision(); }
  HostParticles download() const override;
  // Sums and extremes over every rank's own particles (MPI_Allreduce).
  Diagnostics diagnostics() const override;
  const PhaseTimes& phase_times() const override { return local_->phase_times(); }
  void reset_phase_times() override { local_->reset_phase_times(); }
  void set_phase_timing(bool on) override { local_->set_phase_timing(on); }
  void set_count_pairs(bool on) override { local_->set_count_pairs(on); }
  PairCounts pair_counts() const override { return local_->pair_counts(); }
  std::size_t device_bytes() const override { return local_->device_bytes(); }
  std::string device_name() const override { return local_->device_name(); }
  void synchronize() override { local_->synchronize(); }
  std::vector<FieldInfo> fields() const override { return local_->fields(); }
  void capture_frame_into(FrameData& frame, const std::vector<std::string>& names = {}) const override;
  // Continues from frames that together hold every particle once (each rank passes any share, e.g. the
  // files of a restart written by another number of ranks): the particles are redistributed.
  void restore_frame(const FrameData& frame) override;
  void apply_params(const ParamSet& params) override;

  const DistStats& stats() const { return stats_; }
  // Every row of the local solver, ghosts included, in its order (for tests of the halo), and whether
  // this rank owns a particle.
  void capture_local_frame(FrameData& f) const { local_->capture_frame_into(f); }
  bool owns(uint32_t id) const { return std::binary_search(owned_.begin(), owned_.end(), id); }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }

 private:
  void start_liquid(const SceneParticles& init);
  void start_solid(const SceneParticles& init);
  // What both starts share: the key geometry (halo of `layers` supports plus the skin), the splitters,
  // this rank's rows of the scene and the first local solver (`local(ids)`: over the scene's particles
  // `ids`; ids_global: its id field holds the scene's ids already, else 0 .. m-1), then the plans.
  template <class MakeLocal>
  void begin(int dim, const std::vector<double>& position, int layers, MakeLocal local, bool ids_global);
  // A local solver over the rows of a frame (the model's own).
  // (The solid's first one: over the scene's particles ids.)
  std::unique_ptr<Simulation> make_local(const FrameData& f, const SceneParticles* scene = nullptr,
                                         const std::vector<std::size_t>* ids = nullptr) const;
  // Ownership, halos and a new local solver from the rows this rank holds (any share of the particles),
  // keeping the key ranges, re-splitting them past dist.rebalance_threshold, or always.
  enum class Split { Keep, IfImbalanced, Balance };
  void redistribute(FrameData held, Split split);
  // Restores rows given in any order (restore_frame expects the solver's sorted order).
  void restore_unsorted(const FrameData& f);
  // Ghost rows from their owners, the global dt, the state back into the solver.
  void exchange_halo(FrameData& f);
  // The same with dist.halo = packed: only the rows the peers need, gathered and scattered in the
  // local solver's store (dist/halo_rows.h), no frame; set_dt: the next step size too.
  void exchange_packed(bool set_dt = true);
  // The global step size from the limit's inputs over correct rows (MPI_MIN).
  // The model's limit: the liquid's CFL and force criterion on the largest speed and acceleration, the
  // solid's on the smallest h / v_sig and h / |a|.
  double global_dt(const dist::HaloLimit& l, long step, double time) const;
  std::vector<uint8_t> owned_mask(const FrameData& f) const;
  [[noreturn]] void fail(const std::string& what) const;
  // dist.overlap = interior (solver/row_subset_pass.h): inside the local solver's evaluation, after the
  // boundary rows' pair pass, their rows are packed and posted (post_packed); the interior rows' pass
  // runs while they travel; then the wait and the ghosts' unpack (wait_unpacked), before the terms
  // after the pass and the closing kick, which the ghosts then take exactly as their owners.
  void post_packed();
  void wait_unpacked();
  // After such a step: the next dt and the skin check over the owned rows, reduced over the ranks.
  void finish_interior();
  class PairSplit final : public RowSplit {
   public:
    explicit PairSplit(DistributedSimulation& s) : s_(s) {}
    bool active() const override { return armed; }
    void split_rows(const uint32_t*& first, std::size_t& n_first, const uint32_t*& second,
                    std::size_t& n_second) override;
    void after_first() override;
    void after_second() override;
    void progress() override { s_.pending_->progress(); }
    bool armed = false;       // during DistributedSimulation::step only
    bool plant_early = false;  // EJECTA_DIST_PLANT=early_pack (tests): the boundary rows sent before their pass

   private:
    DistributedSimulation& s_;
  };

  ParamSet params_;
  Backend backend_;
  Precision precision_;
  int rank_ = 0, ranks_ = 1;
  dist::KeyGeometry geom_;
  dist::Decomposition decomp_;
  enum class Model { Liquid, Solid };
  Model model_ = Model::Liquid;
  SceneParticles solid_;  // the solid's materials, gravity and flaw table (by scene id), no particles
  dist::LiquidConstants liquid_;
  double h_ = 0, dp_ = 0, skin_ = 0, threshold_ = 0.1;
  double cfl_ = 0.2, force_factor_ = 0.25, dt_max_ = 1, dt_min_ = 0, dt_fixed_ = 0, alpha_ = 0;
  std::unique_ptr<Simulation> local_;
  std::vector<uint32_t> owned_;                     // ids, sorted
  std::vector<std::vector<uint32_t>> send_, recv_;  // per peer: ids, sorted
  std::vector<uint32_t> local_ids_;  // every local row's id (owned and ghosts), sorted
  std::vector<double> anchor_x_;     // their positions at the last rebuild, dim each (dist.halo = frame)
  std::size_t owned_fluid_ = 0;
  DistStats stats_;
  FrameData scratch_;
  bool in_step_ = false;  // a rebuild of step() (timed in rebuild_s), not of the start or a restore
  dist::HaloRows* halo_ = nullptr;  // the local solver's, with dist.halo = packed
  double moved_ = -1;  // with dist.overlap: the skin check's largest move over the ranks, measured in the exchange
  StageBuffer stage_send_, stage_recv_;  // host staging of the packed buffers
  PairSplit split_{*this};
  std::unique_ptr<dist::PendingExchange> pending_;  // dist.overlap = interior: the step's exchange
  std::chrono::steady_clock::time_point posted_;  // when the step's exchange was posted
  double inner_halo_s_ = 0;  // of the local step: halo work inside it (pack, post, wait, unpack)
};

// The distributed run of a scene (physics.model = wcsph or solid; the others are refused with an error).
std::unique_ptr<Simulation> make_distributed_simulation(const ParamSet& params, Backend backend);

}  // namespace ejecta
