#pragma once
// The packed halo over a liquid solver's particle store (dist/halo_rows.h), on either execution layer:
// instantiated with the solver (solver/uniform_liquid.h, solver/store_solver.h), so that its functors (dist/halo_functors.h)
// are compiled by nvcc for the CUDA backend and run as OpenMP loops on the CPU. It owns its buffers;
// the work runs on the solver's stream (no global device state).
#include "dist/halo_functors.h"
#include "dist/halo_rows.h"
#include "exec/device_array.h"
#include "integrators/step_monitor.h"
#include "io/frame.h"
#include "particles/particle_store.h"
#include "physics/wcsph_model.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ejecta {

// The liquid's step-limit inputs over rows [0, m) (no density range: the local solver's own check
// reports bad particles). The solid's overload is in dist/solid_halo_limit.h (found by argument-dependent
// lookup when StoreHaloRows is instantiated with a SolidView).
template <class T, int D, class Exec>
dist::HaloLimit halo_limit(Exec& exec, const ParticleView<T, D>& pv, std::size_t m, const dist::HaloMask& mask) {
  const StepExtremes<T> none{T(0), T(0), 0xffffffffu, kBadNone};
  const MeasureExtremes<T, D> measure{pv, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()};
  const StepExtremes<T> e =
      mask.owned ? exec.transform_reduce(m, none, dist::OwnedHaloRows<MeasureExtremes<T, D>, StepExtremes<T>>{
                                                      measure, none, mask.pos, mask.owned},
                                         CombineExtremes<T>{})
                 : exec.transform_reduce(m, none, measure, CombineExtremes<T>{});
  dist::HaloLimit l;
  l.max_v2 = double(e.max_v2);
  l.max_a2 = double(e.max_a2);
  return l;
}

}  // namespace ejecta

namespace ejecta::dist {

// View: the solver's particle view (ParticleView of the liquid, SolidView of the solid); it has the
// positions x, and halo_limit(exec, view, rows) measures the model's step limit.
template <class T, int D, class Exec, class View = ParticleView<T, D>>
class StoreHaloRows final : public HaloRows {
 public:
  // pv and dt are the solver's (read at each call: a field added later, e.g. XSPH, is seen).
  StoreHaloRows(Exec& exec, ParticleStore<Exec>& store, const View& pv, T& dt)
      : exec_(exec), store_(store), pv_(pv), dt_(dt) {}

  void set_plan(const HaloPlan& plan) override {
    const std::size_t m = store_.size();
    if (plan.ids.size() != m) throw std::logic_error("halo plan: " + std::to_string(plan.ids.size()) +
                                                     " ids for a store of " + std::to_string(m) + " rows");
    m_ = m;
    send_start_ = plan.send_start;
    recv_start_ = plan.recv_start;
    keys_.resize(exec_, m);
    keys_alt_.resize(exec_, m);
    rows_.resize(exec_, m);
    rows_alt_.resize(exec_, m);
    slot_.resize(exec_, m);
    pos_.resize(exec_, m);
    anchor_.resize(exec_, m);
    send_.resize(exec_, plan.send.size());
    recv_.resize(exec_, plan.recv.size());
    if (!plan.send.empty()) ejecta::upload(exec_, send_.device(), plan.send.data(), plan.send.size());
    if (!plan.recv.empty()) ejecta::upload(exec_, recv_.device(), plan.recv.data(), plan.recv.size());
    // Without flags (a plan of an older caller) every row counts as owned: owned_only then measures all.
    std::vector<uint8_t> owned = plan.owned;
    owned.resize(m, 1);
    owned_.resize(exec_, m);
    ejecta::upload(exec_, owned_.device(), owned.data(), m);
    layout(fields());
    // The split's classes (halo_rows.h, set_split): 1 an owned row in some send list, 2 another owned row.
    std::vector<uint8_t> cls(m, 0);
    for (std::size_t k = 0; k < m; ++k) cls[k] = owned[k] ? 2 : 0;
    for (uint32_t k : plan.send) cls[k] = 1;
    n_boundary_ = n_interior_ = 0;
    for (uint8_t c : cls) (c == 1 ? n_boundary_ : n_interior_) += c != 0;
    cls_.resize(exec_, m);
    ejecta::upload(exec_, cls_.device(), cls.data(), m);
    flag_.resize(exec_, m);
    scan_.resize(exec_, m + 1);
    boundary_.resize(exec_, std::max<std::size_t>(n_boundary_, 1));
    interior_.resize(exec_, std::max<std::size_t>(n_interior_, 1));
    located_ = false;
    locate();
    exec_.for_each(m_, AnchorHaloRows<T, D>{pv_.x, pos_.device(), anchor_.device()});
    exec_.synchronize();
  }

  const std::vector<std::size_t>& send_offsets() const override { return send_off_; }
  const std::vector<std::size_t>& recv_offsets() const override { return recv_off_; }

  void pack() override {
    if (!located_) locate();  // split_rows found this step's rows already
    located_ = false;
    const HaloFields f = fields();
    if (f.count != count_ || row_bytes(f) != row_bytes_) layout(f);  // a field added live (XSPH switched on)
    for (std::size_t p = 0; p + 1 < send_start_.size(); ++p) {
      const std::size_t rows = send_start_[p + 1] - send_start_[p];
      if (rows == 0) continue;
      exec_.for_each(rows, PackHaloRows{f, slot_.device(), at(send_, send_start_[p]),
                                        rows, send_buf_.data() + send_off_[p]});
    }
    exec_.synchronize();
  }

  void unpack() override {
    const HaloFields f = fields();
    for (std::size_t p = 0; p + 1 < recv_start_.size(); ++p) {
      const std::size_t rows = recv_start_[p + 1] - recv_start_[p];
      if (rows == 0) continue;
      exec_.for_each(rows, UnpackHaloRows{f, slot_.device(), at(recv_, recv_start_[p]), rows,
                                          recv_buf_.data() + recv_off_[p]});
    }
  }

  unsigned char* send_buffer() override { return send_buf_.data(); }
  unsigned char* recv_buffer() override { return recv_buf_.data(); }
  bool device_memory() const override { return Exec::kBackend == Backend::Cuda; }
  void download_send(unsigned char* host) override {
    if (send_off_.back() > 0) exec_.download(host, send_buf_.data(), send_off_.back());
  }
  void upload_recv(const unsigned char* host) override {
    if (recv_off_.back() > 0) exec_.upload(recv_buf_.data(), host, recv_off_.back());
  }

  HaloLimit limit(bool owned_only) const override { return halo_limit(exec_, pv_, m_, mask(owned_only)); }

  double max_moved2(bool owned_only) const override {
    const MovedHaloRows<T, D> moved{pv_.x, pos_.device(), anchor_.device()};
    if (owned_only)
      return exec_.transform_reduce(m_, 0.0, OwnedHaloRows<MovedHaloRows<T, D>, double>{moved, 0.0, pos_.device(),
                                                                                         owned_.device()},
                                    MaxDouble{});
    return exec_.transform_reduce(m_, 0.0, moved, MaxDouble{});
  }

  void set_step_size(double dt) override { dt_ = T(dt); }

  void set_split(RowSplit* split) override { split_ = split; }
  RowSplit* row_split() const { return split_; }
  void split_rows(const uint32_t*& boundary, std::size_t& n_boundary, const uint32_t*& interior,
                  std::size_t& n_interior) override {
    locate();
    located_ = true;
    exec_.for_each(m_, ClassHaloRows{pos_.device(), cls_.device(), flag_.device()});
    exec_.exclusive_scan(flag_.data(), scan_.data(), m_);
    exec_.for_each(m_, CompactHaloRows{pos_.device(), cls_.device(), scan_.device(), boundary_.device(),
                                       interior_.device()});
    boundary = boundary_.data();
    interior = interior_.data();
    n_boundary = n_boundary_;
    n_interior = n_interior_;
  }
  std::size_t boundary_count() const override { return n_boundary_; }
  std::size_t interior_count() const override { return n_interior_; }

 private:
  HaloMask mask(bool owned_only) const {
    HaloMask k{pos_.device(), DevicePtr<const uint8_t>{}};
    if (owned_only) k.owned = owned_.device();
    return k;
  }
  static std::size_t row_bytes(const HaloFields& f) {
    std::size_t b = 0;
    for (int q = 0; q < f.count; ++q) b += f.elem[q];
    return b;
  }
  // The messages' offsets and the buffers for these fields (every rank has the same fields).
  void layout(const HaloFields& f) {
    auto offsets = [&](const std::vector<std::size_t>& start, std::vector<std::size_t>& off) {
      off.assign(start.size(), 0);
      for (std::size_t p = 0; p + 1 < start.size(); ++p) off[p + 1] = off[p] + message_bytes(f, start[p + 1] - start[p]);
    };
    offsets(send_start_, send_off_);
    offsets(recv_start_, recv_off_);
    send_buf_.resize(exec_, send_off_.back());
    recv_buf_.resize(exec_, recv_off_.back());
    count_ = f.count;
    row_bytes_ = row_bytes(f);
  }
  static std::size_t message_bytes(const HaloFields& f, std::size_t rows) {
    std::size_t b = 0;
    for (int q = 0; q < f.count; ++q) b += halo_block(rows, f.elem[q]);
    return b;
  }
  static DevicePtr<const uint32_t> at(const DeviceArray<uint32_t, Exec>& a, std::size_t k) {
    return DevicePtr<const uint32_t>::adopt(a.data() + k);
  }

  // Every field of the store, by name: the same order on every rank, whatever order each registry
  // has (a field added live comes last in one store and in its place in a store built after).
  HaloFields fields() const {
    HaloFields f{};
    std::vector<FieldInfo> infos = store_.fields();
    std::sort(infos.begin(), infos.end(), [](const FieldInfo& a, const FieldInfo& b) { return a.name < b.name; });
    for (const FieldInfo& info : infos) {
      if (f.count == kMaxHaloFields) throw std::logic_error("halo: more than kMaxHaloFields particle fields");
      f.data[f.count] = static_cast<unsigned char*>(const_cast<void*>(store_.raw_data(info.name)));
      f.elem[f.count] = uint32_t(std::size_t(info.components) * scalar_bytes(info.scalar));
      ++f.count;
    }
    return f;
  }

  // The store's rows in id order (a radix sort of (id, row), linear in the rows; the solver re-sorts
  // its rows every step): slot_ and pos_ (halo_functors.h).
  void locate() {
    const auto id = DevicePtr<const uint32_t>::adopt(static_cast<const uint32_t*>(store_.raw_data("id")));
    exec_.for_each(m_, KeyHaloRows{id, keys_.device(), rows_.device()});
    exec_.sort_pairs64(keys_.ptr(), rows_.ptr(), keys_alt_.ptr(), rows_alt_.ptr(), m_);
    exec_.for_each(m_, SlotHaloRows{rows_.device(), slot_.device(), pos_.device()});
  }

  Exec& exec_;
  ParticleStore<Exec>& store_;
  const View& pv_;
  T& dt_;
  std::size_t m_ = 0;
  int count_ = 0;               // the fields of the layout
  std::size_t row_bytes_ = 0;
  std::vector<std::size_t> send_start_{0}, recv_start_{0}, send_off_{0}, recv_off_{0};
  DeviceArray<uint64_t, Exec> keys_, keys_alt_;
  DeviceArray<uint32_t, Exec> rows_, rows_alt_, slot_, pos_, send_, recv_;
  DeviceArray<Vec<T, D>, Exec> anchor_;
  DeviceArray<uint8_t, Exec> owned_;  // by plan position
  DeviceArray<unsigned char, Exec> send_buf_, recv_buf_;
  // The pair pass split (set_split): class by plan position, the scan's counters, the two row lists.
  RowSplit* split_ = nullptr;
  bool located_ = false;  // split_rows located this step's rows (pack() reuses them)
  std::size_t n_boundary_ = 0, n_interior_ = 0;
  DeviceArray<uint8_t, Exec> cls_;
  DeviceArray<uint64_t, Exec> flag_, scan_;
  DeviceArray<uint32_t, Exec> boundary_, interior_;
};

}  // namespace ejecta::dist
