#pragma once
// What every ParticleStore-based solver reports through the facade in the same way: the host copy
// of the common fields (Simulation::download) and the Diagnostics row built from the summed
// quantities (Simulation::diagnostics).
#include "physics/diagnostic_sums.h"
#include "simulation.h"

#include <cmath>
#include <cstdint>

namespace ejecta {

template <class Store>
HostParticles download_common_fields(const Store& store, int dim, std::size_t n) {
  HostParticles h;
  h.dim = dim;
  h.n = n;
  h.position = store.download("position");
  h.velocity = store.download("velocity");
  h.density = store.download("density");
  h.pressure = store.download("pressure");
  h.mass = store.download("mass");
  for (double k : store.download("kind")) h.kind.push_back(static_cast<uint8_t>(k));
  for (double id : store.download("id")) h.id.push_back(static_cast<uint32_t>(id));
  return h;
}

// `max_density_error` is the model's own measure (0 where there is no rest density, as for a gas).
inline Diagnostics diagnostics_from_sums(const DiagnosticSums& s, int dim, double time, long step, double dt,
                                         std::size_t n, double max_density_error) {
  Diagnostics dg;
  dg.time = time;
  dg.step = step;
  dg.dt = dt;
  dg.particles = n;
  dg.mass = s.mass;
  dg.kinetic = s.kinetic;
  dg.potential = s.potential + s.self_potential;
  dg.self_gravity = s.self_potential;
  dg.internal = s.internal;
  dg.total = s.kinetic + dg.potential + s.internal;
  for (int d = 0; d < 3; ++d) {
    dg.momentum[d] = s.momentum[d];
    // In 2D the only component is the one about z; 1D has none.
    dg.angular_momentum[d] = (dim == 3 || (dim == 2 && d == 2)) ? s.angular[d] : 0.0;
  }
  dg.max_speed = std::sqrt(s.max_v2);
  dg.max_density_error = max_density_error;
  return dg;
}

}  // namespace ejecta
