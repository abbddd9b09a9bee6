#pragma once
// The solid's step-limit inputs for the packed halo of a distributed run (dist/store_halo_rows.h):
// MeasureSolidExtremes (physics/solid_model.h) over every local row after the exchange, the same
// reduction StoreSolver::evaluate() makes for solids alone, so the minimum over the ranks gives the single-process dt
// (its CFL on h / v_sig and force criterion on h / |a|; both fields are unchanged by the closing kick).
// In namespace ejecta: found by argument-dependent lookup on SolidView.
#include "dist/halo_functors.h"
#include "dist/halo_rows.h"
#include "physics/solid_model.h"

#include <cstddef>

namespace ejecta {

template <class T, int D, class Exec>
dist::HaloLimit halo_limit(Exec& exec, const SolidView<T, D>& pv, std::size_t m, const dist::HaloMask& mask) {
  const SolidExtremes<T> none = MeasureSolidExtremes<T, D>::none();
  const MeasureSolidExtremes<T, D> measure{pv};
  const SolidExtremes<T> e =
      mask.owned ? exec.transform_reduce(m, none, dist::OwnedHaloRows<MeasureSolidExtremes<T, D>, SolidExtremes<T>>{
                                                      measure, none, mask.pos, mask.owned},
                                         CombineSolidExtremes<T>{})
                 : exec.transform_reduce(m, none, measure, CombineSolidExtremes<T>{});
  dist::HaloLimit l;
  l.max_v2 = double(e.max_v2);
  l.min_h_vsig = double(e.min_h_vsig);
  l.min_h_a = double(e.min_h_a);
  return l;
}

}  // namespace ejecta
