#pragma once
// The fluid's force on a body's walls, for the load instruments [force.N] (probes/probe_layout.h): the
// reaction of the liquid's own fluid-wall pair terms. The force pass (forces_wcsph.h) gives fluid
// particle i the acceleration a_iw from each wall particle w, the pressure term (Monaghan's symmetric
// form, or Zhang, Hu & Adams's wall-normal Riemann pressure), the artificial viscosity against walls and
// the wall law's shear stress; each is a pair force m_i a_iw that the wall feels with the opposite sign
// (Newton's third law; the pressure and viscous terms are antisymmetric in i and w, Monaghan 1992,
// ARA&A 30, 543, sec. 3). The load on the walls inside a box B is then
//    F_B = -sum_i m_i sum_{w in B} a_iw,
// the measurement DualSPHysics makes of a body's force (the fluid's force on its boundary particles).
// Summed in a still tank it is the weight of the water over the floor and rho g H^2 / 2 (2D, per unit
// depth) on a side wall (tests/test_probes.cpp, Probes.LoadsOfAStillTank*).
//
// One pass per load at a sample: lane i computes fluid particle i's share (zero for walls and for
// particles farther than a support from the box), through the force functor's own begin / pair, so
// the terms are those of the step, in the same order; PartLoads and PartSums then add the shares in a
// fixed order (probes/probe_sample.h; a sum that does not depend on the thread schedule). Computed only
// at the samples where a load is due (probes/probe_observer.cpp).
#include "physics/forces_wcsph.h"

namespace ejecta {

template <class T, int D>
struct FluidWallLoad {
  Forces_WCSPH_Monaghan1992<T, D, false, WcsphArrays<T, D>> f;
  Vec<T, D> lo, hi;  // the box of the walls
  Vec<T, D>* share;  // per particle: its force on the box's walls

  EJ_INLINE bool inside(const Vec<T, D>& x, T pad) const {
    bool in = true;
    for (int d = 0; d < D; ++d) in = in && x[d] >= lo[d] - pad && x[d] <= hi[d] + pad;
    return in;
  }

  EJ_INLINE void operator()(std::size_t i) const {
    Vec<T, D> load = Vec<T, D>::zero();
    const ParticleView<T, D>& pv = f.pv;
    if (pv.kind[i] == kFluid && inside(pv.x[i], f.model.kernel.support())) {
      auto s = f.begin(i);
      f.grid.for_each_candidate(s.xi, [&](uint32_t j) {
        if (pv.kind[j] == kFluid || !inside(pv.x[j], T(0))) return;
        f.pair(s, false, pv.x[j], [&] { return f.nb.rest(pv, j, {pv.x[j]}); });
      });
      load = s.acc * (-pv.m[i]);
    }
    share[i] = load;
  }
};

}  // namespace ejecta
