#pragma once
// The phases of one self-gravity evaluation (SelfGravity::accumulate), in seconds, summed over the
// evaluations while phase timing is on (the benchmark): the bounding box, Morton keys, key sort and
// gather; the tree levels; the multipoles and group boxes; the walk. Timed with the device waited for
// at each boundary, so only the benchmark path pays for it.
namespace ejecta {

struct GravityPhaseTimes {
  double keys = 0, build = 0, moments = 0, walk = 0;
  double total() const { return keys + build + moments + walk; }
};

}  // namespace ejecta
