#pragma once
// Domain decomposition by contiguous ranges of the Morton curve (Warren & Salmon 1993's key order, as
// milupHPC and SPH-EXA do): space is cut into key cells (the halo depth over `reach`), each cell
// has the Morton code of its coordinates (neighbors/morton.h), and rank r owns the cells with
// split[r] <= key < split[r + 1]. A cell belongs to exactly one rank, so every particle of a cell
// does too, and the ranks that need a particle as a ghost are the owners of the cells within the halo
// depth of its cell (no search over other ranks' particles). The splitters balance a per-particle work weight
// (balance_splitters) by bisection on the key, one Allreduce per bisection step, no gathering.
#include <cstdint>
#include <functional>
#include <vector>

namespace ejecta::dist {

struct KeyGeometry {
  int dim = 2;
  double origin[3] = {0, 0, 0};  // the lower corner of cell (0, 0, 0)
  double cell = 1;               // key cell size (m): the halo depth over `reach`
  int reach = 2;                 // cells each way that the halo spans (finer cells: finer balance)
  // Bits per axis: 21 in 3D, 31 in 2D and 1D; coordinates are clamped to [0, 2^bits - 1].
  int bits() const { return dim == 3 ? 21 : 31; }
  uint64_t key_end() const { return uint64_t(1) << (bits() * dim); }  // one past the largest key
  // Coarse cell of a point (clamped).
  void cell_of(const double* x, int64_t c[3]) const;
  // The Morton key of a cell; false when it lies outside the key space.
  bool key_of(const int64_t c[3], uint64_t& key) const;
  uint64_t key(const double* x) const;
};

struct Decomposition {
  std::vector<uint64_t> split;  // ranks + 1 keys: split[0] = 0, split[ranks] = key_end
  int ranks() const { return int(split.size()) - 1; }
  int owner(uint64_t key) const;
  // The ranks other than `owner` that own one of the (2 reach + 1)^D cells around the cell of x (the
  // cells within the halo depth), each once, into out (at most ranks - 1); returns their number.
  int ghost_ranks(const KeyGeometry& g, const double* x, int owner, int* out) const;
};

// Splitters that give each of `ranks` ranks about the same total weight: the first key k_s with
// sum(weight of keys < k_s) >= s W / ranks, found by bisection over the key space. `keys` and `weights`
// are this rank's particles; sum_all(v, n) sums n doubles over every rank (MPI_Allreduce; identity in
// one process). Every rank gets the same splitters.
std::vector<uint64_t> balance_splitters(const std::vector<uint64_t>& keys, const std::vector<double>& weights,
                                        int ranks, uint64_t key_end,
                                        const std::function<void(double*, int)>& sum_all);

// max / mean - 1 of the ranks' total weights (0 for a perfect balance).
double imbalance(const std::vector<double>& work);

}  // namespace ejecta::dist
