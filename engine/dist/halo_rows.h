#pragma once
// The packed halo of a distributed run (issue 19; docs/architecture.md, "Distributed runs"): the rows
// that other ranks hold as ghosts, gathered from the local solver's particle store into one contiguous
// buffer per step by a functor of the execution layer (device memory on the CUDA backend, host memory
// on the CPU), and the received rows scattered back the same way, so that no other row and no whole
// field leaves the store. This header has no MPI and no CUDA types: the solver implements it
// (dist/store_halo_rows.h) and the distributed run moves its buffers.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ejecta {
class RowSplit;  // solver/row_subset_pass.h
}

namespace ejecta::dist {

// The exchange plan of one rebuild. `ids` are the global ids of every local row (owned and ghosts),
// sorted; a row is named by its position in `ids`, which does not change until the next rebuild
// (the solver re-sorts its rows every step; the rows are found again by id each exchange).
struct HaloPlan {
  std::vector<uint32_t> ids;
  std::vector<uint32_t> send, recv;                 // positions in ids, peers concatenated
  std::vector<std::size_t> send_start, recv_start;  // per peer p: [start[p], start[p + 1]), ranks + 1 entries
  std::vector<uint8_t> owned;                       // by position in ids: 1 for a row this rank owns
};

// The inputs of the model's step-size limit over every local row after unpack() (each a copy of its
// owner's row, so the minimum over the ranks is the single-process one): the liquid's largest squared
// fluid speed and acceleration (integrators/step_monitor.h's MeasureExtremes), the solid's smallest
// h / v_sig and h / |a| (physics/solid_model.h's MeasureSolidExtremes), in the solver's precision.
struct HaloLimit {
  double max_v2 = 0, max_a2 = 0;
  double min_h_vsig = std::numeric_limits<double>::max(), min_h_a = std::numeric_limits<double>::max();
};

class HaloRows {
 public:
  virtual ~HaloRows() = default;
  // Installs the plan after a rebuild (the store holds exactly the plan's rows) and takes the
  // positions now as the anchors of max_moved2.
  virtual void set_plan(const HaloPlan& plan) = 0;
  // Byte offsets of each peer's message in the send and receive buffers (ranks + 1 entries). A message
  // holds its rows field after field, each field's block padded to 8 bytes.
  virtual const std::vector<std::size_t>& send_offsets() const = 0;
  virtual const std::vector<std::size_t>& recv_offsets() const = 0;
  // Finds the rows in the store's current order and gathers the send rows (every field) into the send
  // buffer; the device work is finished on return.
  virtual void pack() = 0;
  // Scatters the receive buffer into the ghost rows (every field), after pack() of the same step.
  virtual void unpack() = 0;
  // The buffers (device memory on the CUDA backend, see device_memory()).
  virtual unsigned char* send_buffer() = 0;
  virtual unsigned char* recv_buffer() = 0;
  virtual bool device_memory() const = 0;
  // Host staging when MPI cannot take device memory: the packed send buffer to `host`, `host` into
  // the receive buffer (the packed bytes only).
  virtual void download_send(unsigned char* host) = 0;
  virtual void upload_recv(const unsigned char* host) = 0;
  // Over every local row after unpack(), or over the owned rows only (after pack(), before or after
  // unpack(): the same extremes over the ranks, see OwnedHaloRows): the step-size limit's inputs
  // (HaloLimit), and the largest squared distance a row has moved from its anchor (the position at set_plan).
  virtual HaloLimit limit(bool owned_only) const = 0;
  virtual double max_moved2(bool owned_only) const = 0;
  // The step size the next step takes (the minimum over the ranks).
  virtual void set_step_size(double dt) = 0;

  // dist.overlap = interior: the solver's last pair pass split around the exchange (solver/
  // row_subset_pass.h). set_split installs who runs the exchange (null: none); split_rows, after the
  // sort, finds this step's rows (pack() then reuses them) and lists the store rows of the owned rows
  // other ranks hold as ghosts (the boundary, computed first and sent) and of the other owned rows
  // (the interior, computed while the messages travel), each in store order. The ghosts' own rows
  // are in neither: they come whole from their owners. Their counts are fixed by the plan.
  virtual void set_split(RowSplit* split) = 0;
  virtual void split_rows(const uint32_t*& boundary, std::size_t& n_boundary, const uint32_t*& interior,
                          std::size_t& n_interior) = 0;
  virtual std::size_t boundary_count() const = 0;
  virtual std::size_t interior_count() const = 0;
};

// A solver whose store the distributed run can pack (the store solver, solver/store_solver.h: the liquid
// alone, solver/uniform_liquid.h, or solids alone).
class HaloRowsProvider {
 public:
  virtual HaloRows& halo_rows() = 0;

 protected:
  ~HaloRowsProvider() = default;
};

}  // namespace ejecta::dist
