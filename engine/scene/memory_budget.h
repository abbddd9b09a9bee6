#pragma once
// Does a scene fit in memory? Checked when its builder knows the particle count and before it
// allocates anything, so that a scene too large for the machine is refused at once with what to
// change (exit 2), not by std::bad_alloc half a minute later. The bytes per particle come from the
// solver's own accounting (simulation.cpp measures them on a coarse copy of the scene).
#include "scene/scene_size.h"

#include <string>

namespace ejecta {

// Host memory available now: MemAvailable of /proc/meminfo (sysinfo's free RAM where there is no
// /proc), at most EJECTA_HOST_MEMORY_LIMIT bytes when that is set (tests fence the host with it).
double host_memory_available();

// Throws ParamError at the spacing's file:line, e.g.
//   scenes/x.ini:9: 1.2e9 particles need 250 GB of host memory, 120 GB available; raise particles.dp to
//   0.0013 (now 0.001; the count scales as dp^-3)
// when n * host_per_particle exceeds the host's available memory, or n * device_per_particle the
// device's free memory (device_free_bytes; both 0 on the CPU backend). The spacing suggested is
// spacing_for(n_fit), n_fit the count that leaves a tenth of the memory free; without spacing_for, the
// dp^-dim scaling of the count.
void check_memory_fits(const ParamSet& params, const SceneSize& size, double host_per_particle,
                       double device_per_particle, double device_free_bytes,
                       const std::function<double(double)>& spacing_for = {});

}  // namespace ejecta
