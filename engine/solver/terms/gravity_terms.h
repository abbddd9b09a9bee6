#pragma once
// Self-gravity (gravity.self = on; model gravity, added to the gas's or the solid's recipe):
// gravity/self_gravity.h. Registered by register_gravity_terms.
#include "solver/term_registry.h"

namespace ejecta {

// The Barnes & Hut (1986, Nature 324, 446) octree, rebuilt each evaluation, with a spline-softened near
// field (gravity/self_gravity.h, multipole.h): adds G a to the acceleration of the pair sums and writes
// the potential. The context's `gv` is the view it reads (x, m, h) and adds to (a).
struct Term_SelfGravity_BarnesHut1986 {
  static constexpr unsigned needs = kTermNeedsSelfGravity;
  static TermInfo info() {
    return {"self_gravity_barnes_hut1986", "gravity", TermStage::LongRange,
            "Barnes & Hut 1986 octree, rebuilt each evaluation, added to the pair forces (gravity/self_gravity.h)",
            {"position", "mass", "smoothing_length", "acceleration"},
            {"acceleration", "gravitational_potential"},
            {"gravity.self", "gravity.G", "gravity.theta", "gravity.softening", "gravity.walk", "gravity.group",
             "gravity.leaf_size", "gravity.warp_eval", "gravity.warp_targets", "gravity.warp_groups",
             "gravity.build", "gravity.warp_nodes"}};
  }
  template <class C>
  static std::function<void()> bind(C& c) {
    return [&c] {
      c.gravity->accumulate(c.gv.x.get(), c.gv.m.get(), c.gv.h.get(), c.gv.a.get(), c.phi,
                            c.phase_timing ? &c.times.gravity_phases : nullptr);
    };
  }
};

template <class Ctx>
void register_gravity_terms(TermRegistry<Ctx>& r) {
  r.template add<Term_SelfGravity_BarnesHut1986>();
}

}  // namespace ejecta
