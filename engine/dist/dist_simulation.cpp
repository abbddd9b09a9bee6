#include "dist/dist_simulation.h"

#include "dist/dist_comm.h"
#ifdef EJECTA_WITH_CUDA
#include "dist/dist_device.h"
#endif
#include "dist/frame_rows.h"
#include "probes/probe_api.h"
#include "scene/scene_builder.h"
#include "scene/solid_scene.h"
#include "solver/solver_factory.h"
#include "solver/store_reports.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ejecta {

using dist::append_row;
using dist::ids_of;
using dist::record_bytes;
using dist::row_values;

unsigned char* StageBuffer::get(std::size_t bytes, bool pinned) {
  if (p_ && bytes <= n_ && pinned == pinned_) return p_;
  release();
  const std::size_t n = bytes + bytes / 4 + 64;  // room for the halo to grow a little between rebuilds
#ifdef EJECTA_WITH_CUDA
  p_ = static_cast<unsigned char*>(pinned ? dist::pinned_allocate(n) : ::operator new(n));
#else
  if (pinned) throw std::logic_error("page-locked staging without the CUDA backend");
  p_ = static_cast<unsigned char*>(::operator new(n));
#endif
  n_ = n;
  pinned_ = pinned;
  return p_;
}

void StageBuffer::release() {
  if (!p_) return;
#ifdef EJECTA_WITH_CUDA
  if (pinned_) dist::pinned_free(p_);
  else ::operator delete(p_);
#else
  ::operator delete(p_);
#endif
  p_ = nullptr;
  n_ = 0;
}

bool distributed_run() {
  static const bool launched = dist::launched_with_ranks();
  if (!launched) return false;
  dist::ensure_initialized();
  return dist::size() > 1;
}

namespace {

// ghost_ranks writes at most ranks - 1 entries.
constexpr int kMaxRanks = 4096;

// id -> row of a frame, sorted by id.
std::vector<std::pair<uint32_t, std::size_t>> rows_by_id(const FrameData& f) {
  const uint32_t* id = ids_of(f);
  std::vector<std::pair<uint32_t, std::size_t>> m(f.particles);
  for (std::size_t i = 0; i < f.particles; ++i) m[i] = {id[i], i};
  std::sort(m.begin(), m.end());
  return m;
}
std::size_t row_of(const std::vector<std::pair<uint32_t, std::size_t>>& m, uint32_t id) {
  const auto it = std::lower_bound(m.begin(), m.end(), std::make_pair(id, std::size_t(0)));
  if (it == m.end() || it->first != id)
    throw std::logic_error("distributed run: particle " + std::to_string(id) + " is not on this rank");
  return it->second;
}

// The rows of f with keep[i] set.
FrameData select_rows(const FrameData& f, const std::vector<uint8_t>& keep) {
  std::size_t n = 0;
  for (uint8_t k : keep) n += k;
  FrameData out = dist::empty_like(f, n);
  for (std::size_t k = 0; k < f.fields.size(); ++k) {
    const std::size_t rb = dist::row_bytes(f.fields[k]);
    std::size_t j = 0;
    for (std::size_t i = 0; i < f.particles; ++i)
      if (keep[i]) std::copy_n(f.fields[k].bytes.begin() + std::ptrdiff_t(i * rb), rb,
                               out.fields[k].bytes.begin() + std::ptrdiff_t(j++ * rb));
  }
  return out;
}

// The initial particles of a local solver from frame rows (the frame is restored over it at once), with
// `like`'s materials: the liquid's (each row liquid or wall by its kind), or the solid's (with the rows'
// h, material and scene ids; the flaw table stays `like`'s, whole on every rank, by scene id).
SceneParticles initial_from(const FrameData& f, const SceneParticles& like, bool solid) {
  SceneParticles init;
  init.dim = like.dim;
  for (int d = 0; d < 3; ++d) init.gravity[d] = like.gravity[d];
  if (solid) {
    init.recipe = "solid";
    init.materials = like.materials;
    init.flaw_offset = like.flaw_offset;
    init.flaw_strain = like.flaw_strain;
  } else {
    init.liquid = like.liquid;
    init.has_liquid = true;
  }
  const std::size_t n = f.particles;
  const int D = like.dim;
  init.position.resize(n * D);
  init.velocity.resize(n * D);
  init.density.resize(n);
  init.mass.resize(n);
  init.kind.resize(n);
  init.material.assign(n, 0);
  init.phase.resize(n);
  if (solid) {
    init.h.resize(n);
    init.id.assign(ids_of(f), ids_of(f) + n);
  }
  double v[3];
  for (std::size_t i = 0; i < n; ++i) {
    row_values(*f.find("position"), i, &init.position[i * D]);
    row_values(*f.find("velocity"), i, &init.velocity[i * D]);
    row_values(*f.find("density"), i, &init.density[i]);
    row_values(*f.find("mass"), i, &init.mass[i]);
    row_values(*f.find("kind"), i, v);
    init.kind[i] = uint8_t(v[0]);
    init.phase[i] = solid ? kPhaseSolid : init.kind[i] == kFluid ? kPhaseLiquid : kPhaseWall;
    if (solid) {
      row_values(*f.find("smoothing_length"), i, &init.h[i]);
      row_values(*f.find("material"), i, v);
      init.material[i] = uint8_t(v[0]);
    }
  }
  return init;
}

}  // namespace

DistributedSimulation::DistributedSimulation(const ParamSet& params, Backend backend)
    : params_(params), backend_(backend) {
  precision_ = params.text("scene.precision") == "double" ? Precision::Double : Precision::Float;
  model_ = params.text("physics.model") == "solid" ? Model::Solid : Model::Liquid;
  rank_ = dist::rank();
  ranks_ = dist::size();
  stats_.packed = params.text("dist.halo") == "packed";
  stats_.overlap = stats_.packed && params.text("dist.overlap") != "off";
  stats_.interior = stats_.packed && params.text("dist.overlap") == "interior";
  if (stats_.interior) pending_ = std::make_unique<dist::PendingExchange>();
  {
    const char* plant = std::getenv("EJECTA_DIST_PLANT");  // tests: a planted ordering bug, to be caught
    split_.plant_early = plant && std::string(plant) == "early_pack";
  }
  if (ranks_ > kMaxRanks) fail("more than " + std::to_string(kMaxRanks) + " ranks");
  if (backend_ == Backend::Cuda) {
    // Each rank on its own device, local rank modulo the node's device count (ranks share a device
    // when there are fewer). Packed halos go to MPI in device memory when it is CUDA-aware, else the
    // packed buffers alone are staged through host memory (dist.halo = frame: the whole frame is).
#ifdef EJECTA_WITH_CUDA
    const std::string problem = cuda_device_problem();
    if (!problem.empty()) throw std::runtime_error("CUDA backend unavailable: " + problem);
    stats_.device = dist::use_cuda_device(dist::local_rank(), &stats_.devices, &stats_.device_name);
    stats_.cuda_aware = dist::cuda_aware(&stats_.cuda_aware_why);
    const char* env = std::getenv("EJECTA_DIST_STAGE");  // 1: stage even through a CUDA-aware MPI (to compare)
    stats_.device_direct = stats_.packed && stats_.cuda_aware && !(env && std::string(env) == "1");
    if (rank_ == 0)
      std::fprintf(stderr, "ejecta: %d ranks on the CUDA backend, %d device%s on rank 0's node (rank 0 on device %d, %s); "
                   "%s: %s\n",
                   ranks_, stats_.devices, stats_.devices == 1 ? "" : "s", stats_.device, stats_.device_name.c_str(),
                   stats_.cuda_aware_why.c_str(),
                   !stats_.packed ? "halos (whole frames) staged through host memory"
                   : stats_.device_direct ? "packed halos handed to MPI in device memory"
                                          : "packed halos staged through host memory");
#else
    throw std::runtime_error("CUDA backend unavailable: " + cuda_unavailable_reason());
#endif
  }
  if (model_ == Model::Solid) {
    // The solid's leapfrog (kick-drift-kick) has the liquid's structure: one evaluation per step, the
    // rest per particle, so one exchange per step serves it. The other integrators evaluate at
    // intermediate states, and self-gravity sums over every particle: not distributed yet.
    if (params.text("time.integrator") != "leapfrog")
      throw ParamError(params.where("time.integrator") + ": time.integrator = " + params.text("time.integrator") +
                       " does not run on several MPI ranks yet (only leapfrog does, one evaluation per step); "
                       "set time.integrator = leapfrog or run without mpirun");
    if (params.text("gravity.self") == "on")
      throw ParamError(params.where("gravity.self") + ": gravity.self = on does not run on several MPI ranks yet "
                       "(the octree is not distributed); run without mpirun");
    if (!stats_.packed)
      throw ParamError(params.where("dist.halo") + ": dist.halo = frame is the liquid's only; the solid runs with "
                       "dist.halo = packed");
    start_solid(build_solid_scene(params));
  } else {
    // A moving wall ([gate.N] with a velocity) is the one engine's on one process only: its particles'
    // migration between ranks and its stop pass (solver/uniform_liquid.h) are not distributed yet.
    for (int i : params.indices("gate")) {
      const std::string key = "gate." + std::to_string(i) + ".velocity";
      const auto v = params.vec3(key);
      if (v[0] != 0 || v[1] != 0 || v[2] != 0)
        throw ParamError(params.where(key) + ": a moving gate (" + key + " not 0) does not run on several MPI "
                         "ranks yet; run without mpirun, or set " + key + " = 0 (a gate at rest is an obstacle)");
    }
    start_liquid(build_scene(params));
  }
}

void DistributedSimulation::fail(const std::string& what) const {
  throw std::runtime_error("distributed run (" + std::to_string(ranks_) + " ranks): " + what);
}

void DistributedSimulation::start_liquid(const SceneParticles& init) {
  h_ = init.liquid.h;
  dp_ = init.liquid.dp;
  liquid_.rho0 = init.liquid.rho0;
  liquid_.c0 = init.liquid.c0;
  liquid_.gamma = init.liquid.gamma;
  liquid_.summation = params_.text("fluid.density") == "summation";
  for (int d = 0; d < 3; ++d) liquid_.gravity[d] = d < 3 ? params_.vec3("physics.gravity")[d] : 0;
  apply_params(params_);
  // The halo: pairs interact within the support 2h; a wall's pressure (Adami 2012) sums over its fluid
  // neighbours, so ghosts reach two supports deep (three with summation density, whose ghost fluid
  // needs complete sums too), plus the skin over which particles move between rebuilds.
  begin(init.dim, init.position, liquid_.summation ? 3 : 2,
        [&](const std::vector<std::size_t>& ids) {
          return make_solver(params_, backend_, precision_, init.subset(ids));
        },
        false);
}

void DistributedSimulation::start_solid(const SceneParticles& init) {
  // The largest h sets the support (blocks may have their own dp); the solid's evaluation has two
  // neighbour passes at most (the Randles & Libersky 1996 correction matrix, then the forces, which
  // read the neighbours' matrices), so ghosts reach two supports deep, plus the skin.
  h_ = 0;
  for (double h : init.h) h_ = std::max(h_, h);
  h_ = dist::max_all(h_);
  solid_.dim = init.dim;
  for (int d = 0; d < 3; ++d) solid_.gravity[d] = init.gravity[d];
  solid_.materials = init.materials;
  solid_.flaw_offset = init.flaw_offset;
  solid_.flaw_strain = init.flaw_strain;
  for (int d = 0; d < 3; ++d) liquid_.gravity[d] = params_.vec3("physics.gravity")[d];  // the energy's potential
  apply_params(params_);
  begin(init.dim, init.position, 2,
        [&](const std::vector<std::size_t>& ids) { return make_local(FrameData{}, &init, &ids); }, true);
}

template <class MakeLocal>
void DistributedSimulation::begin(int dim, const std::vector<double>& position, int layers, MakeLocal make,
                                  bool ids_global) {
  const double support = 2 * h_;
  skin_ = params_.real("dist.skin") * support;
  threshold_ = params_.real("dist.rebalance_threshold");
  geom_.dim = dim;
  geom_.reach = 2;  // key cells of half the halo depth: the splitters balance at that granularity
  geom_.cell = (layers * support + skin_) / geom_.reach;
  const int D = dim;
  const std::size_t n = position.size() / std::size_t(D);
  for (int d = 0; d < 3; ++d) {
    double lo = std::numeric_limits<double>::max();
    for (std::size_t i = 0; d < D && i < n; ++i) lo = std::min(lo, position[i * D + d]);
    geom_.origin[d] = d < D ? lo - 1024 * geom_.cell : 0;
  }

  // Every rank built the whole scene (a foundation's shortcut: the scene builders are serial). The
  // splitters are balanced over a round-robin share of it, then each rank keeps its own rows and its
  // ghosts, and one halo exchange gives the ghosts their owners' rates and every rank the same dt.
  std::vector<uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = geom_.key(&position[i * D]);
  {
    std::vector<uint64_t> k;
    std::vector<double> w;
    for (std::size_t i = std::size_t(rank_); i < n; i += std::size_t(ranks_)) {
      k.push_back(keys[i]);
      w.push_back(1.0);
    }
    decomp_.split = dist::balance_splitters(k, w, ranks_, geom_.key_end(), [](double* v, int m) { dist::sum_all(v, m); });
  }
  std::vector<std::size_t> local_ids;
  for (std::size_t i = 0; i < n; ++i) {
    const int own = decomp_.owner(keys[i]);
    int g[kMaxRanks];
    const int ng = own == rank_ ? 0 : decomp_.ghost_ranks(geom_, &position[i * D], own, g);
    if (own == rank_ || std::find(g, g + ng, rank_) != g + ng) local_ids.push_back(i);
  }
  if (dist::any(local_ids.empty())) fail("some rank got no particles: run on fewer ranks");
  const std::size_t m = local_ids.size();
  local_ = make(local_ids);
  FrameData f;
  local_->capture_frame_into(f);
  // The liquid's local solver numbered its particles 0..m-1: back to the scene's numbering.
  uint32_t* id = const_cast<uint32_t*>(ids_of(f));
  for (std::size_t j = 0; j < m && !ids_global; ++j) id[j] = uint32_t(local_ids[id[j]]);
  // The plans, from the rows this rank owns (their rates are complete; the ghosts' are not yet).
  std::vector<uint8_t> own_rows(m);
  const FieldData& pos = *f.find("position");
  double xi[3] = {0, 0, 0};
  for (std::size_t j = 0; j < m; ++j) {
    row_values(pos, j, xi);
    own_rows[j] = decomp_.owner(geom_.key(xi)) == rank_;
  }
  redistribute(select_rows(f, own_rows), Split::Keep);  // rows whose rates are complete
  if (stats_.packed) {
    exchange_packed();
  } else {
    local_->capture_frame_into(f);
    exchange_halo(f);
  }
}

void DistributedSimulation::apply_params(const ParamSet& params) {
  params_ = params;
  if (local_) local_->apply_params(params);
  cfl_ = params.real("time.cfl");
  force_factor_ = params.real("time.force_factor");
  dt_max_ = params.real("time.dt_max");
  dt_min_ = params.real("time.dt_min");
  dt_fixed_ = params.real("time.dt_fixed");
  alpha_ = params.real("viscosity.alpha");
}

void DistributedSimulation::redistribute(FrameData held, Split split) {
  dist::sort_fields(held);  // the records' layout, the same on every rank
  using Clock = std::chrono::steady_clock;
  auto sec = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const auto t0 = Clock::now();
  const int D = geom_.dim;
  const FieldData* pos = held.find("position");
  if (!pos) fail("the frame has no positions");
  const uint32_t* id = ids_of(held);
  const std::size_t n = held.particles;
  std::vector<double> x(n * D);
  for (std::size_t i = 0; i < n; ++i) row_values(*pos, i, &x[i * D]);
  std::vector<uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = geom_.key(&x[i * D]);

  // Work: a particle weighs the particles of its coarse cell (its neighbour count scales with them;
  // the cell is whole on one rank after the first split).
  std::vector<uint64_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i)
    w[i] = double(std::upper_bound(sorted.begin(), sorted.end(), keys[i]) -
                  std::lower_bound(sorted.begin(), sorted.end(), keys[i]));
  std::vector<double> work(std::size_t(ranks_), 0.0);
  for (std::size_t i = 0; i < n; ++i) work[std::size_t(decomp_.owner(keys[i]))] += w[i];
  dist::sum_all(work.data(), ranks_);
  stats_.imbalance = dist::imbalance(work);
  if (split == Split::Balance || (split == Split::IfImbalanced && stats_.imbalance > threshold_)) {
    decomp_.split = dist::balance_splitters(keys, w, ranks_, geom_.key_end(), [](double* v, int m) { dist::sum_all(v, m); });
    ++stats_.rebalances;
    std::fill(work.begin(), work.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) work[std::size_t(decomp_.owner(keys[i]))] += w[i];
    dist::sum_all(work.data(), ranks_);
    stats_.imbalance = dist::imbalance(work);
  }

  // Migration: each row goes to its owner and to the ranks that need it as a ghost, with all fields.
  std::vector<std::vector<unsigned char>> out(static_cast<std::size_t>(ranks_));
  for (std::size_t i = 0; i < n; ++i) {
    const int own = decomp_.owner(keys[i]);
    append_row(held, i, out[std::size_t(own)]);
    int g[kMaxRanks];
    const int ng = decomp_.ghost_ranks(geom_, &x[i * D], own, g);
    for (int k = 0; k < ng; ++k) append_row(held, i, out[std::size_t(g[k])]);
  }
  const std::size_t rb = record_bytes(held);
  const std::vector<std::vector<unsigned char>> in = dist::all_to_all(out);
  std::size_t m = 0;
  for (const auto& buf : in) m += buf.size() / rb;
  if (dist::any(m == 0)) fail("some rank got no particles: run on fewer ranks");
  FrameData f = dist::empty_like(held, m);
  std::size_t row = 0;
  for (const auto& buf : in)
    for (std::size_t off = 0; off < buf.size(); off += rb) dist::write_row(f, row++, buf.data() + off);

  // The plans: which of my rows each peer needs as ghosts, and which ghosts each peer sends me, both
  // sorted by id so that the per-step messages carry no ids.
  send_.assign(std::size_t(ranks_), {});
  recv_.assign(std::size_t(ranks_), {});
  owned_.clear();
  owned_fluid_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> by_id(m);  // (id, row of f)
  const uint32_t* fid = ids_of(f);
  const FieldData& fkind = *f.find("kind");
  double xi[3] = {0, 0, 0};
  for (std::size_t i = 0; i < m; ++i) {
    row_values(*f.find("position"), i, xi);
    by_id[i] = {fid[i], uint32_t(i)};
    const int own = decomp_.owner(geom_.key(xi));
    if (own != rank_) {
      recv_[std::size_t(own)].push_back(fid[i]);
      continue;
    }
    owned_.push_back(fid[i]);
    if (model_ == Model::Solid || fkind.bytes[i] == kFluid) ++owned_fluid_;  // every solid particle counts
    int g[kMaxRanks];
    const int ng = decomp_.ghost_ranks(geom_, xi, own, g);
    for (int k = 0; k < ng; ++k) send_[std::size_t(g[k])].push_back(fid[i]);
  }
  std::sort(owned_.begin(), owned_.end());
  // Every local row's id, sorted, with its position now (the anchors of the skin check).
  std::sort(by_id.begin(), by_id.end());
  local_ids_.resize(m);
  anchor_x_.resize(m * std::size_t(D));
  for (std::size_t k = 0; k < m; ++k) {
    local_ids_[k] = by_id[k].first;
    row_values(*f.find("position"), by_id[k].second, &anchor_x_[k * std::size_t(D)]);
  }
  for (auto& s : send_) std::sort(s.begin(), s.end());
  for (auto& r : recv_) std::sort(r.begin(), r.end());
  stats_.owned = owned_.size();
  stats_.ghosts = m - owned_.size();
  ++stats_.rebuilds;
  (void)id;

  // A fresh local solver over the new rows, then their exact state (all fields, rates included).
  const auto t1 = Clock::now();
  if (!(local_ && local_->particle_count() == m)) local_ = make_local(f);
  const auto t2 = Clock::now();
  restore_unsorted(f);

  // The packed halo's plan: every local row by its position among the sorted ids (local_ids_),
  // the send and receive lists as such positions, peer after peer.
  halo_ = nullptr;
  if (stats_.packed) {
    auto* provider = dynamic_cast<dist::HaloRowsProvider*>(local_.get());
    if (!provider) fail("the local solver cannot pack its halo: set dist.halo = frame");
    halo_ = &provider->halo_rows();
    dist::HaloPlan plan;
    plan.ids = local_ids_;
    auto positions = [&](const std::vector<std::vector<uint32_t>>& lists, std::vector<uint32_t>& at,
                         std::vector<std::size_t>& start) {
      start.assign(1, 0);
      for (const auto& l : lists) {
        for (uint32_t gid : l) at.push_back(uint32_t(std::lower_bound(plan.ids.begin(), plan.ids.end(), gid) - plan.ids.begin()));
        start.push_back(at.size());
      }
    };
    positions(send_, plan.send, plan.send_start);
    positions(recv_, plan.recv, plan.recv_start);
    plan.owned.resize(plan.ids.size());
    for (std::size_t k = 0; k < plan.ids.size(); ++k)
      plan.owned[k] = std::binary_search(owned_.begin(), owned_.end(), plan.ids[k]) ? 1 : 0;
    halo_->set_plan(plan);
    halo_->set_split(stats_.interior ? &split_ : nullptr);
    stats_.boundary_rows = halo_->boundary_count();
    stats_.interior_rows = halo_->interior_count();
  }
  const auto t3 = Clock::now();
  if (!in_step_) return;  // the parts of rebuild_s: rebuilds of the step loop only
  stats_.rebuild_migrate_s += sec(t0, t1);
  stats_.rebuild_solver_s += sec(t1, t2);
  stats_.rebuild_restore_s += sec(t2, t3);
}

std::unique_ptr<Simulation> DistributedSimulation::make_local(const FrameData& f, const SceneParticles* scene,
                                                             const std::vector<std::size_t>* ids) const {
  if (model_ == Model::Liquid) {
    SceneParticles p;
    p.dim = geom_.dim;
    p.liquid = {liquid_.rho0, liquid_.c0, liquid_.gamma, dp_, h_};
    for (int d = 0; d < 3; ++d) p.gravity[d] = liquid_.gravity[d];
    return make_solver(params_, backend_, precision_, initial_from(f, p, false));
  }
  return make_solver(params_, backend_, precision_, scene ? scene->subset(*ids, true) : initial_from(f, solid_, true));
}

void DistributedSimulation::restore_unsorted(const FrameData& f) {
  // A restore re-sorts the persistent fields only (the derived ones and the rates are recomputed or
  // expected in sorted order already, as a captured frame is): rows in another order are restored
  // once to learn the solver's order, then every field again in that order (the re-sort is then
  // the identity).
  // Only the ids come back to learn the order; the frame is permuted on the host field by field.
  local_->restore_frame(f);
  FrameData g;
  local_->capture_frame_into(g, {"id"});
  const auto by_id = rows_by_id(f);
  const uint32_t* gid = ids_of(g);
  std::vector<std::size_t> from(g.particles);
  for (std::size_t i = 0; i < g.particles; ++i) from[i] = row_of(by_id, gid[i]);
  FrameData h = dist::empty_like(f, f.particles);
  for (std::size_t k = 0; k < f.fields.size(); ++k) {
    const std::size_t rb = dist::row_bytes(f.fields[k]);
    const unsigned char* src = f.fields[k].bytes.data();
    unsigned char* dst = h.fields[k].bytes.data();
    for (std::size_t i = 0; i < from.size(); ++i) std::memcpy(dst + i * rb, src + from[i] * rb, rb);
  }
  local_->restore_frame(h);
}

void DistributedSimulation::exchange_halo(FrameData& f) {
  dist::sort_fields(f);  // the records' layout, the same on every rank
  const auto by_id = rows_by_id(f);
  const std::size_t rb = record_bytes(f);
  std::vector<std::vector<unsigned char>> out(static_cast<std::size_t>(ranks_)), in(static_cast<std::size_t>(ranks_));
  for (int p = 0; p < ranks_; ++p) {
    out[std::size_t(p)].reserve(send_[std::size_t(p)].size() * rb);
    for (uint32_t id : send_[std::size_t(p)]) append_row(f, row_of(by_id, id), out[std::size_t(p)]);
    in[std::size_t(p)].resize(recv_[std::size_t(p)].size() * rb);
  }
  const auto t0 = std::chrono::steady_clock::now();
  dist::exchange(out, in);
  stats_.mpi_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (int p = 0; p < ranks_; ++p) {
    const auto& ids = recv_[std::size_t(p)];
    for (std::size_t k = 0; k < ids.size(); ++k)
      dist::write_row(f, row_of(by_id, ids[k]), in[std::size_t(p)].data() + k * rb);
  }
  // Every row is now its owner's end-of-step state: the solver's limit (StoreSolver::uniform_limit: CFL with
  // Monaghan 1992 eq. 4.12's allowance for artificial viscosity, the force criterion, time.dt_max)
  // over them, then the minimum over the ranks, is the single-process dt.
  dist::HaloLimit l;
  if (!(dt_fixed_ > 0)) {
    const dist::RowExtremes e = dist::frame_extremes(f, geom_.dim);
    l.max_v2 = e.max_v2;
    l.max_a2 = e.max_a2;
  }
  f.dt = global_dt(l, f.step, f.time);
  local_->restore_frame(f);
}

double DistributedSimulation::global_dt(const dist::HaloLimit& l, long step, double time) const {
  double dt = dt_fixed_;
  if (!(dt_fixed_ > 0) && model_ == Model::Solid) {
    // StoreSolver::evaluate() (solids alone): the CFL on v_sig (>= 2 c_l) and the force criterion, time.dt_max.
    dt = cfl_ * l.min_h_vsig;
    dt = std::min(dt, force_factor_ * std::sqrt(l.min_h_a));
    dt = std::min(dt, dt_max_);
  } else if (!(dt_fixed_ > 0)) {
    const double max_v2 = l.max_v2, max_a2 = l.max_a2;
    auto prec = [&](double v) { return precision_ == Precision::Float ? double(float(v)) : v; };
    const double h = prec(h_), c0 = prec(liquid_.c0);
    const double vmax = std::sqrt(max_v2), amax = std::sqrt(max_a2);
    dt = cfl_ * h / (c0 + vmax + 0.6 * prec(alpha_) * c0);
    if (amax > 0) dt = std::min(dt, force_factor_ * std::sqrt(h / amax));
    dt = std::min(dt, dt_max_);
  }
  dt = dist::min_all(dt);
  if (!(dt >= dt_min_))
    throw BlowUpError("time step collapsed at step " + std::to_string(step) + ", t = " + std::to_string(time) +
                      " s: dt = " + std::to_string(dt) + " s is below time.dt_min = " + std::to_string(dt_min_) + " s");
  return precision_ == Precision::Float ? double(float(dt)) : dt;
}

void DistributedSimulation::exchange_packed(bool set_dt) {
  using Clock = std::chrono::steady_clock;
  auto sec = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const auto t0 = Clock::now();
  halo_->pack();
  const std::vector<std::size_t>& so = halo_->send_offsets();
  const std::vector<std::size_t>& ro = halo_->recv_offsets();
  const bool staged = halo_->device_memory() && !stats_.device_direct;
  unsigned char* send = halo_->send_buffer();
  unsigned char* recv = halo_->recv_buffer();
  const bool pinned = backend_ == Backend::Cuda;
  if (staged) {
    send = stage_send_.get(so.back(), pinned);
    recv = stage_recv_.get(ro.back(), pinned);
    halo_->download_send(send);
  }
  const auto t1 = Clock::now();
  if (stats_.overlap && set_dt) {
    // Overlapped (dist.overlap = on): the messages travel while this rank measures what needs no
    // ghost, over its own rows: the step limit and its MPI_MIN, and the skin check's move and its
    // MPI_MAX. A ghost row is, after the exchange, a copy of its owner's row, so both extremes equal
    // those over every row after the exchange (the path below), and the run is the same bit for bit.
    dist::PendingExchange x;
    x.post(send, so, recv, ro);
    const auto tw = Clock::now();
    const dist::HaloLimit l = dt_fixed_ > 0 ? dist::HaloLimit{} : halo_->limit(true);
    const double moved = halo_->max_moved2(true);
    double dt = 0;
    std::string collapse;
    try {
      dt = global_dt(l, local_->steps(), local_->time());
    } catch (const BlowUpError& e) {  // the same on every rank (dt is global): finish the exchange first
      collapse = e.what();
    }
    moved_ = dist::max_all(std::sqrt(moved));
    const auto tx = Clock::now();
    stats_.overlap_s += sec(tw, tx);
    x.wait();
    const auto t2 = Clock::now();
    stats_.wait_s += sec(tx, t2);
    if (!collapse.empty()) throw BlowUpError(collapse);
    if (staged) halo_->upload_recv(recv);
    halo_->unpack();
    halo_->set_step_size(dt);
    local_->synchronize();
    const auto t3 = Clock::now();
    stats_.pack_s += sec(t0, t1);
    stats_.mpi_s += sec(t1, t2);
    stats_.unpack_s += sec(t2, t3);
    stats_.halo_bytes_sent += so.back();
    for (const auto& s : send_) stats_.halo_rows_sent += s.size();
    return;
  }
  dist::exchange(send, so, recv, ro);
  const auto t2 = Clock::now();
  if (staged) halo_->upload_recv(recv);
  halo_->unpack();
  local_->synchronize();
  const auto t3 = Clock::now();
  if (!set_dt) return;  // after a rebuild: counted in rebuild_s
  stats_.pack_s += sec(t0, t1);
  stats_.mpi_s += sec(t1, t2);
  stats_.unpack_s += sec(t2, t3);
  stats_.halo_bytes_sent += so.back();
  for (const auto& s : send_) stats_.halo_rows_sent += s.size();
  // Every local row is now its owner's end-of-step state: the limit over them (as exchange_halo).
  const dist::HaloLimit l = dt_fixed_ > 0 ? dist::HaloLimit{} : halo_->limit(false);
  halo_->set_step_size(global_dt(l, local_->steps(), local_->time()));
}

void DistributedSimulation::PairSplit::split_rows(const uint32_t*& first, std::size_t& n_first, const uint32_t*& second,
                                              std::size_t& n_second) {
  s_.halo_->split_rows(first, n_first, second, n_second);
  if (plant_early) s_.post_packed();  // planted bug (tests): sent before the boundary rows' pass
}
void DistributedSimulation::PairSplit::after_first() {
  if (!plant_early) s_.post_packed();
}
void DistributedSimulation::PairSplit::after_second() { s_.wait_unpacked(); }

void DistributedSimulation::post_packed() {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  halo_->pack();  // waits for the boundary rows' pass
  const bool staged = halo_->device_memory() && !stats_.device_direct;
  unsigned char* send = halo_->send_buffer();
  unsigned char* recv = halo_->recv_buffer();
  const std::vector<std::size_t>& so = halo_->send_offsets();
  const std::vector<std::size_t>& ro = halo_->recv_offsets();
  if (staged) {
    const bool pinned = backend_ == Backend::Cuda;
    send = stage_send_.get(so.back(), pinned);
    recv = stage_recv_.get(ro.back(), pinned);
    halo_->download_send(send);
  }
  const auto t1 = Clock::now();
  pending_->post(send, so, recv, ro);
  posted_ = Clock::now();
  stats_.pack_s += std::chrono::duration<double>(t1 - t0).count();
  inner_halo_s_ += std::chrono::duration<double>(posted_ - t0).count();
  stats_.halo_bytes_sent += so.back();
  for (const auto& p : send_) stats_.halo_rows_sent += p.size();
}

void DistributedSimulation::wait_unpacked() {
  using Clock = std::chrono::steady_clock;
  auto sec = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  // The interior rows' pass is done (the CPU: overlap_s is its time, wait_s the transfer it did not
  // hide) or queued (the CUDA backend: the host waits in MPI while the device computes it; the upload
  // and unpack follow it on the stream).
  const auto t0 = Clock::now();
  stats_.overlap_s += sec(posted_, t0);
  pending_->wait();
  const auto t1 = Clock::now();
  if (halo_->device_memory() && !stats_.device_direct) {
    halo_->upload_recv(stage_recv_.get(halo_->recv_offsets().back(), backend_ == Backend::Cuda));
  }
  halo_->unpack();
  const auto t2 = Clock::now();
  stats_.wait_s += sec(t0, t1);
  stats_.mpi_s += sec(t0, t1);
  stats_.unpack_s += sec(t1, t2);
  inner_halo_s_ += sec(t0, t2);
}

void DistributedSimulation::finish_interior() {
  // Every local row is its owner's end-of-step row (the ghosts took their owners' rows before the closing
  // kick): the limit and the skin check over the owned rows, then over the ranks (as with dist.overlap = on).
  const dist::HaloLimit l = dt_fixed_ > 0 ? dist::HaloLimit{} : halo_->limit(true);
  const double moved = halo_->max_moved2(true);
  halo_->set_step_size(global_dt(l, local_->steps(), local_->time()));
  moved_ = dist::max_all(std::sqrt(moved));
}

void DistributedSimulation::step() {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  std::string message;
  bool failed = false;
  inner_halo_s_ = 0;
  split_.armed = stats_.interior;
  try {
    local_->step();
    local_->synchronize();  // the capture below waits for the device anyway; the split is then honest
  } catch (const BlowUpError& e) {
    failed = true;
    message = e.what();
  }
  split_.armed = false;
  const auto t1 = Clock::now();
  const std::string first = dist::first_failure(failed, message);
  if (!first.empty()) throw BlowUpError(first);
  if (stats_.interior) {
    finish_interior();
  } else if (stats_.packed) {
    exchange_packed();
  } else {
    local_->capture_frame_into(scratch_);
    exchange_halo(scratch_);
  }
  const auto t2 = Clock::now();
  stats_.step_s += std::chrono::duration<double>(t1 - t0).count() - inner_halo_s_;
  stats_.halo_s += std::chrono::duration<double>(t2 - t1).count() + inner_halo_s_;
  // Rebuild once some particle has moved half the skin since the last one (two particles closing in
  // then have used at most the whole skin, and the halo still holds every interaction).
  double moved = 0;
  if (stats_.overlap) {
    moved = moved_;  // measured and reduced during the exchange (already the root, over the ranks)
  } else if (stats_.packed) {
    moved = dist::max_all(std::sqrt(halo_->max_moved2(false)));
  } else {
    const uint32_t* id = ids_of(scratch_);
    const FieldData& pos = *scratch_.find("position");
    double x[3];
    for (std::size_t i = 0; i < scratch_.particles; ++i) {
      row_values(pos, i, x);
      const std::size_t k = std::size_t(std::lower_bound(local_ids_.begin(), local_ids_.end(), id[i]) - local_ids_.begin());
      const double* a = &anchor_x_[k * std::size_t(geom_.dim)];
      double r2 = 0;
      for (int d = 0; d < geom_.dim; ++d) r2 += (x[d] - a[d]) * (x[d] - a[d]);
      moved = std::max(moved, r2);
    }
    moved = dist::max_all(std::sqrt(moved));
  }
  if (moved > 0.5 * skin_) {
    const auto tc = Clock::now();
    if (stats_.packed) local_->capture_frame_into(scratch_);
    stats_.rebuild_capture_s += std::chrono::duration<double>(Clock::now() - tc).count();
    in_step_ = true;
    redistribute(select_rows(scratch_, owned_mask(scratch_)), Split::IfImbalanced);
    in_step_ = false;
    // The local solver's restore re-evaluated the ghosts' derived fields (pressures, the walls'
    // extrapolations) over their incomplete neighbourhoods: their owners' rows again, so that every
    // ghost holds its owner's row exactly (the next step recomputes those fields anyway).
    if (stats_.packed) exchange_packed(false);
  }
  stats_.rebuild_s += std::chrono::duration<double>(Clock::now() - t2).count();
}

std::vector<uint8_t> DistributedSimulation::owned_mask(const FrameData& f) const {
  const uint32_t* id = ids_of(f);
  std::vector<uint8_t> keep(f.particles);
  for (std::size_t i = 0; i < f.particles; ++i) keep[i] = std::binary_search(owned_.begin(), owned_.end(), id[i]);
  return keep;
}

void DistributedSimulation::capture_frame_into(FrameData& frame, const std::vector<std::string>& names) const {
  std::vector<std::string> with_id = names;
  const bool add_id = !names.empty() && std::find(names.begin(), names.end(), "id") == names.end();
  if (add_id) with_id.push_back("id");
  FrameData all;
  local_->capture_frame_into(all, with_id);
  frame = select_rows(all, owned_mask(all));
  if (add_id)
    frame.fields.erase(std::remove_if(frame.fields.begin(), frame.fields.end(),
                                      [](const FieldData& fd) { return fd.info.name == "id"; }),
                       frame.fields.end());
}

HostParticles DistributedSimulation::download() const {
  FrameData f;
  capture_frame_into(f, {"position", "velocity", "density", "pressure", "mass", "kind", "id"});
  HostParticles h;
  h.dim = dim();
  h.n = f.particles;
  const int D = h.dim;
  h.position.resize(h.n * D);
  h.velocity.resize(h.n * D);
  h.density.resize(h.n);
  h.pressure.resize(h.n);
  h.mass.resize(h.n);
  h.kind.resize(h.n);
  h.id.resize(h.n);
  double v[3];
  for (std::size_t i = 0; i < h.n; ++i) {
    row_values(*f.find("position"), i, &h.position[i * D]);
    row_values(*f.find("velocity"), i, &h.velocity[i * D]);
    row_values(*f.find("density"), i, &h.density[i]);
    row_values(*f.find("pressure"), i, &h.pressure[i]);
    row_values(*f.find("mass"), i, &h.mass[i]);
    row_values(*f.find("kind"), i, v);
    h.kind[i] = uint8_t(v[0]);
    h.id[i] = ids_of(f)[i];
  }
  return h;
}

Diagnostics DistributedSimulation::diagnostics() const {
  FrameData f;
  local_->capture_frame_into(f);
  DiagnosticSums s = model_ == Model::Solid ? dist::frame_motion_sums(f, dim(), owned_mask(f), liquid_.gravity)
                                            : dist::frame_sums(f, dim(), owned_mask(f), liquid_);
  double sums[11] = {s.mass, s.kinetic, s.potential, s.internal, s.momentum[0], s.momentum[1], s.momentum[2],
                     s.angular[0], s.angular[1], s.angular[2], double(owned_.size())};
  dist::sum_all(sums, 11);
  double maxes[2] = {s.max_v2, s.max_density_error};
  dist::max_all(maxes, 2);
  s.mass = sums[0];
  s.kinetic = sums[1];
  s.potential = sums[2];
  s.internal = sums[3];
  for (int d = 0; d < 3; ++d) {
    s.momentum[d] = sums[4 + d];
    s.angular[d] = sums[7 + d];
  }
  s.max_v2 = maxes[0];
  s.max_density_error = maxes[1];
  return diagnostics_from_sums(s, dim(), time(), steps(), dt(), std::size_t(sums[10]),
                               model_ == Model::Solid ? 0.0 : s.max_density_error);
}

void DistributedSimulation::restore_frame(const FrameData& frame) { redistribute(frame, Split::Balance); }

std::unique_ptr<Simulation> make_distributed_simulation(const ParamSet& params, Backend backend) {
  const std::string model = params.text("physics.model");
  if (model != "wcsph" && model != "solid")
    throw ParamError(params.where("physics.model") + ": physics.model = " + model +
                     " does not run on several MPI ranks yet (wcsph and solid do); run it without mpirun");
  if (scene_has_probes(params) && dist::rank() == 0)
    std::fprintf(stderr, "ejecta: warning: the scene's probes, gauges and loads are not sampled in a distributed run yet\n");
  return std::make_unique<DistributedSimulation>(params, backend);
}

}  // namespace ejecta
