#pragma once
// One evaluation's terms with its last pair pass run over two subsets of rows, with work in between:
// a distributed run's halo exchange overlapped with the interior pair pass (issue 19; docs/
// architecture.md, "Distributed runs", dist.overlap = interior). The rows of the pass are split by
// whoever installs a RowSplit (dist/store_halo_rows.h): the first part (the rows other ranks hold as
// ghosts), then after_first() (pack them and post the messages), the second part (the other owned
// rows, while the messages travel), then after_second() (wait and unpack the ghosts), then the terms
// after the pass. A term's pass runs over a subset through the execution layer's row selection
// (CpuExec/CudaExec::select_rows): the same functor, called for the listed rows instead of [0, n), so
// each row's result is the same bit for bit as in one pass over every row (the pair passes split here
// only gather into their own row i). One source for both backends: the row lists are device memory
// on the CUDA backend.
#include "solver/term_registry.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace ejecta {

class RowSplit {
 public:
  // Whether the next evaluation is split (a distributed step; not the set-up or a restore).
  virtual bool active() const = 0;
  // After the terms before the pass (the rows are sorted for this evaluation): the rows of the first
  // part and of the second (memory of the execution layer, store rows of the current order).
  virtual void split_rows(const uint32_t*& first, std::size_t& n_first, const uint32_t*& second,
                          std::size_t& n_second) = 0;
  virtual void after_first() = 0;
  virtual void after_second() = 0;
  // Between the second part's pieces (split_pieces() at most): e.g. let MPI move the messages on.
  virtual void progress() {}

 protected:
  ~RowSplit() = default;
};

// The split of a solver's packed halo, if a distributed run installed one (null otherwise).
template <class Halo>
RowSplit* row_split_of(const Halo& halo) {
  return halo ? halo->row_split() : nullptr;
}

// Runs `terms` with the term named `pass` split by `split`; false (nothing run) when split is null or
// inactive: the caller then runs the terms as usual. Without the term in the list every term runs
// first and the split's hooks follow with empty parts (no overlap, the same exchange). A pass whose
// loop takes no row selection (e.g. the liquid's cell-block kernel) runs whole in the first part and
// is not run again.
// The second part runs in at most kSplitPieces pieces of at least kSplitPieceRows rows
// (EJECTA_SPLIT_PIECES=1..64 overrides the 8, to measure).
constexpr std::size_t kSplitPieces = 8, kSplitPieceRows = 256;
inline std::size_t split_pieces() {
  static const std::size_t p = [] {
    const char* e = std::getenv("EJECTA_SPLIT_PIECES");
    const long v = e ? std::atol(e) : long(kSplitPieces);
    return std::size_t(v < 1 ? 1 : v > 64 ? 64 : v);
  }();
  return p;
}

template <class Exec>
bool run_terms_split(Exec& exec, const std::vector<Term>& terms, RowSplit* split, const char* pass) {
  if (!split || !split->active()) return false;
  std::size_t k = 0;
  while (k < terms.size() && terms[k].info.name != pass) ++k;
  for (std::size_t j = 0; j < k; ++j) terms[j].run();
  const uint32_t *first = nullptr, *second = nullptr;
  std::size_t n_first = 0, n_second = 0;
  split->split_rows(first, n_first, second, n_second);
  struct Selection {  // cleared on every way out
    Exec& e;
    ~Selection() { e.clear_rows(); }
  } guard{exec};
  bool whole = false;
  if (k < terms.size()) {
    exec.select_rows(first, n_first);
    terms[k].run();
    whole = exec.selected_runs() == 0;
    exec.clear_rows();
  }
  split->after_first();
  if (k < terms.size() && !whole) {
    // In pieces, with progress() between them (MPI moves a large message only inside its calls).
    const std::size_t pieces = std::min(split_pieces(), std::max<std::size_t>(1, n_second / kSplitPieceRows));
    for (std::size_t p = 0; p < pieces; ++p) {
      const std::size_t lo = n_second * p / pieces, hi = n_second * (p + 1) / pieces;
      exec.select_rows(second + lo, hi - lo);
      terms[k].run();
      exec.clear_rows();
      split->progress();
    }
  }
  split->after_second();
  for (std::size_t j = k + 1; j < terms.size(); ++j) terms[j].run();
  return true;
}

}  // namespace ejecta
