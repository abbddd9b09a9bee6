#pragma once
// Holds a ProbeLayout on one backend (points, instruments, the field views of each channel, scratch)
// and samples it with the functors of probes/probe_sample.h through the solver's exec: two launches
// and one small download (one double per output column) per sample.
#include "exec/device_array.h"
#include "probes/probe_layout.h"
#include "probes/probe_sample.h"

#include <stdexcept>
#include <vector>

namespace ejecta {

static_assert(kMaxProbeChannels <= kProbeChannelSlots, "a probe's channels must fit the per-point accumulators");

template <class T, int D, class Exec>
class ProbeSampler {
 public:
  // Resolves each channel's field in `store` (a ParticleStore on the same exec); throws
  // std::invalid_argument for a field the store lacks (make_probe_layout checks names first).
  template <class Store>
  ProbeSampler(Exec& exec, const Store& store, const ProbeLayout& layout) : layout_(layout) {
    if (layout.dim != D) throw std::invalid_argument("probe layout of another dimension");
    std::vector<Vec<T, D>> pts(layout.num_points());
    for (std::size_t p = 0; p < pts.size(); ++p)
      for (int d = 0; d < D; ++d) pts[p][d] = T(layout.points[p * D + d]);
    std::vector<ProbeInstrumentDev> inst;
    std::vector<ColourSource> chans;
    for (const ProbeInstrument& in : layout.instruments) {
      ProbeInstrumentDev dv{};
      dv.first_point = uint32_t(in.first_point);
      dv.num_points = uint32_t(in.num_points);
      dv.first_channel = uint32_t(chans.size());
      dv.num_channels = uint32_t(in.channels.size());
      dv.first_column = uint32_t(in.first_column);
      dv.gauge = in.gauge ? 1u : 0u;
      dv.start = in.start;
      dv.step = in.step;
      for (const ProbeChannel& c : in.channels) {
        const FieldInfo* info = store.info(c.field);
        if (!info) throw std::invalid_argument(in.section + ": no particle field '" + c.field + "'");
        chans.push_back(ColourSource{store.raw_data(c.field), info->scalar, info->components, c.component});
      }
      inst.push_back(dv);
    }
    stride_ = 2 + kMaxProbeChannels;
    points_.resize(exec, pts.size());
    owner_.resize(exec, pts.size());
    inst_.resize(exec, inst.size());
    chans_.resize(exec, chans.size());
    values_.resize(exec, pts.size() * std::size_t(stride_));
    columns_.resize(exec, layout.columns.size());
    exec.upload(points_.data(), pts.data(), sizeof(Vec<T, D>) * pts.size());
    exec.upload(owner_.data(), layout.point_owner.data(), sizeof(uint32_t) * pts.size());
    exec.upload(inst_.data(), inst.data(), sizeof(ProbeInstrumentDev) * inst.size());
    if (!chans.empty()) exec.upload(chans_.data(), chans.data(), sizeof(ColourSource) * chans.size());
    host_.resize(layout.columns.size());
  }

  const ProbeLayout& layout() const { return layout_; }

  // One value per column of the layout. x, m, rho and kind are the particle arrays in the grid's
  // (sorted) order; rho is the density the pressures were computed from.
  const std::vector<double>& sample(Exec& exec, const CellGrid<T, D>& grid, const SmoothingKernel<T, D>& kernel,
                                    const Vec<T, D>* x, const T* m, const T* rho, const uint8_t* kind) {
    exec.for_each_balanced(points_.size(),
                           SampleProbePoints<T, D>{kernel, grid, x, m, rho, kind, points_.data(), owner_.data(),
                                                   inst_.data(), chans_.data(), values_.data(), stride_,
                                                   T(kDryKernelSum)});
    exec.for_each(inst_.size(), ReduceProbeInstruments<T>{inst_.data(), values_.data(), stride_,
                                                          T(kGaugeSurfaceLevel), columns_.data()});
    exec.download(host_.data(), columns_.data(), sizeof(double) * host_.size());
    return host_;
  }

 private:
  ProbeLayout layout_;
  int stride_ = 0;
  DeviceArray<Vec<T, D>, Exec> points_;
  DeviceArray<uint32_t, Exec> owner_;
  DeviceArray<ProbeInstrumentDev, Exec> inst_;
  DeviceArray<ColourSource, Exec> chans_;
  DeviceArray<T, Exec> values_;
  DeviceArray<double, Exec> columns_;
  std::vector<double> host_;
};

}  // namespace ejecta
