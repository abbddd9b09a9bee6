#pragma once
// Holds a ProbeLayout on one backend (points, instruments, the field views of each channel, scratch,
// the ring of sample rows) and samples it with the functors of probes/probe_sample.h through the
// solver's exec (SampleProbeRows spreads each point's cell rows over kProbeLanes threads): two launches per sample on the step's stream, no download; ProbeRing::read
// downloads all queued rows in one copy (probes/probe_api.h).
#include "exec/device_array.h"
#include "particles/particle_store.h"
#include "probes/probe_api.h"
#include "probes/probe_layout.h"
#include "probes/probe_sample.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ejecta {

static_assert(kMaxProbeChannels <= kProbeChannelSlots, "a probe's channels must fit the per-point accumulators");

template <class T, int D, class Exec>
class ProbeSampler final : public ProbeRing {
  static constexpr int kRows = kCellRows<D>;  // the most rows a grid has (partial_ is sized for them)

 public:
  // Resolves each channel's field in `store` (on the same exec, outliving the sampler); throws
  // std::invalid_argument for a field the store lacks (make_probe_layout checks names first).
  ProbeSampler(Exec& exec, const ParticleStore<Exec>& store, const ProbeLayout& layout)
      : exec_(&exec), store_(&store), layout_(layout) {
    if (layout.dim != D) throw std::invalid_argument("probe layout of another dimension");
    std::vector<Vec<T, D>> pts(layout.num_points());
    for (std::size_t p = 0; p < pts.size(); ++p)
      for (int d = 0; d < D; ++d) pts[p][d] = T(layout.points[p * D + d]);
    std::vector<ProbeInstrumentDev> inst;
    std::vector<ColourSource> chans;
    std::size_t max_channels = 0;
    for (const ProbeInstrument& in : layout.instruments) {
      ProbeInstrumentDev dv{};
      dv.first_point = uint32_t(in.first_point);
      dv.num_points = uint32_t(in.num_points);
      dv.first_channel = uint32_t(chans.size());
      dv.num_channels = uint32_t(in.channels.size());
      dv.first_column = uint32_t(in.first_column);
      dv.gauge = in.gauge ? 1u : 0u;
      dv.walls = in.walls ? 1u : 0u;
      dv.load = in.load ? 1u : 0u;
      dv.load_index = uint32_t(loads_.size());
      dv.area = in.area;
      for (int d = 0; d < 3; ++d) dv.normal[d] = in.normal[d];
      if (in.load) {
        LoadBox box;
        for (int d = 0; d < D; ++d) box.lo[d] = T(in.lo[d]), box.hi[d] = T(in.hi[d]);
        loads_.push_back(box);
      }
      dv.start = in.start;
      dv.step = in.step;
      for (const ProbeChannel& c : in.channels) {
        const FieldInfo* info = store.info(c.field);
        if (!info) throw std::invalid_argument(in.section + ": no particle field '" + c.field + "'");
        chans.push_back(ColourSource{store.raw_data(c.field), info->scalar, info->components, c.component});
        chan_fields_.push_back(c.field);
      }
      max_channels = std::max(max_channels, in.channels.size());
      inst.push_back(dv);
    }
    stride_ = 2 + int(max_channels);
    points_.resize(exec, pts.size());
    owner_.resize(exec, pts.size());
    inst_.resize(exec, inst.size());
    // EJECTA_PROBE_LANES=N (1..64) overrides kProbeLanes, to measure the split (docs/benchmarks.md).
    const char* lanes_env = std::getenv("EJECTA_PROBE_LANES");
    set_lanes(lanes_env && *lanes_env ? std::atoi(lanes_env) : kProbeLanes);
    exec.upload(points_.data(), pts.data(), sizeof(Vec<T, D>) * pts.size());
    exec.upload(owner_.data(), layout.point_owner.data(), sizeof(uint32_t) * pts.size());
    exec.upload(inst_.data(), inst.data(), sizeof(ProbeInstrumentDev) * inst.size());
    chans_host_ = chans;
    channels();  // the views of the fields where they are now
    resize(kDefaultProbeRingSlots);
  }

  const ProbeLayout& layout() const override { return layout_; }
  std::size_t slots() const override { return ring_.size() / std::max<std::size_t>(1, layout_.columns.size()); }
  std::size_t queued() const override { return queued_; }

  void resize(std::size_t slots) override {
    if (queued_ > 0) throw std::logic_error("probe ring resized with samples queued: read them first");
    ring_.resize(*exec_, std::max<std::size_t>(1, slots) * layout_.columns.size());
  }

  void set_lanes(int lanes) override {
    if (lanes < 1 || lanes > 64) throw std::invalid_argument("probe lanes must be 1..64");
    lanes_ = lanes;
    partial_.resize(*exec_, points_.size() * std::size_t(kRows) * std::size_t(lanes_) * std::size_t(stride_));
  }
  int lanes() const override { return lanes_; }

  void read(std::vector<double>& rows) override {
    rows.resize(queued_ * layout_.columns.size());
    if (!rows.empty()) exec_->download(rows.data(), ring_.data(), sizeof(double) * rows.size());
    queued_ = 0;
  }

  // The box of each load instrument ([force.N]), in layout order.
  struct LoadBox {
    Vec<T, D> lo, hi;
  };

  // Samples into the next row of the ring. x, m, rho and kind are the particle arrays in the grid's
  // (sorted) order (n particles); rho is the density the pressures were computed from. With loads,
  // load_pass(box, share) launches the per-particle pass of physics/fluid_wall_load.h that writes each
  // particle's share of the box's load into share (n entries), on the same stream. with_loads false
  // (no load due at this sample: the observer's choice) leaves the loads out, a pass over the particles
  // each; their columns in the row are then stale, and the observer reads them as not sampled.
  template <class LoadPass>
  void queue(const CellGrid<T, D>& grid, const SmoothingKernel<T, D>& kernel, const Vec<T, D>* x, const T* m,
             const T* rho, const uint8_t* kind, std::size_t n, LoadPass&& load_pass, bool with_loads) {
    if (queued_ >= slots()) throw std::logic_error("probe ring full: read it before sampling again");
    if (!grid.covers(double(kernel.support()))) throw std::logic_error("probes: the kernel's support exceeds the grid's");
    with_loads = with_loads && !loads_.empty();
    if (with_loads) {
      if (share_.size() < n) share_.resize(*exec_, n);
      if (part_sums_.size() < kLoadParts * D) part_sums_.resize(*exec_, kLoadParts * D);
      if (load_sums_.size() < kLoadParts2 * D * loads_.size()) load_sums_.resize(*exec_, kLoadParts2 * D * loads_.size());
      for (std::size_t k = 0; k < loads_.size(); ++k) {
        load_pass(loads_[k], share_.data());
        exec_->for_each(kLoadParts, PartLoads<T, D>{share_.data(), n, part_sums_.data()});
        exec_->for_each(kLoadParts2, PartSums{part_sums_.data(), load_sums_.data() + k * kLoadParts2 * D, D});
      }
    }
    const std::size_t rows = points_.size() * std::size_t(grid.rows());
    // Whole rows (CellGrid::clip off): the lanes split a row's candidates by their place in it.
    CellGrid<T, D> whole = grid;
    whole.clip = false;
    exec_->for_each_balanced(rows * std::size_t(lanes_),
                             SampleProbeRows<T, D>{kernel, whole, x, m, rho, kind, points_.data(), owner_.data(),
                                                   inst_.data(), channels(), partial_.data(), stride_,
                                                   points_.size(), uint32_t(lanes_)});
    for_each_block(*exec_, inst_.size(), ReduceProbeInstruments<T>::words(stride_ - 2),
                   ReduceProbeInstruments<T>{inst_.data(), partial_.data(), stride_, grid.rows() * lanes_,
                                             points_.size(), T(kGaugeSurfaceLevel), T(kDryKernelSum),
                                             ring_.data() + queued_ * layout_.columns.size(), load_sums_.data(), D,
                                             with_loads});
    ++queued_;
  }

 private:
  // The channels' field views on the device where the fields are now: a reorder with a plan moves
  // buffers (ParticleStore::moves(); the liquid's step rotates its positions, velocities and densities
  // through its rates' buffers, a cycle of a few steps), so the sampler keeps one uploaded table for
  // each set of buffers it has met and picks it when the store has moved them.
  const ColourSource* channels() {
    if (chans_host_.empty()) return nullptr;
    if (current_ && seen_moves_ == store_->moves()) return current_->chans.data();
    seen_moves_ = store_->moves();
    std::vector<const void*> where(chan_fields_.size());
    for (std::size_t c = 0; c < where.size(); ++c) where[c] = store_->raw_data(chan_fields_[c]);
    for (const auto& t : tables_)
      if (t->where == where) return (current_ = t.get())->chans.data();
    if (tables_.size() >= kMaxChannelTables) tables_.clear();  // a store that never repeats (none today)
    auto t = std::make_unique<ChannelTable>();
    t->where = where;
    std::vector<ColourSource> chans = chans_host_;
    for (std::size_t c = 0; c < chans.size(); ++c) chans[c].data = where[c];
    t->chans.resize(*exec_, chans.size());
    exec_->upload(t->chans.data(), chans.data(), sizeof(ColourSource) * chans.size());
    tables_.push_back(std::move(t));
    return (current_ = tables_.back().get())->chans.data();
  }
  struct ChannelTable {
    std::vector<const void*> where;
    DeviceArray<ColourSource, Exec> chans;
  };
  static constexpr std::size_t kMaxChannelTables = 64;

  Exec* exec_;
  const ParticleStore<Exec>* store_;
  std::vector<std::string> chan_fields_;  // each channel's field, in chans_host_'s order
  std::vector<ColourSource> chans_host_;
  std::vector<std::unique_ptr<ChannelTable>> tables_;
  ChannelTable* current_ = nullptr;
  std::size_t seen_moves_ = 0;
  ProbeLayout layout_;
  int stride_ = 0;  // values a partial: 2 + the most channels of a probe
  int lanes_ = 0;
  std::size_t queued_ = 0;
  DeviceArray<Vec<T, D>, Exec> points_;
  DeviceArray<uint32_t, Exec> owner_;
  DeviceArray<ProbeInstrumentDev, Exec> inst_;
  DeviceArray<T, Exec> partial_;  // per point and cell row
  DeviceArray<double, Exec> ring_;  // slots() rows of layout().columns.size() values
  std::vector<LoadBox> loads_;
  DeviceArray<Vec<T, D>, Exec> share_;  // per particle, a load's shares (physics/fluid_wall_load.h)
  DeviceArray<double, Exec> part_sums_;  // a load's first level of partial sums (PartLoads)
  DeviceArray<double, Exec> load_sums_;  // per load, its last partial sums (PartSums)
};

}  // namespace ejecta
